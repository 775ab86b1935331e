"""kernelport: port annotated CUDA kernels to HIP and Metal, lint wave-size hazards, verify ports."""
__version__ = "0.1.0"
