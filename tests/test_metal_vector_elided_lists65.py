"""Scalars a braced list gives a vector element or member without braces (kernelport/vector_elided_lists.py).

CUDA reads `float4 a[2] = {x, y};` member by member (a[0] = (x, y, 0, 0)); Metal's vectors take no elided braces
and convert the scalar whole (a[0] = (x, x, x, x), a[1] = (y, y, y, y)): the checker's clang accepts the text,
so main wrote a port that computes something else.  Refused at the scalar (KP223); vectors given whole and braced
elements still port, and HIP (where hipcc rejects the text) is not this module's."""
from __future__ import annotations

import pytest

from conftest import require_tool
from port_support import metal_checker, ported, refusal

KERNEL = """struct S { float4 v; float w; };
__global__ void k(float4* out, float x, float y) {
    int i = threadIdx.x;
    float4 u = out[i];
    BODY
}
"""


@pytest.mark.parametrize("body, column", [
    ("float4 a[2] = {x, y}; out[i] = a[i & 1];", 20),
    ("S s = {x, y}; out[i] = s.v;", 12),
    ("S s = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f}; out[i] = s.v;", 12),
    ("float4 a[2] = {u, (float)i}; out[i] = a[i & 1];", 23),  # a vector whole, then a scalar's elided vector
])
def test_a_scalar_in_a_vector_place_is_refused_on_metal(body, column):
    errors = refusal(KERNEL.replace("BODY", body), to="metal", dedent=False, expect="KP223")
    assert any(e.code == "KP223" and e.line == 5 and e.column == column for e in errors), [e.format() for e in errors]


def test_vectors_given_whole_or_braced_still_port():
    require_tool("clang")
    body = "float4 a[2] = {u, out[0]}; S s = {u, x}; S t = {{x, y}, y}; out[i] = a[i & 1] + s.v + t.v;"
    text = ported(KERNEL.replace("BODY", body), to="metal", dedent=False)[1]
    assert "S t = {{x, y, 0, 0}, y};" in text and metal_checker(text) == [], text
    # HIP: its vectors are classes (hipcc rejects the elided text); this module refuses nothing there
    assert not [e for e in refusal(KERNEL.replace("BODY", "S s = {x, y}; out[i] = s.v;"), to="hip", dedent=False)
                if e.code == "KP223"]


@pytest.mark.parametrize("to", ["metal", "hip"])
def test_a_list_of_one_vector_is_a_copy_not_a_short_list(to):
    # main wrote `float4 v = {u, 0, 0, 0};` (Metal: KP224 "too many elements", which stop 65 made of a port main
    # wrote; hipcc: "cannot convert 'HIP_vector_type<float, 4>' to 'float'"); CUDA's list of one float4 copies it
    code = KERNEL.replace("BODY", "float4 v = {u}; float4 w{make_float4(x, y, x, y)}; float4 z = {x};\n"
                                  "    out[i] = v + w + z;")
    text = ported(code, to=to, dedent=False)[1]
    assert "float4 v = {u};" in text and ("float4 w{make_float4(x, y, x, y)};" in text or
                                          "float4 w{float4(x, y, x, y)};" in text), text
    assert "float4 z = {x, 0, 0, 0};" in text, text  # look-alike: a scalar's short list is completed
    if to == "metal":
        require_tool("clang")
        assert metal_checker(text) == [], text
