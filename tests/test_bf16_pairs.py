"""CUDA's bf16 pair `__nv_bfloat162` as storage (heldout95: a tile loader reads two bf16 with one 4-byte load,
`__nv_bfloat162 v = *reinterpret_cast<const __nv_bfloat162*>(&src[i]);`, then `v.x`, `v.y`, and stores a pair it
fills member by member).  ROCm 5.2, the API table's checked ROCm, has no bf16 pair type (its hip/hip_bfloat16.h has
the scalar hip_bfloat16; ROCm 6.0's hip_bf16.h brought `__hip_bfloat162`), so translate refused the name (KP210)
and three files of the set with it.  Now the port's prologue defines `kp_bfloat162`: two hip_bfloat16 `.x`/`.y` in
CUDA's size (4) and alignment (4), guarded once per translation unit; the table writes the name so.  The pair's
arithmetic and conversions were unsupported here; kernelport/backends/hip_bf16_pairs.py now defines most
(tests/test_bf16_pair_arithmetic.py), and `__float22bfloat162_rn` is still KP210.  The snippets are written here; no
held-out file is read."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text, refusal

PAIRS = """#include <cuda_bf16.h>
__global__ void widen(const __nv_bfloat16* src, float* dst, int n)
{
    int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 1 < n) {
        __nv_bfloat162 v = *reinterpret_cast<const __nv_bfloat162*>(&src[i]);
        dst[i] = __bfloat162float(v.x);
        dst[i + 1] = __bfloat162float(v.y);
    }
}
__global__ void narrow(const float* src, __nv_bfloat16* dst, int n)
{
    int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 1 < n) {
        __nv_bfloat162 v;
        v.x = __float2bfloat16(src[i]);
        v.y = __float2bfloat16(src[i + 1]);
        *reinterpret_cast<__nv_bfloat162*>(&dst[i]) = v;
    }
}
static_assert(sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4, "CUDA's pair layout");
"""


def test_a_pair_used_as_storage_is_written_and_compiles_for_both_waves(tmp_path):
    text = port_text(PAIRS, dedent=False)
    assert "__nv_bfloat162" not in text.split("kernelport)\n", 1)[-1]
    assert "kp_bfloat162 v = *reinterpret_cast<const kp_bfloat162*>(&src[i]);" in text
    assert text.count("struct __attribute__((aligned(4))) kp_bfloat162") == 1
    hip_compiles(tmp_path, text)  # the static_assert holds: CUDA's size and alignment


def test_the_pairs_other_conversions_stay_refused():
    """`__floats2bfloat162_rn` is the prologue's now (tests/test_bf16_pair_arithmetic.py); a float2's pair is not."""
    make = PAIRS.replace("__nv_bfloat162 v;\n        v.x = __float2bfloat16(src[i]);\n"
                         "        v.y = __float2bfloat16(src[i + 1]);",
                         "__nv_bfloat162 v = __float22bfloat162_rn(make_float2(src[i], src[i + 1]));")
    assert "__float22bfloat162_rn" in make
    errors = refusal(make, expect="KP210", dedent=False)
    assert [e.code for e in errors] == ["KP210"] and "__float22bfloat162_rn" in errors[0].message


def test_a_pairs_ldg_is_a_load_and_compiles(tmp_path):
    """cuda_bf16.hpp overloads `__ldg` for the pair (a read-only cached load); ROCm 5.2's `__ldg` has no overload
    that takes it, so the port did not compile: the prologue's own is a plain load of the 4 bytes."""
    ldg = PAIRS.replace("*reinterpret_cast<const __nv_bfloat162*>(&src[i]);",
                        "__ldg(reinterpret_cast<const __nv_bfloat162*>(&src[i]));")
    assert "__ldg(" in ldg
    hip_compiles(tmp_path, port_text(ldg, dedent=False))
