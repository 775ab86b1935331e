"""libcu++'s function objects on HIP: `<cuda/std/functional>` and CCCL's `<cuda/functional>` (which
brings them) are the C++ library's `<functional>`, `cuda::std::equal_to<>` its `std::equal_to<>`
(constexpr operator(): clang's HIP takes it as host and device from C++14, the least CCCL builds
with); CCCL's own `cuda::maximum` / `cuda::minimum` / `cuda::proclaim_return_type` have no HIP
counterpart and are refused at their use (KP209), located, not left to the compiler.  Found on
jpeggpu (heldout71), whose util.cuh includes <cuda/functional> for `cuda::std::equal_to<>`: every
file including it was refused at the include."""
from __future__ import annotations

from conftest import assert_hip_file_compiles
from kernelport.source import SourceFile
from kernelport.translate import translate

OBJECTS = """#include <cuda_runtime.h>
#include <cuda/std/functional>
#include <cuda/functional>
template <class Op> __device__ int pick(Op op, int a, int b) { return op(a, b) ? a : b; }
__global__ void k(int* out, const int* a, const int* b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = pick(cuda::std::less<>{}, a[i], b[i]) + (cuda::std::equal_to<int>{}(a[i], b[i]) ? 1 : 0);
}
"""


def test_function_objects_are_the_cpp_librarys(tmp_path):
    port, whole = translate(SourceFile.from_text(OBJECTS, "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert whole.count("#include <functional>") == 2 and "cuda/" not in whole, whole
    assert "pick(std::less<>{}, a[i], b[i]) + (std::equal_to<int>{}(a[i], b[i]) ? 1 : 0)" in whole, whole
    f = tmp_path / "t.hip"
    f.write_text(whole)
    assert_hip_file_compiles(f, ("gfx90a", "gfx1030"), extra_args=("-std=c++17", "-Werror"))


def test_cccl_own_objects_are_refused_at_their_use_and_own_namespaces_stay():
    src = ("#include <cuda/functional>\n"
           "__global__ void k(int* out, const int* a, int n)\n{\n"
           "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i < n) out[i] = cuda::maximum<int>{}(a[i], 0);\n}\n")
    port, _ = translate(SourceFile.from_text(src, "t.cu"), "hip")
    refused = [d for d in port.diagnostics if d.code == "KP209"]
    assert len(refused) == 1 and "cuda::maximum" in refused[0].message, [d.format() for d in port.diagnostics]
    assert (refused[0].location.line, refused[0].location.column) == (5, 25), refused[0].format()
    own = ("namespace cuda { template <class T> struct maximum { __device__ T operator()(T a, T b) const "
           "{ return a > b ? a : b; } }; }\n"
           "__global__ void k(int* out, const int* a, int n)\n{\n"
           "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    if (i < n) out[i] = cuda::maximum<int>{}(a[i], 0);\n}\n")
    port, whole = translate(SourceFile.from_text(own, "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "out[i] = cuda::maximum<int>{}(a[i], 0);" in whole, whole
