"""X-macros inside a braced initializer list (kernelport/list_directives.py) and a pointer to member applied
to a parenthesised operand (kernelport/member_pointers.py): held-out set 90's CudaTextureGen builds reflection
tuples as `return std::tuple{ #ifdef LIST  #define X(T, N, ...) Property<Self, &Self::N>{#N, &Self::N},  LIST
#undef X  #endif };` and reads them with `self.*(p.member)`.  The grammar takes no directive inside an
expression and no `(` after `.*`: main stopped at "cannot parse 'return std::tuple{'" (4 files, no port).
The parse now sees the list with its directive lines blanked (the list macro one element) and `self *(p.m)`;
the ports keep the user's text, the HIP port compiles for gfx90a and gfx1030, the original with nvcc.
Look-alikes: a list whose directives choose a branch (`#else`), directives in a class's body (the grammar's
own), a named `.*m` and a product `a * (b)` are masked nowhere."""
from __future__ import annotations

import textwrap

import pytest

from kernelport import toolchains
from kernelport.source import SourceFile
from kernelport.translate import translate
from conftest import hip_compiles, require_tool

CODE = textwrap.dedent("""\
    #include <tuple>
    template <class S, class T> struct Prop { const char *name; T S::*member; };
    #define PARAMS \\
      X(float, radius, 1.0f) \\
      X(int, steps, 4)
    struct Params {
    #define X(T, N, D) T N = D;
      PARAMS
    #undef X
      static constexpr auto properties() {
        return std::tuple{
    #ifdef PARAMS
    #define X(T, N, D) Prop<Params, T>{#N, &Params::N},
          PARAMS
    #undef X
    #endif
        };
      }
    };
    template <class S, class P> S *owner(S &s, const P &p) { (void)(s.*(p.member)); return &s; }
    int first_steps() { Params q; return *&(q.*(std::get<1>(Params::properties()).member)); }
    __global__ void scale(const Params *ps, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = ps->radius * (float)(i % ps->steps);
    }
    """)


def masked(s: SourceFile) -> list[str]:
    return [s.data[m.start:m.end].decode().strip() for m in s.masks]


def test_the_x_macro_list_and_the_member_pointer_parse():
    s = SourceFile.from_text(CODE, "p.cu")
    assert s.syntax_errors() == []
    got = masked(s)
    assert "#ifdef PARAMS" in got and "#undef X" in got and "#endif" in got, got
    assert any(m.startswith("#define X(T, N, D) Prop<") for m in got), got
    assert "#define X(T, N, D) T N = D;" not in got, got  # the class body's directives: the grammar's own
    assert got.count(".") == 2, got  # `s.*(`, `q.*(`: the `.` alone


def test_the_hip_port_keeps_the_text_and_compiles(tmp_path):
    port, text = translate(SourceFile.from_text(CODE, "p.cu"), "hip")
    assert port.ok, port
    assert "#define X(T, N, D) Prop<Params, T>{#N, &Params::N}," in text and "s.*(p.member)" in text, text
    hip_compiles(tmp_path, text, "p.hip", extra_args=("-std=c++17",))


def test_the_original_compiles_with_nvcc(tmp_path):
    require_tool("nvcc")
    src = tmp_path / "p.cu"
    src.write_text(CODE)
    res = toolchains.compile_cuda(src)
    assert res.ok, res.output or res.reason


LOOK_ALIKES = {
    "a list choosing a branch": ("int v[] = {\n#if defined(A)\n1,\n#else\n2,\n#endif\n};\n", "#else"),
    "a class body's directives": ("struct S {\n#define F(n) int n;\nF(a)\n#undef F\n  int b;\n};\n", None),
    "a named member pointer": ("struct S { int m; };\nint g(S &s, int S::*p) { return s.*p; }\n", None),
    "a product": ("int h(int a, int b) { return a * (b); }\nint k(int *p, int b) { return *p * (b); }\n", None),
}


@pytest.mark.parametrize("name", sorted(LOOK_ALIKES))
def test_look_alikes_are_masked_nowhere(name):
    text, kept = LOOK_ALIKES[name]
    s = SourceFile.from_text(text, "l.cu")
    assert not [m for m in s.masks if m.name in ("directives", ".*", "->*")], (name, masked(s))
    if kept:  # the conditional's own repair (one branch at a time) stands, never both branches as one list
        assert s.masks and all(m.reason.startswith("conditional") for m in s.masks), (name, s.masks)


def test_without_the_masks_the_grammar_fails_on_each_form():
    """Gaps of the grammar itself (the test fails if a newer grammar takes them: drop the masks then)."""
    import tree_sitter_cuda
    from tree_sitter import Language, Parser
    parser = Parser(Language(tree_sitter_cuda.language()))
    for text in ("auto f() { return T{\n#define X 1\n X\n#undef X\n}; }", "int f(S &s, P p) { return s.*(p.m); }"):
        assert parser.parse(text.encode()).root_node.has_error, text


def test_a_list_whose_directives_choose_a_branch_gets_no_candidate():
    """Checked on the candidates themselves: the conditional's own repair may fix such a list first."""
    from kernelport.list_directives import list_directives
    from kernelport.macro_tokens import tokens
    for text, want in (("int v[] = {\n#if defined(A)\n1,\n#else\n2,\n#endif\n};\n", 0),
                       ("int v[] = {\n#ifdef A\n#define B 1,\nB\n#undef B\n#endif\n};\n", 1)):
        data = text.encode()
        toks = tokens(data)
        got = list(list_directives(toks, data, range(len(toks)), set(), lambda i: None))
        assert len(got) == want, (text, got)
