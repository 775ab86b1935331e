"""A member's head split by `#ifdef` inside an include guard, and statements passed to a macro that selects one
argument (issue 11: amrex's AMReX_Scan.H, tests/labelled13, was hidden whole: KP008 over lines 2-663).

Two causes, each reduced here to a few lines written for this test:
- `#ifndef GUARD` / `#define GUARD` reads GUARD as defined (the file's macros are read whole), so the nested
  configurations' preferred reading of the guard, and the repair's first variant, was "not taken": every line
  hidden, its error gone (kernelport.macro_groups.defines_itself: the first compile takes such a branch).
- `SEL( uint64_t s = __ballot(p);, unsigned s = __ballot_sync(m, p); );` with `#define SEL(a, b) b` under the
  run's -D: the `arguments` mask blanked both statements; now the selected one stays (kernelport.selector_macros).
Look-alikes: a guarded split head that parses in no configuration stays a located KP008; a guard whose name is
also defined outside its branch is not read as taken; a macro whose body is not one parameter is blanked as before.
"""
from __future__ import annotations

from kernelport.lint.engine import lint_text
from kernelport.macro_groups import defines_itself, groups

HEAD = """struct Status
{
    __device__
#ifdef USE_SYCL
    void write (char a, int v, int item) {
#else
    void write (char a, int v) {
#endif
        flag = a + v;
    }
    int flag;
};
"""
KERNEL = """__global__ void k(unsigned *o) {
    unsigned m = __ballot_sync(0xffffffff, threadIdx.x < 3);
    o[threadIdx.x] = m;
}
"""


def _guarded(body: str, guard: str = "STATUS_H_") -> str:
    return f"#ifndef {guard}\n#define {guard}\n{body}#endif\n"


def _codes(findings) -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in findings)


def test_a_guarded_split_head_parses_as_the_first_compile_reads_it():
    text = _guarded(HEAD + KERNEL)
    got = _codes(lint_text(text, "status.cuh"))
    assert ("WS008", 16) in got  # the kernel after the split head is linted
    assert not [c for c in got if c[0] == "KP008"]


def test_the_guard_s_own_definition_marks_it_and_nothing_else_does():
    text = _guarded(HEAD).encode()
    macros = {"STATUS_H_": object()}
    g = next(g for g in groups(text) if g.cond == "ifndef STATUS_H_")
    assert defines_itself(g, macros, text)
    again = ("#define STATUS_H_\n" + _guarded(HEAD)).encode()  # defined before the test too: not the first compile's
    g2 = next(g for g in groups(again) if g.cond == "ifndef STATUS_H_")
    assert not defines_itself(g2, macros, again)
    inner = next(g for g in groups(text) if g.cond == "ifdef USE_SYCL")
    assert not defines_itself(inner, macros, text)  # `#ifdef`: no guard


def test_a_guarded_split_head_that_parses_in_no_configuration_stays_a_located_kp008():
    broken = HEAD.replace("int item) {", "int item, ) {").replace("char a, int v) {", "char a, int v, ) {")
    got = [f for f in lint_text(_guarded(broken + KERNEL), "status.cuh") if f.code.startswith("KP")]
    # the parse error where it is (main hid the whole guard instead: KP008 at line 2, the kernel unlinted)
    assert [(f.code, f.line, f.column) for f in got] == [("KP001", 9, 31)]
    assert "syntax error" in got[0].message


LOOKBACK = """
__global__ void lookback(const char *status, int *out)
{
    int lane = threadIdx.x % warpSize;
    HIP_OR_CUDA( unsigned long long const found = __ballot(status[lane] == 'p');,
                 unsigned const found = __ballot_sync(0xffffffff, status[lane] == 'p'); );
    unsigned int bit = 0x1u;
    for (int i = 1; i < warpSize; ++i) {
        bit <<= 1;
        if (found & bit) { out[0] = i; break; }
    }
}
"""


def _lint_selected(definition: str) -> list[tuple[str, int]]:
    return _codes(lint_text(f"#define HIP_OR_CUDA(a, b) {definition}\n" + LOOKBACK, "scan.cu"))


def test_a_selector_macro_s_chosen_statement_is_parsed_and_linted():
    got = _lint_selected("b")  # CUDA's definition (amrex's under -DAMREX_USE_CUDA)
    assert ("WS010", 8) in got  # the 32-bit lane bit walked over the ballot the chosen statement declares
    assert ("WS007", 7) in got  # CUDA's statement: the 32-bit full mask of its ballot
    hip = _lint_selected("a")
    assert ("WS010", 8) in hip and not [c for c in hip if c[1] == 7]  # HIP's statement: no mask to flag


def test_a_macro_that_is_no_single_parameter_still_blanks_its_arguments():
    got = _lint_selected("do { b } while (0)")
    assert not [c for c in got if c[1] in (5, 6, 8)]  # its arguments blank to the parse, as on main
