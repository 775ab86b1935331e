"""Hardware and software facts the plan measures a kernel against: ONE table, each figure with its
public source.  Peaks are the vendors' datasheet figures (vector/SIMT units, not tensor or matrix
cores, dense); memory bandwidth is the datasheet peak of device memory.  Nothing here is derived
from a kernel: the plan's parts combine these with what the kernel uses.
"""
from __future__ import annotations

from dataclasses import dataclass

_NV_CC = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#features-and-technical-specifications"
_ROCM_SPECS = "https://rocm.docs.amd.com/en/latest/reference/gpu-specs.html"
_METAL_LIMITS = "https://developer.apple.com/metal/Metal-Feature-Set-Tables.pdf"


@dataclass(frozen=True)
class GPU:
    """A target GPU: its vendor, architecture and wave width."""
    name: str
    vendor: str
    arch: str  # the target the compiler names (sm_90, gfx942, apple)
    family: str  # the lint target / backend run it belongs to (cuda, hip-cdna, hip-rdna, metal)
    wave: int
    units: int  # SMs / CUs (RDNA: CUs) / GPU cores
    unit_name: str
    shared_default_kb: int  # shared memory a block gets without opting in
    shared_max_kb: int  # the most one block can have (opt-in on NVIDIA)
    fp32_tflops: float | None
    fp64_tflops: float | None
    bandwidth_gbs: float
    sources: tuple[str, ...]
    note: str = ""

    @property
    def balance(self) -> float | None:
        """Machine balance: FP32 flops per byte of device memory at the peaks (the ridge point)."""
        return None if self.fp32_tflops is None else self.fp32_tflops * 1e12 / (self.bandwidth_gbs * 1e9)


GPUS: tuple[GPU, ...] = (
    GPU("NVIDIA H100 SXM", "NVIDIA", "sm_90", "cuda", 32, 132, "SMs", 48, 227, 67.0, 34.0, 3350,
        ("https://www.nvidia.com/en-us/data-center/h100/ (datasheet: FP32 67 TFLOPS, FP64 34 TFLOPS, "
         "3.35 TB/s)", _NV_CC + " (compute capability 9.0: 227 KB shared memory per block opt-in, 48 KB "
         "without cudaFuncSetAttribute)")),
    GPU("NVIDIA H200 SXM", "NVIDIA", "sm_90", "cuda", 32, 132, "SMs", 48, 227, 67.0, 34.0, 4800,
        ("https://www.nvidia.com/en-us/data-center/h200/ (datasheet: FP32 67 TFLOPS, FP64 34 TFLOPS, "
         "4.8 TB/s HBM3e)", _NV_CC + " (compute capability 9.0)")),
    GPU("NVIDIA A100 SXM 80GB", "NVIDIA", "sm_80", "cuda", 32, 108, "SMs", 48, 163, 19.5, 9.7, 2039,
        ("https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
         "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf (FP32 19.5 TFLOPS, FP64 9.7 TFLOPS, 2,039 GB/s)",
         _NV_CC + " (compute capability 8.0: 163 KB shared memory per block opt-in)")),
    GPU("AMD Instinct MI250X", "AMD", "gfx90a", "hip-cdna", 64, 220, "CUs", 64, 64, 47.9, 47.9, 3276.8,
        ("https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html (peak FP32 vector "
         "47.9 TFLOPs (95.7 packed), FP64 vector 47.9 TFLOPs, 3.2 TB/s)", _ROCM_SPECS + " (64 KiB LDS, wave 64)"),
        "two GCDs, each a device of its own to HIP: per-device figures are half"),
    GPU("AMD Instinct MI300X", "AMD", "gfx942", "hip-cdna", 64, 304, "CUs", 64, 64, 163.4, 81.7, 5300,
        ("https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html (peak FP32 vector "
         "163.4 TFLOPs, FP64 vector 81.7 TFLOPs, 5.3 TB/s)", _ROCM_SPECS + " (64 KiB LDS, wave 64)")),
    GPU("AMD Radeon RX 6900 XT", "AMD", "gfx1030", "hip-rdna", 32, 80, "CUs", 64, 64, 23.04, None, 512,
        ("https://www.amd.com/en/products/graphics/amd-radeon-rx-6900-xt (peak single precision "
         "23.04 TFLOPs, 512 GB/s)", _ROCM_SPECS + " (wave 32; 64 KiB LDS per workgroup)"),
        "FP64 is 1/16 rate (no datasheet figure)"),
    GPU("AMD Radeon RX 7900 XTX", "AMD", "gfx1100", "hip-rdna", 32, 96, "CUs", 64, 64, 61.4, None, 960,
        ("https://www.amd.com/en/products/graphics/amd-radeon-rx-7900xtx (peak single precision "
         "61.4 TFLOPs with dual issue, 960 GB/s)", _ROCM_SPECS + " (wave 32; 64 KiB LDS per workgroup)"),
        "the FP32 peak counts dual-issue: SIMT code rarely reaches more than half of it"),
    GPU("Apple M1 Max (32-core GPU)", "Apple", "apple", "metal", 32, 32, "GPU cores", 32, 32, 10.4, None, 400,
        ("https://www.apple.com/newsroom/2021/10/introducing-m1-pro-and-m1-max-the-most-powerful-chips-"
         "apple-has-ever-built/ (400 GB/s; 10.4 TFLOPS FP32 from Apple's 18 Oct 2021 event)",
         _METAL_LIMITS + " (32 KB threadgroup memory; SIMD-group width 32 on Apple GPUs)"),
        "no double on Metal; unified memory shared with the CPU"),
)

# The minimum GPUs a CI must run each backend on: two NVIDIA generations, one CDNA, one RDNA.
CI_HARDWARE = {"cuda": ("sm_80", "sm_90"), "hip-cdna": ("gfx90a",), "hip-rdna": ("gfx1030",), "metal": ("apple",)}


def by_family(family: str) -> tuple[GPU, ...]:
    return tuple(g for g in GPUS if g.family == family)


def by_arch(arch: str) -> tuple[GPU, ...]:
    return tuple(g for g in GPUS if g.arch == arch)


@dataclass(frozen=True)
class Floor:
    """A software version a feature needs: `toolkit` (CUDA, ROCm, MSL) `version`, why, source."""
    key: str
    toolkit: str
    version: str
    why: str
    source: str


_HIP_WARP = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html"
_CUDA_WARP = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#warp-shuffle-functions"
FLOORS: dict[str, Floor] = {f.key: f for f in (
    Floor("sm_80", "CUDA", "11.0", "first toolkit that targets sm_80 (A100)", "https://docs.nvidia.com/cuda/archive/11.0/"),
    Floor("sm_90", "CUDA", "11.8", "first toolkit that targets sm_90 (H100/H200)",
          "https://docs.nvidia.com/cuda/archive/11.8.0/cuda-toolkit-release-notes/"),
    Floor("sync_warp_cuda", "CUDA", "9.0", "`_sync` shuffles, votes and __syncwarp (the mask-less forms are "
          "removed for sm_70+)", _CUDA_WARP),
    Floor("bf16_cuda", "CUDA", "11.0", "__nv_bfloat16 (cuda_bf16.h)", "https://docs.nvidia.com/cuda/cuda-math-api/"),
    Floor("reduce_sync", "CUDA", "11.0", "__reduce_*_sync warp reductions (sm_80+)",
          "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#warp-reduce-functions"),
    Floor("sync_warp_hip", "ROCm", "6.2", "HIP's `_sync` shuffles and votes exist from ROCm 6.2 and take "
          "64-bit masks (the port uses the mask-less forms, which every ROCm has)",
          _HIP_WARP + "; https://github.com/AMD-Ecosystem/llama.cpp/pull/2 (native `_sync` builtins with 64-bit "
          "masks since ROCm 6.2)"),
    Floor("syncwarp_hip", "ROCm", "6.0", "__syncwarp (the port spells it as a wave barrier that every ROCm has)",
          _HIP_WARP),
    Floor("warpsize_constexpr", "ROCm", "7.0", "warpSize is no longer a constant expression: compile-time uses "
          "need KP_WAVE_SIZE", "https://github.com/ROCm/apex/pull/231 (AMD: 'In ROCm 7.0, the warpSize variable is "
          "no longer constexpr')"),
    Floor("hip_gfx942", "ROCm", "6.0", "gfx942 (MI300X) is supported from ROCm 6.0",
          "https://rocm.docs.amd.com/en/latest/compatibility/compatibility-matrix.html"),
)}
