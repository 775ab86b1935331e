"""An array delete of a parenthesised operand, `delete[](h_output);` (zfind/masters-thesis's Net.cu
and Matrix.cu, heldout46): tree-sitter reads `[](` as a lambda and the file did not parse (main: "cannot
parse '[](h_output);'").  Where the operand is one postfix expression the parse sees `delete[] h_output ;`
(kernelport/grammar_gaps.py) and the port keeps the user's text; the plain forms and a lambda are
masked nowhere."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """
struct Matrix { int n; float *elements; };
__global__ void scale(float *out, const float *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
void release(Matrix matrix, float *h_output, Matrix *all, int i)
{
  STATEMENT
}
"""


def source(statement: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(CODE).replace("STATEMENT", statement), "d.cu")


def masked(s: SourceFile) -> list[str]:
    return [s.data[m.start:m.end].decode() for m in s.masks]


def test_a_parenthesised_array_delete_parses_and_keeps_its_text():
    for statement in ("delete[](h_output);", "delete[](matrix.elements);", "delete [] (all[i].elements);",
                      "delete[](all->elements); delete[](h_output);"):
        s = source(statement)
        assert s.syntax_errors() == [], statement
        assert set(masked(s)) == {"(", ")"}, statement
        port, text = translate(s, "hip")
        assert port.ok and statement in text, statement


def test_plain_deletes_and_a_lambda_are_masked_nowhere():
    for statement in ("delete[] h_output;", "delete (h_output);", "delete[] matrix.elements;",
                      "auto f = [](int x) { return x; }; f(i);"):
        s = source(statement)
        assert s.syntax_errors() == [] and masked(s) == [], statement
