"""`max(cur_n.pre, i)` in a Metal port (heldout55: sliding-puzzle's 15puzzle_block_parallel.cu and
24puzzle_block_parallel_global.cu, `char pre;` in `struct Node`): CUDA's min/max take int for a char
member and an int, Metal's need one type, so the narrow member is converted as a narrow local already
was (kernelport/backends/metal/scalars.py: a struct's scalar member has the type its struct, tagged or
typedef'd in the file, declares).  Before: KP224 "no matching function for call to 'max'".
Look-alikes: two unsigned ints stay as written; a member of a struct the file does not define is not
guessed."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked
except ImportError:  # pragma: no cover
    from conftest import metal_checked

CODE = """struct Node {
    unsigned char puzzle[16];
    char space;
    char pre;
};
typedef struct { short a; unsigned int u; } Pair;
__global__ void k(const Node *in, const Pair *pp, int *out) {
    Node cur_n = in[blockIdx.x];
    Pair p = pp[0];
    int i = threadIdx.x % 4;
    out[threadIdx.x] = max(cur_n.pre, i) - min(cur_n.pre, i) + max(p.a, i) + min(p.u, threadIdx.x);
}
"""


def test_a_narrow_member_of_a_files_struct_is_converted_to_int():
    out = metal_checked(CODE)
    assert "max(int(cur_n.pre), i) - min(int(cur_n.pre), i) + max(int(p.a), i) + min(p.u, tid.x)" in out


def test_a_member_of_an_unknown_struct_is_left_as_written():
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    src = '#include "node.h"\n__global__ void k(const Node *in, int *o) { Node c = in[0]; o[0] = max(c.pre, 1); }\n'
    port, _ = translate(SourceFile.from_text(src, "u.cu"), "metal", allow_unported=True)
    assert "max(c.pre, 1)" in port.body
