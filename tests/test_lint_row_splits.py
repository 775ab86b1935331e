"""A block the kernel splits into 32-lane rows itself (`lane = tid & 31`, `warp = tid >> 5`) is
lint's advice, not a hazard, where its warp operations stay in their rows (kernelport/lint/rowsplits.py);
translate still ports such a kernel to the whole wave, but where a fixed count of 32-lane warps reads its
per-warp slots (kernelport/warpcounts.py).

Every kernel here was run with `kernelport verify --wave-invariance` on the original code: ROWS
gives the same output at wave 32 and 64, and each hazard variant differs (measured when this file
was written; the emulator runs are in the commit message, not repeated here: they are slow)."""
from __future__ import annotations

import textwrap

from labelled_support import lint_recall
from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

ROWS = """\
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__global__ void block_sum(const float* x, float* y, float* out) {
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    __shared__ float part[8];
    float a = x[blockIdx.x * 256 + tid];
    float v = warp_sum(a);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = warp_sum(lane < 256 / 32 ? part[lane] : 0.0f);
        if (lane == 0) out[blockIdx.x] = v;
    }
    y[blockIdx.x * 256 + tid] = a;
}
void launch(const float* x, float* y, float* out, int n) { block_sum<<<n, 256>>>(x, y, out); }
"""
ROW_SITES = {(2, "WS004"), (7, "WS002"), (8, "WS003")}  # the ladder from 16, the lane, the warp


def _sev(src: str, **kw) -> dict[tuple[int, str], str]:
    return {(f.line, f.code): f.severity for f in lint_text(src, "t.cu", **kw)}


def _with_last_line(y: str) -> str:
    return ROWS.replace("y[blockIdx.x * 256 + tid] = a;", y)


def test_a_split_reduction_read_at_each_rows_leader_is_advice():
    found = _sev(ROWS)
    assert {k: found[k] for k in ROW_SITES} == dict.fromkeys(ROW_SITES, "info"), found
    assert found[(2, "WS007")] == "warning"  # HIP's _sync shuffles reject the 32-bit mask whatever the rows do
    msg = next(f.message for f in lint_text(ROWS, "t.cu") if f.code == "WS004")
    assert "correct at 64 as written: two 32-lane rows to a wave" in msg and "kernelport translate" in msg
    assert not any(f.fix for f in lint_text(ROWS, "t.cu") if f.severity == "info")  # nothing to change


def test_advice_is_not_given_where_the_rule_is_off():
    assert not _sev(ROWS, targets=["cuda"]) and not _sev(SCAN, targets=["cuda"])  # NVIDIA only: 32 is the warp


def test_a_broadcast_from_lane_0_at_the_default_width_stays_a_hazard():
    found = _sev(_with_last_line("y[blockIdx.x * 256 + tid] = a - __shfl_sync(0xffffffffu, v, 0);"))
    assert {found[k] for k in ROW_SITES} == {"error"}, found  # lanes 32-63 read row 0's lane 0


def test_a_ballot_stays_a_hazard():
    found = _sev(_with_last_line("y[blockIdx.x * 256 + tid] = a * __popc(__ballot_sync(0xffffffffu, a > 0.0f));"))
    assert {found[k] for k in ROW_SITES} == {"error"}, found  # a ballot's word holds the wave's 64 lanes


def test_a_shuffle_up_read_by_every_lane_stays_a_hazard():
    found = _sev(_with_last_line("y[blockIdx.x * 256 + tid] = a - __shfl_up_sync(0xffffffffu, a, 1);"))
    assert {found[k] for k in ROW_SITES} == {"error"}, found  # lane 32 of the wave reads lane 31, row 0's


def test_a_down_ladder_read_by_every_lane_stays_a_hazard():
    found = _sev(_with_last_line("y[blockIdx.x * 256 + tid] = a * v;"))
    assert {found[k] for k in ROW_SITES} == {"error"}, found  # lanes 16-31 fold lanes of the next row at 64


def test_the_same_reduction_over_hardware_lanes_stays_a_hazard():
    found = _sev(ROWS.replace("tid & 31", "tid % warpSize"))
    assert found[(2, "WS004")] == "error" and found[(8, "WS003")] == "error", found


def test_a_kernel_without_rows_of_its_own_keeps_the_helpers_a_hazard():
    other = ROWS + "__global__ void plain(float* x) { x[threadIdx.x] = warp_sum(x[threadIdx.x]); }\n"
    assert _sev(other)[(2, "WS004")] == "error"


SCAN = """\
#define WARP_SIZE 32
__global__ void row_scan(const float* x, float* y, float* sums) {
    __shared__ float s[256 / WARP_SIZE];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    float v = x[blockIdx.x * 256 + threadIdx.x];
    for (int d = 1; d < 32; d *= 2) {
        float t = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += t;
    }
    if (lane == 31) s[warp] = v;
    __syncthreads();
    y[blockIdx.x * 256 + threadIdx.x] = v + (warp > 0 ? s[warp - 1] : 0.0f);
}
void launch(const float* x, float* y, float* sums, int n) { row_scan<<<n, 256>>>(x, y, sums); }
"""


def test_a_row_scan_guarded_by_the_rows_lane_and_a_warp_size_constant_of_32_are_advice():
    found = _sev(SCAN)
    ws = {k: v for k, v in found.items() if k[1] != "WS007"}
    assert ws and set(ws.values()) == {"info"}, found
    assert (1, "WS001") in ws and (7, "WS005") in ws


def test_a_row_scan_guarded_by_the_block_index_stays_a_hazard():
    found = _sev(SCAN.replace("if (lane >= d) v += t;", "if (threadIdx.x >= d) v += t;"))
    assert found[(7, "WS005")] == "error", found


def test_translate_ports_the_rows_to_the_whole_wave_where_its_counts_follow_the_wave():
    """Re-pinned in stop 47: ROWS reads its slots under `lane < 256 / 32`, a count the wave-wide port kept
    at 32 (slots 4-7 of a 256-thread block no 64-lane wave writes: `kernelport verify --oracle original`
    reports the unwritten read); translate now keeps ROWS's 32-lane rows (kernelport/warpcounts.py,
    tests/test_warp_counts.py), and ports the rows to the whole wave where the count is `blockDim.x / 32`."""
    port, _ = translate(SourceFile.from_text(textwrap.dedent(ROWS), "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o, 32);" in port.body
    assert "tid & 31" in port.body and "tid >> 5" in port.body
    wave = ROWS.replace("lane < 256 / 32 ?", "lane < blockDim.x / 32 ?")
    port, _ = translate(SourceFile.from_text(textwrap.dedent(wave), "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "for (int o = warpSize / 2; o > 0; o >>= 1)" in port.body
    assert "tid & (warpSize - 1)" in port.body and "tid / warpSize" in port.body


def test_the_bench_counts_only_hazard_claims(tmp_path):
    b = lint_recall()
    (tmp_path / "k.cu").write_text("int lane = tid & 31;\nint warp = tid >> 5;\nmask = 0xffffffff;\n")
    labels = [b.Label("lookalike", "k.cu", 1, "p", "c", "why", "int lane = tid & 31;"),
              b.Label("lookalike", "k.cu", 2, "p", "c", "why", "int warp = tid >> 5;"),
              b.Label("hazard", "k.cu", 3, "p", "c", "why", "mask = 0xffffffff;")]
    findings = [{"code": "WS002", "line": 1, "severity": "info"}, {"code": "WS003", "line": 2, "severity": "error"},
                {"code": "WS007", "line": 3, "severity": "warning"}]

    def run(path, flags=()):
        return str(path), findings, 0, ""
    claims = b.measure(run, labels, tmp_path, 1)["lint"]
    assert (claims["found"], claims["false_positives"], claims["advised"]["lookalike"]) == (1, 1, 1)
    every = b.measure(run, labels, tmp_path, 1, "info")["lint"]
    assert (every["found"], every["false_positives"]) == (1, 2)


HIDDEN = """\
#define WARP_SIZE 32
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
template <float (*REDUCE)(float)>
__device__ float block_reduce(float v) {
    __shared__ float s[WARP_SIZE];
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    float w = REDUCE(v);
    if (lane == 0) s[warp] = w;
    __syncthreads();
    return REDUCE(lane < blockDim.x / WARP_SIZE ? s[lane] : 0.0f);
}
"""


def test_a_reduction_passed_as_a_template_parameter_keeps_the_rows_a_hazard():
    found = _sev(HIDDEN)  # llm.c's blockReduce<warp_reduction>: what REDUCE does is not in view
    assert found[(1, "WS001")] == "error", found
    direct = _sev(HIDDEN.replace("REDUCE(", "warp_sum("))
    assert direct[(1, "WS001")] == "info" and direct[(3, "WS004")] == "info", direct


def test_advice_passes_the_default_gate_and_is_a_sarif_note(tmp_path):
    import json
    import subprocess
    import sys
    f = tmp_path / "rows.cu"
    f.write_text(ROWS)

    def lint(*args):
        return subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "--ignore", "WS007", *args, str(f)],
                              capture_output=True, text=True, timeout=300, env={"PATH": "/usr/bin:/bin"})
    assert lint().returncode == 0  # --fail-on warning (the default): advice does not fail a build
    assert lint("--fail-on", "info").returncode == 1
    sarif = json.loads(lint("--format", "sarif").stdout)
    assert {r["level"] for r in sarif["runs"][0]["results"]} == {"note"}
