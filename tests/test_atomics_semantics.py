"""Integer atomics as the CUDA Programming Guide defines them, with every thread of a block hitting
one address (the emulator serialises them in some order; these results do not depend on it)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

SRC = r"""
__global__ void k(unsigned* u, int* s) {
    atomicSub(&s[0], 3);
    atomicAdd(&s[1], -2);
    atomicInc(&u[0], 9u);      // ((old >= 9) ? 0 : old + 1)
    atomicDec(&u[1], 4u);      // ((old == 0) | (old > 4)) ? 4 : old - 1
    atomicDec(&u[2], 100u);
    atomicExch(&s[2], 5);
    atomicMax(&s[3], (int)threadIdx.x - 20);
    atomicMin(&s[4], (int)threadIdx.x - 20);
    atomicOr(&u[3], 1u << (threadIdx.x % 32));
    atomicAnd(&u[4], ~(1u << (threadIdx.x % 8)));
    atomicXor(&u[5], 1u << (threadIdx.x % 4));
    atomicDec(&u[6], 4u);      // starts above its limit: back to the limit, then down
}
"""


def _inc(old, n, val):
    for _ in range(n):
        old = 0 if old >= val else old + 1
    return old


def _dec(old, n, val):
    for _ in range(n):
        old = val if (old == 0 or old > val) else old - 1
    return old


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_integer_atomics_on_one_address(schedule):
    n = 37
    u = np.array([0, 2, 7, 0, 0xffffffff, 0, 50], np.uint32)
    s = np.array([100, 10, 0, -1000, 1000], np.int32)
    r = run_kernel(SRC, "k", args=dict(u=u, s=s), grid=(1,), block=(n,), schedule=schedule)
    uo, so = r.outputs["u"], r.outputs["s"]
    assert list(so) == [100 - 3 * n, 10 - 2 * n, 5, n - 1 - 20, -20]
    assert int(uo[0]) == _inc(0, n, 9)
    assert int(uo[1]) == _dec(2, n, 4)
    assert int(uo[2]) == _dec(7, n, 100)          # wraps through 0 to 100
    assert int(uo[3]) == 0xffffffff
    assert int(uo[4]) == 0xffffff00
    xor = 0
    for t in range(n):
        xor ^= 1 << (t % 4)
    assert int(uo[5]) == xor
    assert int(uo[6]) == _dec(50, n, 4)


FLOAT_SRC = r"""
__global__ void k(const float* x, float* own, float* pairs, float* one) {
    int t = threadIdx.x;
    atomicAdd(&own[t], x[t]);        // one thread per address
    atomicAdd(&pairs[t / 2], x[t]);  // two per address
    atomicAdd(&one[0], x[t]);        // every thread on one address
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_a_float_atomic_add_bound_grows_by_the_rounding_of_each_sum(schedule):
    """Each float add rounds once: its bound grows by u * |the new value| (the sums 1 + 2.5j are the
    same in every order, so the bound is exact)."""
    n, u = 40, 2.0 ** -24
    x = np.full(n, 2.5, np.float32)
    args = dict(x=x, own=np.ones(n, np.float32), pairs=np.ones(n // 2, np.float32), one=np.ones(1, np.float32))
    r = run_kernel(FLOAT_SRC, "k", args=args, grid=(1,), block=(n,), schedule=schedule)
    b = r.bounds
    assert list(r.outputs["own"]) == [3.5] * n and list(r.outputs["pairs"]) == [6.0] * (n // 2)
    assert np.all(b["own"] == u * 3.5) and np.all(b["pairs"] == u * (3.5 + 6.0))
    assert b["one"][0] == pytest.approx(u * sum(1 + 2.5 * j for j in range(1, n + 1)), rel=1e-12)


def test_a_float_atomic_exch_stores_its_value_with_that_value_s_bound():
    """atomicExch does no arithmetic: an exact value is stored with bound 0, a rounded product keeps
    the product's own bound (u * |value|)."""
    src = r"""
__global__ void k(float* f, const float* x) {
    atomicExch(&f[0], 1.5f);
    atomicExch(&f[1 + threadIdx.x], x[threadIdx.x] * 3.0f);
}
"""
    n, u = 8, 2.0 ** -24
    x = np.full(n, 0.1, np.float32)
    r = run_kernel(src, "k", args=dict(f=np.zeros(n + 1, np.float32), x=x), grid=(1,), block=(n,))
    assert r.outputs["f"][0] == 1.5 and r.bounds["f"][0] == 0.0
    prod = np.float32(x[0] * np.float32(3.0))
    assert np.all(r.outputs["f"][1:] == prod)
    assert r.bounds["f"][1:] == pytest.approx(np.full(n, u * float(prod)), rel=1e-6)


UNIFORM_SRC = r"""
__global__ void k(int* s, unsigned* u, int c) {
    atomicAdd(&s[0], __ffs(c));             // every lane's value one uniform value (__ffs of a parameter)
    atomicInc(&u[0], (unsigned)__ffs(c));   // serialised lane by lane: wraps at the uniform limit
    atomicAdd(&s[1 + threadIdx.x], __ffs(c));
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp"])
def test_an_atomic_whose_operand_is_one_value_for_every_lane_applies_it_once_per_thread(schedule):
    """A uniform operand (here __ffs of a kernel parameter: one value, not one per lane) is every
    thread's operand: n threads on one address add it n times; atomicInc wraps at it in turn."""
    n, c = 37, 12  # __ffs(12) == 3
    r = run_kernel(UNIFORM_SRC, "k", args=dict(s=np.zeros(n + 1, np.int32), u=np.zeros(1, np.uint32), c=np.int32(c)),
                   grid=(1,), block=(n,), schedule=schedule)
    assert list(r.outputs["s"]) == [3 * n] + [3] * n
    assert int(r.outputs["u"][0]) == _inc(0, n, 3)


@pytest.mark.parametrize("call, ctype, dtype", [("atomicDec(&p[0], 4u)", "int", np.int32),
                                                ("atomicInc(&p[0], 4u)", "float", np.float32),
                                                ("atomicInc(&p[0], 4u)", "unsigned long long", np.uint64),
                                                ("atomicDec((unsigned*)&p[0], 4u)", "int", np.int32)])
def test_wrapping_inc_and_dec_take_unsigned_int_pointers_only(call, ctype, dtype):
    """CUDA and HIP define atomicInc/atomicDec for unsigned int* only (nvcc refuses an int*): any other
    pointee is a located error, not a value the GPU never computes (a negative int would take the
    `old == 0` wrap or not as the emulator pleases); the address cast to unsigned* runs."""
    src = f"__global__ void k({ctype}* p) {{\n    {call};\n}}\n"
    p = np.array([-3 if dtype != np.uint64 else 3], dtype)
    if "(unsigned*)" in call:
        r = run_kernel(src, "k", args=dict(p=p), grid=(1,), block=(1,))
        assert int(r.outputs["p"].view(np.uint32)[0]) == 4  # 0xfffffffd is above the limit: back to it
        return
    with pytest.raises(EmulatorError, match=r"<kernel>:2:5: `atomic(Inc|Dec)` on a pointer to .*unsigned int\* only"):
        run_kernel(src, "k", args=dict(p=p), grid=(1,), block=(1,))
