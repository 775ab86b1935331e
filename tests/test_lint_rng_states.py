"""SY001 through a device RNG state: a state seeded per thread (dialect.RNG_INITS) makes its draws
thread-dependent, so a barrier under a test of a draw is one some threads skip; a state seeded per
block (rtp-llm's sampling kernels) keeps its draws block-uniform (lint/rngstates.py)."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

HEAD = "#include <curand_kernel.h>\n"
KERNEL = HEAD + """__global__ void k(float* out, const unsigned long long* seeds, const unsigned long long* offs, float p) {
    int tid = threadIdx.x, bx = blockIdx.x;
    curandState st;
    INIT
    float acc = 0.f;
    if (DRAW < p) {
        __syncthreads();
        acc = 1.f;
    }
    out[bx * blockDim.x + tid] = acc;
}
"""


def _sy001(src, path="t.cu", lang="cuda"):
    return sorted({f.line for f in lint_text(src, path, lang) if f.code == "SY001"})


def _line(src, text):
    return next(i for i, l in enumerate(src.splitlines(), 1) if text in l)


@pytest.mark.parametrize("init, draw", [
    ("curand_init(seeds[bx], threadIdx.x, 0, &st);", "curand_uniform(&st)"),
    ("curand_init(1234ULL, bx * blockDim.x + tid, 0, &st);", "curand_normal(&st)"),
    ("curand_init(seeds[bx], bx, offs[bx] + tid, (&st));", "(float)curand(&st)"),
    ("curand_init(seeds[tid], 0, 0, &st);", "curand_uniform(&st)"),
])
def test_per_thread_seed_flags_the_barrier(init, draw):
    src = KERNEL.replace("INIT", init).replace("DRAW", draw)
    assert _sy001(src) == [_line(src, "__syncthreads")]


def test_per_thread_seed_through_a_pointer_and_hiprand():
    src = KERNEL.replace("curandState st;", "hiprandState_t st0; hiprandState_t* st = &st0;") \
        .replace("INIT", "hiprand_init(seeds[bx], tid, 0, st);").replace("DRAW", "hiprand_uniform(st)") \
        .replace("<curand_kernel.h>", "<hiprand/hiprand_kernel.h>")
    assert _sy001(src, "t.hip", "hip") == [_line(src, "__syncthreads")]


def test_seeded_under_a_thread_dependent_branch_flags():
    src = KERNEL.replace("INIT", "curand_init(seeds[bx], bx, 0, &st);\n    if (tid == 0) curand_init(7, 1, 0, &st);") \
        .replace("DRAW", "curand_uniform(&st)")
    assert _sy001(src) == [_line(src, "__syncthreads")]


@pytest.mark.parametrize("init", [
    "curand_init(seeds[bx], bx, offs[bx], &st);",  # rtp-llm: one sequence per block
    "curand_init(1234ULL, 0, 0, &st);",
    "curand_init(seeds[bx], blockIdx.y * gridDim.x + bx, offs[bx], &st);",
])
def test_per_block_seed_stays_quiet(init):
    src = KERNEL.replace("INIT", init).replace("DRAW", "curand_uniform(&st)")
    assert _sy001(src) == []


def test_state_copied_from_a_per_thread_array_flags():
    src = KERNEL.replace("curandState st;", "extern __device__ curandState* states;\n    curandState st = states[bx * blockDim.x + tid];") \
        .replace("INIT", "").replace("DRAW", "curand_uniform(&st)")
    assert _sy001(src) == [_line(src, "__syncthreads")]


def test_a_draw_from_a_per_thread_state_does_not_spoil_another_state():
    src = KERNEL.replace("curandState st;", "curandState st, mine;") \
        .replace("INIT", "curand_init(seeds[bx], bx, 0, &st);\n    curand_init(seeds[bx], tid, 0, &mine);\n"
                         "    out[tid] = curand_uniform(&mine);").replace("DRAW", "curand_uniform(&st)")
    assert _sy001(src) == []
