"""WS001 on a warp-size macro that is only the launch's block extent (kernelport/lint/blockextents.py;
sliding-puzzle's `#define WARP_SIZE 32` in heldout55: `dfs_kernel<<<blocks, WARP_SIZE>>>`, a stack indexed by
`threadIdx.x / 4` and a `for (j = 0; j < WARP_SIZE; ++j)` serialising the block's threads).  No use reaches a
warp operation, so the 32 is a thread count.  Each quiet case has look-alikes that must flag: a use in warp-level
code beside the launch, a launch of a kernel not defined in the file, and a
macro that is no launch's block extent."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.lint.engine import lint_text


def _ws001(body: str) -> set[int]:
    found = lint_text(textwrap.dedent(body), "k.cu")
    return {f.line for f in found if f.code == "WS001"}


SEARCH = """\
#define WARP_SIZE 32
__global__ void dfs(int* st, int* flag) {
    __shared__ int index;
    __shared__ int mutex;
    if (threadIdx.x == 0) { index = WARP_SIZE / 4 - 1; mutex = 0; }
    __syncthreads();
    int mine = st[index - threadIdx.x / 4];
    for (int j = 0; j < WARP_SIZE; ++j) {
        if (j == threadIdx.x % WARP_SIZE) {
            while (atomicCAS(&mutex, 0, 1) != 0);
            flag[index++] = mine;
            atomicExch(&mutex, 0);
        }
    }
}
void run(int* st, int* flag, int blocks) {
    LAUNCH;
}
"""

QUIET = {
    "direct": "dfs<<<blocks, WARP_SIZE>>>(st, flag)",
    "dim3 temporary": "dfs<<<blocks, dim3(WARP_SIZE)>>>(st, flag)",
    "dim3 local": "dim3 b(WARP_SIZE, 1); dfs<<<blocks, b>>>(st, flag)",
    "dim3 local assigned": "dim3 b = dim3((WARP_SIZE)); dfs<<<blocks, b>>>(st, flag)",
}


@pytest.mark.parametrize("launch", QUIET.values(), ids=QUIET.keys())
def test_block_extent_macro_is_quiet(launch):
    assert _ws001(SEARCH.replace("LAUNCH", launch)) == set()


def test_only_the_launch_uses_it():
    src = """\
    #define WARP_SIZE 32
    __global__ void k(float* x) { x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; }
    void run(float* x, int n) { k<<<n / WARP_SIZE, WARP_SIZE>>>(x); }
    """
    assert _ws001(src) == set()


def test_not_the_block_extent_flags():
    # the same kernel launched with 256 threads: the macro is no launch's block extent
    assert _ws001(SEARCH.replace("LAUNCH", "dfs<<<blocks, 256>>>(st, flag)")) == {1}


def test_a_use_in_warp_level_code_beside_the_launch_flags():
    src = SEARCH.replace("LAUNCH", "dfs<<<blocks, WARP_SIZE>>>(st, flag)") + """\
__global__ void lanes(float* x) {
    int lane = threadIdx.x % WARP_SIZE;
    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + lane;
}
"""
    assert _ws001(src) == {1}


def test_a_kernel_not_defined_here_flags():
    src = """\
    #define WARP_SIZE 32
    __global__ void k(float* x);
    void run(float* x, int n) { k<<<n, WARP_SIZE>>>(x); }
    __global__ void other(float* x) { x[threadIdx.x % WARP_SIZE] = 0.0f; }
    """
    assert _ws001(src) == {1}
