"""cuRAND's XORWOW in the emulator (emulator/xorwow.py, emulator/frontend/curand_model.py):
`curand_init(seed, subsequence, offset, &state)`'s state (subsequences 2^67 draws apart, offsets
one draw each), `curand`, `curand_uniform`, `curand_normal` (Box-Muller, the second value kept),
`curand_uniform_double`, `curand_normal_double`, against what cuRAND's own definitions give.

The reference rows were made by cuRAND's header (CUDA 13's curand_kernel.h, its host path: the
same state, draws and conversions as the device's; the float normal's angle through sinf/cosf where
the device uses __sincosf) compiled with g++ -D-free (no GPU):
    for seed, subsequence, offset: curandState s; curand_init(seed, subsequence, offset, &s);
    print s.d, s.v[0..4]; r0 = curand; r1 = curand; u = curand_uniform; n0, n1, n2 = curand_normal x3;
    ud = curand_uniform_double; nd = curand_normal_double  (floats as %a)
A device run (`verify --device cuda` of a file drawing so) compares the GPU's cuRAND with the emulator."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator import xorwow

# (seed, subsequence, offset, (d, v0..v4, r0, r1), (u, n0, n1, n2, ud, nd) as C hex floats)
CURAND = [
    (0, 0, 0, (716983765, 1478573778, 1163863128, 4171507460, 3705206908, 1360900310, 3179217846, 1883133293), ("0x1.08b5e2p-1", "0x1.ab2736p-1", "0x1.bbee96p+0", "0x1.3ac7f8p+0", "0x1.270ba33c359b6p-3", "-0x1.110fea0a30b72p-4")),
    (0, 1, 1, (717346202, 1835678088, 1508631436, 3181274380, 3517576255, 3238291997, 1977250130, 1432217238), ("0x1.7d75fep-2", "-0x1.f60242p-2", "-0x1.1706c8p+0", "0x1.1e2edcp+1", "0x1.6c7480e34b26cp-4", "-0x1.17b38a1e93d22p-2")),
    (0, 5, 1, (717346202, 3275098745, 2705931436, 575058552, 1149974721, 1199712929, 1450407671, 890042805), ("0x1.f815d8p-1", "0x1.369a8cp+0", "0x1.2d6ab4p-1", "0x1.0d6998p+0", "0x1.3da2e6d236f5p-1", "0x1.aec54a1b74983p-2")),
    (0, 1000003, 777, (998597314, 790896193, 3608993589, 431589180, 1657072061, 2217128643, 3875905287, 2001614804), ("0x1.b75f6p-1", "0x1.2c4b88p-1", "-0x1.2f8be6p+0", "-0x1.62d72ep-2", "0x1.2aa294aab36c4p-4", "0x1.71e18ad6dde17p-3")),
    (1234, 0, 1, (832457172, 1111207954, 4171507460, 3705206908, 1476011280, 4087288897, 1867875844, 3739671282), ("0x1.d216cep-2", "-0x1.198152p-2", "-0x1.ee1eeap-2", "-0x1.be22bep+0", "0x1.77970dbfecdabp-2", "-0x1.b4baa752a8933p-1")),
    (1234, 1, 777, (1113708284, 2826746174, 1109864300, 222638847, 1574179822, 2169356036, 1436177816, 442211588), ("0x1.fb5784p-1", "-0x1.4c9ca4p-3", "-0x1.117ac6p+1", "-0x1.9f48b4p-3", "0x1.45c731cc22d34p-1", "-0x1.96c3813150a79p-1")),
    (1234, 5, 1, (832457172, 3511836796, 2131740991, 542514131, 2651346053, 2899778667, 2152834071, 919474540), ("0x1.856a02p-2", "-0x1.19985ap+0", "-0x1.0aafd6p+0", "-0x1.b290c8p-1", "0x1.8c2fe50bb8a94p-4", "0x1.5c8222f5babeep+0")),
    (1234, 1000003, 1, (832457172, 2175954174, 3327290473, 3405623648, 3621651643, 4283095906, 455624346, 2603718114), ("0x1.5bdba6p-3", "0x1.72245ap-1", "-0x1.050fc2p+0", "-0x1.088d96p+0", "0x1.66bdad083f1acp-1", "-0x1.ce3ef4447325bp+0")),
    (81985529216486895, 0, 777, (259662194, 569689539, 246871045, 1671058953, 3261682477, 341195267, 992948509, 2516538246), ("0x1.efa01ep-2", "0x1.8225fcp-3", "-0x1.42be04p-1", "0x1.4c2caep+0", "0x1.e267605de286ap-1", "-0x1.26ae54fcdedbbp+0")),
    (81985529216486895, 1, 777, (259662194, 3625279838, 1602388385, 779988897, 335026174, 3139270377, 1215954073, 2138978325), ("0x1.bb1e62p-5", "-0x1.c0c772p+0", "-0x1.85ec02p-2", "0x1.cb96cap-3", "0x1.706dad8479eeep-3", "0x1.26ed17ef0be58p+0")),
    (81985529216486895, 5, 777, (259662194, 123865675, 1347008386, 508645322, 869299066, 4214653972, 1393624438, 3320717925), ("0x1.466f8ep-5", "0x1.964accp+0", "-0x1.4296cap+0", "-0x1.5cc77cp+0", "0x1.93ec3c3b0365ap-3", "0x1.1b4bfb33d1f63p-1")),
    (81985529216486895, 1000003, 777, (259662194, 2394489473, 4062708992, 3917713371, 2610122400, 1447880604, 3577414006, 3714975755), ("0x1.db2b32p-2", "0x1.bdd2dap-3", "-0x1.b33c1ap-2", "-0x1.e6b17cp-1", "0x1.13b13fb14928cp-4", "0x1.1034ff0ecd29ep-1")),
]

STATE = np.dtype([("d", "u4"), ("v0", "u4"), ("v1", "u4"), ("v2", "u4"), ("v3", "u4"), ("v4", "u4"),
                  ("boxmuller_flag", "i4"), ("boxmuller_flag_double", "i4"), ("boxmuller_extra", "f4"),
                  ("boxmuller_extra_double", "f8")], align=True)  # cuRAND's 48-byte curandStateXORWOW

DRAWS = r"""
#include <curand_kernel.h>
__global__ void draws(const unsigned long long* seed, const unsigned long long* sub, const unsigned long long* off,
                      unsigned int* words, float* f, double* d, curandState* states) {
    int i = threadIdx.x;
    curandState s;
    curand_init(seed[i], sub[i], off[i], &s);
    states[i] = s;
    words[8 * i] = s.d;  /* (the model's names of cuRAND's d, v[5]: a kernel never reads them) */
    words[8 * i + 1] = s.v0; words[8 * i + 2] = s.v1; words[8 * i + 3] = s.v2; words[8 * i + 4] = s.v3;
    words[8 * i + 5] = s.v4;
    words[8 * i + 6] = curand(&s);
    words[8 * i + 7] = curand(&s);
    f[4 * i] = curand_uniform(&s);
    f[4 * i + 1] = curand_normal(&s);
    f[4 * i + 2] = curand_normal(&s);
    f[4 * i + 3] = curand_normal(&s);
    d[2 * i] = curand_uniform_double(&s);
    d[2 * i + 1] = curand_normal_double(&s);
}
"""


def _draws(wave: int, schedule: str = "block"):
    n = len(CURAND)
    col = lambda k: np.array([r[k] for r in CURAND], np.uint64)  # noqa: E731
    args = dict(seed=col(0), sub=col(1), off=col(2), words=np.zeros(8 * n, np.uint32), f=np.zeros(4 * n, np.float32),
                d=np.zeros(2 * n, np.float64), states=np.zeros(n, STATE))
    # unfused, as the reference rows were computed (g++ on x86-64: no fma); the device's nvcc fuses the
    # angle's y * K + K/2, which the emulator's default (contract=True) rounds once, exactly as an fma:
    # one rounding of the angle apart from these rows, past the normals' tolerance below
    return run_kernel(DRAWS, "draws", args=args, grid=(1, 1, 1), block=(n, 1, 1), wave=wave, schedule=schedule,
                      contract=False)


def _hex(x: str) -> float:
    return float.fromhex(x)


@pytest.mark.parametrize("wave, schedule", [(32, "block"), (64, "block"), (32, "thread")])
def test_states_and_draws_are_curand_s(wave, schedule):
    res = _draws(wave, schedule)
    assert res.races == []
    words = res.outputs["words"].reshape(-1, 8)
    f = res.outputs["f"].reshape(-1, 4)
    d = res.outputs["d"].reshape(-1, 2)
    for i, (seed, sub, off, ints, floats) in enumerate(CURAND):
        assert tuple(int(x) for x in words[i]) == ints, (seed, sub, off)
        assert f[i, 0] == np.float32(_hex(floats[0])), (seed, sub, off)  # uniform: exact
        assert d[i, 0] == _hex(floats[4]), (seed, sub, off)  # uniform double: exact
        # normals: one rounding of sin/cos apart at most (the host's sinf, the device's __sincosf)
        assert np.allclose(f[i, 1:], [_hex(x) for x in floats[1:4]], rtol=4e-7, atol=1e-7), (seed, sub, off)
        assert abs(d[i, 1] - _hex(floats[5])) <= 1e-15 * max(1.0, abs(d[i, 1])), (seed, sub, off)


def test_a_state_stored_to_memory_has_curand_s_layout_and_flags():
    res = _draws(32)
    st = res.outputs["states"]
    assert STATE.itemsize == 48
    for i, (_, _, _, ints, _) in enumerate(CURAND):
        assert (int(st["d"][i]), *(int(st[f"v{k}"][i]) for k in range(5))) == ints[:6]
    assert not st["boxmuller_flag"].any() and not st["boxmuller_flag_double"].any()


def test_a_jump_is_that_many_draws():
    """offset n is n draws (the counter too); subsequence 1 is 2^67 draws: 2^64 draws applied 8 times."""
    d0, v0 = xorwow.init_state(99, 0, 0)
    w, d = v0.copy(), d0.copy()
    for _ in range(1000):
        w = xorwow.step_words(w)
        d = d + np.uint32(xorwow.WEYL)
    d1, v1 = xorwow.init_state(99, 0, 1000)
    assert (v1 == w).all() and (d1 == d).all()
    _, vs = xorwow.init_state(99, 1, 0)
    _, v64 = xorwow.init_state(99, 0, 1 << 63)
    w = xorwow.jump(v0, np.array([16], np.uint64), 63)  # 16 * 2^63 = 2^67
    assert (vs == w).all() and not (vs == v64).all()


HIP = r"""
#include <hiprand/hiprand_kernel.h>
__global__ void draws(unsigned int* r, float* u) {
    hiprandState s;
    hiprand_init(1234ULL, threadIdx.x, 0, &s);
    r[threadIdx.x] = hiprand(&s);
    u[threadIdx.x] = hiprand_uniform(&s);
}
"""


def test_a_hip_port_s_hiprand_names_run_the_same_model():
    """The HIP backend's API table spells cuRAND's names hiprand_*: the port draws the original's stream
    (a check of the translation; on AMD, hipRAND's own XORWOW seeds otherwise: see the README)."""
    res = run_kernel(HIP, "draws", args=dict(r=np.zeros(2, np.uint32), u=np.zeros(2, np.float32)), grid=(1, 1, 1),
                     block=(2, 1, 1), wave=64, backend="hip")
    # cuRAND's first two draws of seed 1234, subsequences 0 and 1 (the header's rows "1234 0 0", "1234 1 0")
    assert [int(x) for x in res.outputs["r"]] == [624778773, 3522650202]
    second = np.array([1867875844, 3978931785], np.float32)
    assert np.array_equal(res.outputs["u"], second * np.float32(2.0 ** -32) + np.float32(2.0 ** -33))


def test_a_name_the_model_lacks_is_a_located_refusal():
    src = DRAWS.replace("curand_normal_double(&s)", "curand_log_normal(&s, 0.0f, 1.0f)")
    with pytest.raises(Exception) as e:
        _draws_src(src)
    assert "curand_log_normal" in str(e.value) and ":" in str(e.value)


def _draws_src(src):
    n = len(CURAND)
    args = dict(seed=np.zeros(n, np.uint64), sub=np.zeros(n, np.uint64), off=np.zeros(n, np.uint64),
                words=np.zeros(8 * n, np.uint32), f=np.zeros(4 * n, np.float32), d=np.zeros(2 * n),
                states=np.zeros(n, STATE))
    return run_kernel(src, "draws", args=args, grid=(1, 1, 1), block=(n, 1, 1))
