"""A ballot's value compared with a full mask the port has no literal of (review of h/hip66b's named full masks):
`__ballot_sync(FULL, p) == FULL` with `#define FULL 0xffffffffu` (or a macro naming a constexpr, `ns::F`, `~0u`,
`UINT32_MAX`) was ported `__ballot(p) == FULL`: the 64-lane wave's 64-bit word never equals 0xffffffff, so the
test was false on every gfx90a wave (the emulator: 0 where CUDA stores 1).  Now KP244 at the comparison
(kernelport/siteless_full_tests.py).  Look-alikes: the ballot kept in a variable (literal_lanes' per-warp test,
ported and equal at 64), a literal full mask (the full_value site), `-1` (all ones at any width), Metal."""
from __future__ import annotations

import numpy as np
import pytest

from port_support import assert_port_at_64_is_original_at_32, port_text, refusal

DIRECT = """DECL
__global__ void k(const int* in, unsigned* out) {
    bool all = __ballot_sync(USE, in[blockIdx.x * blockDim.x + threadIdx.x] > 0) OP USE;
    if (threadIdx.x == 0) out[blockIdx.x] = all;
}
"""


@pytest.mark.parametrize("decl,use,op", [
    ("#define FULL 0xffffffffu", "FULL", "=="),
    ("constexpr unsigned F = 0xffffffffu;\n#define FULL F", "FULL", "!="),
    ("namespace c { constexpr unsigned F = 0xffffffffu; }", "c::F", "=="),
    ("struct C { static constexpr unsigned F = 0xffffffffu; };", "C::F", "=="),
    ("", "~0u", "=="),
])
def test_a_ballot_compared_with_a_full_mask_without_a_literal_is_refused(decl, use, op):
    src = DIRECT.replace("DECL", decl).replace("USE", use).replace("OP", op)
    errors = refusal(src, dedent=False, expect="KP244")
    line = 3 + decl.count("\n")
    assert [(e.code, e.line, e.column) for e in errors] == [("KP244", line, 16)], [e.format() for e in errors]
    assert f"compares a ballot with `{use}`" in errors[0].message


def test_activemask_compared_with_a_macro_full_mask_is_refused():
    src = "#define FULL 0xffffffffu\n__global__ void k(unsigned* out) { out[threadIdx.x] = __activemask() == FULL; }\n"
    assert [(e.code, e.line) for e in refusal(src, dedent=False, expect="KP244")] == [("KP244", 2)]


def test_look_alikes_are_ported():
    x = np.ones(256, dtype=np.int32)
    x[40] = -1
    x[128 + 3] = -1
    args = {"in": x, "out": np.zeros(4, dtype=np.uint32)}
    held = """#define FULL 0xffffffffu
__global__ void k(const int* in, unsigned* out) {
    unsigned b = __ballot_sync(FULL, in[blockIdx.x * blockDim.x + threadIdx.x] > 0);
    if (threadIdx.x == 0) out[blockIdx.x] = (b == FULL);
}
"""
    text = port_text(held, dedent=False)  # the variable's test: the thread's 32-lane warp
    assert_port_at_64_is_original_at_32(held, text, "k", args, (4,), (64,))
    literal = DIRECT.replace("DECL", "").replace("USE", "0xffffffff").replace("OP", "==")
    assert "== __ballot(1);" in port_text(literal, dedent=False)
    assert "== -1;" in port_text(DIRECT.replace("DECL", "#define FULL 0xffffffffu").replace("OP USE", "== -1").replace(
        "USE", "FULL"), dedent=False)
    port_text(DIRECT.replace("DECL", "#define FULL 0xffffffffu").replace("USE", "FULL").replace("OP", "=="),
              to="metal", dedent=False)  # (32-lane SIMD-groups: the test as written)
