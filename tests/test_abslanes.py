"""Index shuffles from an absolute lane of plain data (kernelport/abslanes.py).

CUDA's `__shfl_sync(m, v, k)` reads lane `k mod 32` of the thread's own 32-lane warp.  On main the HIP
port was `__shfl(v, 3)`: at wave 64 threads 32-63 read thread 3 where CUDA reads thread 35, and verify
failed numerically for HIP and portable at wave 64 (the lead's rows/k7.cu; the 2D permutation of
rows/k3.cu, a keccak-style `src_lane[threadIdx.x]` table, read the other row's lanes).  The port now
names CUDA's width, 32.  The broadcast after a reduction the port widens to the wave keeps the wave.
"""
from __future__ import annotations

import pytest

from trust_support import kp_inproc, verify_checks

ABSOLUTE = """\
// @kp kernel     bcast
// @kp grid       ceil_div(n, 128)
// @kp block      128
// @kp arg        in   in     float[n]   uniform(-1, 1)
// @kp arg        out  out    float[n]
// @kp scalar     n = 512
__global__ void bcast(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    out[i] = __shfl_sync(0xffffffff, v, LANE);
}
"""

PERMUTATION = """\
// @kp kernel     perm
// @kp grid       4
// @kp block      32, 4
// @kp arg        in        in   float[512]  uniform(-1, 1)
// @kp arg        src_lane  in   int[32]     integers(0, 32)
// @kp arg        out       out  float[512]
__global__ void perm(const float* in, const int* src_lane, float* out) {
    unsigned row = blockIdx.x * blockDim.y + threadIdx.y;
    float a = in[row * 32 + threadIdx.x];
    a = __shfl_sync(0xffffffff, a, src_lane[threadIdx.x]);
    out[row * 32 + threadIdx.x] = a;
}
"""

# The look-alike: the broadcast of a reduction the port widens to the wave reads the wave's lane 0.
REDUCED = """\
// @kp kernel     total
// @kp grid       ceil_div(n, 128)
// @kp block      128
// @kp arg        in   in     float[n]   uniform(-1, 1)
// @kp arg        out  inout  float[1]   uniform(0, 1)
// @kp scalar     n = 512
__device__ float warpReduce(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__global__ void total(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = warpReduce(in[i]);
    v = __shfl_sync(0xffffffff, v, 0);
    atomicAdd(out, v / warpSize);  // each lane its share of its group's total
}
"""

SPELLED = {"hip": "__shfl(ARGS)", "portable": "kp_shfl_sync(KP_FULL_MASK, ARGS)"}


def _ports(tmp_path, src: str) -> dict:
    f = tmp_path / "k.cu"
    f.write_text(src)
    rc, _, err = kp_inproc("translate", f, "--to", "hip,portable")
    assert rc == 0, err
    return {"hip": (tmp_path / "k.hip").read_text(), "portable": (tmp_path / "k.portable.cu").read_text()}


def _numeric_passes(tmp_path) -> None:
    rc, checks, text = verify_checks(tmp_path / "k.cu", compiles=False)
    got = {(c["backend"], c["wave"]): c["status"] for c in checks if c["kind"] == "numeric"}
    assert {got.get((b, w)) for b in ("hip", "portable") for w in (32, 64)} == {"pass"}, text


@pytest.mark.parametrize("lane", ["3", "n % 7"])
def test_a_literal_or_data_lane_of_plain_data_keeps_the_32_lane_warp(tmp_path, lane):
    ports = _ports(tmp_path, ABSOLUTE.replace("LANE", lane))
    for backend, spelled in SPELLED.items():
        assert spelled.replace("ARGS", f"v, {lane}, 32") in ports[backend], ports[backend]
    _numeric_passes(tmp_path)


def test_a_2d_permutation_from_a_table_reads_its_own_row(tmp_path):
    ports = _ports(tmp_path, PERMUTATION)
    for backend, spelled in SPELLED.items():
        assert spelled.replace("ARGS", "a, src_lane[threadIdx.x], 32") in ports[backend], ports[backend]
    _numeric_passes(tmp_path)


def test_a_permutation_with_no_launch_in_sight_reads_its_own_warp(tmp_path):
    """rows/k3.cu: no launch, an `__activemask()` under a guard; on main `__shfl(a, src_lane[threadIdx.x])`."""
    src = "\n".join(ln for ln in PERMUTATION.splitlines() if not ln.startswith("//")) + "\n"
    ports = _ports(tmp_path, src.replace("0xffffffff", "__activemask()"))
    assert "__shfl(a, src_lane[threadIdx.x], 32)" in ports["hip"], ports["hip"]


def test_the_broadcast_of_a_widened_reduction_stays_the_wave(tmp_path):
    ports = _ports(tmp_path, REDUCED)
    for backend, spelled in SPELLED.items():
        assert spelled.replace("ARGS", "v, 0)") .replace("))", ")") in ports[backend], ports[backend]
    _numeric_passes(tmp_path)


def test_a_lane_from_the_lane_id_is_left_to_the_wave(tmp_path):
    """`(threadIdx.x + 1) % 32`: a lane the port computes in the wave (the rotation is ported to 64)."""
    ports = _ports(tmp_path, ABSOLUTE.replace("LANE", "(threadIdx.x + 1) % 32"))
    assert ", 32)" not in ports["hip"].split("__shfl(")[1].split(";")[0], ports["hip"]


def test_a_function_whose_lanes_are_written_with_warpsize_keeps_the_wave(tmp_path):
    """`lane = threadIdx.x % warpSize`: the code's warp is the wave, its lane 0 the wave's."""
    src = ABSOLUTE.replace("LANE", "0").replace("float v = in[i];", "int lane = threadIdx.x % warpSize;\n"
                                                 "    float v = in[i] + lane;")
    assert "__shfl(v, 0);" in _ports(tmp_path, src)["hip"]


def test_a_helper_no_call_of_the_run_shows_is_declared_unavailable(tmp_path):
    """Re-pinned (stop 44, kernelport/abscallers.py): its value may be a widened result or plain data, its
    callers' warp the wave or CUDA's; where the run shows no call, the port was the wave's, silently.  Now
    a KP219 warning and the helper declared unavailable (a call does not compile)."""
    f = tmp_path / "k.cu"
    f.write_text("__device__ float first(float v) {\n    return __shfl_sync(0xffffffff, v, 0);\n}\n")
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "k.cu:2:12: warning: KP219" in err and "no call of 'first'" in err, err
    assert "__attribute__((unavailable(" in (tmp_path / "out" / "k.hip").read_text()
