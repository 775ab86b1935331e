"""PTX's carry flag across calls in a conditional's branch the parse saw as blanks (kernelport/carry_masked.py).

mfaktc (heldout45) writes `mod_simple_96`'s head twice, `#ifndef DEBUG_GPU_MATH` and an `#else` head with debug
parameters, and calls it under the same conditional; the two heads cannot parse together, so macro_repair keeps
one branch and copies the other as written.  On main the masked head had no `kp_carry` parameter and the masked
call no argument: the port of tf_barrett96.cu failed hipcc (`kp_carry` undeclared) in the default build.  Checked
here: both heads take the flag and both calls pass it, the port compiles for gfx90a and gfx1030 in both
configurations, and computes 64-bit sums at wave 32 and 64 on the emulator; look-alikes: a masked call of a name
a non-carrier also bears, and a masked call in a function that holds no flag, stay as written."""
from __future__ import annotations

import random

import numpy as np
import pytest

from kernelport.emulator import run_kernel

from conftest import assert_hip_file_compiles, require_tool
from port_support import port_text

WRAP = """__device__ static unsigned int add_cc(unsigned int a, unsigned int b)
{
    unsigned int r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

__device__ static unsigned int addc(unsigned int a, unsigned int b)
{
    unsigned int r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
"""

SRC = WRAP + """
#ifndef DEBUG_MATH
__device__ static void add64(unsigned int *lo, unsigned int *hi, unsigned int a0, unsigned int a1, unsigned int b0, unsigned int b1)
#else
__device__ static void add64(unsigned int *lo, unsigned int *hi, unsigned int a0, unsigned int a1, unsigned int b0, unsigned int b1,
                             int *dbg)
#endif
{
    *lo = add_cc(a0, b0);
    *hi = addc(a1, b1);
}

__global__ void k(const unsigned int *x, unsigned int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lo, hi;
#ifndef DEBUG_MATH
    add64(&lo, &hi, x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3]);
#else
    add64(&lo, &hi, x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3], 0);
#endif
    out[2 * i] = lo;
    out[2 * i + 1] = hi;
}
"""


def test_both_heads_take_the_carry_and_both_calls_pass_it():
    body = port_text(SRC, "m.cu", dedent=False)
    assert body.count("add64(unsigned int &kp_carry, unsigned int *lo") == 2, body
    assert body.count("add64(kp_carry, &lo, &hi") == 2, body


@pytest.mark.parametrize("define", [[], ["-DDEBUG_MATH"]])
def test_the_port_compiles_for_gfx90a_and_gfx1030_in_each_configuration(tmp_path, define):
    require_tool("hipcc")
    f = tmp_path / "m.hip"
    f.write_text(port_text(SRC, "m.cu", dedent=False))
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"], extra_args=define)


@pytest.mark.parametrize("wave", [32, 64])
def test_the_port_adds_64_bit_numbers_at_wave(wave):
    rng, n = random.Random(wave), 64
    vals = [(rng.choice([0, (1 << 64) - 1, rng.getrandbits(64)]), rng.choice([1, (1 << 64) - 1, rng.getrandbits(64)]))
            for _ in range(n)]
    x = np.array([w for a, b in vals for w in (a & 0xFFFFFFFF, a >> 32, b & 0xFFFFFFFF, b >> 32)], np.uint32)
    got = run_kernel(port_text(SRC, "m.cu", dedent=False), "k", args={"x": x, "out": np.zeros(2 * n, np.uint32)},
                     grid=(2, 1, 1),
                     block=(32, 1, 1), wave=wave, backend="hip").outputs["out"]
    for t, (a, b) in enumerate(vals):
        s = (a + b) % (1 << 64)
        assert got[2 * t:2 * t + 2].tolist() == [s & 0xFFFFFFFF, s >> 32], t


LOOKALIKE = WRAP + """
__device__ static unsigned int twice(unsigned int a) { unsigned int s = add_cc(a, a); return s + addc(0u, 0u); }
__device__ static unsigned int twice(unsigned int a, unsigned int b, unsigned int c) { return a + b + c; }

#ifndef DEBUG_MATH
__host__ __device__ static unsigned int plain(unsigned int a)
#else
__host__ __device__ static unsigned int plain(unsigned int a, int *dbg)
#endif
{
    return a + 1u;
}

__global__ void k(unsigned int *out)
{
#ifndef DEBUG_MATH
    out[0] = twice(out[1], out[2], out[3]);
#else
    out[0] = twice(out[1], out[2], out[3]) + 1u;
#endif
    out[4] = twice(out[5]);
}

__host__ unsigned int host_side(unsigned int a)
{
#ifndef DEBUG_MATH
    return plain(a);
#else
    return plain(a, 0);
#endif
}
"""


def test_a_masked_call_of_a_name_a_non_carrier_bears_and_a_head_of_no_carrier_stay_as_written(tmp_path):
    """The kernel's flag is declared after its `{`, not in the conditional's branch its first statement stands in
    (main declared it under `#else`: hipcc, `kp_carry` undeclared at `twice(kp_carry, out[5])`)."""
    body = port_text(LOOKALIKE, "m.cu", dedent=False)
    assert "__global__ void k(unsigned int *out)\n{ unsigned int kp_carry = 0u;\n#ifndef DEBUG_MATH" in body
    assert "twice(kp_carry, out[5])" in body
    assert "twice(out[1], out[2], out[3])" in body and "twice(kp_carry, out[1]" not in body
    assert "plain(unsigned int a)\n" in body and "plain(unsigned int a, int *dbg)\n" in body and "plain(kp_carry" not in body
    require_tool("hipcc")
    for define in ([], ["-DDEBUG_MATH"]):
        (f := tmp_path / "l.hip").write_text(body)
        assert_hip_file_compiles(f, ["gfx90a", "gfx1030"], extra_args=define)
