"""libcu++'s numeric_limits and complex of CUDA's half, bfloat16 and fp8 types (kernelport/backends/
hip_libcxx.py LIBCXX_ARGUMENTS).  Stop 65's review: `cuda::std::numeric_limits<__half>::max()` became
`std::numeric_limits<__half>::max()`, which hipcc compiles (ROCm 5.2 specializes no std::numeric_limits for
__half or hip_bfloat16) and whose primary template gives 0 where libcu++ gives 65504: a port that computes
another value.  Now refused (KP209) at the template, directly and through `namespace cxx = cuda::std;`.
Look-alikes stay ported: numeric_limits of float and of a template's T, a project type named `half_t`."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

HEAD = """#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/std/limits>
namespace cxx = cuda::std;
struct half_t { float v; };
template <class T> __device__ T top() { return cuda::std::numeric_limits<T>::max(); }
"""


def _port(body: str):
    return translate(SourceFile.from_text(HEAD + body, "t.cu"), "hip")


def _errors(port):
    return [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]


def test_extended_floats_are_refused_at_their_line():
    for body in ("__global__ void k(__half* o) { o[0] = cuda::std::numeric_limits<__half>::max(); }\n",
                 "__global__ void k(__nv_bfloat16* o) { o[0] = cuda::std::numeric_limits<__nv_bfloat16>::lowest(); }\n",
                 "__global__ void k(__half* o) { o[0] = cxx::numeric_limits<const half>::infinity(); }\n",
                 "__global__ void k(float* o) { cuda::std::complex<__half> z; o[0] = 0.f; (void)z; }\n"):
        port, _ = _port(body)
        assert ("KP209", 7) in _errors(port), (body, [d.format() for d in port.diagnostics])


def test_look_alikes_keep_the_c_library_s_names():
    port, text = _port("__global__ void k(float* o, half_t* h) {\n"
                       "  o[0] = cuda::std::numeric_limits<float>::max() + cxx::numeric_limits<int>::max();\n"
                       "  o[1] = top<float>();\n"
                       "  (void)cuda::std::numeric_limits<half_t>::is_specialized; }\n")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "std::numeric_limits<float>::max() + cxx::numeric_limits<int>::max()" in text, text
    assert "namespace cxx = std;" in text and "std::numeric_limits<T>::max()" in text, text
    assert "cuda::std" not in text.split("namespace cxx")[1], text


def test_std_numeric_limits_of_half_is_kept_as_nvcc_reads_it(tmp_path):
    """Stop 66 (stop 65's note): `std::numeric_limits<__half>` (the C++ library's, not libcu++'s) has no
    specialization under nvcc either: measured with nvcc 13 -ptx, `lowest()` and `infinity()` store 0 (the primary
    template's `T()`), as hipcc's ROCm 5.2 headers give (clang's IR: `0xH0000`).  The port keeps it as written
    (the same value on both) and compiles; a template's `std::numeric_limits<T>` with T = __half alike."""
    from conftest import hip_compiles
    code = ("#include <cuda_fp16.h>\n#include <limits>\n"
            "template <typename T> __device__ T lowest() { return std::numeric_limits<T>::lowest(); }\n"
            "__global__ void k(const __half* x, __half* out) {\n"
            "    __half m = std::numeric_limits<__half>::lowest();\n"
            "    out[threadIdx.x] = __hadd(__hadd(m, x[threadIdx.x]), lowest<__half>());\n"
            "    out[0] = std::numeric_limits<__half>::infinity();\n}\n")
    port, text = translate(SourceFile.from_text(code, "t.cu"), "hip")
    assert _errors(port) == [], [d.format() for d in port.diagnostics]
    assert "__half m = std::numeric_limits<__half>::lowest();" in text
    assert "out[0] = std::numeric_limits<__half>::infinity();" in text
    hip_compiles(tmp_path, text)
