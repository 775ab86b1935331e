"""A non-const member defined out of its class, called on a device object, is called on a thread copy
where it writes none of its object (metal/own_object_writes.py; issue 11, Metal part; snippets written
for the test, after heldout55 sliding-puzzle's `dev_pdb->get_hash_value(inv)`).

Main refused every such call (KP224: MSL's unqualified member has a thread object).  The copy is CUDA's
meaning only where nothing the member does to its object is lost with the copy: a member that reads its
members, or names none, is copied; one that assigns a member, takes its address, hands it to a call, or
calls a member that does, stays refused at its line.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

CUDA = """
__constant__ unsigned char tab[64];
__device__ void setTo(int &r, int v) { r = v; }
class Pdb {
public:
  __device__ unsigned int hash(const int *inv);
  __device__ unsigned int get(const int *inv);
};
__device__ unsigned int Pdb::hash(const int *inv) { return tab[inv[0] & 63]; }
__device__ unsigned int Pdb::get(const int *inv) { return hash(inv) + tab[inv[1] & 63]; }
class Counter {
public:
  int n; int a[2];
  __device__ int bump(int k);
  __device__ int peek(int k);
  __device__ int viaBump(int k);
  __device__ int handsOn(int k);
  __device__ int aliases(int k);
  __device__ int local(int k);
};
__device__ int Counter::bump(int k) { n += k; return n; }
__device__ int Counter::peek(int k) { int m = n; m += k; return m + a[1]; }
__device__ int Counter::viaBump(int k) { return bump(k) * 2; }
__device__ int Counter::handsOn(int k) { setTo(n, k); return k; }
__device__ int Counter::aliases(int k) { int &r = a[0]; r = k; return k; }
__device__ int Counter::local(int k) { int n = k; n += 1; return n; }
__global__ void k(Pdb *pdb, Counter *c, const int *inv, int *out) {
  out[0] = pdb->get(inv);
  out[1] = c->peek(3);
  out[2] = c->bump(1);
  out[3] = c[1].viaBump(2);
  out[4] = c->handsOn(2);
  out[5] = c->aliases(2);
  out[6] = c->local(2);
}
"""


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    require_tool("clang")
    p, _ = translate(SourceFile.from_text(CUDA, str(tmp_path_factory.mktemp("m") / "k.cu")), "metal")
    return p


def test_a_member_that_writes_its_object_gets_a_device_twin(port):
    """Stop 64 (metal/operator_calls.py's out_of_class_twin): a member that writes its object is no longer
    refused but written once per object space, its declaration in the class too, and runs on the device
    object itself (no copy: nothing is lost); one binding a local reference to a member (`int &r = a[0]`,
    which the checker reads as generic) stays refused at its line."""
    errors = [(d.location.line, d.code) for d in port.diagnostics if d.severity == "error"]
    assert errors == [(CUDA.splitlines().index("  out[5] = c->aliases(2);") + 1, "KP224")], \
        [d.format() for d in port.diagnostics]
    for text in ("  int bump(int k) device;", "int Counter::bump(int k) device { n += k; return n; }",
                 "int Counter::viaBump(int k) device { return bump(k) * 2; }", "void setTo(device int &r, int v)"):
        assert text in port.body, port.body


def test_a_member_that_only_reads_its_object_is_called_on_a_copy(port):
    for call in ("Pdb(*pdb).get(inv", "Counter(*c).peek(3)", "Counter(*c).local(2)"):
        assert call in port.body, port.body
    for call in ("c->bump(1)", "c[1].viaBump(2)", "c->handsOn(2)", "c->aliases(2)"):
        assert call in port.body, port.body
