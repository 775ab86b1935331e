"""`const __restrict__ uint32_t *p` (heldout21's sgm/util.h: ld_gbl_ca and three more): nvcc takes
`__restrict__` among the specifiers, clang (hipcc) refuses it on a scalar ("restrict requires a
pointer or reference"), so the HIP port did not compile.  The port drops it there (an aliasing hint:
the code means the same without it); a restrict on the pointer, or on a typedef name (a pointer type
here), stays as written (kernelport/attribute_order.py drop_scalar_restricts)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

SRC = """#include <cstdint>
typedef float* fp;
__device__ __forceinline__ uint32_t ld(const __restrict__ uint32_t *addr) { return *addr; }
__device__ float g(const __restrict__ fp b, float* __restrict__ d, const __restrict__ unsigned int *e) {
    __restrict__ float *x = d;
    return *b + *d + *e + *x;
}
__global__ void k(uint32_t* o, float* f) { o[threadIdx.x] = ld(o + 1) + (uint32_t)g(f, f + 1, o); }
"""


def test_a_restrict_on_a_scalar_is_dropped_and_the_port_compiles(tmp_path):
    port, text = translate(SourceFile.from_text(SRC, "r.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    lines = port.body.splitlines()
    assert lines[2] == "__device__ __forceinline__ uint32_t ld(const uint32_t *addr) { return *addr; }"
    assert lines[3] == "__device__ float g(const __restrict__ fp b, float* __restrict__ d, const unsigned int *e) {"
    assert lines[4] == "    float *x = d;"
    hip_compiles(tmp_path, text, "r.hip")


def test_the_cuda_source_keeps_it():  # (backend data: HIP's and Metal's compilers are clang's, nvcc takes it)
    from kernelport import backends
    assert backends.get("hip").restrict_needs_pointer and backends.get("metal").restrict_needs_pointer
    assert not backends.get("cuda").restrict_needs_pointer


LIBRARY = """#include <sys/types.h>
typedef unsigned int* upt;
__global__ void ls(const __restrict__ uint *lower, const __restrict__ ulong *upper, const __restrict__ upt p,
                   uint *pos) {
    pos[threadIdx.x] = lower[threadIdx.x] + (uint)upper[threadIdx.x] + *p;
}
"""


def test_a_restrict_on_a_c_library_scalar_typedef_is_dropped(tmp_path):
    """daschr/cuda-classifier's ls_cl2.cu (held-out set 44): `const __restrict__ uint *lower`, glibc's `uint` a
    type name to the grammar.  A typedef the file declares (`upt`, a pointer) stays."""
    port, text = translate(SourceFile.from_text(LIBRARY, "r.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "void ls(const uint *lower, const ulong *upper, const __restrict__ upt p," in port.body, port.body
    hip_compiles(tmp_path, text, "r.hip")


def test_a_file_that_typedefs_the_library_name_itself_keeps_the_restrict():
    """The look-alike: `uint` the file's own name for a pointer type, where the restrict is the pointer's."""
    src = LIBRARY.replace("#include <sys/types.h>\n", "typedef unsigned int* uint;\ntypedef unsigned long ulong;\n")
    port, _ = translate(SourceFile.from_text(src, "r.cu"), "hip")
    assert "const __restrict__ uint *lower" in port.body, port.body
