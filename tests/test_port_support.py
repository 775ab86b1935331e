"""port_support.refusal: a refused port's errors, `[]` for a written one, and its expected code checked."""
from __future__ import annotations

import pytest

from port_support import refusal

# a partial mask HIP's mask-less shuffle cannot keep (KP203 at line 4); its look-alike has the full mask
REFUSED = """
__global__ void k(float *x) {
    float v = x[threadIdx.x];
    v += __shfl_xor_sync(0x0000ffff, v, 1);
    x[threadIdx.x] = v;
}
"""
WRITTEN = REFUSED.replace("0x0000ffff", "0xffffffff")


def test_a_written_port_has_no_refusal_and_a_refused_one_its_located_errors():
    assert refusal(WRITTEN) == []
    got = refusal(REFUSED, expect="KP203")
    assert [(d.code, d.line, d.column) for d in got] == [("KP203", 4, 26)], [d.format() for d in got]


def test_an_expected_code_the_refusal_lacks_fails_naming_every_diagnostic():
    with pytest.raises(AssertionError, match="KP203 mask '0x0000ffff'"):
        refusal(REFUSED, expect="KP201")
    with pytest.raises(AssertionError):
        refusal(WRITTEN, expect="KP203")
