"""Error bounds through bit reinterpretation (kernelport.emulator.bitbounds).

The GPU run of stop 47 failed llm.c's fused_residual_forward_kernel5 by 7.5e-8 at an output near zero
where the emulator's bound was one bf16 rounding: rsqrtf's error through the cancellation was carried
on the scalar path but lost where Packed128's payload is memcpy'd into an `int4` for `__stcs` (bits
carried no bound).  Now a float element's bound follows its bytes (memcpy, `reinterpret_cast<int4*>`
loads and stores, `__float_as_int`, integer memory), and where it cannot be followed (integer
arithmetic on the bits) it becomes unknown, with where, never a tight bound.  The scalar model is the
same computation stored directly into a float buffer: its bound per element is what the packed path
must carry.
"""
from __future__ import annotations

import numpy as np
import pytest

from kernelport import compare
from kernelport.emulator import run_kernel

PACKED = r"""
#include <cuda_bf16.h>
template<class T>
struct alignas(16) Packed128 {
    Packed128() = default;
    __device__ explicit Packed128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
    __device__ T& operator[](int index) { return payload[index]; }
    __device__ int4 get_bits() const { int4 bits; memcpy(&bits, &payload, sizeof(bits)); return bits; }
    static constexpr const int size = sizeof(int4) / sizeof(T);
    T payload[size];
};
template<class T>
__device__ void store128cs(T* target, Packed128<T> value) { __stcs(reinterpret_cast<int4*>(target), value.get_bits()); }

__global__ void packed(const float* x, ELEM* out, float a, float b) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Packed128<ELEM>::size;
    Packed128<ELEM> o;
    for (int k = 0; k < Packed128<ELEM>::size; ++k) o[k] = (ELEM)(rsqrtf(x[i + k]) * a - b);
    store128cs(out + i, o);
}
__global__ void staged(const float* x, ELEM* out, float a, float b) {
    extern __shared__ char params[];
    Packed128<ELEM>* s = reinterpret_cast<Packed128<ELEM>*>(params);
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Packed128<ELEM>::size;
    Packed128<ELEM> o;
    for (int k = 0; k < Packed128<ELEM>::size; ++k) o[k] = (ELEM)(rsqrtf(x[i + k]) * a - b);
    s[threadIdx.x] = o;
    __syncthreads();
    const Packed128<ELEM> back = s[threadIdx.x];
    store128cs(out + i, back);
}
__global__ void scalar(const float* x, ELEM* out, float a, float b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (ELEM)(rsqrtf(x[i]) * a - b);
}
"""

BITS = r"""
__global__ void asint(const float* x, float* out) {
    int i = threadIdx.x;
    int b = __float_as_int(rsqrtf(x[i]) * 3.0f - 3.0f);
    out[i] = __int_as_float(b);
}
__global__ void pair(const float* x, float* out) {
    int i = threadIdx.x;
    float v[2] = {rsqrtf(x[2 * i]) * 3.0f - 3.0f, rsqrtf(x[2 * i + 1]) * 3.0f - 3.0f};
    long long bits;
    memcpy(&bits, &v, 8);
    reinterpret_cast<long long*>(out)[i] = bits;
}
__global__ void viaint(const float* x, int* tmp, float* out) {
    int i = threadIdx.x;
    tmp[i] = __float_as_int(rsqrtf(x[i]) * 3.0f - 3.0f);
    __syncthreads();
    out[i] = __int_as_float(tmp[i]);
}
__global__ void mangled(const float* x, float* out) {
    int i = threadIdx.x;
    int b = __float_as_int(rsqrtf(x[i]) * 3.0f - 3.0f);
    b = b & 0xffffff00;
    out[i] = __int_as_float(b);
}
__global__ void signs(const float* x, float* out, int* neg) {
    int i = threadIdx.x;
    float f = rsqrtf(x[i]) * 3.0f - 3.0f;
    neg[i] = __float_as_int(f) < 0;
    out[i] = f;
}
__global__ void scalar(const float* x, float* out) {
    int i = threadIdx.x;
    out[i] = rsqrtf(x[i]) * 3.0f - 3.0f;
}
"""

N = 256
X = np.linspace(0.9, 1.1, N).astype(np.float32)  # rsqrtf(x) * 3 - 3 crosses zero: a cancellation


def _run(src, kernel, per=1, **extra):
    return run_kernel(src, kernel, args=dict(x=X, out=np.zeros(N, np.float32), **extra), grid=(1,),
                      block=(N // per,))


def _line(text: str, src: str = BITS, after: str = "b = b & 0xffffff00;") -> int:
    """The source line of `text` (the first after `after`)."""
    lines = src.splitlines()
    start = next(k for k, t in enumerate(lines) if after in t)
    return 1 + next(k for k in range(start, len(lines)) if text in lines[k])


@pytest.mark.parametrize("elem,per", [("__nv_bfloat16", 8), ("float", 4)])
@pytest.mark.parametrize("kernel", ["packed", "staged"])
def test_a_packed_store_keeps_each_elements_bound(elem, per, kernel):
    """Eight bf16 (or four floats) memcpy'd into an int4 and stored with __stcs, directly or through
    `extern __shared__ char` memory: each output element's bound is the scalar store's (on main the
    bf16 elements kept only the final rounding: 6.3e-4 where the scalar path has 8.0e-4)."""
    src = PACKED.replace("ELEM", elem)
    args = dict(x=X, out=np.zeros(N, np.float32), a=np.float32(3.0), b=np.float32(3.0))
    got = run_kernel(src, kernel, args=args, grid=(1,), block=(N // per,), shared_bytes=N * 4)
    want = run_kernel(src, "scalar", args=dict(args, out=np.zeros(N, np.float32)), grid=(1,), block=(N,))
    assert np.array_equal(got.outputs["out"], want.outputs["out"])
    assert np.array_equal(got.bounds["out"], want.bounds["out"])
    assert got.bounds_lost == []


def test_a_device_value_within_the_true_bound_passes_and_beyond_fails():
    """rsqrtf(x)*3 - 3 through Packed128<bf16>: a GPU value off by 1.5 scalar bounds passes (the
    comparison allows both runs' bounds: 2 bounds), one off by 3 fails.  On main the first failed:
    the packed path's bound was the bf16 rounding alone."""
    src = PACKED.replace("ELEM", "__nv_bfloat16")
    args = dict(x=X, out=np.zeros(N, np.float32), a=np.float32(3.0), b=np.float32(3.0))
    packed = run_kernel(src, "packed", args=args, grid=(1,), block=(N // 8,))
    model = run_kernel(src, "scalar", args=dict(args, out=np.zeros(N, np.float32)), grid=(1,), block=(N,))
    w = packed.outputs["out"].astype(np.float64)
    i = int(np.argmin(np.abs(w) + (w == 0)))  # the element nearest zero (not an exact zero)
    true = float(model.bounds["out"][i])
    assert true > 0
    for factor, ok in ((1.5, True), (3.0, False)):
        gpu = w.copy()
        gpu[i] += factor * true
        cmp = compare.compare({"out": gpu.astype(np.float32)}, {"out": packed.outputs["out"]}, "auto", None,
                              packed.bounds, packed.bounds)
        assert cmp.ok is ok, (factor, true, cmp.mismatch)


def test_bits_through_registers_and_integer_memory_keep_the_bound():
    """`__float_as_int` and back, two floats memcpy'd into a `long long` and stored through a cast,
    float bits parked in an `int` buffer: the scalar model's bounds (main: 0, a tight bound)."""
    model = _run(BITS, "scalar")
    for kernel, per, extra in (("asint", 1, {}), ("pair", 2, {}), ("viaint", 1, {"tmp": np.zeros(N, np.int32)})):
        r = _run(BITS, kernel, per, **extra)
        assert np.array_equal(r.outputs["out"], model.outputs["out"]), kernel
        assert np.array_equal(r.bounds["out"], model.bounds["out"]), kernel
        assert r.bounds_lost == [], kernel


def test_integer_arithmetic_on_the_bits_makes_the_bound_unknown_and_says_where():
    """`b & 0xffffff00` on a float's bits: the result's bound cannot be followed, so it is unknown
    (NaN), and the run says where (main: bound 0).  Its look-alike, a sign test of the bits, changes
    no float and loses nothing."""
    r = _run(BITS, "mangled")
    assert np.isnan(r.bounds["out"]).all()
    assert r.bounds_lost and r.bounds_lost[0].startswith(f"<kernel>:{_line('__int_as_float')}:"), r.bounds_lost
    look = _run(BITS, "signs", neg=np.zeros(N, np.int32))
    assert look.bounds_lost == [] and np.array_equal(look.bounds["out"], _run(BITS, "scalar").bounds["out"])


def test_an_unknown_bound_is_neither_a_pass_nor_a_fail():
    """compare() counts elements that differ where a bound is unknown and judges the rest; the
    detail names where the bound was lost."""
    r = _run(BITS, "mangled")
    gpu = r.outputs["out"].copy()
    cmp = compare.compare({"out": gpu}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds)
    assert cmp.ok and cmp.unknown == 0
    gpu[5] += 1e-3
    cmp = compare.compare({"out": gpu}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds)
    assert cmp.ok and cmp.unknown == 1 and cmp.unknown_at[:2] == ("out", 5)
    assert f"bound lost at <kernel>:{_line('__int_as_float')}:" in compare.unknown_detail(cmp, r.bounds_lost)


UNIFORM = r"""
__global__ void one(const float* x, float* out, int* word) {
    float v[2] = {rsqrtf(x[0]) * 3.0f - 3.0f, rsqrtf(x[1]) * 3.0f - 3.0f};
    long long bits;
    memcpy(&bits, &v, 8);
    reinterpret_cast<long long*>(word)[0] = bits;
    __syncthreads();
    reinterpret_cast<long long*>(out)[0] = reinterpret_cast<long long*>(word)[0];
}
"""


def test_every_lane_storing_two_floats_bits_to_one_address_keeps_both_bounds():
    """A uniform address (every lane stores word[0..1]) through integer memory: the last lane's
    bounds, one per float, as a float store to one address keeps."""
    r = run_kernel(UNIFORM, "one", args=dict(x=X, out=np.zeros(2, np.float32), word=np.zeros(2, np.int32)),
                   grid=(1,), block=(64,))
    model = _run(BITS, "scalar")
    assert np.array_equal(r.bounds["out"], model.bounds["out"][:2]) and r.bounds_lost == []


def test_a_nan_bound_from_the_bounds_own_arithmetic_is_unknown_too():
    """A NaN bound no bit move made (inf * 0 in the bound's own arithmetic: main has such elements in
    llm.c adamw and rodinia cfd) passed any value before (`diff > NaN` is false); now it is counted
    as unknown, and the detail says no site was recorded."""
    want = np.array([1.0, 2.0, 3.0], np.float32)
    bounds = {"y": np.array([0.0, np.nan, 0.0], np.float32)}
    got = want.copy()
    got[1] += 0.5
    cmp = compare.compare({"y": got}, {"y": want}, "auto", None, bounds, bounds)
    assert cmp.ok and cmp.unknown == 1 and cmp.unknown_at == ("y", 1, 2.5, 2.0)
    assert "no site recorded" in compare.unknown_detail(cmp, [])
    got[0] += 0.5  # a judged element outside its bound still fails
    assert not compare.compare({"y": got}, {"y": want}, "auto", None, bounds, bounds).ok
