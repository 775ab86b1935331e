"""Held-out set 60 (parallel primitives): what its first measure showed kernelport refusing or porting wrongly."""
from __future__ import annotations

from conftest import hip_compiles
from kernelport.source import SourceFile
from kernelport.translate import translate

# histogram.cuda's helper header: a `__host__ __device__` function template that launches a kernel and that only
# host code calls (kernelport/device_launches.py): host code in every instance, so the HIP port keeps the launch.
HD_LAUNCH = """\
template <class T> __global__ void fillKernel(T* a, int n, T v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}
template <class T> __host__ __device__ void fillCu(T* a, int n, T v) { fillKernel<<<(n + 255) / 256, 256>>>(a, n, v); }
void run(float* a, int n) { fillCu(a, n, 1.0f); }
"""


def test_a_host_device_template_launching_a_kernel_for_host_callers_ports(tmp_path):
    port, text = translate(SourceFile.from_text(HD_LAUNCH, "h.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert not [d for d in port.diagnostics if d.code == "KP210"]
    assert "fillKernel<<<" in text
    hip_compiles(tmp_path, text)


def test_a_device_caller_of_the_launching_template_stays_refused():
    # the look-alike: a kernel calls fillCu, so an instance's device side launches a kernel (dynamic parallelism)
    called = HD_LAUNCH + "__global__ void k(float* a) { fillCu(a, 4, 2.0f); }\n"
    port, _ = translate(SourceFile.from_text(called, "h.cu"), "hip")
    assert [(d.code, d.severity, d.location.line) for d in port.diagnostics if d.code == "KP210"] == \
        [("KP210", "error", 5)]
    # and a `__device__`-only template (not host code at all) stays refused with no device caller
    device_only = HD_LAUNCH.replace("__host__ __device__ void fillCu", "__device__ void fillCu").replace(
        "void run(float* a, int n) { fillCu(a, n, 1.0f); }\n", "")
    port, _ = translate(SourceFile.from_text(device_only, "h.cu"), "hip")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP210"]

