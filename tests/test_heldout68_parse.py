"""A parse gap found on the sixty-eighth held-out set (quantum computing simulation, h/heldout68), on a
small synthetic reproduction: a macro kept for reference as a `//` comment whose lines end in `\\`
(`// #define OP_HEAD_OLD a; \\` then `b; \\` then `c;`).  The preprocessor splices lines before it
removes comments, so the whole run is one comment; kernelport/line_splices.py blanked the
backslashes of the lines after the first as if they were stray splices in code, which ended the
comment there and left `b;` as code: a parse error, and translate refused the file.  Look-alikes keep
what they were: a code splice after a comment that ends on its line, and one after the continued
comment's last line, are still blanked."""
from __future__ import annotations

from conftest import hip_compiles
from kernelport.source import SourceFile
from kernelport.translate import translate

KERNEL = """\
__global__ void scale(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2.0f;
}
"""
COMMENTED_MACRO = """\
// the original header, kept for reference:
// #define OP_HEAD_OLD int tid = threadIdx.x; \\
    int stride = blockDim.x; \\
        for (int i = tid; i < n; \\
                i += stride) { \\
            float v = a[i];

""" + KERNEL


def test_a_comment_continued_over_code_like_lines_stays_one_comment(tmp_path):
    s = SourceFile.from_text(COMMENTED_MACRO, "sv.cu")
    assert s.syntax_errors() == [], s.syntax_errors()
    kinds = [n.type for n in s.tree.root_node.children]
    assert kinds == ["comment", "comment", "function_definition"], kinds
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "blockDim.x; \\\n        for (int i = tid" in text  # the comment as written
    assert hip_compiles(tmp_path, text)


def test_metal_reads_the_continued_comment_as_a_comment():
    port, text = translate(SourceFile.from_text(COMMENTED_MACRO, "sv.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kernel void scale" in text


# look-alike: the comment ends on its own line; the next lines are code a stray splice joins
CODE_AFTER_COMMENT = """\
int f(int);
// a comment that ends here
int g = f(1) \\
  + 2;
"""
# look-alike: the continued comment's last line has no backslash; the splice after it is code's
CODE_AFTER_CONTINUED = """\
int f(int);
// a continued \\
   comment
int g = f(1) \\
  + 2;
"""


def test_a_code_splice_after_a_comment_is_still_blanked():
    for text in (CODE_AFTER_COMMENT, CODE_AFTER_CONTINUED):
        s = SourceFile.from_text(text, "g.cu")
        assert s.syntax_errors() == [], (text, s.syntax_errors())
        assert [n.type for n in s.tree.root_node.children][-1] == "declaration"
