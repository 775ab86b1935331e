"""The emulator on Metal text: dynamic threadgroup parameters, atomics through address-space casts
(and the kp_atomic_* CAS loops translate emits), SIMD-group reductions, in every schedule."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from kernelport import dialect
from kernelport.emulator import EmulatorError, run_kernel
from kernelport.emulator.frontend import lower

SCHEDULES = ["block", "warp", "thread"]
HEAD = "#include <metal_stdlib>\nusing namespace metal;\n"


def msl(body: str) -> str:
    return HEAD + textwrap.dedent(body)


# ---------------------------------------------------------------------------------------------
# 1. dynamic threadgroup memory: `threadgroup T* p [[threadgroup(0)]]`
# ---------------------------------------------------------------------------------------------
DYNAMIC = msl("""\
    kernel void rev(const device float* in [[buffer(0)]], device float* out [[buffer(1)]],
                    constant int& n [[buffer(2)]],
                    threadgroup float* smem [[threadgroup(0)]],
                    uint3 tid [[thread_position_in_threadgroup]], uint3 bid [[threadgroup_position_in_grid]],
                    uint3 bdim [[threads_per_threadgroup]])
    {
        threadgroup int* counts = (threadgroup int*)(smem + bdim.x);   // a second extern array aliases it
        int start = bid.x * bdim.x;
        int t = tid.x;
        smem[t] = in[start + t];
        counts[t] = t;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        out[start + t] = smem[bdim.x - 1 - t] + (float)counts[bdim.x - 1 - t];
    }
""")


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_dynamic_threadgroup_parameter_is_the_dynamic_shared_buffer(schedule):
    x = np.arange(256, dtype=np.float32)
    r = run_kernel(DYNAMIC, "rev", args=dict(**{"in": x}, out=np.zeros(256, np.float32), n=256), grid=(4,),
                   block=(64,), shared_bytes=64 * 8, backend="metal", schedule=schedule)
    expect = x.reshape(4, 64)[:, ::-1] + np.arange(64)[::-1]
    assert np.array_equal(r.outputs["out"], expect.reshape(-1).astype(np.float32))
    assert r.races == []


def test_dynamic_threadgroup_parameter_needs_shared_bytes_and_index_0():
    args = dict(**{"in": np.zeros(64, np.float32)}, out=np.zeros(64, np.float32), n=64)
    with pytest.raises(EmulatorError, match="shared_bytes is 0"):
        run_kernel(DYNAMIC, "rev", args=args, grid=(1,), block=(64,), backend="metal")
    with pytest.raises(EmulatorError, match="out-of-bounds"):  # the launch's size bounds it
        run_kernel(DYNAMIC, "rev", args=args, grid=(1,), block=(64,), shared_bytes=64 * 4, backend="metal")
    with pytest.raises(EmulatorError, match=r"threadgroup\(1\)"):
        run_kernel(DYNAMIC.replace("threadgroup(0)", "threadgroup(1)"), "rev", args=args, grid=(1,), block=(64,),
                   shared_bytes=512, backend="metal")


# ---------------------------------------------------------------------------------------------
# 2. atomics: address-space casts and Metal atomic types act on the memory they point into
# ---------------------------------------------------------------------------------------------
ATOMICS = msl("""\
    kernel void k(const device int* keys [[buffer(0)]], device uint* hist [[buffer(1)]],
                  device float* total [[buffer(2)]], device int* flags [[buffer(3)]],
                  uint3 tid [[thread_position_in_threadgroup]], uint3 bid [[threadgroup_position_in_grid]])
    {
        threadgroup uint bins[8];
        threadgroup int lo, hi, bits;
        threadgroup float* unused_alias = (threadgroup float*)bins;   // a pointer, not threadgroup storage
        if (tid.x < 8) bins[tid.x] = 0;
        if (tid.x == 0) { lo = 1000; hi = -1000; bits = 0; }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        int key = keys[bid.x * 64 + tid.x];
        atomic_fetch_add_explicit((threadgroup atomic_uint*)(&bins[key]), 1u, memory_order_relaxed);
        atomic_fetch_min_explicit((threadgroup atomic_int*)&lo, key, memory_order_relaxed);
        atomic_fetch_max_explicit((threadgroup atomic_int*)(&hi), key, memory_order_relaxed);
        atomic_fetch_or_explicit((threadgroup atomic_int*)(&bits), 1 << key, memory_order_relaxed);
        atomic_fetch_add_explicit((device atomic_float*)(total), 0.5f, memory_order_relaxed);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (tid.x < 8)
            atomic_fetch_add_explicit((device atomic_uint*)(&hist[tid.x]), bins[tid.x], memory_order_relaxed);
        if (tid.x == 0) {
            flags[bid.x * 3 + 0] = lo;
            flags[bid.x * 3 + 1] = hi;
            atomic_exchange_explicit((device atomic_int*)(&flags[bid.x * 3 + 2]), bits, memory_order_relaxed);
        }
    }
""")


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_atomics_on_address_space_casts_act_on_threadgroup_and_device_memory(schedule):
    rng = np.random.default_rng(1)
    keys = rng.integers(0, 8, 3 * 64).astype(np.int32)
    r = run_kernel(ATOMICS, "k", args=dict(keys=keys, hist=np.zeros(8, np.uint32), total=np.zeros(1, np.float32),
                                           flags=np.zeros(9, np.int32)),
                   grid=(3,), block=(64,), backend="metal", schedule=schedule)
    assert np.array_equal(r.outputs["hist"], np.bincount(keys, minlength=8))
    assert r.outputs["total"][0] == 3 * 64 * 0.5
    per_block = keys.reshape(3, 64)
    want = np.stack([per_block.min(1), per_block.max(1),
                     [np.bitwise_or.reduce(1 << b) for b in per_block]], axis=1).reshape(-1)
    assert np.array_equal(r.outputs["flags"], want)


def test_threadgroup_before_a_pointer_is_not_threadgroup_storage():
    low = lower(ATOMICS, "metal")
    shared = {d.name for d in low.shared_decls("k")}
    assert shared == {"bins", "lo", "hi", "bits"}


CAS_CUDA = r"""
__global__ void k(float* out, int* ic, unsigned int* uc, float* fo, const float* x)
{
    __shared__ float acc;
    __shared__ int iacc;
    if (threadIdx.x == 0) { acc = 0.0f; iacc = 0; }
    __syncthreads();
    atomicAdd(&acc, x[threadIdx.x]);
    atomicSub(&acc, 0.5f);
    atomicMax(out, x[threadIdx.x]);
    atomicMin(out + 1, x[threadIdx.x]);
    atomicCAS(ic, 0, 1);
    atomicCAS(uc, 0u, 1u);
    atomicInc(uc + 1, 7u);
    atomicDec(uc + 2, 7u);
    atomicAdd(&iacc, 1);
    atomicCAS(fo, 0.0f, 1.0f);
    __syncthreads();
    if (threadIdx.x == 0) { out[2] = acc; ic[1] = iacc; }
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_cas_loop_polyfills_run_as_written(schedule):
    """translate's kp_atomic_* helpers (atomic_load_explicit, atomic_compare_exchange_weak_explicit,
    as_type<uint>, overloads per type and address space) run from the port's own text."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    port, text = translate(SourceFile.from_text(CAS_CUDA, "t.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "atomic_compare_exchange_weak_explicit" in text and "as_type<uint>" in text
    low = lower(text, "metal")
    assert len(low.overloads["kp_atomic_cas"]) == 3  # float, int, uint on device memory
    x = (np.arange(64, dtype=np.float32) * 0.1).astype(np.float32)
    r = run_kernel(text, "k", args=dict(out=np.array([0, 100, 0], np.float32), ic=np.zeros(2, np.int32),
                                        uc=np.zeros(3, np.uint32), fo=np.zeros(1, np.float32), x=x),
                   grid=(1,), block=(64,), backend="metal", schedule=schedule)
    out = r.outputs["out"]
    assert out[0] == x.max() and out[1] == 0.0
    exact = float(x.astype(np.float64).sum()) - 32.0
    assert abs(out[2] - exact) <= r.bounds["out"][2] and r.bounds["out"][2] > 0  # rounding of the CAS adds
    assert list(r.outputs["ic"]) == [1, 64]
    assert list(r.outputs["uc"]) == [1, 64 % 8, 0]  # CUDA's wrap-around inc/dec
    assert r.outputs["fo"][0] == 1.0


def test_as_type_reinterprets_bits():
    src = msl("""\
        kernel void k(device float* f [[buffer(0)]], device uint* u [[buffer(1)]],
                      uint i [[thread_position_in_grid]])
        {
            u[i] = as_type<uint>(f[i]);
            f[i] = as_type<float>(u[i] ^ 0x80000000u);
        }
    """)
    f = np.array([1.5, -2.0, 0.0, 3.25], np.float32)
    r = run_kernel(src, "k", args=dict(f=f, u=np.zeros(4, np.uint32)), grid=(1,), block=(4,), backend="metal")
    assert np.array_equal(r.outputs["u"], f.view(np.uint32))
    assert np.array_equal(r.outputs["f"], -f)


# ---------------------------------------------------------------------------------------------
# 3. SIMD-group reductions
# ---------------------------------------------------------------------------------------------
def test_simd_reductions_are_matched_only_on_metal():
    for name in ("simd_sum", "simd_max", "simd_min"):
        assert dialect.lookup("metal", name).key == name
        assert dialect.lookup("cuda", name) is None and dialect.lookup("hip", name) is None


REDUCE = msl("""\
    kernel void k(const device float* x [[buffer(0)]], device float* s [[buffer(1)]],
                  device float* mx [[buffer(2)]], device int* mn [[buffer(3)]],
                  uint i [[thread_position_in_grid]], uint lane [[thread_index_in_simdgroup]])
    {
        float v = x[i];
        s[i] = simd_sum(v);
        mx[i] = simd_max(v);
        if (lane < 20) {
            mn[i] = simd_min((int)(v * 8.0f));      // over the 20 active lanes only
            s[i] = simd_sum(1.0f);                   // uniform operand: counts active lanes
        }
    }
""")


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_simd_sum_max_min_over_active_lanes(schedule):
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, 96).astype(np.float32)
    r = run_kernel(REDUCE, "k", args=dict(x=x, s=np.zeros(96, np.float32), mx=np.zeros(96, np.float32),
                                          mn=np.zeros(96, np.int32)),
                   grid=(1,), block=(96,), backend="metal", wave=32, schedule=schedule)
    xw = x.reshape(3, 32)
    lane = np.arange(96) % 32
    exact = np.repeat(xw.astype(np.float64).sum(1), 32)
    s, b = r.outputs["s"], r.bounds["s"]
    assert np.all(s[lane < 20] == 20.0)
    full = lane >= 20
    assert np.all(np.abs(s[full] - exact[full]) <= b[full]) and np.all(b[full] > 0)
    assert np.all(b[full] <= 31 * 2.0 ** -24 * 1.0001 * np.repeat(np.abs(xw).astype(np.float64).sum(1), 32)[full])
    assert np.array_equal(r.outputs["mx"], np.repeat(xw.max(1), 32))
    want_mn = np.repeat((xw[:, :20] * 8.0).astype(np.int32).min(1), 32)
    assert np.array_equal(r.outputs["mn"][lane < 20], want_mn[lane < 20])


def test_softmax_port_with_simd_max_runs():
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "softmax.metal"
    text = path.read_text()
    assert "simd_max(v)" in text
    rows, cols = 4, 100
    x = np.random.default_rng(0).uniform(-4, 4, rows * cols).astype(np.float32)
    r = run_kernel(text, "softmax", args=dict(x=x, out=np.zeros(rows * cols, np.float32), rows=rows, cols=cols),
                   grid=(rows,), block=(256,), backend="metal", path=str(path), schedule="thread")
    e = np.exp(x.reshape(rows, cols).astype(np.float64) - x.reshape(rows, cols).max(1, keepdims=True))
    assert np.allclose(r.outputs["out"].reshape(rows, cols), e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------------------------------------
# 4. what differs between backends is the backends' data (kernelport/backends/), not name tests
# ---------------------------------------------------------------------------------------------
WIDTH_CU = """
__global__ void k(int* out, unsigned long long* bits) {
    out[threadIdx.x] = (warpSize - 33) < 0;
    bits[threadIdx.x] = __popcll(0xffffffffffffffffull) + __popc(0xffffffffffffffffull);
}"""
WIDTH_MSL = msl("""\
    kernel void k(device int* out [[buffer(0)]], device ulong* bits [[buffer(1)]],
                  uint3 tid [[thread_position_in_threadgroup]], uint simd_width [[threads_per_simdgroup]]) {
        out[tid.x] = (simd_width - 33) < 0;
        bits[tid.x] = popcount(0xffffffffffffffffull) + popcount(0xffffffffu);
    }
""")


@pytest.mark.parametrize("schedule", ["block", "thread"])
def test_wave_width_type_and_bit_operations_follow_the_backend(schedule):
    """CUDA's warpSize is an int (32 - 33 < 0), Metal's threads_per_simdgroup a uint (it wraps);
    CUDA's __popc takes an unsigned int, Metal's popcount any integer (64 bits here)."""
    def run(src, backend):
        return run_kernel(src, "k", args=dict(out=np.zeros(32, np.int32), bits=np.zeros(32, np.uint64)),
                          grid=(1,), block=(32,), backend=backend, schedule=schedule).outputs
    cu, mt = run(WIDTH_CU, "cuda"), run(WIDTH_MSL, "metal")
    assert np.all(cu["out"] == 1) and np.all(mt["out"] == 0)
    assert np.all(cu["bits"] == 64 + 32) and np.all(mt["bits"] == 64 + 32)


def test_emulator_and_front_end_compare_no_backend_names():
    """No `== "metal"`, `in ("cuda", "hip")` or dict keyed by backend names: no quoted name at all."""
    import pathlib
    import re

    from kernelport import backends
    root = pathlib.Path(__file__).resolve().parent.parent / "kernelport"
    quoted = re.compile(r"""["'](%s)["']""" % "|".join(map(re.escape, backends.names())))
    files = [*(root / "emulator").rglob("*.py"), root / "reference.py"]
    hits = [f"{f.relative_to(root)}:{k}: {ln.strip()}" for f in files
            for k, ln in enumerate(f.read_text().split("\n"), 1) if quoted.search(ln)]
    assert len(files) > 10 and hits == []
