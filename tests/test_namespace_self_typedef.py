"""`namespace proj { typedef ::cudaStream_t cudaStream_t; }` (or `using cudaStream_t = ::cudaStream_t;`) redeclares
the toolkit's type in a namespace: the name stays CUDA's (kernelport/declared_names._same_typedef).  Main read the
`::`-qualified type as another type, so `cudaStream_t` became the user's own name in the whole file and a use
outside the namespace (`int main() { cudaStream_t s; ... }`) kept CUDA's spelling: hipcc stopped at "unknown
type name 'cudaStream_t'".  Look-alikes: the namespace's `typedef int cudaStream_t;` stays the user's, and an
alias of another name (`typedef ::cudaStream_t stream_t;`) renames its type side only."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text

CODE = """#include <cuda_runtime.h>
namespace proj {
typedef ::cudaStream_t cudaStream_t;
void run(cudaStream_t s);
}
__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }
void proj::run(cudaStream_t s) { float* x; cudaMalloc(&x, 64); k<<<1, 16, 0, s>>>(x); cudaStreamSynchronize(s); }
int main() { cudaStream_t s; cudaStreamCreate(&s); proj::run(s); proj::cudaStream_t t = s; cudaStreamDestroy(t); }
"""


def test_a_namespaces_typedef_of_the_global_toolkit_type_is_the_toolkits(tmp_path):
    text = port_text(CODE, dedent=False)
    assert "typedef ::hipStream_t hipStream_t;" in text and "int main() { hipStream_t s;" in text, text
    hip_compiles(tmp_path, text, "ns.hip")
    using = port_text(CODE.replace("typedef ::cudaStream_t cudaStream_t;", "using cudaStream_t = ::cudaStream_t;"),
                      dedent=False)
    assert "using hipStream_t = ::hipStream_t;" in using and "int main() { hipStream_t s;" in using, using
    hip_compiles(tmp_path, using, "using.hip")


def test_look_alikes():
    own = port_text(CODE.replace("typedef ::cudaStream_t cudaStream_t;", "typedef int cudaStream_t;").split(
        "int main()")[0], dedent=False)
    assert "typedef int cudaStream_t;" in own and "void run(cudaStream_t s);" in own, own
    alias = port_text("#include <cuda_runtime.h>\nnamespace proj { typedef ::cudaStream_t stream_t; }\n"
                      "void f(proj::stream_t s) { cudaStreamSynchronize(s); }\n", dedent=False)
    assert "typedef ::hipStream_t stream_t;" in alias and "void f(proj::stream_t s)" in alias, alias
