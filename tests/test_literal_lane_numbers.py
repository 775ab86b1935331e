"""A ballot word that a literal lane test reads is the thread's warp's everywhere, or refused (kernelport/literal_lanes.py).

    #define FULL 0xffffffffu
    unsigned m = __ballot_sync(FULL, p);  if (m == FULL) ...     // a named literal: the warp all voted
    unsigned m = ...; if (m & 1) ...; out[i] = __clz(m);          // a number: no per-warp reading keeps it

A name whose value is a literal (a macro, a `const` / `constexpr`) is as literal a lane test as the literal:
main ported `m == FULL` as the wave's word against the name (the whole 64-lane wave voted; the emulator at
wave 64 differed from the original at 32 at lanes 32-63), beside a `m & 1` read as the warp's.  The port reads
the other reads of such a word as the warp's lanes in their wave positions, which counts, leader elections,
zero tests and lane bit tests keep; a read that takes it as a number (`__clz`, `__brev`, `m >> 16`, `~m`,
`-m`, `m * 3`, `m ^ q` or `m == q` with a word read the wave's way, `(int)m`, a copy) computed something
else on both 64- and 32-lane waves (`__clzll` of the 64-bit word counts 32 more on gfx1030): KP251 there."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, ported, refusal

HEAD = """#define FULL 0xffffffffu
__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(FULL, in[i] > 0);
    unsigned q = __ballot_sync(FULL, in[i] > 1);
    int lane = threadIdx.x & 31;
"""


def _code(body: str) -> str:
    return HEAD + body + "}\n"


def _args():
    x = np.random.default_rng(5).integers(-3, 4, 256).astype(np.int32)
    x[32:64], x[96:128], x[160:192] = 2, -1, 1  # (a 64-lane wave whose warps differ: one all voting, one none)
    return {"in": x, "out": np.zeros(256, np.int32)}


def _same(code: str, text: str) -> None:
    from kernelport.emulator import run_kernel
    assert_port_at_64_is_original_at_32(code, text, "k", _args(), (2, 1, 1), (128, 1, 1))
    want = run_kernel(code, "k", args=_args(), grid=(2, 1, 1), block=(128, 1, 1), wave=32).outputs["out"]
    got = run_kernel(text, "k", args=_args(), grid=(2, 1, 1), block=(128, 1, 1), wave=32, backend="hip").outputs
    assert np.array_equal(got["out"], want)


WARP_WORD = "((unsigned)((m) >> (__lane_id() & 32))) == 0xffffffffu"


@pytest.mark.parametrize("body", [
    "    out[i] = (m == FULL) + 10 * (m & 1);\n",  # (a macro, beside a literal test)
    "    out[i] = (m == FULL);\n",  # (the only test: main kept the wave's word, all 64 lanes voted)
    "    constexpr unsigned F = 0xffffffffu;\n    out[i] = (m == F) + 10 * (m & 1);\n",
    "    const unsigned F = 0xffffffffu;\n    out[i] = (F != m) + 10 * __popc(m);\n",
])
def test_a_named_literal_is_a_literal_lane_test(tmp_path, body):
    code = _code(body)
    port, text = ported(code, dedent=False)
    assert ("((unsigned)((m) >> (__lane_id() & 32)))" in port.body and "0xffffffffu" in port.body and
            "== FULL" not in port.body), port.body
    _same(code, text)
    if "FULL" in body:  # (a `constexpr` full mask's port is `__ballot(1)`, which hipcc refuses: main's, apart)
        hip_compiles(tmp_path, text, "named.hip")


def test_a_name_that_is_not_a_constant_is_not_a_literal_test():
    """`F` assigned again (not `const`), `q` a ballot word: neither is a literal, the word keeps main's port."""
    code = _code("    unsigned F = 0xffffffffu;\n    if (in[i] > 2) F = q;\n    out[i] = (m == F);\n")
    port, _ = ported(code, dedent=False)
    assert "__lane_id() & 32" not in port.body, port.body


@pytest.mark.parametrize("read, at", [
    ("__clz(m)", "__clz(m)"), ("__brev(m)", "__brev(m)"), ("(m >> 16)", "m >> 16"), ("__popc(~m)", "~m"),
    ("__ffs(m & -m)", "-m"), ("(m * 3u)", "m * 3u"), ("__popc(m ^ q)", "m ^ q"), ("(m == q)", "m == q"),
    ("(m < q)", "m < q"), ("(int)m", "(int)m"), ("(31 - __clz(m))", "__clz(m)"),
])
def test_a_word_read_as_the_warps_and_as_a_number_is_refused(read, at):
    code = _code(f"    out[i] = {read} + 7 * (m & 1);\n")
    errs = refusal(code, dedent=False, expect="KP251")
    col = code.splitlines()[7].index(at) + 1
    assert [(e.line, e.column) for e in errs if e.code == "KP251"] == [(8, col)], [e.format() for e in errs]
    assert f"`{at}` reads as a number" in errs[0].message and "line 8: `m & 1`" in errs[0].message


def test_a_copy_of_such_a_word_is_refused():
    errs = refusal(_code("    unsigned c = m;\n    out[i] = __clz(c) + 7 * (m & 1);\n"), dedent=False, expect="KP251")
    assert [(e.line, e.code) for e in errs] == [(8, "KP251")], [e.format() for e in errs]


LANE_SETS = [
    "    out[i] = ((m >> lane) & 1) + 7 * (m & 1);\n",  # (a lane's bit, the lane the wave's)
    "    out[i] = __popc(m & q) + 7 * (m & 1) + 100 * (q & 2);\n",  # (both words the warp's)
    "    out[i] = (m ? 1 : 0) + (!m) + 7 * (m & 1) + 100 * (m != 0 && in[i] > 0);\n",
    "    out[i] = __popc(m & (m - 1)) + 7 * (m & 1);\n",
    "    int leader = __ffs(m) - 1;\n    out[i] = __shfl_sync(FULL, i, leader) + 1000 * (m & 1);\n",
]


@pytest.mark.parametrize("body", LANE_SETS)
def test_reads_of_the_warps_lanes_keep_their_port(tmp_path, body):
    code = _code(body)
    port, text = ported(code, dedent=False)
    assert "(0xffffffffull << (__lane_id() & 32))" in port.body, port.body
    _same(code, text)
    if body is LANE_SETS[1]:
        hip_compiles(tmp_path, text, "sets.hip")


HELPER = """__device__ int hi(unsigned b) { return __clz(b); }
__device__ int cnt(unsigned b) { return __popc(b) + 2 * (b != 0); }
__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(0xffffffffu, in[i] > 0);
    out[i] = hi(m) + 7 * (m & 1);
}
"""


def test_a_number_read_in_a_helper_taking_such_a_word_is_refused_there():
    errs = refusal(HELPER, dedent=False, expect="KP251")
    assert [(e.line, e.column) for e in errs] == [(1, 40)], [e.format() for e in errs]


def test_a_helper_counting_such_a_word_keeps_its_port():
    code = HELPER.replace("hi(m)", "cnt(m)")
    port, text = ported(code, dedent=False)
    assert "cnt(((m) & (0xffffffffull << (__lane_id() & 32))))" in port.body, port.body
    _same(code, text)


LANEID = """__device__ __forceinline__ unsigned laneid() { unsigned r; asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(0xffffffffu, in[i] > 0);
    out[i] = __popc(m & ((1u << laneid()) - 1)) + 1000 * (m & 1);
}
"""


def test_a_lane_bit_of_a_laneid_helper_is_widened(tmp_path):
    """`1u << laneid()` where the helper reads `%laneid` (the port's `__lane_id()`, 0-63): main kept the 32-bit
    `1u`, whose shift by lanes 32-63 is undefined (the rank within the warp was wrong at lanes 33-63); it is a
    lane bit as `1u << (threadIdx.x & 31)` is, `1ull`.  A lane bit of a data word (`in[i] & (1u << laneid())`)
    keeps its `1u` and takes the 32-lane warp's lane (stop 66, kernelport/lane_bits.py: `1u << __lane_id()`
    shifted the 32-bit word by 32-63 on the upper warp)."""
    port, text = ported(LANEID, dedent=False)
    assert "((1ull << laneid()) - 1)" in port.body, port.body
    _same(LANEID, text)
    hip_compiles(tmp_path, text, "laneid.hip")
    alike, _ = ported(LANEID.replace("    out[i] = __popc", "    if (in[i] & (1u << laneid())) out[i] = 5;\n"
                                     "    out[i + 1] = __popc"), dedent=False)
    assert "if (in[i] & (1u << (laneid() & 31))) out[i] = 5;" in alike.body, alike.body
