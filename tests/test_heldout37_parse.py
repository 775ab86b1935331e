"""Parse gaps found on the thirty-seventh held-out set (wireless comms and channel coding, h/heldout37),
each on a small synthetic reproduction of a Viterbi decoder's explicit instantiations: a list of
macro uses at namespace scope spliced by a stray line continuation (the `#define` above lost its
backslash a line early: nvcc splices the lines, the grammar read the `\\` as an error;
kernelport/line_splices.py), and an object-like macro that expands to definitions as the
file's last token (`INSTANTIATE_ALL`: a whole statement on its own line had to be followed by
something; kernelport/macro_repair.py).  Look-alikes keep what they are: a `//` comment a splice
continues, and a directive's own continuation lines."""
from __future__ import annotations

from conftest import hip_compiles
from kernelport.source import SourceFile
from kernelport.translate import translate

HEAD = """\
namespace Mode { enum { A = 1, B = 2, C = 4 }; }
template <int N> class Dec { public: __device__ int f() const { return N; } };
#define CASE(opt) template class Dec<opt>;
#define PAIR(opt) \\
CASE(opt | 8) \\
CASE(opt | 16)
"""
SPLICED = HEAD + """\
#define SOME \\
PAIR(Mode::A) \\
PAIR(Mode::B)
PAIR(Mode::C) \\
PAIR(Mode::A | Mode::C)
__global__ void k(int* o) { o[0] = Dec<9>().f(); }
"""
LAST = HEAD + """\
__global__ void k(int* o) { o[0] = Dec<9>().f(); }
#define ALL \\
PAIR(Mode::A) \\
PAIR(Mode::B)

ALL

// (only comments after the last use)
"""


def test_a_line_continuation_between_macro_uses_at_namespace_scope_parses(tmp_path):
    s = SourceFile.from_text(SPLICED, "v.cu")
    assert s.syntax_errors() == [], s.syntax_errors()
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "PAIR(Mode::C) \\\nPAIR(Mode::A | Mode::C)" in text  # the port keeps the user's text
    assert hip_compiles(tmp_path, text)


def test_an_object_like_macro_of_definitions_ends_the_file(tmp_path):
    s = SourceFile.from_text(LAST, "v.cu")
    assert s.syntax_errors() == [], s.syntax_errors()
    port, text = translate(s, "hip")
    assert port.ok and "\nALL\n" in text, [d.format() for d in port.diagnostics]
    assert hip_compiles(tmp_path, text)


def test_a_comment_a_splice_continues_stays_a_comment():
    # the second line is part of the `//` comment (the splice comes first): no code, nothing to blank
    s = SourceFile.from_text("int a; // note \\\nint a;\n", "c.cu")
    assert s.syntax_errors() == []
    assert [n.type for n in s.tree.root_node.children] == ["declaration", "comment"]


def test_a_directive_keeps_its_continuation_lines():
    s = SourceFile.from_text("#define TWO(x) \\\n  int x##1; \\\n  int x##2;\nTWO(v)\n", "d.cu")
    assert s.tree.root_node.children[0].type == "preproc_function_def"
    assert b"\\" in s.tree.root_node.children[0].text


# heldout58's grid reduction: a help text spliced over three lines inside one string literal; the
# middle line holds no quote, yet its backslash is the literal's (the grammar read a broken string)
HELP = ('#include <cstdio>\nvoid help() {\n  printf("--thread <n>(t):  threads\\n \\\n'
        '             --block <n>(b):  blocks\\n \\\n             --array <n>(n):  size\\n");\n}\n'
        '__global__ void k(int* o) { o[0] = 1; }\n')


def test_a_string_literal_spliced_over_lines_keeps_its_backslashes(tmp_path):
    s = SourceFile.from_text(HELP, "h.cu")
    assert s.syntax_errors() == [], s.syntax_errors()
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert 'blocks\\n \\\n             --array' in text  # the literal as written
    assert hip_compiles(tmp_path, text)


def test_a_code_splice_after_a_closed_literal_is_still_blanked():
    # look-alike: the literal closes on its line; the backslash after `f(x)` is code's, as before
    s = SourceFile.from_text('const char *t = "a\\\\";\nint f(int);\nint g = f(1) \\\n  + 2;\n', "g.cu")
    assert s.syntax_errors() == [], s.syntax_errors()
