"""An asm template spelled through object-like macros of string literals (kernelport/asm_templates.py, heldout96:
a flash-attention kernel's `#define FA2_MMA "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"` then
`asm(FA2_MMA " {%0,%1,%2,%3}, ..." : ...)` was KP201 while the same literal template ports): the port is the
literal template's, the function keeps CUDA's 32-lane warps as it does for the literal one, and lint says what
translate does.  A name with two different definitions (chosen by `#if`), a function-like macro or a macro of
code stays KP201 at its line: the instruction is never guessed."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

KERNEL = """\
#define PREFIX "mma.sync.aligned"
#define MMA PREFIX ".m16n8k16.row.col.f32.f16.f16.f32"  // the shape the kernel uses
__global__ void k(const unsigned int* a, const unsigned int* b, float* c, float* sums) {
    int warp = threadIdx.x / warpSize, lane = threadIdx.x % 32;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    asm volatile(TEMPLATE
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    float s = acc[0] + acc[1] + acc[2] + acc[3];
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) sums[warp] = s;
    c[threadIdx.x] = acc[0];
}
"""
OPERANDS = '" {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"'
LITERAL = KERNEL.replace("TEMPLATE", '"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"\n                 ' + OPERANDS)
MACRO = KERNEL.replace("TEMPLATE", "MMA " + OPERANDS)


def _port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), backend)


def _kernel(whole: str) -> str:
    body = whole[whole.index("__global__"):]
    return body.replace(" ".join(body.split("\n")[5].split()), "")  # (the literal's second template line)


def test_a_template_through_macros_ports_as_the_literal_template_does():
    port, whole = _port(MACRO)
    literal, lwhole = _port(LITERAL)
    assert port.ok and literal.ok, [d.format() for d in port.diagnostics + literal.diagnostics]
    call = ("kp_mma_m16n8k16_f32_f16(&acc[0], &acc[1], &acc[2], &acc[3], a[0], a[1], a[2], a[3], b[0], b[1], "
            "acc[0], acc[1], acc[2], acc[3]);")
    assert call in whole and call in lwhole, whole
    body = whole[whole.index("__global__"):]
    # the fragments are spread over 32 lanes: the warp index and the shuffle's reach stay CUDA's
    assert "threadIdx.x / 32," in body and "__shfl_xor(s, o, 32)" in body and "warpSize" not in body, body
    assert "kp_mma_m16n8_f32_f16" in whole  # the polyfill comes with the call


def test_the_port_compiles_for_gfx90a_and_gfx1030(tmp_path):
    from test_header_uses import _hipcc
    port, whole = _port(MACRO)
    r = _hipcc(tmp_path, whole)
    assert r.returncode == 0, r.stderr[-3000:]


@pytest.mark.parametrize("defines, why", [
    ('#if __CUDA_ARCH__ >= 800\n#define TWO "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"\n'
     '#else\n#define TWO "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"\n#endif\n', "two definitions"),
    ('#define TWO(x) "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"\n', "a function-like macro"),
    ('#define TWO mma_shape\n', "a macro of code, not literals"),
    ('', "an undefined name"),
])
def test_a_name_without_one_literal_meaning_stays_kp201(defines, why):
    code = defines + MACRO.replace("asm volatile(MMA ", "asm volatile(TWO ")
    port, _ = _port(code)
    line = code.splitlines().index("    asm volatile(TWO " + OPERANDS) + 1
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", line)], why


def test_the_same_two_definitions_are_one_meaning():
    """A file that defines the macro again with the same replacement (`#undef` between two kernels) ports."""
    code = MACRO + '#undef MMA\n#define MMA PREFIX ".m16n8k16.row.col.f32.f16.f16.f32"\n'
    port, whole = _port(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_mma_m16n8k16_f32_f16(" in whole


def test_lint_says_translate_ports_the_macro_template():
    from kernelport.lint import lint_text
    found = {f.code: f.message for f in lint_text(MACRO, "t.cu")}
    literal = {f.code: f.message for f in lint_text(LITERAL, "t.cu")}
    assert found == literal and "PT002" in found, (found, literal)


def test_a_header_s_macro_counts_every_definition_the_header_holds(tmp_path):
    """A header that defines the template two ways under its own `#if` (the include reads one) stays KP201; one
    definition there ports as the file's own does."""
    one = tmp_path / "one.h"
    one.write_text('#define HMMA "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"\n')
    two = tmp_path / "two.h"
    two.write_text('#ifdef SMALL\n#define HMMA "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"\n#else\n'
                   '#define HMMA "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"\n#endif\n')
    for header, ok in ((one, True), (two, False)):
        code = f'#include "{header.name}"\n' + MACRO.replace("asm volatile(MMA ", "asm volatile(HMMA ")
        from kernelport.macros import definitions
        macros = definitions(header.read_text(), str(header))  # (what the include walk gives: the last definition)
        port, whole = translate(SourceFile.from_text(code, "t.cu", macros), "hip")
        errors = [(d.code, d.location.line) for d in port.diagnostics if d.code == "KP201"]  # (this text alone:
        # lint's gate, which reads no include here, may add its own)
        assert errors == ([] if ok else [("KP201", code.splitlines().index("    asm volatile(HMMA " + OPERANDS) + 1)]), \
            (header.name, [d.format() for d in port.diagnostics])
        if ok:  # the function keeps CUDA's 32-lane warps, as with the file's own macro
            assert "threadIdx.x / 32," in whole[whole.index("__global__"):], whole


CVT = """\
#ifndef CVT_OP
#define CVT_OP "cvt.rn.f16.f32"  // the default: a build may choose another rounding
#endif
__global__ void halves(const float* x, unsigned short* y) {
    unsigned short h;
    asm(CVT_OP " %0, %1;" : "=h"(h) : "f"(x[threadIdx.x]));
    y[threadIdx.x] = h;
}
"""


@pytest.mark.parametrize("defines, ported", [
    ((), True),  # the file's own definition: the build's
    ((("CVT_OP", '"cvt.rn.f16.f32"'),), True),  # the run's -D, the same literal
    ((("CVT_OP", '"cvt.rz.f16.f32"'),), False),  # the build assembles rz: rn would round differently
    ((("CVT_OP", "RZ_OP"),), False),  # a name the run gives no literal for
])
def test_the_runs_define_of_a_template_macro_counts_beside_the_files(defines, ported):
    port, whole = translate(SourceFile.from_text(CVT, "t.cu"), "hip", defines=defines)
    if ported:
        assert port.ok and "h = kp_cvt_rn_f16_f32(x[threadIdx.x]);" in whole, [d.format() for d in port.diagnostics]
    else:  # main: the file's `#ifndef` default was ported whatever -D said
        assert not port.ok and [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == \
            [("KP201", 6)]
