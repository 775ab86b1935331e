"""A group whose 32-lane evidence lives in a header (kernelport/header_widths.py): GPUPrefixSums' CSDL calls
Utils.cuh's width-32 warp scan and votes only in threads < LANE_COUNT (a macro of that header).  Planned with
the helper as "a header's warp helper, ported at the wave width" and a 256-thread launch, the group was native
and its 32-lane `WARP_INDEX` refused (KP219); the header's own plan ports the helper as a 32-lane group, so the
caller's group is decided with that evidence, as if the helper were in its file."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import assert_hip_file_compiles
from port_support import assert_port_at_64_is_original_at_32
from trust_support import kp_inproc

LANES = """\
#pragma once
#include <stdint.h>
#define LANE_COUNT 32
#define LANE_MASK 31
#define LANE_LOG 5
#define WARP_INDEX (threadIdx.x >> LANE_LOG)

__device__ __forceinline__ uint32_t getLaneId() {
    uint32_t laneId;
    asm("mov.u32 %0, %%laneid;" : "=r"(laneId));
    return laneId;
}

__device__ __forceinline__ uint32_t InclusiveWarpScan(uint32_t val) {
    for (int i = 1; i <= 16; i <<= 1) {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, LANE_COUNT);
        if (getLaneId() >= i) val += t;
    }
    return val;
}
"""

# the look-back: its votes run only in the threads the caller's `threadIdx.x < LANE_COUNT` lets in
CSDL = """\
#pragma once
#include "lanes.cuh"
#define WARPS 8

__device__ void Lookback(uint32_t* s_red, uint32_t* flags) {
    const uint32_t v = threadIdx.x < WARPS ? s_red[threadIdx.x] : 0;
    const uint32_t big = __ballot_sync(0xffffffff, v > 320);
    if (__all_sync(0xffffffff, v < 345)) {
        if (threadIdx.x == 0) flags[blockIdx.x] = __popc(big) + 100 * __ffs(big) + 10000;
    } else if (threadIdx.x == 0) {
        flags[blockIdx.x] = __popc(big) + 100 * __ffs(big);
    }
}

__global__ void csdl(uint32_t* scan, uint32_t* flags) {
    __shared__ uint32_t s_red[WARPS];
    const uint32_t i = blockIdx.x * WARPS * LANE_COUNT + WARP_INDEX * LANE_COUNT + getLaneId();
    const uint32_t v = InclusiveWarpScan(scan[i]);
    scan[i] = v;
    if (getLaneId() == LANE_MASK) s_red[WARP_INDEX] = v;
    __syncthreads();
    if (threadIdx.x < LANE_COUNT) Lookback(s_red, flags);
}
"""

LAUNCH = "void run(uint32_t* scan, uint32_t* flags, int n) { csdl<<<n / 256, 256>>>(scan, flags); }\n"
MAIN = '#include "csdl.cuh"\n' + LAUNCH
ARGS = ("--grid", "4", "--block", "256", "--arg", "scan=uint32_t[1024]:uniform(0,20)", "--arg",
        "flags=uint32_t[4]:uniform(0,1)")


def _project(d, lanes=LANES, csdl=CSDL):
    d.mkdir(exist_ok=True)
    (d / "lanes.cuh").write_text(lanes)
    (d / "csdl.cuh").write_text(csdl)
    (d / "main.cu").write_text(MAIN)
    return d


def _errors(err: str) -> list[tuple[str, str]]:
    """(file:line, code) of each error a translate run printed."""
    out = []
    for line in err.splitlines():
        if ": error: " in line:
            where, rest = line.split(": error: ", 1)
            out.append((where.rsplit("/", 1)[-1].rsplit(":", 1)[0], rest.split()[0]))
    return out


def _flat(*texts: str) -> str:
    """One text of headers and a source, their local includes dropped (the emulator reads one text)."""
    return "\n".join(line for t in texts for line in t.splitlines() if not line.startswith('#include "')) + "\n"


def test_a_kernel_header_whose_scan_helper_is_in_another_header_ports_and_is_right_at_64(tmp_path):
    d = _project(tmp_path / "p")
    out = tmp_path / "out"
    rc, _, err = kp_inproc("translate", d / "main.cu", "-o", out)
    assert rc == 0, err
    lanes, csdl = (out / "lanes.hip.h").read_text(), (out / "csdl.hip.h").read_text()
    assert "laneId = (__lane_id() & 31);" in lanes and "__shfl_up(val, i, LANE_COUNT)" in lanes, lanes
    # the votes stay plain (one 32-lane warp's, the lower half of the wave) and the 32-lane warp index stays
    assert "const uint32_t big = __ballot(v > 320);" in csdl and "if (__all(v < 345)) {" in csdl, csdl
    assert "s_red[WARP_INDEX] = v;" in csdl and '#include "lanes.hip.h"' in csdl, csdl
    args = {"scan": np.random.default_rng(3).integers(0, 21, 1024).astype(np.uint32), "flags": np.zeros(4, np.uint32)}
    from kernelport.emulator import run_kernel
    original = _flat(LANES, CSDL)
    want = run_kernel(original, "csdl", args=args, grid=(4,), block=(256,), wave=32).outputs["flags"]
    assert len({int(x) % 10000 for x in want}) > 1, want  # (the ballot's bits decide the flags: a real test)
    assert_port_at_64_is_original_at_32(original, _flat(lanes, csdl), "csdl", args, (4,), (256,), ("flags", "scan"))
    assert_hip_file_compiles(out / "main.hip", extra_args=(f"-I{out}",))


def test_the_kernel_in_the_source_verifies_against_the_original_at_64(tmp_path):
    # the same code with the kernel in the .cu (verify's unit): main refused it (KP219 at WARP_INDEX)
    d = tmp_path / "v"
    d.mkdir()
    (d / "lanes.cuh").write_text(LANES)
    (d / "scan.cu").write_text(CSDL.replace("#pragma once\n", "") + LAUNCH)
    rc, out, err = kp_inproc("verify", d / "scan.cu", "--oracle", "original", "--schedules", "block", "--format",
                             "json", "--no-cache", *ARGS)
    assert rc == 0, out + err
    import json
    checks = json.loads(out)[0]["checks"]
    assert not [c for c in checks if c["status"] not in ("pass", "skip")], checks
    ran = {(c["backend"], c["wave"]) for c in checks if c["status"] == "pass" and c["kind"] == "numeric"}
    assert {("hip", 64), ("hip", 32)} <= ran, checks


@pytest.mark.parametrize("csdl", [
    CSDL.replace("if (threadIdx.x < LANE_COUNT) Lookback", "if (threadIdx.x < 64) Lookback"),  # two CUDA warps vote
    CSDL.replace("if (threadIdx.x < LANE_COUNT) Lookback", "Lookback"),                          # every warp votes
])
def test_votes_two_warps_reach_stay_refused(tmp_path, csdl):
    # the look-alike: the helper's 32 lanes still come through, but a vote may see two 32-lane groups of a wave
    d = _project(tmp_path / "p", csdl=csdl)
    rc, _, err = kp_inproc("translate", d / "main.cu", "-o", tmp_path / "out")
    # refused in the header, as on main (there at WARP_INDEX; here at the vote as well: undecided), nothing written
    assert rc == 1 and ("csdl.cuh:17", "KP219") in _errors(err) and not (tmp_path / "out").exists(), err


def test_a_helper_its_header_ports_at_the_wave_gives_no_32_lane_evidence(tmp_path):
    # the look-alike: a scan without CUDA's width is the wave's in the header's port: the caller stays native,
    # and its 32-lane WARP_INDEX stays refused, as on main
    d = _project(tmp_path / "p", lanes=LANES.replace("val, i, LANE_COUNT)", "val, i)"))
    rc, _, err = kp_inproc("translate", d / "main.cu", "-o", tmp_path / "out")
    assert rc == 1 and "KP219" in {c for _, c in _errors(err)}, err
    assert "WARP_INDEX" in err, err


def test_the_kernel_header_itself_verifies_and_metal_is_a_skip_not_a_crash(tmp_path):
    # verify of the header (the real layout): main crashed (IndexError: Metal writes no port of a header alone)
    d = _project(tmp_path / "p")
    rc, out, err = kp_inproc("verify", d / "csdl.cuh", "--oracle", "original", "--schedules", "block", "--format",
                             "json", "--no-cache", *ARGS)
    assert rc == 0, out + err
    import json
    checks = json.loads(out)[0]["checks"]
    ran = {(c["backend"], c["wave"]) for c in checks if c["status"] == "pass" and c["kind"] == "numeric"}
    assert {("hip", 64), ("hip", 32)} <= ran, checks
    metal = [c for c in checks if c["backend"] == "metal"]
    assert metal and all(c["status"] == "skip" for c in metal) and "on its own" in metal[0]["detail"], metal
