"""sm_70's __match_any_sync / __match_all_sync on HIP (which has neither): with CUDA's full mask the port
calls the prologue's kp_match_any / kp_match_all, a loop of ballots over the caller's group of lanes (the
wave in a wave-wide function, 32 in a logical 32-lane group), whose 64-bit result the port keeps as it keeps
a ballot's.  Another mask stays KP203; Metal, with no spelling, KP202.  It was KP202 on HIP (gpuPairHMM)."""
from __future__ import annotations

import textwrap

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

# groups of equal keys inside a warp: each group's lowest lane writes the group's size
GROUPS = """
__global__ void groups(const int* keys, int* counts) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int same = __match_any_sync(0xffffffff, keys[i]);
    counts[i] = (threadIdx.x % warpSize) == __ffs(same) - 1 ? __popc(same) : -1;
}
"""

TYPES = """
__global__ void types(const int* a, const unsigned* b, const long long* c, const unsigned long long* d,
                      const float* e, const double* f, unsigned long long* out) {
    const int i = threadIdx.x;
    int p0, p1;
    out[i] = __match_any_sync(0xffffffff, a[i]) ^ __match_any_sync(0xffffffff, b[i])
        ^ __match_any_sync(0xffffffff, c[i]) ^ __match_any_sync(0xffffffff, d[i])
        ^ __match_any_sync(0xffffffff, e[i]) ^ __match_any_sync(0xffffffff, f[i])
        ^ __match_all_sync(0xffffffff, a[i], &p0) ^ __match_all_sync(0xffffffff, f[i], &p1) ^ (p0 + p1);
}
"""


def port(src: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(src), "t.cu"), backend)


def _run(src: str, wave: int, backend=None) -> list[int]:
    keys = np.random.default_rng(3).integers(0, 5, 256, dtype=np.int32)
    keys[96:128] = 7  # one group of a whole warp
    counts = np.zeros(256, np.int32)
    r = run_kernel(src, "groups", args={"keys": keys, "counts": counts}, grid=(2,), block=(128,), wave=wave,
                   backend=backend)
    return r.outputs["counts"].tolist()


def test_match_any_groups_by_key_at_wave_32_and_64(tmp_path):
    p, text = port(GROUPS)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "kp_match_any(keys[i], warpSize)" in p.body and "unsigned long long same" in p.body, p.body
    want = _run(GROUPS, 32)
    assert 32 in want and len(set(want)) > 4, want  # a whole-warp group, and groups of several sizes
    at64 = _run(text, 64, backend="hip")
    assert at64 != want  # wave-wide: the groups span the wave's 64 lanes, as its ballot does
    keys = np.random.default_rng(3).integers(0, 5, 256, dtype=np.int32)
    keys[96:128] = 7
    for w, got in ((32, _run(text, 32, backend="hip")), (64, at64)):
        expect = []  # each wave's groups, the leader counting its group
        for i, k in enumerate(keys):
            base = i - i % w
            group = [j for j in range(base, base + w) if keys[j] == k]
            expect.append(len(group) if group[0] == i else -1)
        assert got == expect, w
    assert _run(text, 32, backend="hip") == want
    hip_compiles(tmp_path, text)


def test_every_cuda_type_compiles_for_both_waves(tmp_path):
    p, text = port(TYPES)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "kp_match_all(f[i], &p1, warpSize)" in p.body, p.body
    hip_compiles(tmp_path, text)


def test_a_partial_mask_stays_refused_and_metal_has_no_spelling():
    partial = GROUPS.replace("0xffffffff", "0x0000ffff")
    p, _ = port(partial)
    assert [d.code for d in p.diagnostics if d.severity == "error"] == ["KP203"], [d.format() for d in p.diagnostics]
    assert "ported only with CUDA's full mask" in p.diagnostics[0].message or any(
        "ported only with CUDA's full mask" in d.message for d in p.diagnostics)
    p, _ = port(GROUPS, "metal")
    assert "KP202" in [d.code for d in p.diagnostics if d.severity == "error"]


# a shuffle over the lanes a match names, from the group's leader (`__ffs(group) - 1`, in the group)
LEADER = """
__global__ void leader_value(const int* keys, const int* vals, int* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int group = __match_any_sync(0xffffffff, keys[i]);
    out[i] = __shfl_sync(group, vals[i], __ffs(group) - 1);
}
"""


def test_a_shuffle_to_the_groups_leader_with_the_match_as_its_mask_is_ported(tmp_path):
    p, text = port(LEADER)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__shfl(vals[i], __ffsll(group) - 1)" in p.body, p.body
    keys = np.random.default_rng(4).integers(0, 4, 256, dtype=np.int32)
    vals = np.arange(256, dtype=np.int32) * 7

    def run(src, wave, backend=None):
        out = np.zeros(256, np.int32)
        r = run_kernel(src, "leader_value", args={"keys": keys, "vals": vals, "out": out}, grid=(2,), block=(128,),
                       wave=wave, backend=backend)
        return r.outputs["out"].tolist()

    def leaders(w):  # each lane: the value of the lowest lane of its wave with its key
        return [int(vals[next(j for j in range(i - i % w, i + 1) if keys[j] == keys[i])]) for i in range(256)]
    assert run(LEADER, 32) == leaders(32)
    assert run(text, 32, backend="hip") == leaders(32)
    assert run(text, 64, backend="hip") == leaders(64) != leaders(32)
    hip_compiles(tmp_path, text)


def test_a_part_of_a_match_as_a_shuffles_mask_stays_refused():
    p, _ = port(LEADER.replace("__shfl_sync(group,", "__shfl_sync(group & 0xffff,"))
    errors = [d for d in p.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["KP203"] and "may name only some lanes" in errors[0].message, errors
