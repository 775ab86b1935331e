"""CUDA's atomicMin/atomicMax for `long long` (sm_35 on, a signed comparison) have no overload in
ROCm 5.2's amd_hip_atomic.h (int, unsigned, unsigned long, unsigned long long; hipamd has none through
rocm-5.6.1), so a HIP port of DREAMPlace's HPWL kernel, instantiated for `long long int`, failed hipcc
("no matching function for call to 'atomicMax'", heldout41).  The HIP prologue
(templates/hip_prologue.j2) declares the signed overloads for ROCm before 5.7 where the port calls
atomicMin/atomicMax and names `long long`: the same builtin as ROCm's unsigned ones on the signed
type, so gfx90a's atomics are the signed ones (`smax`/`smin`, not `umax`/`umin`, which would order a
negative value above every positive one).  A port without `long long` gets no such block."""
from __future__ import annotations

from conftest import gfx90a_assembly, hip_compiles
from port_support import port_text

MINMAX = """
template <typename T>
__global__ void minmax(const T* x, T* lo, T* hi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMax(hi, x[i]);
        atomicMin(lo, x[i]);
    }
}

template <typename T>
void launch(const T* x, T* lo, T* hi, int n)
{
    minmax<<<(n + 63) / 64, 64>>>(x, lo, hi, n);
}

template void launch<int>(const int*, int*, int*, int);
template void launch<long long int>(const long long int*, long long int*, long long int*, int);
"""


def test_the_long_long_instance_compiles_with_signed_atomics(tmp_path):
    text = port_text(MINMAX, "m.cu")
    assert "long long atomicMax(long long* address, long long val)" in text
    f = hip_compiles(tmp_path, text, "m.hip")
    asm = gfx90a_assembly(f)
    assert "global_atomic_smax_x2" in asm and "global_atomic_smin_x2" in asm, asm[-2000:]
    assert "global_atomic_umax_x2" not in asm and "global_atomic_umin_x2" not in asm


def test_a_port_without_long_long_gets_no_overloads():
    text = port_text(MINMAX.replace("template void launch<long long int>(const long long int*, long long int*, "
                                    "long long int*, int);\n", ""), "m.cu")
    assert "KP_HAVE_SIGNED64_MINMAX" not in text
