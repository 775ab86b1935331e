"""WS013 in a class's constant member initializers (review of h/heldout88's lint/membernames.py; issue 11,
lint recall; snippets written for the test).

h/heldout88 reads a class's own `warpSize` member as the project's constant inside the class.  That is
right for `static constexpr int warpSize = 32;`, but `static constexpr int warpSize = ::warpSize;` is the
run-time built-in in a constant expression: main read its `::warpSize` as the member too (the climb to
the class ran for a global-scope name) and reported nothing in the class, where before the merge its
static_assert was reported.  A class's `static constexpr` or `static const` member's initializer is now a
constant-expression context (it was none: `static constexpr int W = warpSize;` in a class was silent).
Look-alikes: a non-static member's default initializer (`int w = warpSize;`, run at construction), and
`static constexpr int warpSize = 32;` with its uses, stay quiet.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HAZARDS = """\
struct Cfg { static constexpr int warpSize = ::warpSize; };
struct Cfg2 { static constexpr int W = warpSize; };
struct Cfg3 { static const int W = warpSize; };
__global__ void k(float *x) { x[threadIdx.x % Cfg::warpSize] = Cfg2::W + Cfg3::W; }
"""

QUIET = """\
struct Own { static constexpr int warpSize = 32; static_assert(warpSize == 32, "32"); int a[warpSize]; };
struct Run { int w = warpSize; int n; };
__global__ void k(float *x) { Run r; x[threadIdx.x % Own::warpSize] = r.w; }
"""


def _ws013(tmp_path: Path, text: str) -> list[tuple[int, int]]:
    f = tmp_path / "k.cu"
    f.write_text(text)
    out = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "--select", "WS013", "--format", "json",
                          str(f)], capture_output=True, text=True).stdout
    return sorted((d["line"], d["column"]) for d in json.loads(out))


def test_the_builtin_in_a_classs_constant_member_initializer_is_reported(tmp_path: Path):
    assert _ws013(tmp_path, HAZARDS) == [(1, 48), (2, 40), (3, 36)]


def test_a_classs_own_constant_and_a_default_member_initializer_stay_quiet(tmp_path: Path):
    assert _ws013(tmp_path, QUIET) == []
