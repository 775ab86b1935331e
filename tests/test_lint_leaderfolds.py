"""A ladder from 16 under `tid < 32` over the first 32 threads, whose lane-0 result alone is used, is correct at
wave 64 (kernelport/lint/leaderfolds.py): no WS004, no WS012 (heldout90/91's Bridge++ block reductions: 44 false
findings).  Every look-alike keeps both findings: all lanes holding data (`tid < 64`, no guard), a guard on
threadIdx.y, the x index in a 2D block, a result every lane reads, a ladder from `warpSize / 2`, a second guard,
an early return before it, a reference parameter written, a guard macro with two values; a header whose guard macro
its includer's include defines is read through the run's tree as translate reads it."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.lint import engine

KERNEL = """\
#define WARP_LENGTH 32
__global__ void red(const float* x, float* red{params}) {{
    extern __shared__ float sdata[];
    const int tid = {tid};
    float sum = x[blockIdx.x * blockDim.x + tid];
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s >= WARP_LENGTH; s >>= 1) {{
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }}
    {before}
    if ({guard}) {{
        sum = sdata[tid];
        for (int offset = {start}; offset > 0; offset >>= 1)
            sum {op} {shfl}(0xffffffff, sum, offset);
        {after}
    }}
}}
"""
LADDER, SHUFFLE = 15, 16
BASE = dict(params="", tid="threadIdx.x", before="", guard="tid < WARP_LENGTH", start="16", op="+=",
            shfl="__shfl_down_sync", after="if (tid == 0) red[blockIdx.x] = sum;")

QUIET = {
    "Bridge++'s shape": {},
    "a literal 32": dict(guard="tid < 32"),
    "tid <= 31": dict(guard="tid <= 31"),
    "32 > tid": dict(guard="32 > tid"),
    "the linear thread index": dict(tid="threadIdx.y * blockDim.x + threadIdx.x"),
    "an xor ladder": dict(shfl="__shfl_xor_sync"),
    "a leader test !tid": dict(after="if (!tid) red[blockIdx.x] = sum;"),
    "the raw x index": dict(guard="threadIdx.x < 32", after="if (threadIdx.x == 0) red[blockIdx.x] = sum;"),
}
LOUD = {
    "all 64 lanes hold data": dict(guard="tid < 64"),
    "a guard on threadIdx.y": dict(guard="threadIdx.y < 32", after="if (threadIdx.y == 0) red[blockIdx.x] = sum;"),
    "the x index in a 2D block": dict(before="sdata[threadIdx.y] = 0;"),
    "every lane stores its result": dict(after="red[tid] = sum;"),
    "a broadcast after the ladder": dict(after="red[blockIdx.x] = __shfl_sync(0xffffffff, sum, 0);"),
    "a result read after the guard": dict(after="} { red[tid] = sum;"),
    "a second guard": dict(guard="tid < 32 && tid % 2 == 0"),
    "an early return before": dict(before="if (tid == 7) return;"),
    "a reference parameter": dict(params=", float& out", after="out = sum;"),
    "a step some lanes skip": dict(op="+= (tid & 1) ? 0.0f :"),
    "a thread index reassigned": dict(before="int t2 = threadIdx.x; t2 += 32;", guard="t2 < 32"),
}


def _findings(tmp_path: Path, text: str) -> set[tuple[int, str]]:
    p = tmp_path / "k.cu"
    p.write_text(text)
    return {(f.line, f.code) for r in engine.lint_paths([p], jobs=1) for f in r.findings}


@pytest.mark.parametrize("case", QUIET.values(), ids=QUIET.keys())
def test_leader_fold_of_32_partials_is_silent(tmp_path, case):
    got = _findings(tmp_path, KERNEL.format(**{**BASE, **case}))
    assert (LADDER, "WS004") not in got and (SHUFFLE, "WS012") not in got, got
    assert (SHUFFLE, "WS007") in got  # the 32-bit mask stays a finding: HIP's _sync needs 64 bits


@pytest.mark.parametrize("case", LOUD.values(), ids=LOUD.keys())
def test_look_alikes_keep_ws004(tmp_path, case):
    got = _findings(tmp_path, KERNEL.format(**{**BASE, **case}))
    assert (LADDER, "WS004") in got, got


def test_ladder_from_wave_half_keeps_ws012(tmp_path):
    """`warpSize / 2` is 32 at wave 64: lane 0 reads lanes 32-63, which the guard left out."""
    got = _findings(tmp_path, KERNEL.format(**{**BASE, "start": "warpSize / 2"}))
    assert (SHUFFLE, "WS012") in got, got


def test_guard_macro_with_two_values_keeps_both(tmp_path):
    text = KERNEL.format(**BASE).replace("#define WARP_LENGTH 32\n", "#ifdef WIDE\n#define WARP_LENGTH 64\n#else\n"
                                                                    "#define WARP_LENGTH 32\n#endif\n")
    got = _findings(tmp_path, text)
    assert (LADDER + 4, "WS004") in got and (SHUFFLE + 4, "WS012") in got, got


def test_header_reads_the_guard_macro_its_includer_includes(tmp_path):
    """Bridge++: BridgeCUDA/a.cu includes "inline/params.h" (no -I reaches it: found under the run's tree, as
    translate finds it) and then "src/red.h", whose ladder reads WARP_LENGTH."""
    root = tmp_path / "lib"
    (root / "inline").mkdir(parents=True)
    (root / "BridgeCUDA" / "src").mkdir(parents=True)
    (root / "inline" / "params.h").write_text("#define WARP_LENGTH 32\n")
    body = KERNEL.format(**BASE).replace("#define WARP_LENGTH 32\n", "")
    (root / "BridgeCUDA" / "src" / "red.h").write_text(body)
    (root / "BridgeCUDA" / "a.cu").write_text('#include "inline/params.h"\n#include "src/red.h"\n')
    got = {(Path(f.path).name, f.line, f.code) for r in engine.lint_paths([root], jobs=1) for f in r.findings}
    assert not {c for n, _, c in got if n == "red.h"} & {"WS004", "WS012"}, got
    (root / "inline" / "params.h").write_text("#define WARP_LENGTH 64\n")
    got = {(Path(f.path).name, f.line, f.code) for r in engine.lint_paths([root], jobs=1) for f in r.findings}
    assert ("red.h", LADDER - 1, "WS004") in got, got
