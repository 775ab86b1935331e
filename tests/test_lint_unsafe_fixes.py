"""`--unsafe-fixes` (issue 17): rewrites that change a type on NVIDIA are a second tier, offered
marked unsafe and applied only when asked for; neither tier ever adds a finding."""
from __future__ import annotations

import json
from collections import Counter

from kernelport.lint.engine import lint_text
from kernelport.lint.rule import all_rules

from test_lint_cli import kp

# One safe fix (`% 32` -> `% warpSize`) and one unsafe one (`1u << lane` -> `1ull << lane`).
MIXED = ("__global__ void rank(const float* in, int* out) {\n"
         "    int lane = threadIdx.x % 32;\n"
         "    unsigned long long mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);\n"
         "    out[threadIdx.x] = __popcll(mask & ((1u << lane) - 1));\n"
         "}\n")
SAFE_ONLY = MIXED.replace("threadIdx.x % 32", "threadIdx.x % warpSize")
BOTH = SAFE_ONLY.replace("(1u << lane)", "(1ull << lane)")
# Look-alike: a bitset word built with `1u << (i & 31)` meets no lane mask: no finding, no fix.
BITSET = ("__global__ void set_bits(const float* x, unsigned* bits, int n) {\n"
          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "    if (i < n && x[i] > 0.5f) atomicOr(&bits[i >> 5], 1u << (i & 31));\n"
          "}\n")


def codes(path) -> Counter:
    r = kp("lint", path, "--format", "json", "--exit-zero")
    return Counter(f["code"] for f in json.loads(r.stdout))


def test_fix_applies_only_the_safe_fix_and_counts_the_hidden_one(tmp_path):
    f = tmp_path / "rank.cu"
    f.write_text(MIXED)
    before = codes(f)
    r = kp("lint", f, "--fix", "--show-fixes", "--format", "concise")
    assert f.read_text() == SAFE_ONLY
    assert "Fixed in " in r.stderr and r.stderr.count("(unsafe)") == 0
    assert "Fixed 1 finding in 1 file; 1 hidden (use --unsafe-fixes)." in r.stderr
    assert "1 hidden (use --unsafe-fixes)" in r.stderr.splitlines()[-1]  # the summary says it too
    assert not codes(f) - before  # no finding added


def test_fix_with_unsafe_fixes_applies_both(tmp_path):
    f = tmp_path / "rank.cu"
    f.write_text(MIXED)
    before = codes(f)
    r = kp("lint", f, "--fix", "--unsafe-fixes", "--show-fixes", "--format", "concise")
    assert f.read_text() == BOTH
    assert "1 × WS002, 1 × WS010 (unsafe)" in r.stderr
    assert "Fixed 2 findings in 1 file (1 unsafe)." in r.stderr and "hidden" not in r.stderr
    after = codes(f)
    assert not after - before and after["WS010"] == 0 and after["WS002"] == 0


def test_diff_marks_and_hides_unsafe_fixes(tmp_path):
    f = tmp_path / "rank.cu"
    f.write_text(MIXED)
    r = kp("lint", f, "--diff")
    assert r.returncode == 1 and f.read_text() == MIXED
    assert "+    int lane = threadIdx.x % warpSize;" in r.stdout and "1ull" not in r.stdout
    assert "Would fix 1 finding in 1 file; 1 hidden (use --unsafe-fixes)." in r.stderr
    r = kp("lint", f, "--diff", "--unsafe-fixes", "--show-fixes")
    assert r.returncode == 1 and f.read_text() == MIXED
    assert "+    out[threadIdx.x] = __popcll(mask & ((1ull << lane) - 1));" in r.stdout
    assert "Would fix 2 findings in 1 file (1 unsafe)." in r.stderr and "WS010 (unsafe)" in r.stderr


def test_json_and_sarif_carry_the_applicability(tmp_path):
    f = tmp_path / "rank.cu"
    f.write_text(MIXED)
    data = json.loads(kp("lint", f, "--format", "json").stdout)
    tiers = {d["code"]: d["fix"]["applicability"] for d in data if d["fix"]}
    assert tiers == {"WS002": "safe", "WS010": "unsafe"}
    sarif = json.loads(kp("lint", f, "--format", "sarif").stdout)
    got = {res["ruleId"]: res["fixes"][0]["properties"]["applicability"]
           for res in sarif["runs"][0]["results"] if res.get("fixes")}
    assert got == tiers


def test_full_format_and_summary_mark_the_unsafe_fix(tmp_path):
    f = tmp_path / "rank.cu"
    f.write_text(MIXED)
    r = kp("lint", f)
    assert "= unsafe fix: replace `1u` with `1ull` (kernelport lint --fix --unsafe-fixes)" in r.stdout
    assert "= fix: replace `32` with `warpSize` (kernelport lint --fix)" in r.stdout
    assert "1 fixable with `kernelport lint --fix`; 1 hidden (use --unsafe-fixes)." in r.stderr
    r = kp("lint", f, "--unsafe-fixes")
    assert "2 fixable with `kernelport lint --fix --unsafe-fixes`." in r.stderr


def test_look_alike_has_no_fix_of_either_tier(tmp_path):
    f = tmp_path / "bitset.cu"
    f.write_text(BITSET)
    r = kp("lint", f, "--diff", "--unsafe-fixes")
    assert r.returncode == 0 and r.stdout == "" and f.read_text() == BITSET


def test_ballot_widened_only_as_unsafe_and_then_its_popc_fix_is_safe():
    src = ("__global__ void count(const float* x, int* out) {\n"
           "    unsigned m = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);\n"
           "    out[threadIdx.x] = __popc(m);\n"
           "}\n")
    fixes = {f.code: f.fix.applicability for f in lint_text(src, "t.cu") if f.fix}
    assert fixes == {"WS008": "unsafe", "WS009": "safe"}
    # a ballot stored in a signed `int`: `__popcll` of it would sign-extend, so no safe fix there
    signed = src.replace("unsigned m", "int m")
    fixes = {f.code: f.fix.applicability for f in lint_text(signed, "t.cu") if f.fix}
    assert fixes == {"WS008": "unsafe"}


def test_every_fix_has_its_rules_tier_and_rule_lists_it():
    for r in all_rules():
        for before, _ in r.fixes:
            for f in lint_text(before, "t.cu", select=[r.code]):
                if f.code == r.code and f.fix is not None:
                    assert f.fix.applicability == r.fix_applicability, r.code
    out = kp("rule").stdout.splitlines()
    assert any(l.startswith("WS010") and " fix! " in l for l in out)
    assert any(l.startswith("WS002") and " fix  " in l for l in out)
    assert kp("rule", "WS010").stdout.startswith("WS010 lane-bit-32-bit (unsafe fix: --fix --unsafe-fixes)")


def test_unsafe_fixes_never_add_a_finding_in_the_examples(tmp_path):
    import shutil
    from test_lint_cli import EXAMPLES
    for name in ("stream_compact.cu", "warp_vote.cu", "softmax.cu"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    before = {p.name: codes(p) for p in tmp_path.iterdir()}
    r = kp("lint", tmp_path, "--fix", "--unsafe-fixes", "--show-fixes", "--format", "concise")
    assert "WS008 (unsafe)" in r.stderr and "WS010 (unsafe)" in r.stderr
    for p in tmp_path.iterdir():
        assert not codes(p) - before[p.name], p.name
    assert "unsigned long long" in (tmp_path / "warp_vote.cu").read_text().split("\n")[60]


def test_statistics_count_unsafe_fixes_only_when_asked(tmp_path):
    f = tmp_path / "rank.cu"
    f.write_text(MIXED)
    rows = {r["code"]: r for r in json.loads(kp("lint", f, "--statistics", "--format", "json").stdout)}
    assert rows["WS010"]["fixable"] == 0 and rows["WS002"]["fixable"] == 1
    rows = {r["code"]: r for r in json.loads(kp("lint", f, "--statistics", "--format", "json",
                                                "--unsafe-fixes").stdout)}
    assert rows["WS010"]["fixable"] == 1
    table = kp("lint", f, "--statistics").stdout
    assert "WS010\t[-] lane-bit-32-bit" in table and "WS002\t[*] lane-index-from-32" in table
    assert "WS010\t[*]" in kp("lint", f, "--statistics", "--unsafe-fixes").stdout
