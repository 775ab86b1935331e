"""Index shuffles from lanes the port keeps as written (kernelport/abslanes.py): keccak-style rows.

heldout30's atpqc-cuda `keccak::f1600_state_permute` shuffles its 25 lanes with `__shfl_sync(m, a, x + 5)`,
x a member its constructor sets from `threadIdx.x % 5`.  On main the port kept the wave
(`__shfl(a, x + 5)`): the 5 of `x + 5` counted as wave lane math (a confirmed 'five' site, though the port
rewrites a 5 only as a shift's count) and a lane from a thread index or a caller's load was not plain.  At
wave 64 threads 32-63 read the first warp's lanes: verify failed numerically for HIP and portable at 64.
CUDA reads lane `k mod 32` of the thread's own warp whatever k is; `__shfl(a, k, 32)` reads the same lane
wherever the port leaves k's computation as written.  The look-alikes: a 5 the port rewrites (`tid >> 5`
-> `tid / warpSize`) makes the function's warp the wave, its lane 0 the wave's.
"""
from __future__ import annotations

import pytest

from trust_support import kp_inproc, verify_checks

ROWS = """\
// @kp kernel     rows
// @kp grid       4
// @kp block      128
// @kp arg        in   in   uint64_t[512]  integers(0, 1000000)
// @kp arg        xs   in   unsigned[128]  integers(0, 5)
// @kp arg        out  out  uint64_t[512]
#include <cstdint>
__device__ uint64_t permute(uint64_t a, unsigned x) {
    const unsigned m = 0xffffffffu;
    uint64_t c = __shfl_sync(m, a, x + 0) ^ __shfl_sync(m, a, x + 5) ^
                 __shfl_sync(m, a, x + 10) ^ __shfl_sync(m, a, x + 15);
    return a ^ c;
}
__global__ void rows(const uint64_t* in, const unsigned* xs, uint64_t* out) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = permute(in[t], LANE);
}
"""

# atpqc's form: lanes a constructor stores in members, a permutation under a guard with the active mask.
MEMBERS = """\
#include <cstdint>
class keccak {
    unsigned char x;
    __device__ uint64_t permute(uint64_t state) const;
 public:
    __device__ keccak() { x = threadIdx.x % 5; }
    __device__ uint64_t absorb(const uint64_t* m) const { return permute(m[threadIdx.x]); }
};
__device__ uint64_t keccak::permute(uint64_t state) const {
    if (threadIdx.x < 25) {
        const unsigned active = __activemask();
        uint64_t a = state;
        for (unsigned round = 0; round < 24; ++round) {
            uint64_t c = __shfl_sync(active, a, x + 0) ^ __shfl_sync(active, a, x + 5) ^
                         __shfl_sync(active, a, x + 10);
            a ^= c;
        }
        state = a;
    }
    return state;
}
"""


def _port(tmp_path, src: str, to: str = "hip,portable") -> dict:
    f = tmp_path / "k.cu"
    f.write_text(src)
    rc, _, err = kp_inproc("translate", f, "--to", to)
    assert rc == 0, err
    return {"hip": (tmp_path / "k.hip").read_text(),
            "portable": (tmp_path / "k.portable.cu").read_text() if "portable" in to else ""}


@pytest.mark.parametrize("lane", ["xs[threadIdx.x]", "threadIdx.x % 5"])
def test_lanes_from_a_load_or_a_thread_index_read_the_threads_own_warp(tmp_path, lane):
    ports = _port(tmp_path, ROWS.replace("LANE", lane))
    for k in ("0", "5", "10", "15"):
        assert f"__shfl(a, x + {k}, 32)" in ports["hip"], ports["hip"]
        assert f"kp_shfl_sync(KP_FULL_MASK, a, x + {k}, 32)" in ports["portable"], ports["portable"]
    rc, checks, text = verify_checks(tmp_path / "k.cu", compiles=False)
    got = {(c["backend"], c["wave"]): c["status"] for c in checks if c["kind"] == "numeric"}
    assert {got.get((b, w)) for b in ("hip", "portable") for w in (32, 64)} == {"pass"}, text


def test_lanes_a_constructor_stores_in_members_read_the_threads_own_warp(tmp_path):
    """atpqc-cuda's keccak (no launch in the file; the emulator does not lower the class)."""
    hip = _port(tmp_path, MEMBERS, to="hip")["hip"]
    for k in ("0", "5", "10"):
        assert f"__shfl(a, x + {k}, 32)" in hip, hip


def test_a_five_the_port_rewrites_makes_the_functions_warp_the_wave(tmp_path):
    """`part[threadIdx.x >> 5]`: the port writes `threadIdx.x / warpSize`, a slot per wave; the value
    shuffled from lane 0 is then the wave's lane 0.  (Re-pinned in stop 47: the kernel read `part[1]`, a fixed
    slot the wave port fills with thread 64's value where CUDA's is thread 32's; translate now keeps such a
    kernel's 32-lane groups (kernelport/warpcounts.py), so the wave's slot is read at `part[0]`.)"""
    src = ("__global__ void k(const float* in, float* out) {\n"
           "    __shared__ float part[32];\n"
           "    float v = in[blockIdx.x * blockDim.x + threadIdx.x];\n"
           "    float b = __shfl_sync(0xffffffff, v, 0);\n"
           "    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = b;\n"
           "    __syncthreads();\n"
           "    if (threadIdx.x == 0) out[blockIdx.x] = part[0];\n"
           "}\n")
    hip = _port(tmp_path, src, to="hip")["hip"]
    assert "part[threadIdx.x / warpSize] = b" in hip and "__shfl(v, 0);" in hip, hip


def test_a_lane_the_port_computes_in_the_wave_keeps_the_wave(tmp_path):
    """`(threadIdx.x + 5) % 32`: the port rotates in the wave (`% warpSize`); its lane is the wave's."""
    hip = _port(tmp_path, ROWS.replace("x + 5)", "(threadIdx.x + 5) % 32)").replace("LANE", "threadIdx.x % 5"),
                to="hip")["hip"]
    assert "__shfl(a, (threadIdx.x + 5) % warpSize)" in hip, hip
