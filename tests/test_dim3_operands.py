"""Arithmetic on a dim3 (hip66c item 3; heldout103 gamdow-fluid utility.cu `buffered_grid = inner_grid + buffer_blocks;`):
CUDA's dim3 converts to and from uint3, so helper_math.h's `uint3 operator+(uint3, uint3)` applies; HIP's dim3 has
neither conversion ("invalid operands to binary expression ('dim3' and 'dim3')").  Now a located KP247 where the
grammar shows a dim3 operand (kernelport/dim3_operands.py).  Look-alikes: a dim3's members, plain numbers, and a file
that declares its own operator on dim3, which the port keeps and hipcc compiles."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import ported

from kernelport.source import SourceFile
from kernelport.translate import translate

SRC = """inline __host__ __device__ uint3 operator+(uint3 a, uint3 b) { return make_uint3(a.x + b.x, a.y + b.y, a.z + b.z); }
void f(dim3 g, int n) {
  dim3 block(32, 8);
  dim3 grid = g + block;
  grid += dim3(1, 1);
  unsigned w = block.x + g.x;
  int m = n + 1;
  (void)w; (void)m;
}
"""


def test_arithmetic_on_a_dim3_is_refused_located():
    port, _ = translate(SourceFile.from_text(SRC, "g.cu"), "hip")
    got = [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"]
    assert got == [("KP247", 4, 15), ("KP247", 5, 3)], [d.format() for d in port.diagnostics]
    assert "component by component" in port.diagnostics[0].hint


def test_look_alikes_a_files_own_dim3_operator_and_members_port(tmp_path):
    own = ("__host__ __device__ dim3 operator+(dim3 a, dim3 b) { return dim3(a.x + b.x, a.y + b.y, a.z + b.z); }\n"
           "__global__ void k(int* o) { o[0] = threadIdx.x; }\n"
           "void f(dim3 g) { dim3 block(32, 8); dim3 grid = g + block; unsigned w = block.x + g.x;\n"
           "  k<<<grid, block>>>(nullptr); (void)w; }\n")
    _, text = ported(own, dedent=False)
    assert "dim3 grid = g + block;" in text
    hip_compiles(tmp_path, text)
