"""SY002 on the halo copies of a padded 2-D tile (kernelport/lint/haloslots.py; heldout76's shallow-water
solver: a false positive through `#define SH_ID(i, j) ((i) * (blockDim.x + 2) + (j))`, defined and #undef'd in
each function).  Every write is on the tile's border, every read inside it, with the device function's row and
column from the kernel's `threadIdx.y + 1` / `threadIdx.x + 1`.  Look-alikes stay flagged: a read of the halo
another statement writes, an argument whose range is unknown, a second caller that lets the row reach the halo, a
tile with no padding (a column that runs into the next row), and the macro #undef'd before its use.
"""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

HALO = """\
__device__ void bcs(float* s, int li, int lj) {
#define SH_ID(i, j) ((i) * (blockDim.x + PAD) + (j))
  if (blockIdx.x == 0 && threadIdx.x == 0) s[SH_ID(li, 0)] = s[SH_ID(li, READ)];
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1) s[SH_ID(li, blockDim.x + 1)] = s[SH_ID(li, blockDim.x)];
  if (blockIdx.y == 0 && threadIdx.y == 0) s[SH_ID(0, lj)] = s[SH_ID(1, lj)];
  if (blockIdx.y == gridDim.y - 1 && threadIdx.y == blockDim.y - 1) s[SH_ID(blockDim.y + 1, lj)] = s[SH_ID(blockDim.y, lj)];
UNDEF
}
__global__ void k(float* x, int n) {
  extern __shared__ float sh[];
  unsigned li = threadIdx.y + 1, lj = threadIdx.x + 1;
  sh[li * (blockDim.x + 2) + lj] = x[0];
  __syncthreads();
  bcs(sh, li, COL);
  __syncthreads();
  x[0] = sh[li * (blockDim.x + 2) + lj];
}
OTHER"""


def _sy002(pad="2", read="1", col="lj", undef="#undef SH_ID", other="") -> list[int]:
    src = (HALO.replace("PAD", pad).replace("READ", read).replace("COL", col).replace("UNDEF", undef)
           .replace("OTHER", other))
    return [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"]


def test_halo_copies_of_a_padded_tile_are_quiet():
    assert _sy002() == []
    assert _sy002(undef="") == []


@pytest.mark.parametrize("kw", [
    dict(read="blockDim.x + 1"),   # reads the column the second statement writes
    dict(col="n"),                 # a column whose range lint cannot know
    dict(pad="0"),                 # no halo: column blockDim.x + 1 runs into the next row
    dict(other="__global__ void k2(float* x) { extern __shared__ float sh[]; bcs(sh, threadIdx.y, threadIdx.x + 1); }"),
])
def test_look_alikes_stay_flagged(kw):
    assert _sy002(**kw) == [3]


def test_a_macro_undefined_before_its_use_is_not_expanded():
    src = HALO.replace("+ PAD) + (j))", "+ PAD) + (j))\n#undef SH_ID")
    assert src != HALO
    src = src.replace("PAD", "2").replace("READ", "1").replace("COL", "lj").replace("OTHER", "").replace("UNDEF", "")
    assert [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"] == [4]
