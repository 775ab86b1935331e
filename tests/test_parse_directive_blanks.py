"""Blanks after a directive (`#define CUDA_CHECK() ` with an empty body, as olcf's CUDA training
series writes its error macros under `#ifdef DEBUG` / `#else`) made tree-sitter's macro value run on
past the newline and swallow the `#endif`: the whole file was a parse error (KP001) though nvcc
compiles it.  The parsed copy moves those blanks past the newline; the user's text is unchanged."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile

HEAD = """\
#ifdef DEBUG
#define CUDA_CALL(F)  if( (F) != cudaSuccess ) \\
  {printf("Error %s\\n", cudaGetErrorString(cudaGetLastError())); exit(-1);}{blank}
#define CUDA_CHECK()  if( (cudaPeekAtLastError()) != cudaSuccess ) exit(-1);{blank}
#else
#define CUDA_CALL(F) (F){blank}
#define CUDA_CHECK(){blank}
#endif
#define WARP_SIZE 32{blank}
"""
KERNEL = """\
__global__ void k(float *out) {
    int lane = threadIdx.x % WARP_SIZE;
    if (lane == 0) out[threadIdx.x / WARP_SIZE] = 1.0f;
}
"""


@pytest.mark.parametrize("blank", ["", " ", "\t", "  \t"])
def test_blanks_after_a_directive_do_not_swallow_the_rest_of_the_file(blank):
    text = HEAD.replace("{blank}", blank) + KERNEL
    src = SourceFile.from_text(text, "t.cu")
    assert not src.tree.root_node.has_error
    assert src.text == text and src.data == text.encode()  # the user's bytes, as read
    found = lint_text(text, "t.cu")
    assert "KP001" not in {f.code for f in found}
    assert ("WS001", 9) in {(f.code, f.line) for f in found}  # the macro after the #endif is read


def test_a_continued_directive_keeps_its_continuation():
    text = "#define TWO 1 + \\\n  1 \nint x = TWO;\n"
    src = SourceFile.from_text(text, "t.cu")
    d = src.tree.root_node.children[0]
    assert d.type == "preproc_def" and "1 +" in src.text_of(d.child_by_field_name("value"))
    assert src.tree.root_node.children[1].type == "declaration"
