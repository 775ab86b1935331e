"""A ballot converted to a type whose width the port does not read (kernelport/opaque_mask_casts.py).

h/heldout101 made GNU `typeof` casts parse; `__popc((typeof(x)) __ballot_sync(FULL, p))` with `unsigned x`
was then ported as `__popcll((__typeof__(x)) __ballot(p))`: it compiled and counted lanes 0-31 of the wave
only (the cast still 32 bits).  The same held for `decltype(x)`, a template parameter `(T) ballot` and a
functional cast `uint32_t(ballot)`.  They are KP232 at the conversion now; the look-alikes port: `typeof`
of a variable the port widens (a ballot is stored in it), of a 64-bit variable, a wide functional cast, and
the plain `(unsigned)` cast the port widens.  Written for the test."""
from __future__ import annotations

import textwrap

import pytest

from conftest import hip_compiles
from trust_support import kp_inproc

HEAD = "#include <stdint.h>\n__global__ void k(const float *a, int *out) {\n  int p = a[threadIdx.x] > 0.0f;\n"


def _translate(tmp_path, body: str, head: str = HEAD):
    f = tmp_path / "k.cu"
    f.write_text(head + textwrap.dedent(body) + "  if (threadIdx.x == 0) out[blockIdx.x] = n;\n}\n")
    rc, out, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    return rc, err, (tmp_path / "out" / "k.hip")


@pytest.mark.parametrize("body, col", [
    ("  unsigned int x = 0;\n  int n = __popc((typeof(x)) __ballot_sync(0xffffffff, p)) + x;\n", 16),
    ("  unsigned int x = 0;\n  int n = __popc((__typeof__(x)) __ballot_sync(0xffffffff, p)) + x;\n", 16),
    ("  int x = 0;\n  int n = __popc(static_cast<decltype(x)>(__ballot_sync(0xffffffff, p))) + x;\n", 16),
    ("  int n = __popc(uint32_t(__ballot_sync(0xffffffff, p)));\n", 16),
    ("  unsigned x[2] = {0, 0};\n  int n = __popc((typeof(x[0])) __ballot_sync(0xffffffff, p));\n", 16),
])
def test_a_ballot_cut_to_a_type_the_port_keeps_is_refused(tmp_path, body, col):
    rc, err, _ = _translate(tmp_path, body)
    line = 3 + body.count("\n")
    assert rc != 0 and f"k.cu:{line}:{col}: error: KP232" in err, err


def test_a_template_parameter_cast_is_refused(tmp_path):
    head = HEAD.replace("__global__", "template <typename T>\n__global__")
    rc, err, _ = _translate(tmp_path, "  int n = __popc((T) __ballot_sync(0xffffffff, p));\n", head)
    assert rc != 0 and "k.cu:5:16: error: KP232" in err and "template parameter of 'k'" in err, err


def test_conversions_the_port_widens_or_that_cut_nothing_port(tmp_path):
    rc, err, out = _translate(tmp_path, """\
      unsigned int x = 0;
      x = (typeof(x)) __ballot_sync(0xffffffff, p);
      unsigned long long y = 0;
      int n = __popc(x) + __popcll((typeof(y)) __ballot_sync(0xffffffff, p));
      n += __popcll(uint64_t(__ballot_sync(0xffffffff, p))) + __popc((unsigned) __ballot_sync(0xffffffff, p));
    """)
    assert rc == 0, err
    port = out.read_text()
    assert "unsigned long long x = 0;" in port and "x = (__typeof__(x)) __ballot(p);" in port
    assert "__popcll((__typeof__(y)) __ballot(p))" in port and "__popcll(uint64_t(__ballot(p)))" in port
    assert "__popcll((unsigned long long) __ballot(p))" in port
    hip_compiles(tmp_path / "out", port, "k.hip", extra_args=("-std=c++17",))
