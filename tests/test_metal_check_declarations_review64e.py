"""A class template's member declared in its body and defined out of it keeps one signature in the checker
(check/thread_declarations.py; review of stop 64's Metal merge, issue 11).  Snippets written for the test.

Stop 64 wrote `thread` on the in-class declaration's `const T &s` (its head names no template: T is the
class's), while the out-of-class definition `template <class T> T S<T>::get(const T &s) const` leaves its
template's type parameters alone (thread_params.py): clang found no declaration the definition matches
("out-of-line definition of 'get' does not match"), a false refusal of a port Metal accepts.
Look-alike: a plain class's member declared and defined the same way still takes `thread` on both, so device
memory given to it is refused.
"""
from __future__ import annotations

import pytest

from conftest import require_tool

HEAD = "#include <metal_stdlib>\nusing namespace metal;\n"
TEMPLATE = ("template <class T> struct S { T a; T get(const T &s) const; };\n"
            "template <class T> T S<T>::get(const T &s) const { return a * s; }\n")
PLAIN = ("struct S { float a; float get(const float &s) const; };\n"
         "float S::get(const float &s) const { return a * s; }\n")
KERNEL = "kernel void k(device float *b [[buffer(0)]]) {\n  TYPE s; s.a = 1; float y = b[1];\n  b[0] = s.get(ARG);\n}\n"


def _errors(classes: str, type_: str, arg: str) -> list[tuple[int, str]]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    text = HEAD + classes + KERNEL.replace("TYPE", type_).replace("ARG", arg)
    return [(d.line, d.message) for d in check_metal_source(text, "t.metal") if d.severity == "error"]


@pytest.mark.parametrize("classes,type_", [(TEMPLATE, "S<float>"), (PLAIN, "S")])
def test_a_member_declared_in_its_class_and_defined_out_of_it_passes_with_a_thread_value(classes, type_):
    assert _errors(classes, type_, "y") == []


def test_a_plain_class_member_given_device_memory_is_still_refused():
    """Look-alike: the plain class's `const float &s` is `thread` in MSL: `s.get(b[1])` is refused at its line."""
    assert [line for line, _ in _errors(PLAIN, "S", "b[1]")] == [7]
