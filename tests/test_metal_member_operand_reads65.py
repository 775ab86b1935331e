"""`vs[i] += vs[j]`: a member operator on a device object whose argument is in device memory (stop 65).

The operator's `device` twin takes a `thread` reference, so the argument must be copied (`V(vs[j])`).  Main
refused every such call on a non-const member (KP224: the object may be the argument, `i == j`, and a copy
reads the value before the call).  The copy means what CUDA means when the member reads no member of its
parameter after writing that member of its own object (kernelport/backends/metal/member_operand_reads.py):
`x += o.x; y += o.y;` is ported; the look-alikes that read a member after writing it stay refused."""
from __future__ import annotations

import pytest

from conftest import require_tool
from port_support import metal_checker, ported, refusal

KERNEL = """struct V { float x, y;
  __device__ V& operator+=(const V& o) { BODY return *this; } };
__global__ void k(float* out, V* vs, int n) {
    int i = threadIdx.x;
    int j = (i + 1) % n;
    out[i] += out[j];
    vs[i] += vs[j];
}
"""


@pytest.mark.parametrize("body", ["x += o.x; y += o.y;", "float t = o.x; x += t; y += o.y;",
                                  "x = x + o.x; this->y += o.y;"])
def test_a_member_that_reads_each_operand_member_before_writing_it_ports_with_a_copy(body):
    require_tool("clang")
    text = ported(KERNEL.replace("BODY", body), to="metal", dedent=False)[1]
    assert "vs[i] += V(vs[j]);" in text and "out[i] += out[j];" in text, text
    assert metal_checker(text) == [], text
    # the call as main wrote it (no copy) is what Metal rejects
    assert metal_checker(text.replace("V(vs[j])", "vs[j]")) != []


@pytest.mark.parametrize("body", ["x += o.y; y += o.x;",  # with i == j: y += the new x in CUDA, the old in a copy
                                  "y += o.y; x += o.x; y -= o.y;",
                                  "x += o.x; scale(); y += o.y;",  # a call may write any member
                                  "x += o.x; *this = o;",
                                  "const V& a = o; x += a.y; y += a.x;",  # the reads through a local reference
                                  "auto g = [&] { return o.x; }; x += o.x; y += g();"])  # a lambda reads later
def test_a_member_that_may_read_what_it_wrote_stays_refused(body):
    code = KERNEL.replace("BODY", body).replace("struct V { float x, y;",
                                                "struct V { float x, y; __device__ void scale() { x *= 2; }")
    errors = refusal(code, to="metal", dedent=False, expect="KP224")
    assert any(e.line == 7 for e in errors), [e.format() for e in errors]


@pytest.mark.parametrize("head, body", [
    ("union { float x; int y; }; float z;", "y = 1; x += o.x;"),  # y shares x's storage: x is written first
    ("float x, y; __device__ float gx() const { return x; }", "x += o.x; y += o.gx();"),  # gx reads o.x
])
def test_a_write_through_shared_storage_or_a_read_through_a_member_call_stays_refused(head, body):
    # main ported both with the copy `V(vs[j])`: with i == j CUDA reads the written member, the copy the old one
    code = KERNEL.replace("BODY", body).replace("struct V { float x, y;", "struct V { " + head)
    errors = refusal(code, to="metal", dedent=False, expect="KP224")
    assert any(e.line == 7 for e in errors), [e.format() for e in errors]


def test_a_member_defined_out_of_its_class_is_read_in_its_class():
    require_tool("clang")
    out = KERNEL.replace("__device__ V& operator+=(const V& o) { BODY return *this; } };",
                         "__device__ V& operator+=(const V& o); };\n"
                         "__device__ V& V::operator+=(const V& o) { x += o.x; y += o.y; return *this; }")
    text = ported(out, to="metal", dedent=False)[1]
    assert "vs[i] += V(vs[j]);" in text and metal_checker(text) == [], text
    union = out.replace("struct V { float x, y;", "struct V { union { float x; int ix; }; float y;").replace(
        "x += o.x; y += o.y;", "ix = 1; y += o.x;")
    assert any(e.line == 8 for e in refusal(union, to="metal", dedent=False, expect="KP224"))
