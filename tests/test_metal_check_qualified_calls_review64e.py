"""The Metal checker's `thread` object qualifier is written on out-of-class member definitions only, never on
a qualified call (check/thread_members.py; review of stop 64's Metal merge, issue 11).  Snippets written for
the test.

A call naming its class (`d.B::put(q)`, `B::put(q);` in a derived member, `p->B::put(q)`, `2 * B::s(x)`) was
read as an out-of-class definition: ` thread` was written after its `)` (`d.B::put(q) thread;`) and clang's
syntax error refused a port Metal accepts (a derived class's member hidden by the derived one, called through
its base: reached by kernelport's own ports, metal/member_callees.py).  Look-alike: a member defined out of its
class still gets its `thread` object, so a call on a device object is still refused.
"""
from __future__ import annotations

import pytest

from conftest import require_tool

HEAD = "#include <metal_stdlib>\nusing namespace metal;\n"
CLASSES = """struct B { float v; static float s(float x) { return x; }
  float put(device float *q) const { return q[0] + v; } };
struct D : B { float put(device float *q) const { return 0; } float go(device float *q) const; };
float D::go(device float *q) const { B::put(q); return put(q) + 2 * B::s(q[0]); }
"""
KERNEL = ("kernel void k(device float *b [[buffer(0)]], device D *dd [[buffer(1)]]) {\n"
          "  D d; thread D *p = &d;\n  BODY;\n}\n")


def _errors(body: str) -> list[tuple[int, str]]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    text = HEAD + CLASSES + KERNEL.replace("BODY", body)
    return [(d.line, d.message) for d in check_metal_source(text, "t.metal") if d.severity == "error"]


@pytest.mark.parametrize("body", ["b[0] = d.B::put(b)", "b[0] = p->B::put(b)", "b[0] = d.go(b)",
                                  "float r = 3 * B::s(b[1]); b[0] = r"])
def test_a_qualified_call_passes(body):
    assert _errors(body) == []


def test_an_out_of_class_member_still_takes_a_thread_object():
    """Look-alike: `D::go` defined out of its class is unqualified in MSL: a device object is refused at its line."""
    got = _errors("b[0] = dd->go(b)")
    assert [line for line, _ in got] == [9], got
