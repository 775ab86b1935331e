"""A class's member operator on an object in device or threadgroup memory (metal/operator_calls.py; issue 11,
Metal part; stop 63's note: "member operators and writing members refused"; snippets written for the test).

`out[i] += w` of `V& operator+=(const V& o)` defined in V's body: MSL's unqualified member takes a thread
object, so main's port had no `+=` for a `device V` (KP224 at the line).  The operator is now planned with
the calls, as `out[i].set(x)` was: a `device` (or `threadgroup`) twin that writes the object in place,
`device V& operator+=(const V& o) device { ...; return *this; }`, beside the thread one where a thread
object uses it.  Left refused at the line: an operator defined out of its class and a free operator.
An in-class declaration `__device__ V& operator+=(...)` kept its `__device__` in main's port (a reference
declarator hid the function): dropped now, so the refusal is the call's, not the declaration's.
"""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

IN_CLASS = """struct V { float a, b;
  __device__ V& operator+=(const V& o) { a += o.a; b += o.b; return *this; }
  __device__ void set(float x) { a = x; b = 2 * x; }
};
__global__ void k(V *out, const float *x) {
  int i = threadIdx.x;
  V w; w.a = x[i]; w.b = 1.0f;
  out[i].set(x[i]);
  out[i] += w;
  BODY
}
"""


def _metal(code: str, tmp_path):
    require_tool("clang")
    return translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")


def _errors(port) -> list[int]:
    return [d.location.line for d in port.diagnostics if d.severity == "error"]


def test_a_member_operator_on_a_device_object_gets_a_device_twin(tmp_path):
    port, text = _metal(IN_CLASS.replace("BODY", ""), tmp_path)
    assert port.ok, port.diagnostics
    assert "device V& operator+=(const V& o) device { a += o.a; b += o.b; return *this; }" in text
    assert "  out[i] += w;" in text and "void set(float x) device" in text


def test_thread_and_threadgroup_objects_get_their_own_twins(tmp_path):
    body = "V t = w; t += w; __shared__ V s[64]; s[i] = t; s[i] += w; out[i].a += s[(i + 1) & 63].a;"
    port, text = _metal(IN_CLASS.replace("BODY", body), tmp_path)
    assert port.ok, port.diagnostics
    assert "threadgroup V& operator+=(const V& o) threadgroup {" in text
    assert "\n  V& operator+=(const V& o) { a += o.a;" in text  # the thread object's, unqualified
    assert "device V& operator+=(const V& o) device {" in text


def test_an_operator_returning_no_reference_keeps_its_return_type(tmp_path):
    code = IN_CLASS.replace("__device__ V& operator+=(const V& o) { a += o.a; b += o.b; return *this; }",
                            "__device__ void operator+=(const V& o) { a += o.a; b += o.b; }").replace("BODY", "")
    port, text = _metal(code, tmp_path)
    assert port.ok, port.diagnostics
    assert "void operator+=(const V& o) device { a += o.a; b += o.b; }" in text


OUT_OF_CLASS = """struct V { float a, b;
  __device__ V& operator+=(const V& o);
};
__device__ V& V::operator+=(const V& o) { a += o.a; b += o.b; return *this; }
__global__ void k(V *out, const float *x) {
  int i = threadIdx.x;
  V w; w.a = x[i]; w.b = 1.0f;
  out[i] += w;
}
"""

FREE = """struct V { float a, b; };
__device__ V& operator+=(V& l, const V& o) { l.a += o.a; l.b += o.b; return l; }
__global__ void k(V *out, const float *x) {
  int i = threadIdx.x;
  V w; w.a = x[i]; w.b = 1.0f;
  out[i] += w;
}
"""


def test_an_operator_defined_out_of_its_class_gets_a_twin_declared_in_the_class(tmp_path):
    port, text = _metal(OUT_OF_CLASS, tmp_path)  # (main: refused at 8, and at 2 for the `__device__` left there)
    assert port.ok, port.diagnostics
    assert "  device V& operator+=(const V& o) device;" in text
    assert "device V& V::operator+=(const V& o) device { a += o.a; b += o.b; return *this; }" in text


def test_an_out_of_class_member_binding_a_local_reference_stays_refused_at_its_line(tmp_path):
    """Look-alike: `float &r = a;` in the member (the checker reads a local reference as generic, so no twin
    is written for it): the call on the device object stays refused at its line."""
    code = OUT_OF_CLASS.replace("{ a += o.a; b += o.b; return *this; }", "{ float &r = a; r += o.a; b += o.b; return *this; }")
    port, _ = _metal(code, tmp_path)
    assert not port.ok and _errors(port) == [8], port.diagnostics


def test_a_free_operator_stays_refused_at_the_call(tmp_path):
    port, _ = _metal(FREE, tmp_path)
    assert not port.ok and _errors(port) == [6], port.diagnostics


def test_a_device_operand_of_a_device_object_is_not_copied(tmp_path):
    """Look-alike: `out[j] += out[i]` may alias the object the operator writes: where the operator reads a member of
    its operand after writing that member (`a += o.b; b += o.a;`) the operand is not copied into the thread and
    the call stays refused.  (Stop 65: `a += o.a; b += o.b;` reads each before writing it, so the copy means what
    CUDA means even where the two are one object: ported, tests/test_metal_member_operand_reads65.py.)"""
    code = IN_CLASS.replace("BODY", "out[(i + 1) & 63] += out[i];")
    port, text = _metal(code.replace("a += o.a; b += o.b;", "a += o.b; b += o.a;"), tmp_path)
    assert not port.ok and _errors(port) == [10], port.diagnostics
    port, text = _metal(code, tmp_path)
    assert port.ok and "out[(i + 1) & 63] += V(out[i]);" in text, port.diagnostics
