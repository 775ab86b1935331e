"""A finding's related locations say what they are: `site` (the same 32-lane assumption is written there;
a fix changes that line) or `context` (a line that explains the finding and may be right), and the recall
bench counts only sites as claims (issue 11, stop 50).

SARIF's relatedLocations are places "relevant to understanding the result", not places where it occurs.
WS016 names the `warpSize` read of a function that also hardcodes 32 ("warpSize used here"): in Apache
Mahout's block reductions (tests/labelled26) that is `lane = threadIdx.x & (warpSize - 1)`, right on a
64-lane wave; the hazard is the `>> 5` beside it.  Stop 42's scorer counted every related line as a claim,
so the correct lane line counted as a flagged look-alike.  WS001's related uses of a hardcoded 32 are sites:
each use assumes 32 lanes ("its 3 uses assume 32-lane warps"); so is WS012's condition that leaves part of
the wave out (a fix the message offers changes it).  finding.Related states the rule."""
from __future__ import annotations

import json
from pathlib import Path

from kernelport.lint import engine
from kernelport.lint.finding import ROLES
from kernelport.lint.formats import sarif
from labelled_support import lint_recall
from test_lint_slots_warp32 import _src

MIXED = _src()  # Mahout's block reduction: `lane = threadIdx.x & (warpSize - 1)`, `warp_id = threadIdx.x >> 5`
LANE, WARP_ID = 7, 8  # the correct lane line, the `>> 5` hazard

CONSTANT = """\
#define WARP_SIZE 32
__global__ void k(float* x) {
    int lane = threadIdx.x % WARP_SIZE;
    int warp = threadIdx.x / WARP_SIZE;
    x[warp] = __shfl_sync(0xffffffffffffffffull, x[lane], 0);
}
"""


def _finding(text: str, code: str):
    return next(f for f in engine.lint_text(text, "k.cu") if f.code == code)


def test_ws016_names_the_warpsize_lane_as_context_at_its_own_hazard():
    ws016 = _finding(MIXED, "WS016")
    assert ws016.line == WARP_ID
    assert [(r.line, r.role) for r in ws016.related] == [(LANE, "context")]
    # the look-alike: no finding starts on the lane line, and nothing names it as a site
    found = engine.lint_text(MIXED, "k.cu")
    assert not [f for f in found if f.line == LANE]
    assert not [r for f in found for r in f.related if r.line == LANE and r.role == "site"]


def test_a_hardcoded_constants_uses_are_sites():
    ws001 = _finding(CONSTANT, "WS001")
    assert ws001.line == 1 and {(r.line, r.role) for r in ws001.related} == {(3, "site"), (4, "site")}


PARTIAL = """\
__global__ void k(float* x) {
    float v = x[threadIdx.x];
    if (threadIdx.x < 32) {
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
        x[threadIdx.x] = v;
    }
}
"""  # every lane's result stored (lane 0's alone would be correct at wave 64: kernelport/lint/leaderfolds.py)


ROWS_AND_WAVE = """\
#define WARP_SIZE 32
__global__ void rows(float* x) {
    int lane = threadIdx.x % WARP_SIZE;
    float v = x[threadIdx.y * WARP_SIZE + lane];
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    if (lane == 0) x[threadIdx.y] = v;
}
__global__ void wave(float* x, float* out) {
    __shared__ float part[WARP_SIZE];
    int lane = threadIdx.x % WARP_SIZE;
    int warp = threadIdx.x / WARP_SIZE;
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    out[threadIdx.x] = part[lane];
}
void launch_rows(float* x) { rows<<<1, dim3(32, 4)>>>(x); }
void launch_wave(float* x, float* o) { wave<<<1, 256>>>(x, o); }
"""


def test_a_constants_uses_in_a_logical_32_lane_group_are_context():
    """A logical 32-lane group keeps its width: where warpwidth decides a function's group logical (rows of
    32 from the launch `dim3(32, 4)`, the decision _logical_width and translate read), a use of WARP_SIZE
    there sizes the row, which no wave-64 fix changes: context.  The same constant's uses in the kernel
    launched with 256 threads (per-warp slots `part[WARP_SIZE]` read by every lane) stay sites, and the
    finding stays at the definition."""
    ws001 = _finding(ROWS_AND_WAVE, "WS001")
    assert ws001.line == 1
    assert [(r.line, r.role) for r in ws001.related] == [(3, "context"), (4, "context"), (5, "context"),
                                                          (9, "site"), (10, "site"), (11, "site")]
    whole = ROWS_AND_WAVE.replace("dim3(32, 4)", "256")  # the look-alike's rows made whole blocks: every use a site
    assert {r.role for r in _finding(whole, "WS001").related} == {"site"}


def test_the_condition_that_leaves_part_of_the_wave_out_is_a_site():
    """WS012: `threadIdx.x < 32` is half a 64-lane wave; the fix changes the condition (or moves the
    shuffle out of it), so the condition is where the assumption is written, not mere context."""
    ws012 = _finding(PARTIAL, "WS012")
    assert ws012.line == 4 and [(r.line, r.role) for r in ws012.related] == [(3, "site")]


def test_every_related_place_has_a_known_role_in_json_and_sarif():
    found = engine.lint_text(MIXED, "k.cu") + engine.lint_text(CONSTANT, "c.cu") + engine.lint_text(PARTIAL, "p.cu")
    roles = [r["role"] for f in found for r in f.to_json()["related"]]
    assert set(roles) == set(ROLES)
    log = sarif(found)
    props = [loc["properties"]["role"] for res in log["runs"][0]["results"] for loc in res.get("relatedLocations", ())]
    assert sorted(props) == sorted(roles)


def _scored(tmp_path: Path, related: list[dict]) -> dict:
    """bench/lint_recall.measure on one file: a hazard on line 2, a look-alike on line 3, one finding on
    line 2 naming line 3 (and line 4, an unlabelled line) as `related`."""
    b = lint_recall()
    (tmp_path / "a.cu").write_text("int a;\nint b = x >> 5;\nint c = x & (warpSize - 1);\nint d;\n")
    (tmp_path / "labels.tsv").write_text("hazard\ta.cu\t2\tp\tc\twhy\tint b = x >> 5;\n"
                                         "lookalike\ta.cu\t3\tp\tc\twhy\tint c = x & (warpSize - 1);\n")

    def run(paths, flags=()):
        p = str(paths[-1])
        return p, [{"code": "WS016", "severity": "warning", "line": 2, "path": p, "message": "",
                    "related": [dict(r, path=p) for r in related]}], 0, ""
    return b.measure(run, b.read_labels(tmp_path / "labels.tsv"), tmp_path, jobs=1)["lint"]


def test_the_scorer_counts_a_related_site_and_not_a_related_context(tmp_path):
    ctx = _scored(tmp_path, [{"line": 3, "column": 5, "message": "warpSize used here", "role": "context"}])
    assert (ctx["found"], ctx["false_positives"], ctx["context_only"]["lookalike"]) == (1, 0, 1)
    site = _scored(tmp_path, [{"line": 3, "column": 5, "message": "use of W", "role": "site"},
                              {"line": 4, "column": 1, "message": "use of W", "role": "site"}])
    assert (site["found"], site["false_positives"], site["unlabelled_flagged_lines"]) == (1, 1, 1)
    # a build from before roles (no "role" key) is scored by stop 42's rule: every related line claims
    old = _scored(tmp_path, [{"line": 3, "column": 5, "message": "warpSize used here"}])
    assert (old["found"], old["false_positives"]) == (1, 1)
    assert json.dumps(old)  # the result stays JSON (bench/lint_recall.py --json)
