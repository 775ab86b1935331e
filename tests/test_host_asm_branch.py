"""Host assembly in the host branch of `#ifdef __CUDA_ARCH__` (CUDASieve heldout45, launch.cuh's clzll: `__clzll(x)`
on the device pass, x86 `lzcnt` in the `#else`, in a __host__ __device__ function).

nvcc's device pass never compiles that `#else`: its asm is the host's assembly, not PTX.  On main it was KP201
("inline PTX"), and device_pass kept the test as written because inline asm under it counted as NVIDIA-only, so
launch.cu had no HIP port.  Now the test is respelled for hipcc's device pass (`__HIP_DEVICE_COMPILE__`) and the
asm stays host code: the port compiles for gfx90a and gfx1030 and computes clz at wave 32 and 64 on the
emulator.  Look-alikes: PTX on the device branch keeps the test as written (NVIDIA-only code), and asm in the `#else` of an architecture
comparison (`#if __CUDA_ARCH__ >= 800`), which an older NVIDIA device pass compiles, stays KP201."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool
from port_support import port_text, refusal

SRC = """#include <cstdint>
__host__ __device__ static inline int64_t clzll(uint64_t x)
{
  uint64_t res;
#ifdef __CUDA_ARCH__
  res = __clzll(x);
#else
  asm("lzcnt %1, %0" : "=l" (res) : "l" (x));
#endif
  return res;
}

__global__ void k(const unsigned long long *x, long long *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = clzll(x[i]);
}
"""


def _errors(src: str) -> list[str]:
    return [d.code for d in refusal(src, "h.cu", dedent=False)]


def _port() -> str:
    return port_text(SRC, "h.cu", dedent=False)


def test_the_host_branch_asm_is_kept_and_the_test_respelled_for_the_device_pass():
    body = _port()
    assert "#ifdef __HIP_DEVICE_COMPILE__\n  res = __clzll(x);\n#else\n  asm(\"lzcnt %1, %0\"" in body


def test_the_port_compiles_for_gfx90a_and_gfx1030(tmp_path):
    require_tool("hipcc")
    (f := tmp_path / "h.hip").write_text(_port())
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"])


@pytest.mark.parametrize("wave", [32, 64])
def test_the_port_counts_leading_zeros_at_wave(wave):
    x = np.array([1 << (i % 64) for i in range(64)], np.uint64)
    got = run_kernel(_port(), "k", args={"x": x, "out": np.zeros(64, np.int64)}, grid=(2, 1, 1), block=(32, 1, 1),
                     wave=wave, backend="hip").outputs["out"]
    assert got.tolist() == [63 - (i % 64) for i in range(64)]


def test_ptx_on_the_device_branch_keeps_the_test_and_asm_under_an_architecture_comparison_stays_refused():
    device = SRC.replace('asm("lzcnt %1, %0" : "=l" (res) : "l" (x));', "res = 0;").replace(
        "res = __clzll(x);", 'asm("mov.u64 %0, %%globaltimer;" : "=l"(res));')
    port, body = translate(SourceFile.from_text(device, "d.cu"), "hip")
    assert "#ifdef __CUDA_ARCH__\n  asm(" in body and "__HIP_DEVICE_COMPILE__" not in body  # PTX: NVIDIA-only
    older = SRC.replace("#ifdef __CUDA_ARCH__", "#if __CUDA_ARCH__ >= 800")
    assert "KP201" in _errors(older)
