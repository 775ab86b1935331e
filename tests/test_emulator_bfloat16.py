"""bfloat16 on the emulator as CUDA holds it (kernelport.emulator.bfloat16): two bytes in memory,
a float stored into one rounded to nearest even, its bytes the high half of the float32's bits (an
`unsigned int` read over two of them sees both), and a buffer sized in host bytes
(`n * sizeof(__nv_bfloat16)` of dynamic shared memory) holds n of them.  Before, a bfloat16 was a
float32 in four bytes: stores kept every float bit, a word read over two saw one float, and llm.c's
fused_residual_forward_kernel5 faulted in its own shared memory.  Checked against a reference
computed here from the IEEE bits (struct), not with the module under test."""
from __future__ import annotations

import struct
import textwrap

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

SOURCE = """
#include <cuda_bf16.h>
__global__ void assign(const float* in, __nv_bfloat16* assigned, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) assigned[i] = in[i];
}
__global__ void narrow(const float* in, __nv_bfloat16* out, float* twice, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = __float2bfloat16(in[i]);
        twice[i] = __bfloat162float(out[i]) * 2.0f;
    }
}
__global__ void words(const __nv_bfloat16* in, unsigned int* w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) w[i] = reinterpret_cast<const unsigned int*>(in)[i];
}
__global__ void scaled(const float* in, __nv_bfloat16* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat16 m = (__nv_bfloat16)(in[i] * 0.1f);
    if (i < n) out[i] = m;
}
__global__ void staged(const __nv_bfloat16* in, __nv_bfloat16* out, int n) {
    extern __shared__ char smem[];
    __nv_bfloat16* s = reinterpret_cast<__nv_bfloat16*>(smem);
    int i = threadIdx.x;
    if (i < n) s[i] = in[i];
    __syncthreads();
    if (i < n) out[i] = s[n - 1 - i];
}
"""

# ties to even (1 + 2^-8 -> 1, 1 + 3 * 2^-8 -> 1 + 2^-6), a carry into the exponent, overflow to
# infinity, a subnormal, negative values and plain decimals
VALUES = np.array([1.0, 1.0 + 2 ** -8, 1.0 + 3 * 2 ** -8, 1.0 + 2 ** -8 + 2 ** -20, 1.9999999, 3.4e38, 1e-40,
                   -3.14159, 0.1, 1e-3, 7.0, -0.0, 65504.0, 123.456, -2.5e-5, 0.3], np.float32)


def _bits(x: float) -> int:
    """A float32's bfloat16 bits, rounded to nearest even: from its IEEE bits, one value at a time."""
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return (u + 0x7FFF + ((u >> 16) & 1)) >> 16


def _value(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def _run(kernel, args, text=SOURCE, backend=None, wave=32, shared=0):
    return run_kernel(textwrap.dedent(text), kernel, args=args, grid=(1,), block=(len(VALUES),), wave=wave,
                      shared_bytes=shared, backend=backend).outputs


def test_a_stored_bfloat16_is_the_float_rounded_to_nearest_even():
    n = len(VALUES)
    want = np.array([_value(_bits(float(x))) for x in VALUES], np.float32)
    assert want[1] == 1.0 and want[2] == 1.0 + 2 ** -6 and np.isinf(want[5])  # the reference's own cases
    assigned = _run("assign", {"in": VALUES, "assigned": np.zeros(n, np.float32), "n": n})
    np.testing.assert_array_equal(assigned["assigned"], want)  # the float converted by the assignment
    out = _run("narrow", {"in": VALUES, "out": np.zeros(n, np.float32), "twice": np.zeros(n, np.float32), "n": n})
    np.testing.assert_array_equal(out["out"], want)
    np.testing.assert_array_equal(out["twice"], want * np.float32(2))


def test_a_word_read_over_two_bfloat16s_sees_both_in_cudas_byte_order():
    n = len(VALUES) // 2
    out = _run("words", {"in": VALUES, "w": np.zeros(n, np.uint32), "n": n})
    want = [_bits(float(VALUES[2 * i])) | _bits(float(VALUES[2 * i + 1])) << 16 for i in range(n)]
    assert [int(w) for w in out["w"]] == want


def test_dynamic_shared_memory_sized_in_host_bytes_holds_that_many_bfloat16s():
    n = len(VALUES)
    out = _run("staged", {"in": VALUES, "out": np.zeros(n, np.float32), "n": n}, shared=n * 2)  # n * sizeof
    want = np.array([_value(_bits(float(x))) for x in VALUES[::-1]], np.float32)
    np.testing.assert_array_equal(out["out"], want)


def test_a_conversion_to_bfloat16_carries_its_rounding_in_the_error_bound():
    """Two runs whose floats differ within their bounds (a reduction in another order) may round to
    neighbouring bfloat16s: each bound must hold its own rounding, or the comparison fails a right port."""
    n = len(VALUES)
    r = run_kernel(textwrap.dedent(SOURCE), "scaled", args={"in": VALUES, "out": np.zeros(n, np.float32), "n": n},
                   grid=(1,), block=(n,))
    exact = VALUES.astype(np.float64) * np.float64(np.float32(0.1))
    finite = np.isfinite(r.outputs["out"]) & (np.abs(exact) > 1e-30)  # (a subnormal product: float32's own bound)
    gap = np.abs(r.outputs["out"].astype(np.float64) - exact)
    assert (gap[finite] > 0).any()  # some value was rounded
    assert (r.bounds["out"][finite] >= gap[finite]).all()


def test_the_hip_port_holds_the_same_bytes_at_wave_64():
    p, text = translate(SourceFile.from_text(textwrap.dedent(SOURCE), "t.cu"), "hip")
    assert p.ok, [d.format() for d in p.diagnostics]
    n = len(VALUES)
    args = {"in": VALUES, "out": np.zeros(n, np.float32), "twice": np.zeros(n, np.float32), "n": n}
    want = _run("narrow", dict(args))
    got = _run("narrow", dict(args), text, "hip", 64)
    np.testing.assert_array_equal(got["out"], want["out"])
    assigned = _run("assign", {"in": VALUES, "assigned": np.zeros(n, np.float32), "n": n}, text, "hip", 64)
    np.testing.assert_array_equal(assigned["assigned"], want["out"])
    words = _run("words", {"in": VALUES, "w": np.zeros(n // 2, np.uint32), "n": n // 2}, text, "hip", 64)
    assert [int(w) for w in words["w"]] == [_bits(float(VALUES[2 * i])) | _bits(float(VALUES[2 * i + 1])) << 16
                                             for i in range(n // 2)]


PACKED_SHARED = r"""
#include <cuda_bf16.h>
struct P { __nv_bfloat16 p[8]; };
__global__ void k(float* out, const float* w) {
    extern __shared__ ELEM params[];
    P* s = reinterpret_cast<P*>(params);
    P a;
    for (int k = 0; k < 8; ++k) a.p[k] = (__nv_bfloat16)w[threadIdx.x * 8 + k];
    s[threadIdx.x] = a;
    __syncthreads();
    P b = s[(threadIdx.x + 1) % 32];
    for (int k = 0; k < 8; ++k) out[threadIdx.x * 8 + k] = (float)b.p[k];
}
"""


@pytest.mark.parametrize("elem", ["char", "float"])
def test_a_struct_of_bfloat16s_copied_whole_through_shared_memory_keeps_its_values(elem):
    """llm.c's fused_residual_forward_kernel5/6 keep Packed128<bf16> weights and rows in `extern
    __shared__ char params[]`: a whole-struct store wrote the local array field's bytes as if they were
    values and a whole-struct load cast the values to bytes (normed[0] -0.570 where a GPU and a numpy
    layernorm give -1.039, bench/device/oracle_device_h100_46_recheck.txt).  The model: each value
    rounded to bfloat16 once, read back by the next thread."""
    w = np.linspace(-1, 1, 256).astype(np.float32)
    r = run_kernel(PACKED_SHARED.replace("ELEM", elem), "k", args=dict(out=np.zeros(256, np.float32), w=w),
                   grid=(1, 1, 1), block=(32, 1, 1), shared_bytes=512)
    want = np.roll(np.array([_value(_bits(float(x))) for x in w], np.float32).reshape(32, 8), -1, axis=0).reshape(-1)
    assert np.array_equal(r.outputs["out"], want), (r.outputs["out"][:4], want[:4])
