"""Forms of real projects' code that stopped the parse (found on the fifth held-out set,
bench/heldout5.toml; the snippets here are written for the test, not copied): macros that open and
close a namespace, an asm constraint spelled by a macro, helper macros undefined after their uses,
declaration macros in a class body, block comments inside a continued `#define`, and a `#pragma`
standing as the body of an unbraced loop.  Each parses, and its port keeps the user's text."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "s.cu")


def parses(code: str) -> SourceFile:
    s = src(code)
    assert s.syntax_errors() == [], s.syntax_errors()
    return s


def hip(code: str) -> tuple[object, str]:
    return translate(parses(code), "hip")


SCOPES = """
#define BEGIN_LIB_NAMESPACE namespace lib {
#define END_LIB_NAMESPACE }

BEGIN_LIB_NAMESPACE

template<typename T>
__device__ T twice(T x) { return 2 * x; }

END_LIB_NAMESPACE

template<typename box_t, typename func_t>
void launch(func_t f, int n) { }

__global__ void k(float* x) { x[threadIdx.x] = lib::twice(x[threadIdx.x]); }
"""


def test_macros_that_open_and_close_a_namespace_are_seen_as_braces():
    s = parses(SCOPES)
    got = {(m.name, m.reason, m.expansion) for m in s.masks}
    assert got == {("BEGIN_LIB_NAMESPACE", "expansion", "namespace lib {"), ("END_LIB_NAMESPACE", "expansion", "}")}
    port, text = hip(SCOPES)
    assert port.ok and "BEGIN_LIB_NAMESPACE\n" in text and "END_LIB_NAMESPACE\n" in text  # the user's text
    # the look-alike: an object-like macro that stands for a name is never written in (it parses as one)
    same = parses(SCOPES.replace("#define END_LIB_NAMESPACE }", "#define END_LIB_NAMESPACE }\n#define WIDTH 32")
                  .replace("2 * x", "WIDTH * x"))
    assert "WIDTH" not in {m.name for m in same.masks}


def test_a_namespace_longer_than_its_macro_is_seen_unnamed():
    code = SCOPES.replace("#define BEGIN_LIB_NAMESPACE namespace lib {", "#define LIB_BEGIN_NS namespace library_v2 {") \
        .replace("BEGIN_LIB_NAMESPACE\n", "LIB_BEGIN_NS\n").replace("lib::twice", "twice")
    s = parses(code)
    assert ("LIB_BEGIN_NS", "namespace{") in {(m.name, m.expansion) for m in s.masks}


ASM = """
#if defined(_WIN64) || defined(__LP64__)
#define PTR_CONSTRAINT "l"
#else
#define PTR_CONSTRAINT "r"
#endif

__device__ unsigned load(const unsigned* p) {
    unsigned r;
    asm("ld.global.nc.u32 %0, [%1];" : "=r"(r) : PTR_CONSTRAINT(p));
    return r;
}
"""


def test_an_asm_constraint_spelled_by_a_macro_parses_and_is_refused_as_ptx():
    s = parses(ASM)
    assert [(m.name, m.reason) for m in s.masks] == [("PTR_CONSTRAINT", "expansion")]
    asm = s.index.of_type("gnu_asm_input_operand")
    assert len(asm) == 1 and s.text_of(asm[0].child_by_field_name("value")) == "p"
    port, _ = translate(s, "hip")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP201"]  # located, not a parse error


UNDEFINED = """
#define MAKE_OP(name, op) \\
__device__ inline int name(int a, int b) { \\
    return a op b; \\
}

MAKE_OP(add_op, +)
MAKE_OP(sub_op, -)

#undef MAKE_OP

__global__ void k(int* x) { x[threadIdx.x] = add_op(x[threadIdx.x], 2) + sub_op(1, 3); }
"""


def test_a_helper_macro_undefined_after_its_uses_still_stands_in_the_way_at_them():
    s = parses(UNDEFINED)
    assert {m.name for m in s.masks} == {"MAKE_OP"}
    assert "MAKE_OP" not in s.macros  # what the file defines for its includers is unchanged
    port, text = hip(UNDEFINED)
    assert port.ok and "MAKE_OP(add_op, +)\n" in text


MEMBERS = """
template<typename a_t, typename b_t> struct pick_t { typedef a_t type_t; };

#define INHERIT(new_ver, old_ver) \\
  typedef typename pick_t<typename base_t::v##new_ver, v##old_ver>::type_t v##new_ver;

template<typename base_t>
struct box_t {
  typedef int v20;
  INHERIT(30, 20)
  INHERIT(35, 30)
  static int size() { return 4; }
};

__global__ void k(int* x) { x[threadIdx.x] = box_t<int>::size(); }
"""


def test_a_declaration_macro_in_a_class_body_parses():
    s = parses(MEMBERS)
    assert {m.name for m in s.masks} == {"INHERIT"}
    port, text = hip(MEMBERS)
    assert port.ok and "  INHERIT(30, 20)\n" in text


TYPE_MACRO = """
#if defined(__CUDA_ARCH__)
  #define SM_TAG sm_70
#else
  #define SM_TAG sm_00
#endif
#define LAUNCH_PARAMS_OF(box) \\
  typename box::SM_TAG

struct params_t { typedef int sm_00; typedef int sm_70; };

template<typename box_t>
struct launch_t {
  typedef LAUNCH_PARAMS_OF(box_t) sm_ptx;
  static int size() { return sizeof(sm_ptx); }
};

__global__ void k(int* x) { x[threadIdx.x] = launch_t<params_t>::size(); }
"""


def test_a_macro_that_stands_for_a_type_is_seen_as_its_expansion_where_it_fits():
    s = parses(TYPE_MACRO)
    m = [(m.name, m.reason, m.expansion) for m in s.masks]
    assert m == [("LAUNCH_PARAMS_OF", "expansion", "typename box_t::sm_00")]
    decl = [d for d in s.index.of_type("type_definition") if "sm_ptx" in s.text_of(d)]
    assert len(decl) == 1 and s.text_of(decl[0].child_by_field_name("declarator")) == "sm_ptx"
    port, text = hip(TYPE_MACRO)
    assert port.ok and "  typedef LAUNCH_PARAMS_OF(box_t) sm_ptx;\n" in text
    # the look-alike: an expansion longer than the use is never written (no byte may be added)
    long = TYPE_MACRO.replace("typename box::SM_TAG", "typename box::template rebind<box>::SM_TAG")
    assert src(long).syntax_errors() != []


COMMENTED = """
#define MIX(x0, x1) { \\
    unsigned t = x0; \\
    x0 = x1; /* swap */ \\
    x1 = t; \\
    /* */ \\
  }

__global__ void k(unsigned* x) {
    unsigned a = x[0], b = x[1];
    MIX(a, b);
    x[threadIdx.x] = a ^ b;
}
"""


def test_block_comments_inside_a_continued_define_do_not_end_it():
    s = parses(COMMENTED)
    assert s.text == textwrap.dedent(COMMENTED)
    assert "MIX" in s.macros and "unsigned t = x0" in s.macros["MIX"].body
    port, text = hip(COMMENTED)
    assert port.ok and "x0 = x1; /* swap */ \\\n" in text and "    /* */ \\\n" in text


PRAGMAS = """
__global__ void k(unsigned* x) {
    int j, l;
#pragma unroll 2
    for (j = 0; j < 2; ++j)
#pragma unroll 2
        for (l = 0; l < 2; ++l)
            x[j * 2 + l] += threadIdx.x;
    if (x[0])  // a comment
        #pragma unroll
        for (j = 0; j < 4; ++j)
            x[j] = 0;
}
"""


def test_a_pragma_standing_as_an_unbraced_loop_body_parses_and_stays():
    s = parses(PRAGMAS)
    loops = s.index.of_type("for_statement")
    assert len(loops) == 3
    outer = loops[0]
    assert outer.child_by_field_name("body").type == "for_statement"  # the inner loop is its body
    port, text = hip(PRAGMAS)
    assert port.ok and text.count("#pragma unroll") == 3


def test_a_latin1_byte_in_a_comment_is_read_one_in_code_or_a_literal_is_a_located_error(tmp_path):
    """ccminer's cuda_helper.h has a Latin-1 `ü` in a comment: nvcc reads no comment, so neither
    did the file's every includer get a port (the header was silently unreadable).  A byte that is
    not UTF-8 in a string literal would change meaning if transcoded: still the located error."""
    from kernelport.errors import KernelportError
    from kernelport.project import Options, Project

    head = b"// f\xfcr die Rotation\n#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n)))) /* gr\xf6\xdfer */\n"
    kernel = b'__global__ void k(unsigned* x) { x[threadIdx.x] = ROTL(x[0], 3); }\n'
    (tmp_path / "h.h").write_bytes(head)
    (tmp_path / "k.cu").write_bytes(b'#include "h.h"\n' + kernel)
    s = SourceFile.read(tmp_path / "h.h")
    assert s.text.startswith("// für die Rotation\n") and "/* größer */" in s.text and "ROTL" in s.macros
    assert Project(lambda p: Options()).file(tmp_path / "h.h") is not None  # what a run's includers read
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "hip")
    assert port.ok
    port, text = translate(SourceFile.read(tmp_path / "k.cu"), "metal")  # the header spliced in, as read
    assert port.ok and "// für die Rotation" in text
    (tmp_path / "bad.cu").write_bytes(b"// ok\n" + b'__device__ const char* s = "gr\xf6\xdfe";\n' + kernel)
    try:
        SourceFile.read(tmp_path / "bad.cu")
        raise AssertionError("a literal that is not UTF-8 was read")
    except KernelportError as e:
        assert "not valid UTF-8 (byte 0xf6)" in e.format() and ":2:31:" in e.format()
