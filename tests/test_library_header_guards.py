"""cuRAND's header guards, which code tests to see whether cuRAND came before it (cuda-samples'
helper_cuda.h and test_curandpoisson's cuda_globals.hpp define their curandStatus_t error checks
under `#ifdef CURAND_H_`): the port includes hipRAND's header where the original included cuRAND's,
so the test is of hipRAND's guard. Main kept `CURAND_H_`, which hipRAND never defines: the overload
vanished from the port, and every CHECK_CUDA(curand...) call failed hipcc (held-out set 62's
poisson.cu); where no call needed it the port would silently drop the check.
"""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

CHECKS = """\
#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>
inline void check(cudaError_t e) { if (e != cudaSuccess) printf("cuda %d\\n", (int)e); }
#ifdef CURAND_H_
inline void check(curandStatus_t s) { if (s != CURAND_STATUS_SUCCESS) printf("curand %d\\n", (int)s); }
#endif
#if defined(CURAND_KERNEL_H_) && !defined(MY_CURAND_H_)
__global__ void init(curandState *s) { curand_init(1234, threadIdx.x, 0, &s[threadIdx.x]); }
#endif
int make(unsigned *d, size_t n) {
  curandGenerator_t g;
  check(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT));
  check(curandGeneratePoisson(g, d, n, 4.0));
  check(cudaDeviceSynchronize());
  return 0;
}
"""


def test_curand_guards_are_hiprands(tmp_path):
    port, text = translate(SourceFile.from_text(CHECKS, str(tmp_path / "p.cu")), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#ifdef HIPRAND_H_\n" in text and "#if defined(HIPRAND_KERNEL_H_) && !defined(MY_CURAND_H_)" in text
    require_tool("hipcc")
    out = tmp_path / "p.hip"
    out.write_text(text)
    assert_hip_file_compiles(out, ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


def test_a_look_alike_of_the_guard_is_left_alone(tmp_path):
    """A project's own macro that merely contains the guard's letters is not cuRAND's."""
    src = CHECKS.replace("#ifdef CURAND_H_", "#ifdef MYCURAND_H_").replace("CURAND_KERNEL_H_)", "CURAND_KERNEL_H_X)")
    _, text = translate(SourceFile.from_text(src, str(tmp_path / "q.cu")), "hip")
    assert "#ifdef MYCURAND_H_\n" in text and "defined(CURAND_KERNEL_H_X)" in text
