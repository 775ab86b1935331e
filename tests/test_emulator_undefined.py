"""Values never written (kernelport/emulator/undefined.py).

Stop 50's H100 run: llm.c classifier_fused `fused_classifier_kernel4` stores a whole `x128 packed_dlogits`
after `continue`-ing past the elements >= V, so two lanes of the last vector of each row were never
written: the GPU stored what the registers held (4.7e-05), the emulator 0 with bound 0, and the GPU-vs-
emulator row failed.  Now such a value is marked: arithmetic keeps the mark, a store of it marks the
element, the element is left out of every comparison (original vs port, GPU vs emulator) and counted at
the store's file:line:col; a marked value that decides a branch, a loop or an address is a located
"not run".  Ordinary code (assigned on every path, loop-carried, zero-initialised, shared memory with
its own read-before-write rule) stays defined.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kernelport import compare
from kernelport.emulator import EmulatorError, run_kernel

# kernel4's shape: a Packed128 whose lanes past V are `continue`d over, stored whole through its bits
PACKED = r"""
template<class ElementType>
struct alignas(16) Packed128 {
    __device__ ElementType& operator[](int index) { return payload[index]; }
    __device__ int4 get_bits() const {
        int4 bits;
        memcpy(&bits, &payload, sizeof(bits));
        return bits;
    }
    static constexpr const int size = sizeof(int4) / sizeof(ElementType);
    ElementType payload[size];
};
typedef Packed128<float> x128;
template<class ElementType>
__device__ void store128(ElementType* target, Packed128<ElementType> value) {
    *reinterpret_cast<int4*>(target) = value.get_bits();
}
__global__ void k(float* out, const float* x, int V, int P) {
    int row = blockIdx.x;
    for (int i = threadIdx.x; i < (V + 3) / 4; i += blockDim.x) {
        x128 d;
        for (int k = 0; k < x128::size; ++k) {
            int e = i * x128::size + k;
            if (e >= LIMIT) { continue; }
            d[k] = x[row * P + e] * 2.0f;
        }
        store128(out + row * P + i * x128::size, d);
    }
}
"""
V, P, ROWS = 22, 32, 3
X = np.random.default_rng(3).uniform(-1, 1, ROWS * P).astype(np.float32)
UNWRITTEN = [r * P + e for r in range(ROWS) for e in (22, 23)]  # lanes 2, 3 of each row's last vector


def _packed(limit="V", wave=32):
    return run_kernel(PACKED.replace("LIMIT", limit), "k", args=dict(out=np.zeros(ROWS * P, np.float32), x=X, V=V, P=P),
                      grid=(ROWS,), block=(4,), wave=wave)


@pytest.mark.parametrize("wave", [32, 64])
def test_vector_lanes_continued_over_are_stored_as_never_written_at_the_store(wave):
    r = _packed(wave=wave)
    assert np.flatnonzero(r.undefined["out"]).tolist() == UNWRITTEN
    assert r.undefined_at == {"<kernel>:16:7": len(UNWRITTEN)}  # (store128: where the bits are stored)
    written = [r_ * P + e for r_ in range(ROWS) for e in range(V)]
    assert np.array_equal(r.outputs["out"][written], X[written] * np.float32(2))


def test_a_gpu_that_stored_its_registers_there_matches_and_the_note_says_how_many():
    r = _packed()
    gpu = r.outputs["out"].copy()
    gpu[UNWRITTEN] = 4.7e-05  # what the H100 wrote
    main_like = compare.compare({"out": gpu}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds)
    assert not main_like.ok  # (without the marks: 4.7e-05 against 0 under a bound of 0, stop 50's failure)
    cmp = compare.compare({"out": gpu}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds,
                          undefined=r.undefined)
    assert cmp.ok and cmp.undefined == len(UNWRITTEN) and cmp.max_abs == 0.0
    gpu[5] += 0.25  # a written element that differs still fails
    cmp = compare.compare({"out": gpu}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds,
                          undefined=r.undefined)
    assert not cmp.ok and cmp.mismatch.index == 5


def test_a_port_that_leaves_a_written_element_unwritten_fails():
    orig, port = _packed(), _packed("V - 1")  # the port skips element V - 1, which the original writes
    cmp = compare.compare({"out": port.outputs["out"]}, {"out": orig.outputs["out"]}, "auto", None, port.bounds,
                          orig.bounds, undefined=orig.undefined, got_undefined=port.undefined)
    assert not cmp.ok and cmp.mismatch.never_written and cmp.mismatch.index == V - 1
    same = compare.compare({"out": _packed().outputs["out"]}, {"out": orig.outputs["out"]}, "auto", None,
                           orig.bounds, orig.bounds, undefined=orig.undefined, got_undefined=orig.undefined)
    assert same.ok and same.undefined == len(UNWRITTEN)


SCALARS = r"""
__global__ void k(float* out, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    BODY
}
"""


def _scalars(body, n=64):
    return run_kernel(SCALARS.replace("BODY", body), "k", args=dict(out=np.zeros(2 * n, np.float32),
                      x=np.arange(n, dtype=np.float32), n=n), grid=(2,), block=(n // 2,))


def test_a_local_assigned_on_some_paths_marks_what_is_computed_from_it():
    r = _scalars("float b;\n    if (x[i] > 40.0f) b = 1.0f;\n    out[i] = x[i];\n    out[n + i] = b * 3.0f + x[i];")
    assert np.flatnonzero(r.undefined["out"]).tolist() == [64 + i for i in range(41)]
    assert r.undefined_at == {"<kernel>:7:5": 41}


def test_a_local_assigned_by_few_lanes_marks_the_others():
    # (a branch few lanes take runs compacted on those lanes: the other lanes' marks survive the scatter back)
    r = _scalars("float b;\n    if (i == 3) b = x[i];\n    out[i] = x[i];\n    out[n + i] = b;", n=256)
    assert np.flatnonzero(r.undefined["out"]).tolist() == [256 + i for i in range(256) if i != 3]
    assert r.outputs["out"][256 + 3] == 3.0


COLLECTIVE = r"""
__global__ void k(float* out, int* iout, const float* x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float u; int w;
    if (i % 3 == 0) { u = x[i]; w = i; }
    BODY
}
"""


@pytest.mark.parametrize("body, buf, marked", [
    ("out[i] = __shfl_xor_sync(0xffffffff, u, 1);", "out", [i for i in range(64) if (i ^ 1) % 3]),  # lane by lane
    ("out[i] = __shfl_sync(0xffffffff, u, 1);", "out", list(range(32))),  # warp 0 reads lane 1, warp 1 lane 33
    # apex groupbn's bwd: lanes < 4 load a mask word, every lane reads them by shuffle: all defined
    ("float m;\n    if (threadIdx.x % 32 < 4) m = x[i];\n    out[i] = __shfl_sync(0xffffffff, m, 2);", "out", []),
    ("iout[i] = __reduce_add_sync(0xffffffff, w);", "iout", list(range(64))),  # every lane of a warp that read one
    ("iout[i] = __ballot_sync(0xffffffff, w > 3);", "iout", list(range(64))),
    ("out[i] = __uint_as_float(__float_as_uint(u) ^ 1u);", "out", [i for i in range(64) if i % 3]),  # its bits
])
def test_collectives_and_bit_casts_keep_the_marks(body, buf, marked):
    r = run_kernel(COLLECTIVE.replace("BODY", body), "k", args=dict(out=np.zeros(64, np.float32),
                   iout=np.zeros(64, np.int32), x=np.arange(64, dtype=np.float32)), grid=(1,), block=(64,))
    assert np.flatnonzero(r.undefined.get(buf, np.zeros(0))).tolist() == marked


def test_a_marked_lane_index_of_a_shuffle_is_a_located_not_run():
    with pytest.raises(EmulatorError, match="decides the lane of this warp collective") as ei:
        run_kernel(COLLECTIVE.replace("BODY", "out[i] = __shfl_sync(0xffffffff, x[i], w);"), "k",
                   args=dict(out=np.zeros(64, np.float32), iout=np.zeros(64, np.int32),
                             x=np.arange(64, dtype=np.float32)), grid=(1,), block=(64,))
    assert ei.value.line == 6


@pytest.mark.parametrize("body, what, at", [
    ("float b;\n    if (x[i] > 40.0f) b = 1.0f;\n    if (b > 0.5f) out[i] = 1.0f;", "decides this branch", ":6:5:"),
    ("int t[4];\n    t[0] = i;\n    out[t[1]] = 1.0f;", "decides the address of this write", ":6:5:"),
    ("float s;\n    for (int j = 0; j < s; ++j) out[i] = j;", "decides this loop", ":5:5:"),
    ("int t[2];\n    t[0] = i;\n    out[i] = t[0] > 3 && t[1] > 2 ? 1.0f : 0.0f;", "decides which operand", ":6:"),
])
def test_a_value_never_written_that_decides_control_or_an_address_is_a_located_not_run(body, what, at):
    with pytest.raises(EmulatorError, match=what) as ei:
        _scalars(body)
    assert at in str(ei.value) and "not run" in str(ei.value)


@pytest.mark.parametrize("body", [
    "float a;\n    if (x[i] > 40.0f) a = x[i]; else a = -x[i];\n    out[i] = a;",
    "float acc = 0.0f;\n    for (int j = 0; j < 4; ++j) acc += x[i] * j;\n    out[i] = acc;",
    "float t[4];\n    for (int j = 0; j < 4; ++j) t[j] = x[i] + j;\n    out[i] = t[0] + t[3];",
    "float z[4] = {};\n    float w[4] = {1.0f};\n    out[i] = z[2] + w[3] + w[0];",
    "float4 v;\n    v.x = x[i]; v.y = 1.0f; v.z = 2.0f; v.w = 3.0f;\n    out[i] = v.x + v.w;",
    "if (x[i] > 10.0f) {\n        float c;\n        c = x[i] * 2.0f;\n        out[i] = c;\n    }",
    "float m;\n    for (int j = 0; j < 3; ++j) { if (j == 0) m = x[i]; else m = fmaxf(m, x[i] - j); }\n    out[i] = m;",
    "float b;\n    if (i == 3) {\n        b = x[i];\n        out[i] = b;\n    }",
])
def test_ordinary_code_stays_defined(body):
    r = _scalars(body)  # (getattr: the same on main, which has no marks)
    assert getattr(r, "undefined", {}) == {} and getattr(r, "undefined_at", {}) == {}


def test_shared_memory_keeps_its_own_rule():
    # a read of shared memory no thread wrote is a race finding (UninitRead), not a value never written
    src = r"""
__global__ void k(float* out) {
    __shared__ float s[64];
    if (threadIdx.x < 32) s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
"""
    r = run_kernel(src, "k", args=dict(out=np.zeros(64, np.float32)), grid=(1,), block=(64,))
    assert getattr(r, "undefined", {}) == {} and any(x.kind == "read-before-write" for x in r.races)


LLMC = Path(__file__).parent / "realcorpus" / "llm.c" / "dev" / "cuda" / "classifier_fused.cu"


def test_llmc_classifier_fused_kernel4_marks_the_padding_lanes_of_its_last_vector():
    rows, v, p = 4, 22, 24
    rng = np.random.default_rng(0)
    args = dict(dlogits=np.zeros(rows * p, np.float32), losses=np.zeros(rows, np.float32),
                probs=np.zeros(rows * p, np.float32), logits=rng.uniform(-1, 1, rows * p).astype(np.float32),
                dlosses=rng.uniform(-1, 1, rows).astype(np.float32), targets=rng.integers(0, v, rows).astype(np.int32),
                B=1, T=rows, V=v, P=p)
    r = run_kernel(LLMC.read_text(), "fused_classifier_kernel4", args=args, grid=(rows,), block=(32,),
                   path=str(LLMC))
    padding = [row * p + e for row in range(rows) for e in (22, 23)]  # V = 22: the last x128 holds 20..23
    assert np.flatnonzero(r.undefined["dlogits"]).tolist() == padding
    assert np.flatnonzero(r.undefined["probs"]).tolist() == padding
    assert set(r.undefined_at) == {str(LLMC.parent / "common.h") + ":168:7"}
    assert "losses" not in r.undefined
