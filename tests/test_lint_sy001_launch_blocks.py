"""SY001's launch exits read a launch's block through a host local's initialiser (blockdims.dims): that is the
block only where nothing stores to the local after it (stop 62's review: `int threads = 32; if (big) threads =
256; k<<<g, threads>>>` made the return `if (d >= 32) return;` look never taken, a hang the rule dropped).  A
local stored to, its address handed away, passed by reference or read by `>>` keeps the finding; a local
nothing writes, a `const` one, one printed or passed by value stays quiet (kernelport/lint/launchblocks.py)."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

KERNEL = """\
#define kHeadDim 32
__global__ void attn(float *o)
{
  __shared__ float s[1024];
  int d = threadIdx.x;
  if (d >= kHeadDim) return;
  s[d] = o[d];
  __syncthreads();
  o[d] = s[kHeadDim - 1 - d];
}
"""


def _sy001(host: str) -> list[int]:
    return [f.line for f in lint_text(KERNEL + host, "t.cu") if f.code == "SY001"]


@pytest.mark.parametrize("host", [
    "void run(float *o, bool big) { int threads = 32; if (big) threads = 256; attn<<<4, threads>>>(o); }",
    "void run(float *o) { int threads = 32; threads *= 8; attn<<<4, threads>>>(o); }",
    "void run(float *o) { for (int threads = 32; threads <= 256; threads *= 2) attn<<<4, threads>>>(o); }",
    "void run(float *o) { dim3 block(32); block.x = 256; attn<<<4, block>>>(o); }",
    "void setb(int *t) { *t = 256; }\nvoid run(float *o) { int threads = 32; setb(&threads); attn<<<4, threads>>>(o); }",
    "void setb(int &t) { t = 256; }\nvoid run(float *o) { int threads = 32; setb(threads); attn<<<4, threads>>>(o); }",
    "void run(float *o) { int threads = 32; read_config(threads); attn<<<4, threads>>>(o); }",
    "void run(float *o) { int threads = 32; std::cin >> threads; attn<<<4, threads>>>(o); }",
    "void run(float *o, int n) { int base = 32; base = n; int threads = base; attn<<<4, threads>>>(o); }",
    # a reference bound to the local: a store through it is the block's (review64d)
    "void run(float *o) { int threads = 32; int &r = threads; r = 256; attn<<<4, threads>>>(o); }",
    "void run(float *o) { dim3 block(32); auto &&r = block; r.x = 256; attn<<<4, block>>>(o); }",
])
def test_a_local_block_written_after_its_initialiser_keeps_the_finding(host):
    assert _sy001(host) == [8]


@pytest.mark.parametrize("host", [
    "void run(float *o) { int threads = 32; attn<<<4, threads>>>(o); }",
    "void run(float *o) { const int threads = kHeadDim; attn<<<4, threads>>>(o); }",
    "void run(float *o) { int threads = 32; attn<<<4, threads>>>(o); printf(\"%d\\n\", threads); }",
    "void show(int t) { }\nvoid run(float *o) { int threads = 32; show(threads); attn<<<4, threads>>>(o); }",
    "void run(float *o) { dim3 block(32, 2); int other = 1; other = 2; attn<<<4, block>>>(o); }",
    "void run(float *o) { int threads = 32; const int &r = threads; printf(\"%d\\n\", r); attn<<<4, threads>>>(o); }",
    "void run(float *o) { int threads = 32; int other = 8; int &r = other; r = 256; attn<<<4, threads>>>(o); }",
])
def test_a_local_block_nothing_writes_stays_quiet(host):
    assert _sy001(host) == []


def test_a_macro_redefined_between_the_test_and_the_launch_keeps_the_finding():
    # the kernel tests d >= 32; the launch, after `#undef` / `#define kHeadDim 256`, makes 256 threads
    assert _sy001("#undef kHeadDim\n#define kHeadDim 256\nvoid run(float *o) { attn<<<4, kHeadDim>>>(o); }") == [8]
    assert _sy001("#define BLK (kHeadDim / 2)\n#undef kHeadDim\n#define kHeadDim 128\n"
                  "void run(float *o) { const int t = BLK; attn<<<4, t>>>(o); }") == [8]
    # one value under each name: a macro spelling the other, a const local reading it
    assert _sy001("#define BLK kHeadDim\nvoid run(float *o) { attn<<<4, BLK>>>(o); }") == []
    assert _sy001("void run(float *o) { const int t = kHeadDim; attn<<<4, t>>>(o); }") == []


RUNNER = "struct Runner {\n  int threads;\n  Runner() : threads(32) {}\n  void run(float *o) { attn<<<4, threads>>>(o); }\nWRITE};\n"


def test_a_member_block_written_outside_the_constructors_keeps_the_finding():
    # blockdims reads a member through its constructors (memberdims): a method or another function may set it
    assert _sy001(RUNNER.replace("WRITE", "  void big() { threads = 256; }\n")) == [8]
    assert _sy001(RUNNER.replace("WRITE", "") + "void big(Runner &r) { r.threads = 256; }\n") == [8]
    assert _sy001(RUNNER.replace("WRITE", "") + "void big(Runner *r) { r->threads *= 8; }\n") == [8]
    # look-alikes: only the constructor sets it; a read of it elsewhere
    assert _sy001(RUNNER.replace("WRITE", "")) == []
    assert _sy001(RUNNER.replace("WRITE", "  int count() const { return threads == 32 ? 1 : 2; }\n")) == []
