"""Struct values in the emulator (kernel parameters by value, locals, field reads and stores), the
annotations that give a struct argument's fields, and pointer <-> integer casts (an address model
per buffer); what stays unsupported is refused at its line."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

PARAMS = r"""
struct Inner { int k; float w[3]; };
struct Params { const float *x; float *out; int n; float scale; Inner in; };
__device__ float twice(Params p, int i) { return 2.0f * p.x[i]; }
__global__ void kern(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Params q = p;
  q.scale += 1.0f;
  if (i < p.n) {
    Params r;
    r.n = i;
    p.out[i] = twice(q, i) * q.scale + p.in.w[i % 3] + p.in.k + r.n;
  }
}
"""


def _params(n=8):
    return {"p": {"x": np.arange(10, dtype=np.float32), "out": np.zeros(10, np.float32), "n": n, "scale": 0.5,
                  "in": {"k": 100, "w": [1, 2, 3]}}}


def test_struct_parameter_fields_copies_and_helpers():
    res = run_kernel(PARAMS, "kern", args=_params(), grid=(1,), block=(32,))
    i = np.arange(8)
    want = 2.0 * i * 1.5 + np.array([1, 2, 3])[i % 3] + 100 + i
    np.testing.assert_array_equal(res.outputs["p.out"][:8], want)
    assert not res.outputs["p.out"][8:].any()  # p.n bounds the writes: the copy q did not change p


def test_a_field_assigned_under_divergence_keeps_the_other_lanes():
    src = r"""
struct Acc { int lo; int hi; };
__global__ void split(int *out) {
  Acc a = {1, 2};
  if (threadIdx.x % 2) a.hi = 50 + threadIdx.x;
  else a.lo = -1;
  out[threadIdx.x] = a.lo * 1000 + a.hi;
}"""
    res = run_kernel(src, "split", args={"out": np.zeros(4, np.int32)}, grid=(1,), block=(4,))
    assert res.outputs["out"].tolist() == [-998, 1051, -998, 1053]


def test_struct_argument_errors_name_the_field():
    a = _params()
    del a["p"]["scale"]
    with pytest.raises(EmulatorError, match=r"field `q.scale` has no value") as e:  # read through the copy
        run_kernel(PARAMS, "kern", args=a, grid=(1,), block=(32,))
    assert e.value.line == 8
    a = _params()
    del a["p"]["in"]["k"]
    with pytest.raises(EmulatorError, match=r"field `p.in.k` has no value"):
        run_kernel(PARAMS, "kern", args=a, grid=(1,), block=(32,))
    a = _params()
    a["p"]["in"]["w"] = [1, 2]
    with pytest.raises(EmulatorError, match=r"field `p.in.w` holds 3 values, got 2"):
        run_kernel(PARAMS, "kern", args=a, grid=(1,), block=(32,))
    with pytest.raises(EmulatorError, match=r"has no field `bogus`"):
        a = _params()
        a["p"]["bogus"] = 1
        run_kernel(PARAMS, "kern", args=a, grid=(1,), block=(32,))
    with pytest.raises(EmulatorError, match=r"pass a dict of its fields"):
        run_kernel(PARAMS, "kern", args={"p": 3}, grid=(1,), block=(32,))


@pytest.mark.parametrize("body, what", [
    ("S s = {1, 2}; S *q = &s; out[0] = q->a;", "address of a local"),
    ("S s = {1, 2}; out[0] = s.c;", "has no field `c`"),
])
def test_what_stays_unsupported_is_refused_at_its_line(body, what):
    src = "struct S { int a; int b; };\n__global__ void f(int *out, S *sp) {\n  " + body + "\n}\n"
    with pytest.raises(EmulatorError, match=what) as e:
        run_kernel(src, "f", args={"out": np.zeros(1, np.int32), "sp": np.zeros(2, np.int32)}, grid=(1,), block=(1,))
    assert e.value.line == 3


# HeCBench atomicAggregate's pattern: lanes compare the addresses they will add to.
ADDRESSES = r"""
__global__ void k(int *d, int *out) {
  int *ptr = d + threadIdx.x % 4;
  unsigned long long a = (unsigned long long)ptr;
  out[threadIdx.x] = (int)(a & 255) + (a == (unsigned long long)(d + 1)) * 1000;
  int *back = (int *)(a + sizeof(int));
  out[threadIdx.x + 8] = *back;
}
"""


def test_pointer_to_integer_and_back():
    res = run_kernel(ADDRESSES, "k", args={"d": np.arange(8, dtype=np.int32) * 10, "out": np.zeros(16, np.int32)},
                     grid=(1,), block=(8,))
    out = res.outputs["out"]
    assert out[:8].tolist() == [0, 1004, 8, 12] * 2  # 256-byte aligned base; only d + 1 equals d + 1
    assert out[8:].tolist() == [10, 20, 30, 40] * 2


def test_two_buffers_never_share_an_address():
    src = r"""
__global__ void k(int *a, int *b, int *out) {
  out[threadIdx.x] = (unsigned long long)(a + threadIdx.x) == (unsigned long long)(b + threadIdx.x);
}"""
    res = run_kernel(src, "k", args={"a": np.zeros(4, np.int32), "b": np.zeros(4, np.int32),
                                     "out": np.ones(4, np.int32)}, grid=(1,), block=(4,))
    assert not res.outputs["out"].any()


@pytest.mark.parametrize("expr, what", [
    ("(int *)(12345ull)", "not the address of one buffer"),
    ("(int *)((unsigned long long)d + 2)", "not aligned to 4 bytes"),
])
def test_an_address_no_buffer_holds_is_refused(expr, what):
    src = "__global__ void k(int *d) {\n  int *p = " + expr + ";\n  *p = 1;\n}\n"
    with pytest.raises(EmulatorError, match=what) as e:
        run_kernel(src, "k", args={"d": np.zeros(4, np.int32)}, grid=(1,), block=(1,))
    assert e.value.line == 2


# A struct parameter of pointers and sizes (apex's batch-norm kernels take one): lane 0's value
# broadcast to each 32 lanes; at wave 64 lanes 32-63 read lane 0's instead of lane 32's.
STRUCT_KERNEL = """\
struct Bcast { const int *src; int *dst; int n; };
__global__ void bcast(Bcast p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) p.dst[i] = __shfl_sync(0xffffffff, p.src[i], 0);
}
"""
STRUCT_INPUTS = """\
@kp kernel  bcast
@kp grid    1
@kp block   64
@kp arg     p.src  in   int[64]  arange(0, 1)
@kp arg     p.dst  out  int[64]
@kp scalar  p.n = 64
"""


def _lint_confirm(tmp_path, inputs):
    (tmp_path / "k.cu").write_text(STRUCT_KERNEL)
    (tmp_path / "in.kp").write_text(inputs)
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "--confirm", "--inputs", "in.kp", "--format",
                        "json", "k.cu"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)[0]["confirmation"]


def test_struct_fields_given_by_dotted_names_run_the_kernel(tmp_path):
    c = _lint_confirm(tmp_path, STRUCT_INPUTS)
    assert c["status"] == "confirmed" and c["buffer"] == "p.dst" and c["index"] == 32, c
    # the look-alike: every lane holds the same value, so lane 0 or lane 32 broadcast the same
    c = _lint_confirm(tmp_path, STRUCT_INPUTS.replace("arange(0, 1)", "constant(7)"))
    assert c["status"] == "latent", c


@pytest.mark.parametrize("line, message", [
    ("@kp arg     q.dst  out  int[64]", "has no parameter 'q'"),
    ("@kp scalar  p.n.m = 3", "'p.n' is given both a value and fields"),
    ("@kp scalar  p.size = 3", "has no field `size`"),
])
def test_struct_field_inputs_errors_are_reported(tmp_path, line, message):
    c = _lint_confirm(tmp_path, STRUCT_INPUTS + line + "\n")
    assert c["status"] == "not run" and message in c["detail"], c


def test_a_struct_assigned_under_divergence_keeps_the_other_lanes_fields():
    src = r"""
struct P { int a; int b; };
__global__ void f(int *out) {
  P s = {1, 2};
  P t;
  t.a = 10 + threadIdx.x;
  if (threadIdx.x < 2) s = t;
  out[threadIdx.x] = s.a * 100 + s.b;
}"""
    res = run_kernel(src, "f", args={"out": np.zeros(4, np.int32)}, grid=(1,), block=(4,))
    out = res.outputs["out"]
    assert out[2:].tolist() == [102, 102]  # lanes 2 and 3 keep all of s, b too (a field t never assigned)
    assert (out[:2] // 100).tolist() == [10, 11]  # lanes 0 and 1 take t's a
