"""Sound ports (issue 12): each warp-level group has one width, decided from the launch geometry;
translate never writes a step that reads lanes that may not exist, and checks its own output."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("examples/*.cu"), *ROOT.glob("tests/corpus/*.cu"), *ROOT.glob("tests/corpus2/*.cu")])


def port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), backend)[0]


ROW_SUM = """
// @kp kernel row_sum
// @kp grid   rows
// @kp block  32
// @kp why    one 32-thread block per row
// @kp arg    x   in  float[rows * 32] integers(-3, 3)
// @kp arg    out out float[rows]
// @kp scalar rows = 64
// @kp reference row_sum_ref(x, out, rows)
__global__ void row_sum(const float* x, float* out, int rows) {
    float v = x[blockIdx.x * 32 + threadIdx.x];
    v += __shfl_xor_sync(0xffffffff, v, 16);
    v += __shfl_xor_sync(0xffffffff, v, 8);
    v += __shfl_xor_sync(0xffffffff, v, 4);
    v += __shfl_xor_sync(0xffffffff, v, 2);
    v += __shfl_xor_sync(0xffffffff, v, 1);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
void row_sum_ref(const float* x, float* out, int rows) {
    for (int r = 0; r < rows; ++r) { float s = 0; for (int i = 0; i < 32; ++i) s += x[r * 32 + i]; out[r] = s; }
}
"""


def test_block_of_32_gets_no_step_reading_lanes_32_to_63():
    p = port(ROW_SUM)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "warpSize > 32" not in p.body and "__shfl_xor(v, 32)" not in p.body
    assert "v += __shfl_xor(v, 16, 32);" in p.body  # the logical group's width, spelled


def test_block_of_32_verifies_at_wave_64(tmp_path):
    (tmp_path / "row.cu").write_text(ROW_SUM)
    kp = [sys.executable, "-m", "kernelport"]
    subprocess.run(kp + ["translate", "row.cu", "--to", "hip,metal,portable"], cwd=tmp_path, check=True,
                   capture_output=True)
    r = subprocess.run(kp + ["verify", "row.cu"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 failed" in r.stdout


def test_rows_of_32_from_a_dim3_launch_keep_width_32():
    p = port("""
    __device__ float row_reduce(float v) {
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
        return v;
    }
    __global__ void k(const float* x, float* out) {
        float v = row_reduce(x[threadIdx.y * 32 + threadIdx.x]);
        if ((threadIdx.x & 31) == 0) out[blockIdx.x * 4 + threadIdx.y] = v;
    }
    void launch(const float* x, float* out) { dim3 threads(32, 4, 1); k<<<8, threads>>>(x, out); }
    """)
    assert p.ok
    assert "for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o, 32);" in p.body
    assert "(threadIdx.x & 31) == 0" in p.body


def test_native_annotation_on_a_32_thread_block_is_refused():
    p = port(ROW_SUM.replace("// @kp kernel row_sum", "// @kp warp-width native\n// @kp kernel row_sum"))
    assert [d.code for d in p.diagnostics if d.severity == "error"] == ["KP219"]


def test_bad_warp_width_value_is_located():
    p = port("// @kp warp-width 48\n__device__ float f(float v) { return __shfl_xor_sync(0xffffffff, v, 16); }\n")
    d = [d for d in p.diagnostics if d.code == "KP219"]
    assert d and d[0].location.line == 1 and "32 or native" in d[0].message


def test_annotation_32_on_a_helper_keeps_its_group():
    p = port("""
    // @kp warp-width 32
    __device__ float f(float v) {
        for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
        return v;
    }
    """)
    assert p.ok and "for (int o = 16; o > 0; o /= 2) v += __shfl_xor(v, o, 32);" in p.body


def test_unknown_geometry_ladder_step_has_one_width_and_lints_clean():
    p = port("""
    __device__ float f(float v) {
        v += __shfl_xor_sync(0xffffffff, v, 16);
        v += __shfl_xor_sync(0xffffffff, v, 8);
        return v;
    }
    """)
    assert p.ok, [d.format() for d in p.diagnostics]  # the self-check (KP220) ran and passed
    assert "if (warpSize > 32) v += __shfl_xor(v, warpSize / 2);" in p.body


@pytest.mark.parametrize("backend,builtin", [("hip", "warpSize"), ("metal", "simd_width")])
def test_local_warp_size_is_not_a_self_assignment(backend, builtin):
    p = port("""
    __device__ float f(float v) {
        int warpSize = 32;
        for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
        return v;
    }
    """, backend)
    assert p.ok
    assert f"int {builtin} = {builtin}" not in p.body and f"{builtin} / 2" in p.body


def test_ceil_div_by_warp_is_rewritten_whole_or_not_at_all():
    p = port("""
    __device__ float warp_sum(float v) {
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
        return v;
    }
    __global__ void k(const float* x, float* out) {
        __shared__ float part[32];
        int nw = (32 + blockDim.x - 1) / 32;
        float v = warp_sum(x[threadIdx.x]);
        if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
        __syncthreads();
        if (threadIdx.x < nw) out[threadIdx.x] = part[threadIdx.x];
    }
    """)
    assert p.ok
    line = next(l for l in p.body.splitlines() if "int nw" in l)
    assert line.count("32") in (0, 2) and line.count("warpSize") in (0, 2), line


def test_explicit_width_32_lane_with_ballot_keeps_32_lanes_and_votes_over_its_own_warp():
    # not half rewritten: every 32 stays CUDA's, and the ballot is the wave's shifted to the caller's CUDA
    # warp (kernelport/halfvotes.py; was KP219).  Checked at 64 on the emulator: tests/test_half_votes.py
    p = port("""
    __global__ void k(const float* x, float* out) {
        int laneId = threadIdx.x % 32;
        float v = x[threadIdx.x];
        float q = __shfl(v, laneId - 1, 32);
        unsigned b = __ballot_sync(0xffffffff, v > 0);
        if (laneId == 0) out[threadIdx.x / 32] = q + __popc(b);
    }
    """)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "threadIdx.x % 32" in p.body and "__shfl(v, laneId - 1, 32)" in p.body and "warpSize" not in p.body
    assert "__ballot(v > 0) >> (__lane_id() & 32)) & (0xffffffff)" in p.body, p.body


def test_explicit_width_32_lane_with_a_partial_mask_ballot_is_still_refused():
    p = port("""
    __global__ void k(const float* x, float* out) {
        int laneId = threadIdx.x % 32;
        float v = x[threadIdx.x];
        float q = __shfl(v, laneId - 1, 32);
        unsigned b = __ballot_sync(__activemask(), v > 0);
        if (laneId == 0) out[threadIdx.x / 32] = q + __popc(b);
    }
    """)
    assert "KP219" in {d.code for d in p.diagnostics if d.severity == "error"}


def test_full_mask_macro_through_parentheses_and_suffix_is_full():
    p = port("""
    #define FULL (0xFFFFFFFFu)
    #define WARP_MASK FULL
    __device__ float f(float v) {
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(WARP_MASK, v, o);
        return v;
    }
    """)
    assert p.ok, [d.format() for d in p.diagnostics]


def test_metal_helper_with_references_keeps_its_commas():
    p = port("""
    __device__ void warp_argmax(float& v, int& i) {
        for (int o = 16; o > 0; o /= 2) {
            float ov = __shfl_xor_sync(0xffffffff, v, o);
            int oi = __shfl_xor_sync(0xffffffff, i, o);
            if (ov > v) { v = ov; i = oi; }
        }
    }
    """, "metal")
    assert "(float& v, int& i, uint simd_width)" in p.body


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_every_port_passes_its_own_lint(path):
    """Translate lints each port for its targets: no KP220 on any example or corpus file."""
    src = SourceFile.from_text(path.read_text(), str(path))
    for backend in ("hip", "metal", "portable"):
        p, _ = translate(src, backend)
        assert not [d.format() for d in p.diagnostics if d.code == "KP220"], backend


RESET_THEN_VOTE = """
__device__ int g_counter;
static __global__ void reset_counter() { g_counter = 0; }
static __global__ void count_positive(const int* in, int* out) {
    const int lane = threadIdx.x % 32;
    const unsigned mask = __ballot_sync(~0u, in[blockIdx.x * blockDim.x + threadIdx.x] > 0);
    if (lane == 0) atomicAdd(out, __popc(mask));
}
void run(const int* in, int* out, int n) {
    reset_counter<<<1, 1>>>();
    count_positive<<<n / 256, 256>>>(in, out);
}
"""


def test_a_one_thread_launch_of_another_kernel_leaves_a_voting_kernels_width_to_its_own_launch():
    # a launch is not a call: the host function that launches both kernels does not make them one
    # warp-level group, so `reset_counter`'s block of 1 says nothing about `count_positive`'s votes
    # (LC-framework codes launch a `<<<1, 1>>>` reset before their voting encoder)
    p = port(RESET_THEN_VOTE)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "const unsigned long long mask = __ballot(" in p.body
    assert "threadIdx.x % warpSize" in p.body and "__popcll(mask)" in p.body


def test_a_voting_kernel_launched_itself_with_one_thread_and_whole_waves_keeps_32_lanes_and_votes_per_warp():
    # launches of several geometries: 32-lane groups, right for both, each vote over its own CUDA warp
    # (kernelport/halfvotes.py; was KP219); a 96-thread launch stays refused (tests/test_launch_groups.py)
    p = port(RESET_THEN_VOTE.replace("reset_counter<<<1, 1>>>();", "count_positive<<<1, 1>>>(in, out);"))
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "threadIdx.x % 32" in p.body and ">> (__lane_id() & 32)" in p.body, p.body
