"""libcu++'s `<cuda/std/limits>` and `cuda::std::numeric_limits` on HIP (the API table's header row,
HipBackend.qualified_names, kernelport/library_namespaces.rewrite_qualified).

PFPL's decompressors include <cuda/std/limits> for `cuda::std::numeric_limits<float>::min()`; the
port refused the include (KP209). It is the C++ library's <limits> and `std::numeric_limits`, whose
constexpr members clang's HIP takes as host and device. Other libcu++ headers stay refused.
"""
from __future__ import annotations

import os
import subprocess

from conftest import assert_hip_file_compiles, require_tool
from kernelport.source import SourceFile
from kernelport.translate import translate

LIMITS = """#include <cuda_runtime.h>
#include <cuda/std/limits>
__global__ void k(float* out, const double* eb, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    bool good = (eb[i] >= cuda::std::numeric_limits<double>::min());
    out[i] = good ? cuda::std::numeric_limits<float>::max() : ::cuda::std::numeric_limits<float>::lowest();
    if (i == cuda::std::numeric_limits<int>::max()) out[i] = cuda::std::numeric_limits<float>::infinity();
}
bool host_check(float e) { return e >= cuda::std::numeric_limits<float>::epsilon(); }
"""


def compiles_werror(tmp_path, whole: str) -> None:
    """hipcc -std=c++17 -Werror compiles the port for gfx90a and gfx1030 (one hipcc run for both: its
    host side compiled once, not once an architecture; a failure is hipcc's message for the file)."""
    f = tmp_path / "t.hip"
    f.write_text(whole)
    assert_hip_file_compiles(f, ("gfx90a", "gfx1030"), extra_args=("-std=c++17", "-Werror"))


def test_cuda_std_numeric_limits_is_the_cpp_librarys(tmp_path):
    port, whole = translate(SourceFile.from_text(LIMITS, "t.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "#include <limits>" in whole and "cuda/std" not in whole, whole
    assert "(eb[i] >= std::numeric_limits<double>::min())" in whole, whole
    assert "? std::numeric_limits<float>::max() : ::std::numeric_limits<float>::lowest()" in whole, whole
    assert "cuda::" not in whole, whole
    compiles_werror(tmp_path, whole)


def test_other_libcu_headers_stay_refused_and_own_namespaces_stay():
    port, _ = translate(SourceFile.from_text("#include <cuda_runtime.h>\n#include <cuda/std/atomic>\n"
                                             "__global__ void k(cuda::std::atomic<int>* a) { a->fetch_add(1); }\n",
                                             "t.cu"), "hip")
    assert any(d.code == "KP209" for d in port.diagnostics), port.diagnostics
    src = ("namespace cuda { namespace std { template <class T> struct numeric_limits { static T min() { return 0; } }; } }\n"
           "float f() { return cuda::std::numeric_limits<float>::min(); }\n")
    port, whole = translate(SourceFile.from_text(src, "t.cu"), "hip")
    assert "return cuda::std::numeric_limits<float>::min();" in whole, whole


# gpuPairHMM (heldout28) includes <cuda/std/cstdint> and <cuda/std/array>: the C++ library's too; a
# qualified name inside another's template arguments is respelled as well
CSTDINT_ARRAY = """#include <cuda_runtime.h>
#include <cuda/std/cstdint>
#include <cuda/std/array>
__global__ void k(cuda::std::uint32_t* out, const uint8_t* in, int n)
{
    cuda::std::array<cuda::std::uint32_t, 4> acc{};
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int j = 0; j < 4; ++j) acc[j] = in[4 * i + j];
    out[i] = acc[0] + acc[1] + acc[2] + acc[3] + static_cast<::cuda::std::int64_t>(acc.size());
}
"""


def test_cuda_std_cstdint_and_array_are_the_cpp_librarys(tmp_path):
    port, whole = translate(SourceFile.from_text(CSTDINT_ARRAY, "t.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "#include <cstdint>\n#include <array>\n" in whole and "cuda" not in whole.split("hip_runtime.h>", 1)[1], whole
    assert "    std::array<std::uint32_t, 4> acc{};" in whole and "static_cast<::std::int64_t>" in whole, whole
    compiles_werror(tmp_path, whole)


# pade-laplace (heldout53: its Aberth root finder, residues and fits) includes <cuda/std/complex>,
# <cuda/std/tuple> for cuda::std::complex<double>, conj, exp, norm, polar and pair/tuple: the C++
# library's (clang's HIP compiles std::complex's arithmetic in device code); <cuda/std/span> stays
# refused (std::span needs C++20, which a port cannot tell from here)
COMPLEX = """#include <cuda_runtime.h>
#include <cuda/std/complex>
#include <cuda/std/tuple>
using complex = cuda::std::complex<double>;
__device__ cuda::std::pair<complex, double> step(complex z, complex w)
{
    complex r = cuda::std::exp(z) * cuda::std::conj(w) / cuda::std::norm(z) + cuda::std::polar(1.0, 0.5);
    return cuda::std::make_pair(r, cuda::std::abs(w));
}
__global__ void k(complex* z, double* a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    auto t = cuda::std::make_tuple(z[i], 2.0);
    auto p = step(cuda::std::get<0>(t), z[0]);
    z[i] = p.first;
    a[i] = p.second + cuda::std::get<1>(t);
}
"""


def test_cuda_std_complex_and_tuple_are_the_cpp_librarys(tmp_path):
    port, whole = translate(SourceFile.from_text(COMPLEX, "t.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "#include <complex>\n#include <tuple>\n" in whole and "cuda::" not in whole, whole
    assert "std::complex r = std::exp(z) * std::conj(w) / std::norm(z) + std::polar(1.0, 0.5);" not in whole
    assert "complex r = std::exp(z) * std::conj(w) / std::norm(z) + std::polar(1.0, 0.5);" in whole, whole
    assert "using complex = std::complex<double>;" in whole and "std::get<0>(t)" in whole, whole
    compiles_werror(tmp_path, whole)
    # look-alike: <cuda/std/atomic> is still refused at its include
    port, _ = translate(SourceFile.from_text("#include <cuda_runtime.h>\n#include <cuda/std/atomic>\n"
                                             "__global__ void k(cuda::std::atomic<int>* a) { a->fetch_add(1); }\n",
                                             "t.cu"), "hip")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP209"]


# pade-laplace's fit.cuh passes cuda::std::span<const double> (libcu++ has it from C++14): C++20's std::span,
# which the project builds with; a pre-C++20 build of the port stops at the prologue's #error, never miscompiles
SPAN = """#include <cuda_runtime.h>
#include <cuda/std/span>
__device__ double total(cuda::std::span<const double> s) { double t = 0; for (double x : s) t += x; return t; }
__global__ void k(const double* p, double* o, int n)
{
    cuda::std::span<const double, cuda::std::dynamic_extent> s(p, n);
    o[0] = total(s) + s.size();
}
"""


def test_cuda_std_span_is_cpp20s_std_span(tmp_path):
    port, whole = translate(SourceFile.from_text(SPAN, "t.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "#include <span>\n" in whole and "cuda::" not in port.body, whole
    assert "std::span<const double, std::dynamic_extent> s(p, n);" in whole and "#if __cplusplus < 202002L" in whole
    hipcc = require_tool("hipcc")
    f = tmp_path / "t.hip"
    f.write_text(whole)
    for std, ok in (("c++20", True), ("c++17", False)):
        r = subprocess.run([hipcc.path, "-x", "hip", f"-std={std}", "--offload-arch=gfx90a", "--offload-arch=gfx1030",
                            "-c", str(f), "-o", str(tmp_path / "t.o")], capture_output=True, text=True,
                           env={**os.environ, "HIP_PLATFORM": "amd"})
        assert (r.returncode == 0) == ok, r.stderr[-2000:]
        assert ok or "needs C++20" in r.stderr
