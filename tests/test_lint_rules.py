"""Every rule against its own fixtures: what it must flag (on the marked lines), the look-alikes it
must leave alone, an inline suppression, and its fix where it has one."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text
from kernelport.lint.fix import apply_edits
from kernelport.lint.rule import FAMILIES, all_rules

RULES = all_rules()
LANG = {"cu": "cuda", "hip": "hip", "metal": "metal", "py": "python"}
PATH = {"cu": "t.cu", "hip": "t.hip", "metal": "t.metal", "py": "t.py"}


def _lint(example, **kw):
    return lint_text(example.clean, PATH[example.lang], LANG[example.lang], targets=example.targets, **kw)


def _cases(kind):
    return [pytest.param(r, i, e, id=f"{r.code}-{i}") for r in RULES for i, e in enumerate(getattr(r, kind))]


def test_every_rule_is_documented_with_fixtures():
    assert len(RULES) >= 25
    codes = [r.code for r in RULES]
    assert len(set(codes)) == len(codes) and len({r.name for r in RULES}) == len(RULES)
    for r in RULES:
        assert r.family in FAMILIES and r.summary.endswith(".") and len(r.docs) > 120, r.code
        if r.code not in ("KP002", "KP006"):  # engine-only: no source can trigger them on purpose
            assert r.flags, f"{r.code} has no example it must flag"
        if r.family != "KP":
            assert r.passes, f"{r.code} has no look-alike it must leave alone"
        assert bool(r.fixes) == r.fixable, r.code


@pytest.mark.parametrize("rule, i, example", _cases("flags"))
def test_rule_flags_the_marked_lines(rule, i, example):
    findings = _lint(example)
    got = sorted({f.line for f in findings if f.code == rule.code})
    assert got == example.marked_lines(), [(f.line, f.code, f.message) for f in findings]
    for f in findings:
        if f.code == rule.code:
            assert f.severity in ("error", "warning", "info") and f.name == rule.name and f.message


@pytest.mark.parametrize("rule, i, example", _cases("passes"))
def test_rule_leaves_look_alikes_alone(rule, i, example):
    findings = _lint(example)
    assert not [f for f in findings if f.code == rule.code], [(f.line, f.message) for f in findings]


SUPPRESSIBLE = [pytest.param(r, id=r.code) for r in RULES if r.family != "KP" and r.flags]


@pytest.mark.parametrize("rule", SUPPRESSIBLE)
def test_inline_suppression_with_a_reason(rule):
    example = rule.flags[0]
    lines = example.clean.splitlines()
    for n in example.marked_lines():
        lines[n - 1] += f"  // kernelport: ignore[{rule.code}] fixture for the suppression test"
    findings = lint_text("\n".join(lines), PATH[example.lang], LANG[example.lang])
    assert not [f for f in findings if f.code == rule.code]
    assert not [f for f in findings if f.code in ("KP003", "KP004", "KP005")], findings


@pytest.mark.parametrize("rule", SUPPRESSIBLE)
def test_nolint_nextline_suppression(rule):
    example = rule.flags[0]
    out = []
    for n, line in enumerate(example.clean.splitlines(), 1):
        if n in example.marked_lines():
            out.append(f"// NOLINTNEXTLINE({rule.code})")
        out.append(line)
    findings = lint_text("\n".join(out), PATH[example.lang], LANG[example.lang])
    assert not [f for f in findings if f.code == rule.code]


def fix_text(code: str, rule_code: str) -> str:
    for _ in range(5):
        findings = lint_text(code, "t.cu", "cuda", select=[rule_code])
        edits = [e for f in findings if f.fix for e in f.fix.edits]
        if not edits:
            break
        code, _ = apply_edits(code, edits)
    return code


FIXES = [pytest.param(r, b, a, id=f"{r.code}-{i}") for r in RULES for i, (b, a) in enumerate(r.fixes)]


@pytest.mark.parametrize("rule, before, after", FIXES)
def test_rule_fix(rule, before, after):
    assert fix_text(before, rule.code) == after
    # A fixed file has no finding of that rule left that a fix could address.
    assert not [f for f in lint_text(after, "t.cu", "cuda", select=[rule.code]) if f.fix]


def test_ws007_warns_only_for_a_target_whose_sync_intrinsics_take_64_bit_masks():
    # HIP's do (ROCm >= 6.2): a warning naming HIP's mask-less form; Metal: information; CUDA's own
    # 32-bit masks are right, so a CUDA-only lint says nothing
    src = "__device__ float s(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }\n"
    found = lambda t: [(f.severity, "`__shfl_xor`" in f.message)  # noqa: E731
                       for f in lint_text(src, "t.cu", "cuda", targets=t) if f.code == "WS007"]
    assert found({"hip-cdna"}) == [("warning", True)]
    assert found({"metal"}) == [("info", True)]
    assert found({"cuda"}) == []


def test_ws014_is_an_error_only_where_a_32_wide_amd_gpu_is_a_target():
    """64 for every AMD GPU is wrong on RDNA (wave 32): an error with hip-rdna among the targets, a
    warning for CDNA alone (right by luck), nothing for CUDA (the AMD branch is never built)."""
    src = ("#ifdef __HIP_PLATFORM_AMD__\n#define WARP_SIZE 64\n#else\n#define WARP_SIZE 32\n#endif\n"
           "__global__ void k(float* x) { x[threadIdx.x % WARP_SIZE] = 0; }\n")
    found = lambda t: [(f.severity, f.line) for f in lint_text(src, "t.cu", "cuda", targets=t)  # noqa: E731
                       if f.code == "WS014"]
    assert found({"hip-rdna"}) == found({"cuda", "hip-rdna"}) == [("error", 2)]
    assert found({"hip-cdna"}) == found({"cuda", "hip-cdna"}) == [("warning", 2)]
    assert found({"cuda"}) == found({"metal"}) == []


@pytest.mark.parametrize("decl,flagged", [("typedef unsigned int mask_t;", True), ("using mask_t = unsigned int;", True),
                                          ("typedef unsigned long long mask_t;", False)])
def test_ws008_sees_a_ballot_stored_in_a_32_bit_type_through_its_alias(decl, flagged):
    """`mask_t b = __ballot_sync(...)`: a typedef or using alias of a 32-bit type holds half a 64-lane
    ballot as the type itself would; an alias of a 64-bit type holds all of it."""
    src = (decl + "\n__global__ void k(const float* x, int* out) {\n"
           "    mask_t b = __ballot_sync(0xffffffff, x[threadIdx.x] > 0);\n    out[threadIdx.x] = __popc(b);\n}\n")
    found = [f.line for f in lint_text(src, "t.cu", "cuda", targets={"hip-cdna"}) if f.code == "WS008"]
    assert found == ([3] if flagged else [])


METAL_HELPER = """#include <metal_stdlib>
using namespace metal;
void stage(threadgroup float* s, uint tid, uint n) {
    if (COND) {
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}
kernel void k(device float* x [[buffer(0)]], constant uint& n [[buffer(1)]],
              uint tid [[thread_position_in_threadgroup]]) {
    threadgroup float s[256];
    s[tid] = x[tid];
    stage(s, tid, n);
}
"""


@pytest.mark.parametrize("cond, flagged", [("tid < 3", True), ("n < 3", False)])
def test_sy001_reads_every_function_of_a_metal_file_as_gpu_code(cond, flagged):
    """A Metal helper has no `__device__`: every function of a Metal file runs on the GPU, so a
    barrier under a thread-dependent condition in a plain helper is flagged; under a condition on
    a uniform parameter it is not."""
    found = [f for f in lint_text(METAL_HELPER.replace("COND", cond), "t.metal", "metal") if f.code == "SY001"]
    assert [f.line for f in found] == ([5] if flagged else [])
    assert all(f.message.startswith("`threadgroup_barrier()` is reached") for f in found)  # the file's barrier
