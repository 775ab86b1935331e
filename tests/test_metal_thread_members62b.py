"""The checker's `thread` object for member functions (check/thread_members.py, review of h/metal62;
issue 11, Metal part; snippets written for the test).

- `template <class T> struct W { T get() const; };` with `template <class T> T W<T>::get() const {...}`:
  main read `class T> struct W {` as the body of a class T, wrote `thread` on the declaration only, and
  clang rejected the valid program ("out-of-line definition ... does not match"): every port with an
  out-of-class member of a class template was refused.
- `auto get() const -> float` (a trailing return type) got no `thread`, so its generic object took a
  device one: `v[i].get()`, which Metal rejects, passed.
The look-alike: a plain const member called on a device object is still an error.
"""
from __future__ import annotations

import pytest

from conftest import require_tool

HEAD = ("#include <metal_stdlib>\nusing namespace metal;\n"
        "struct V { float x;\n  auto get() const -> float { return x; }\n  float norm() const { return x; }\n};\n"
        "template <class T> struct W { T x; T get() const; };\n"
        "template <class T> T W<T>::get() const { return x; }\n"
        "kernel void k(device float *out [[buffer(0)]], device V *v [[buffer(1)]], device W<float> *w [[buffer(2)]],\n"
        "              uint i [[thread_position_in_grid]]) {\n"
        "  V t = v[i]; W<float> u = w[i];\n")
LINE = HEAD.count("\n") + 1


def _errors(expr: str) -> list[tuple[int, int]]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    return [(d.line, d.column) for d in check_metal_source(HEAD + f"  out[i] = {expr};\n}}\n", "t.metal")
            if d.severity == "error"]


def test_thread_objects_pass():
    assert _errors("t.get() + t.norm() + u.get()") == []


@pytest.mark.parametrize("expr", ["v[i].get()", "v[i].norm()", "w[i].get()"])
def test_a_device_object_is_an_error(expr: str):
    assert _errors(expr) == [(LINE, 12)]
