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
    _compiles(tmp_path / "p.hip", text)


def _compiles(out, text):
    require_tool("hipcc")
    out.write_text(text)
    assert_hip_file_compiles(out, ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


def test_a_look_alike_of_the_guard_is_left_alone(tmp_path):
    """A project's own macro that merely contains the guard's letters is not cuRAND's."""
    src = CHECKS.replace("#ifdef CURAND_H_", "#ifdef MYCURAND_H_").replace("CURAND_KERNEL_H_)", "CURAND_KERNEL_H_X)")
    _, text = translate(SourceFile.from_text(src, str(tmp_path / "q.cu")), "hip")
    assert "#ifdef MYCURAND_H_\n" in text and "defined(CURAND_KERNEL_H_X)" in text


# helper_cuda.h's other library tests (cuda-samples Common/helper_cuda.h): each defines its
# _cudaGetErrorEnum overload for the library's status type only where the library came first.
SPARSE = """\
#include <cstdio>
#include <cuda_runtime.h>
#include <cusparse.h>
static const char *err(cudaError_t e) { return cudaGetErrorName(e); }
#ifdef CUSPARSEAPI
static const char *err(cusparseStatus_t s) { return s == CUSPARSE_STATUS_SUCCESS ? "ok" : "cusparse"; }
#endif
#ifdef CUBLAS_API_H_
static const char *err(cublasStatus_t s) { return "cublas"; }
#endif
#ifdef _CUFFT_H_
static const char *err(cufftResult s) { return "cufft"; }
#endif
#ifdef CUSOLVER_COMMON_H_
static const char *err(cusolverStatus_t s) { return "cusolver"; }
#endif
#ifdef NV_NPPIDEFS_H
static const char *err(NppStatus s) { return "npp"; }
#endif
int make() {
  cusparseHandle_t h;
  printf("%s %s\\n", err(cusparseCreate(&h)), err(cudaDeviceSynchronize()));
  return 0;
}
"""


def test_helper_cuda_library_guards_are_the_hip_libraries(tmp_path):
    """Each guard reads as the one its HIP library's header defines (hipsparse.h: _HIPSPARSE_H_), so the
    cuSPARSE overload survives where hipSPARSE was included and the others stay out, as in the original."""
    port, text = translate(SourceFile.from_text(SPARSE, str(tmp_path / "s.cu")), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    for guard in ("_HIPSPARSE_H_", "HIPBLAS_H", "HIPFFT_H_", "HIPSOLVER_H"):
        assert f"#ifdef {guard}\n" in text
    assert "#ifdef NV_NPPIDEFS_H\n" in text  # ROCm 5 has no NPP: left as it was
    _compiles(tmp_path / "s.hip", text)


def test_library_guard_look_alikes_are_left_alone(tmp_path):
    """A project's own macros that contain a guard's letters are not the library's."""
    src = SPARSE.replace("#ifdef CUSPARSEAPI", "#ifdef MY_CUSPARSEAPI").replace("CUBLAS_API_H_", "CUBLAS_API_H_2")
    _, text = translate(SourceFile.from_text(src, str(tmp_path / "t.cu")), "hip")
    assert "#ifdef MY_CUSPARSEAPI\n" in text and "#ifdef CUBLAS_API_H_2\n" in text
