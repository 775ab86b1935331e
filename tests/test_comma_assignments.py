"""A parenthesised comma expression whose first operand is an assignment with no blank before its `(`
(`f((x = 1, 0))`, `int l[]{(x = 1, 0)}`, `if ((x = 1, 0))`, SPH-EXA's util/array.hpp:163 pack expansion
`std::initializer_list<int> list{(a[Is] = f(a[Is], b[Is]), 0)...};`), which tree-sitter's grammar leaves in
error and which comma_operands' `((x = 1), 0)` cannot reach (no byte for the inner `(`): the assignment
operator is seen as a comma, `(a[Is] , f(a[Is], b[Is]), 0)` (a compound one's characters blanked), so every
operand keeps its bytes and offset and is read; the port keeps the user's text.  Found on heldout88: the
header stopped the parse of 8 SPH-EXA files.  Look-alikes that parse as they are get no mask."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile, walk
from kernelport.translate import translate

CODE = """
template<class T, int N>
struct Arr {
    T v[N];
    template<class F, int... Is>
    __host__ __device__ void assign(T* a, const T* b, F&& f, Seq<Is...>)
    {
        int list[]{(a[Is] = f(a[Is], b[Is]), 0)...};
    }
};
__device__ int g(int a, int b) { return a + b; }
__global__ void k(int* out, int n)
{
    int x = 0, y = 1;
    out[0] = g((x = threadIdx.x, 0), y);
    int l[]{(y <<= 2, x)};
    if ((x += n, x > 3)) { out[1] = l[0]; }
}
"""


def test_an_assignment_before_a_comma_with_no_blank_before_the_parenthesis_parses_and_ports():
    code = textwrap.dedent(CODE)
    s = SourceFile.from_text(code, "a.cu")
    assert s.syntax_errors() == [], s.syntax_errors()
    masks = sorted((code[m.start:m.end], m.name) for m in s.masks)
    assert masks == [("+", "comma assignment"), ("<", "comma assignment"), ("<", "comma assignment")] + \
        [("=", "comma assignment")] * 4, masks
    # the operands keep their offsets: the call in the first operand is still a call with its arguments
    calls = [n for n in walk(s.tree.root_node) if n.type == "call_expression"
             and code[n.start_byte:n.end_byte] == "f(a[Is], b[Is])"]
    assert len(calls) == 1
    _, text = translate(s, "hip")
    assert "int list[]{(a[Is] = f(a[Is], b[Is]), 0)...};" in text and "g((x = " in text and "(y <<= 2, x)" in text


def test_look_alikes_that_parse_get_no_mask():
    code = textwrap.dedent("""
        __device__ int f(int a, int b) { return a - b; }
        __global__ void k(int* out)
        {
            int x = 0;
            out[0] = f((x == 1, 0), 1);
            out[1] = f(((x = 1), 0), 2);
            out[2] = f(x = 1, 0);
            out[3] = f((x <= 1, x >= 0), 3);
            int l[]{(0, x = 2)};
            out[4] = l[0];
        }
    """)
    s = SourceFile.from_text(code, "b.cu")
    assert s.syntax_errors() == [] and not s.masks, (s.syntax_errors(), s.masks)
