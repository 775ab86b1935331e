"""WS001 on a warp-size name that only bounds an xor-shuffle ladder (kernelport/lint/xorbounds.py;
bitonic-georrous6's v3 sort in heldout60: steps of 32 and wider through shared memory, `for (; step >=
WARP_SIZE; step >>= 1)`, the rest by `__shfl_xor_sync(FULL, v, step)`).  lane ^ step with step < 32 stays in
the lane's row of 32, inside one 64-lane wave too, so the 32 is right at 64.  Look-alikes that must stay
flagged: the same ladder by `__shfl_down_sync` (crosses rows at 64), a width argument, the distance indexing
shared memory (a warp-synchronous tail), a non-halving reassignment, and a second use elsewhere."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.lint.engine import lint_paths, lint_text

SORT = """\
#define WARP_SIZE 32
__device__ void cas(int* s, int i, int j, int asc) {
    if ((s[i] > s[j]) == asc) { int t = s[i]; s[i] = s[j]; s[j] = t; }
}
__global__ void sort(int* data, int max_size) {
    extern __shared__ int s_data[];
    int tid = threadIdx.x, offset = blockIdx.x * blockDim.x;
    s_data[tid] = data[offset + tid];
    __syncthreads();
    for (int size = 2; size <= max_size; size <<= 1) {
        int is_asc = ((offset + tid) & size) == 0;
        int step = size >> 1;
        for (; step >= WARP_SIZE; step >>= 1) {
            int j = tid ^ step;
            if (j > tid) cas(s_data, tid, j, is_asc);
            __syncthreads();
        }
        int my_val = s_data[tid];
        for (; step > 0; step >>= 1) {
            int j = tid ^ step;
            int partner = SHUFFLE;
            int is_asc_order = (tid < j) == (my_val <= partner);
            my_val = is_asc != is_asc_order ? partner : my_val;
            TAIL
        }
        s_data[tid] = my_val;
        __syncthreads();
    }
    data[offset + tid] = s_data[tid];
}
"""
XOR = "__shfl_xor_sync(0xffffffffu, my_val, step)"


def _ws001(shuffle: str = XOR, tail: str = "") -> set[int]:
    src = SORT.replace("SHUFFLE", shuffle).replace("TAIL", tail)
    return {f.line for f in lint_text(textwrap.dedent(src), "k.cu") if f.code == "WS001"}


def test_xor_ladder_bound_is_quiet():
    assert _ws001() == set()


def test_legacy_xor_spelling_is_quiet():
    assert _ws001("__shfl_xor(my_val, step)") == set()


LOUD = {
    "shfl_down ladder": ("__shfl_down_sync(0xffffffffu, my_val, step)", ""),
    "xor with a width": ("__shfl_xor_sync(0xffffffffu, my_val, step, warpSize)", ""),
    # (a literal width 32 is a logical 32-lane group, quiet: tests/test_logical_width_constants.py)
    "distance indexes shared memory": (XOR, "s_data[tid + step] = my_val;"),
    "derived index into shared memory": (XOR, "s_data[j] = my_val;"),
    "non-halving reassignment": (XOR, "if (my_val < 0) step = 64;"),
}


@pytest.mark.parametrize("shuffle,tail", LOUD.values(), ids=LOUD.keys())
def test_look_alikes_stay_flagged(shuffle, tail):
    assert _ws001(shuffle, tail) == {1}


def test_another_use_keeps_it():
    src = SORT.replace("SHUFFLE", XOR).replace("TAIL", "").replace(
        "s_data[tid] = my_val;\n        __syncthreads();\n    }", "s_data[tid] = my_val;\n        __syncthreads();\n    }\n"
        "    if (tid % WARP_SIZE == 0) data[tid] = __shfl_down_sync(0xffffffffu, my_val, 1);")
    assert "tid % WARP_SIZE" in src
    assert 1 in {f.line for f in lint_text(textwrap.dedent(src), "k.cu") if f.code == "WS001"}


@pytest.mark.parametrize("shuffle,quiet", [(XOR, True), ("__shfl_down_sync(0xffffffffu, my_val, step)", False)])
def test_header_macro_use(tmp_path, shuffle, quiet):
    """A header's macro (bitonic's include/config.cuh): the source's WS001 at its use goes with the same test."""
    (tmp_path / "config.cuh").write_text("#pragma once\n#define WARP_SIZE 32\n")
    body = SORT.replace("#define WARP_SIZE 32\n", '#include "config.cuh"\n').replace("SHUFFLE", shuffle).replace("TAIL", "")
    (tmp_path / "k.cu").write_text(body)
    found = [f for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings
             if f.code == "WS001" and r.path.endswith("k.cu")]
    assert (found == []) is quiet, found
