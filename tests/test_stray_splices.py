"""A stray backslash on the line where a literal continued by a splice ends (heldout59's MeanShift-CUDA
cuda_reduction.cu: `printf("[WARNING]:\\t \\` / `\\t\\tShared Memory size too large: %lu\\n",\\ rc->cache_size);`):
nvcc compiles it (GCC's preprocessor writes the backslash at the end of an output line), kernelport stopped on a
parse error and clang (hipcc) reads a stray token.  The parse reads it as a blank and the port leaves it out."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

AFTER_LITERAL = """\
#include <cstdio>
__global__ void k(float* x) { x[threadIdx.x] *= 2.f; }
void report(unsigned long size) {
\tif (size > 1024 * 16)
\t\tprintf("[WARNING]:\\t[INIT]:\\t \\
\t\t\tShared memory too large: %lu\\n",\\ size);
}
"""


def test_a_stray_backslash_after_a_continued_literal_is_left_out(tmp_path):
    src = SourceFile.from_text(AFTER_LITERAL, "r.cu")
    assert not src.syntax_errors()
    port, text = translate(src, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert '\t\t\tShared memory too large: %lu\\n", size);\n' in text
    assert 'printf("[WARNING]:\\t[INIT]:\\t \\\n' in text  # the literal's own splice stays
    require_tool("hipcc")
    f = tmp_path / "r.hip"
    f.write_text(text)
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


def test_a_stray_backslash_elsewhere_is_still_a_located_parse_error():
    # look-alikes nvcc rejects too ("unrecognized token"): after a splice in code, and after a literal on one line
    for text, where in (("int g(int s) {\n  int x = s +\\\n  1 +\\ 2;\n  return x;\n}\n", (3, 6)),
                        ('#include <cstdio>\nvoid g(unsigned long s) {\n  printf("a: %lu\\n",\\ s);\n}\n', (3, 21))):
        errors = SourceFile.from_text(text, "e.cu").syntax_errors()
        assert [(loc.line, loc.column) for loc, _ in errors][:1] == [where]


def test_an_escape_after_a_macro_line_s_closing_quote_is_no_stray():
    # hecbench prna.cu's SHOW macro: the pattern that found continued literals could start at the closing quote
    # of `RF" "` and run over the splice to the next line's opening quote, and dropped `"\n"`'s backslash
    text = ('#include <cstdio>\n#define RF "%g"\n#define SHOW(a, n)\t\\\n  for (int i = 0; i < n; i++)\t\\\n'
            '    printf(RF" ", a[i]);\t\\\n  printf("\\n");\t\\\n\n'
            '__global__ void k(float* x) { x[threadIdx.x] *= 2.f; }\nvoid show(float* a, int n) { SHOW(a, n); }\n')
    src = SourceFile.from_text(text, "p.cu")
    assert not src.syntax_errors()
    port, out = translate(src, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert '  printf("\\n");\t\\\n' in out, out
