"""Member functions and Metal's thread references (issue 11, Metal part; snippets written for the test).

- A class template's member `const T&` given device or threadgroup memory (`a.add(f[i])` of `Acc<float>`)
  was refused (KP224): it is copied with the argument's type, as a plain helper's is (constant_refs.py).
- A copy is made only where the callee cannot tell it from the object (copy_observers.py): a callee that
  keeps the parameter's address, or writes memory the argument may be part of (`acc(out, out[i])` with
  `o[0] += x; o[1] += x;` reads the new out[0] in CUDA), is refused at its line; main copied the latter
  (a port that computes something else).
- `this` in MSL is a `thread` object for a member function with no space (the checker's C++ for OpenCL
  model made it generic, which takes device objects: check/thread_members.py); a device twin's
  reference parameters are `thread` too.  A `const` member defined out of its class, which keeps its
  thread object, is called on a copy of a device object (`Film(*f).get(i)`, object_copies.py); main wrote
  `f->get(i)`, which Metal rejects.
- `loc += in[i]` of a class's `operator+=` copies the operand (main looked up `operator+`).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

TEMPLATE = """
template <class T> struct Acc { T s;
  __device__ void add(const T &v) { s += v; }
  __device__ T get() const { return s; }
};
__global__ void k(const float *f, float *out) {
  __shared__ float tg[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tg[threadIdx.x] = f[i];
  __syncthreads();
  float t = f[i];
  Acc<float> a; a.s = 0; a.add(f[i]); a.add(tg[63 - threadIdx.x]); a.add(2.0f); a.add(t);
  out[i] = a.get();
}
"""


def _port(tmp_path: Path, cuda: str, ok: bool = True):
    require_tool("clang")
    port, text = translate(SourceFile.from_text(cuda, str(tmp_path / "k.cu")), "metal")
    errors = [(d.location.line, d.code) for d in port.diagnostics if d.severity == "error"]
    if ok:
        assert errors == [], [d.format() for d in port.diagnostics]
    return port, errors


def test_a_class_templates_const_reference_is_given_a_copy(tmp_path: Path):
    port, _ = _port(tmp_path, TEMPLATE)
    body = port.body
    assert "a.add(float(f[i]))" in body and "a.add(float(tg[63 - tid.x]))" in body
    assert "a.add(2.0f)" in body and "a.add(t)" in body  # a temporary and a thread local: as written


OBSERVED = """
template <class T> struct Box { T s;
  __device__ void keep(const T &v) { const T *q = &v; s = *q; }
};
__device__ void acc(float *o, const float &x) { o[0] += x; o[1] += x; }
__device__ float first(const float4 &v) { return reinterpret_cast<const float *>(&v)[0]; }
__global__ void k(const float *f, const float4 *v, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Box<float> bx;
  bx.keep(f[i]);
  acc(out, out[i]);
  out[i] += bx.s + first(v[i]);
}
"""


def test_a_callee_that_could_tell_the_copy_is_refused_at_its_line(tmp_path: Path):
    port, errors = _port(tmp_path, OBSERVED, ok=False)
    assert errors == [(10, "KP224"), (11, "KP224")], [d.format() for d in port.diagnostics]
    # the look-alike: an address only read through where it is made is copied
    assert "first(float4(v[i]))" in port.body


MEMBERS = """
struct V { float x, y;
  __device__ V &operator+=(const V &o) { x += o.x; y += o.y; return *this; }
};
struct Film {
  float *raster; int width;
  __device__ float get(int i) const;
  __device__ void put(int i, float v);
};
__device__ float Film::get(int i) const { return raster[i] * width; }
__device__ void Film::put(int i, float v) { raster[i] = v; }
__global__ void k(Film *f, const V *in, V *w, float *out) {
  int i = threadIdx.x;
  V loc = in[i];
  loc += in[i + 1];
  w[i] = loc;
  out[i] = f->get(i) + f[0].get(i + 1);
}
"""


def test_a_const_member_defined_out_of_its_class_is_called_on_a_copy(tmp_path: Path):
    port, _ = _port(tmp_path, MEMBERS)
    body = port.body.split("kernel void")[1]
    assert "Film(*f).get(i)" in body and "Film(f[0]).get(i + 1)" in body
    assert "loc += V(in[i + 1]);" in body


def test_a_non_const_member_defined_out_of_its_class_runs_on_the_device_object(tmp_path: Path):
    """Stop 64: refused before (KP224); now a `device` twin of the member and its declaration (operator_calls.py)."""
    cuda = MEMBERS.replace("  w[i] = loc;\n", "  w[i] = loc;\n  f->put(i, 1.0f);\n")
    port, _ = _port(tmp_path, cuda)
    assert "void put(int i, float v) device;" in port.body and "f->put(i, 1.0f);" in port.body
    assert "void Film::put(int i, float v) device { raster[i] = v; }" in port.body


HEAD = ("#include <metal_stdlib>\nusing namespace metal;\n"
        "struct V { float x, y;\n"
        "  float dot(const V &o) const { return x * o.x + y * o.y; }\n"
        "  float norm() const { return dot(*this); }\n"
        "  float dn(const V &o) const device { return x + o.x; }\n"
        "  float get() const;\n"
        "  static V mk() { V v; v.x = 0; v.y = 0; return v; } };\n"
        "float V::get() const { return x; }\n"
        "V operator+(const V &a, const V &b) { V r; r.x = a.x + b.x; r.y = a.y + b.y; return r; }\n"
        "kernel void k(device float *out [[buffer(0)]], device V *vv [[buffer(1)]],\n"
        "              uint i [[thread_position_in_grid]]) {\n"
        "  threadgroup V tv[4];\n"
        "  V w; w.x = 1; w.y = 2;\n")
LINE = HEAD.count("\n") + 1


def _errors(body: str) -> list[tuple[int, str]]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    return [(d.line, d.message) for d in check_metal_source(HEAD + body + "}\n", "t.metal") if d.severity == "error"]


@pytest.mark.parametrize("call", ["out[0] = vv[0].norm();", "out[0] = tv[1].dot(w);", "out[0] = vv[i].get();",
                                  "out[0] = vv[0].dn(vv[1]);", "out[0] = (w + w).dot(vv[0]);"])
def test_a_thread_member_on_device_memory_is_an_error(call: str):
    assert [line for line, _ in _errors("  " + call + "\n")] == [LINE]


def test_thread_objects_temporaries_statics_and_twins_stay_quiet():
    body = ("  out[0] = w.norm() + w.dot(w) + (w + w).norm() + V::mk().dot(w) + (w + w).get() + w.get();\n"
            "  out[1] = vv[0].dn(w) + vv[1].dn(w + w) + V(vv[0]).norm();\n")
    assert _errors(body) == []
