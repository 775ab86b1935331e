"""A parenthesised comma expression whose first operand is an assignment, `(at += n, f(p + at))`,
which tree-sitter's grammar leaves in error (it reads `(at = n, ...` as a fold expression's start):
seen as `((at += n), f(p + at))` through the blanks around it (kernelport/comma_operands.py), every
name and operator at its own offset, the assignment an assignment node.  Found on cujpegxl
(heldout71), whose frame encoder chains copies with `&& (at += size, cudaMemcpy(...) == cudaSuccess)`:
lint reported six parse errors (KP001) on valid C++.  Where no blank stands before the `(` the
assignment is seen as a comma (kernelport/comma_operands.py, tests/test_comma_assignments.py).  Look-alikes that parse as they are (a call's
assignment argument, a comparison before the comma, a comma after the assignment) are masked nowhere."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

GATHER = """
bool gather(char *d, const char *a, const char *b, int na, int nb)
{
    int at{0};
    const bool ok{
        copy(d + at, a, na) == 0 &&
        (at += na,
         copy(d + at, b, nb) == 0)};
    return ok;
}
__global__ void step(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = 0;
    bool ok = i < n && (j = i + 1, j < n);
    if (ok) out[i] = in[j];
}
"""


def src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "c.cu")


def test_an_assignment_before_a_comma_in_parentheses_parses():
    s = src(GATHER)
    assert s.syntax_errors() == [], s.syntax_errors()
    assert sorted(m.name for m in s.masks) == ["comma operand"] * 6, s.masks
    # the assignments are assignment nodes, at the user's bytes
    assigns = [s.text_of(n) for n in s.index.of_type("assignment_expression")]
    assert "at += na" in assigns and "j = i + 1" in assigns, assigns
    for backend in ("hip", "metal"):  # (the user's text in both ports: Metal leaves the host function out)
        port, text = translate(s, backend)
        assert port.ok, [d.format() for d in port.diagnostics]
        assert ("(at += na,\n         copy(d + at, b, nb) == 0)};" in text) == (backend == "hip"), text
        assert "bool ok = i < n && (j = i + 1, j < n);" in text, text


def test_look_alikes_are_masked_nowhere():
    s = src("""
    int f(int a, int b);
    __global__ void k(int *out, int n)
    {
        int a = 0, b = 1;
        out[0] = f(a = 2, b);
        out[1] = (a == b, b);
        out[2] = (a, b = 3);
        out[3] = (a <= b, a >= b);
        for (a = 0, b = 0; a < n; a += 1, b += 2) out[a] = b;
    }
    """)
    assert s.syntax_errors() == [] and not s.masks, (s.syntax_errors(), s.masks)


def test_no_blank_before_the_parenthesis_sees_the_assignment_as_a_comma():
    # (no byte for the inner `(`: tests/test_comma_assignments.py)
    s = src("void k(int *d, int n) { int at = 0; bool ok{(at += n, g(d, n))}; }\n")
    assert s.syntax_errors() == [] and not any(m.name == "comma operand" for m in s.masks)
    assert sorted(m.name for m in s.masks) == ["comma assignment"] * 2
