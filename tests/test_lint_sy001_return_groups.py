"""One SY001 per early return that skips several barriers (issue 11, stop 62; kernelport/lint/return_groups.py).
heldout85's loudnorm kernel had 21 SY001 on one `if (... || c >= channels) return;`, one per barrier after it.
Now: one finding at the return naming the barriers (each a related location in JSON and SARIF); a return that
skips one barrier keeps the finding at the barrier; suppressions on the return's line or on a barrier's line
both keep working (a barrier's takes it out of the group and is not reported unused); severity unchanged."""
from __future__ import annotations

import json
import subprocess
import sys

from kernelport.lint.engine import lint_text
from kernelport.lint.formats import sarif

SRC = """\
__device__ void stage(float* s) { __syncthreads(); }
__global__ void k(float* x, int n) {
    __shared__ float s[256];
    int c = threadIdx.x;
    if (blockIdx.x != 0 || c >= n) return;
    s[c] = x[c];
    __syncthreads();
    x[c] = s[255 - c];
    __syncthreads();
    stage(s);
    if (c < n / 2) {
        __syncthreads();
    }
}
"""


def _sy001(text: str):
    return [f for f in lint_text(text, "t.cu") if f.code == "SY001"]


def test_one_finding_at_the_return_names_every_barrier_it_skips():
    got = _sy001(SRC)
    assert [(f.line, f.severity) for f in got] == [(5, "error"), (12, "error")]
    ret = got[0]
    assert "skips 3 block barriers after it (lines 7, 9, 10)" in ret.message
    assert [r.line for r in ret.related] == [7, 9, 10] and "`stage` executes a block barrier" in ret.related[2].message
    assert "under the thread-dependent condition `(c < n / 2)`" in got[1].message  # another cause: its own finding
    res = sarif(got)["runs"][0]["results"][0]
    assert [loc["physicalLocation"]["region"]["startLine"] for loc in res["relatedLocations"]] == [7, 9, 10]


def test_a_return_that_skips_one_barrier_keeps_the_finding_at_the_barrier():
    src = SRC.replace("    x[c] = s[255 - c];\n    __syncthreads();\n    stage(s);\n", "    x[c] = s[255 - c];\n")
    got = _sy001(src)
    assert [f.line for f in got] == [7, 10] and "after the thread-dependent early `return` on line 5" in got[0].message


def test_suppressions_on_either_line():
    at_return = SRC.replace("c >= n) return;", "c >= n) return;  // kernelport: ignore[SY001] one block only")
    assert [f.line for f in _sy001(at_return)] == [12]
    found = lint_text(at_return, "t.cu")
    assert not [f for f in found if f.code == "KP003"]
    at_barrier = SRC.replace("    x[c] = s[255 - c];\n    __syncthreads();",
                             "    x[c] = s[255 - c];\n    __syncthreads();  // kernelport: ignore[SY001] checked")
    found = lint_text(at_barrier, "t.cu")
    got = [f for f in found if f.code == "SY001"]
    assert [f.line for f in got] == [5, 12] and "skips 2 block barriers after it (lines 7, 10)" in got[0].message
    assert not [f for f in found if f.code == "KP003"]  # the barrier's suppression is used
    two = at_barrier.replace("    stage(s);", "    stage(s);  // NOLINT(SY001)")
    got = [f for f in lint_text(two, "t.cu") if f.code in ("SY001", "KP003")]
    assert [(f.code, f.line) for f in got] == [("SY001", 7), ("SY001", 12)]  # one left: at its barrier
    assert "after the thread-dependent early `return` on line 5" in got[0].message


def test_the_exit_code_is_the_rules(tmp_path):
    p = tmp_path / "t.cu"
    p.write_text(SRC)
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "--select", "SY001", "--format", "json",
                        str(p)], capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    assert [(f["line"], len(f["related"])) for f in json.loads(r.stdout)] == [(5, 3), (12, 0)]
