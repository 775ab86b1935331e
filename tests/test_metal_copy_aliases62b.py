"""A callee that writes through another alias of a copied `const T&` argument (issue 11, Metal part;
snippets written for the test: review of h/metal62).

h/metal62's copy_observers.py counted only writes through the callee's own pointer and reference
parameters.  A device argument copied into the thread reads its old value where CUDA's reference reads
the new one after any write that can reach it: a local copy of the pointer (`float *q = out;`), a
pointer in a by-value struct (`p.o[0]`), an object's pointer member, or a helper the callee calls.
Main copied all four (a port that computes something else); they are refused at their line (KP224).
The look-alikes stay copied: writes to a local array or the callee's own locals, a call of a helper that
writes nothing, and a reference parameter given a thread local (`acc(s, x[0])`, which main refused).
"""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

ALIASES = """
struct W { float *o;
  __device__ void acc(const float &x) const { o[0] += x; o[1] += x; }
};
struct P { float *o; };
__device__ void accA(float *out, const float &x) { float *q = out; q[0] += x; q[1] += x; }
__device__ void accE(P p, const float &x) { p.o[0] += x; p.o[1] += x; }
__device__ void inner(float *o) { o[0] = 7.0f; }
__device__ float accC(float *out, const float &x) { float *q = out + 0; inner(q); return x; }
__global__ void k(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i != 0) return;
  W w; w.o = out;
  w.acc(out[0]);
  accA(out, out[0]);
  P p; p.o = out;
  accE(p, out[0]);
  out[3] = accC(out, out[0]);
}
"""

THREAD_ONLY = """
struct S { float s;
  __device__ void add(const float &v) { s += v; }
};
__device__ float sq(float a) { float t = a; t *= a; return t; }
__device__ float two(const float &x) { float tmp[2]; tmp[0] = x; tmp[1] = sq(x); float *q = tmp; q = q + 1; return tmp[0] + *q; }
__device__ void acc(float &t, const float &v) { t += v; }
__device__ void put(float *t, const float &v) { *t = v; }
__global__ void k(const float *x, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f, u = 0.0f;
  S o; o.s = 0.0f;
  o.add(x[i]);
  acc(s, x[i]);
  put(&u, x[i]);
  out[i] = two(x[i]) + s + u + o.s;
}
"""


def _port(tmp_path: Path, cuda: str):
    require_tool("clang")
    port, _ = translate(SourceFile.from_text(cuda, str(tmp_path / "k.cu")), "metal")
    return port, [(d.location.line, d.code) for d in port.diagnostics if d.severity == "error"]


def test_a_write_through_another_alias_refuses_the_copy(tmp_path: Path):
    port, errors = _port(tmp_path, ALIASES)
    assert errors == [(14, "KP224"), (15, "KP224"), (17, "KP224"), (18, "KP224")], \
        [d.format() for d in port.diagnostics]


def test_writes_to_the_threads_own_storage_keep_the_copy(tmp_path: Path):
    port, errors = _port(tmp_path, THREAD_ONLY)
    assert errors == [], [d.format() for d in port.diagnostics]
    body = port.body
    for call in ("o.add(float(x[i]))", "acc(s, float(x[i]))", "put(&u, float(x[i]))", "two(float(x[i]))"):
        assert call in body, body


MUTABLE = """
struct Film {
  float *raster; int width; mutable int hits;
  __device__ float get(int i) const;
};
__device__ float Film::get(int i) const { hits += 1; return raster[i] * width; }
__global__ void k(Film *f, float *out) {
  int i = threadIdx.x;
  out[i] = f->get(i);
}
"""


def test_a_const_member_of_a_class_with_a_mutable_member_is_not_called_on_a_copy(tmp_path: Path):
    # `hits += 1` in a const member writes the device object in CUDA, the copy in `Film(*f).get(i)`; stop 64:
    # no longer refused (KP224) but run on the object itself, a `const device` twin (metal/operator_calls.py)
    port, errors = _port(tmp_path, MUTABLE)
    assert errors == [] and "out[i] = f->get(i);" in port.body, [d.format() for d in port.diagnostics]
    assert "float Film::get(int i) const device { hits += 1;" in port.body
    # the look-alike with no mutable member is called on a copy (h/metal62's object_copies.py)
    port, errors = _port(tmp_path, MUTABLE.replace(" mutable int hits;", "").replace("hits += 1; ", ""))
    assert errors == [] and "Film(*f).get(i)" in port.body, [d.format() for d in port.diagnostics]


def test_a_const_member_that_writes_through_a_pointer_is_not_called_on_a_copy(tmp_path: Path):
    # `next->v = 0` may write the object itself (next == this): `v` read after it is the copy's in a copy
    cuda = MUTABLE.replace(" mutable int hits;", " Film *next;").replace("hits += 1; ", "next->width = 0; ")
    port, errors = _port(tmp_path, cuda)  # stop 64: the `const device` twin, on the object itself (no copy)
    assert errors == [] and "out[i] = f->get(i);" in port.body and "Film(*f)" not in port.body, \
        [d.format() for d in port.diagnostics]
    assert "float Film::get(int i) const device { next->width = 0;" in port.body


def test_a_helper_called_with_a_thread_local_and_then_with_device_memory_counts(tmp_path: Path):
    cuda = """
__device__ void inner(float *o) { o[0] = 7.0f; }
__device__ float twice(float *out, const float &x) { float t = 0.0f; inner(&t); inner(out); return x + t; }
__device__ float once(float *out, const float &x) { float t = 0.0f; inner(&t); return x + t; }
__global__ void k(float *out) {
  out[3] = twice(out, out[0]);
  out[4] = once(out, out[0]);
}
"""
    port, errors = _port(tmp_path, cuda)
    assert errors == [(6, "KP224")], [d.format() for d in port.diagnostics]
    assert "once(out, float(out[0]))" in port.body  # inner(&t) writes the thread's t only


def test_a_member_array_of_the_own_object_is_thread_storage(tmp_path: Path):
    # heldout55's sliding-puzzle `local_stack<T, N>::push(T const &v) { buf[++tos] = v; }`: the stack is a
    # thread object, so its member array is the thread's; a pointer member (`W::acc` above) is not
    cuda = """
template <class T, int N> class local_stack {
  T buf[N]; int tos;
public:
  __device__ local_stack() : tos(-1) {}
  __device__ void push(T const &v) { buf[++tos] = v; }
  __device__ T pop() { return buf[tos--]; }
};
__global__ void k(const float *in, float *out) {
  int i = threadIdx.x;
  local_stack<float, 4> st;
  st.push(in[i]);
  out[i] = st.pop();
}
"""
    port, errors = _port(tmp_path, cuda)
    assert errors == [] and "st.push(float(in[i]))" in port.body, [d.format() for d in port.diagnostics]
