"""SY001 and the offset loop `for (i = A + t; i < B + t; i += S)`: the thread's offset t is in both
the start and the bound, so every thread runs ceil((B - A) / S) turns and a `__syncthreads()` in
the body is reached by all (gpu4pyscf's `for (pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1 +
sp_id; pair_ij += nsp_per_block)`: 59 false errors on the held-out set heldout19,
bench/lint_audit39.txt).  The loops whose count still depends on the thread stay reported
(kernelport/lint/tripcounts.py)."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text


def _lines(src: str) -> set[int]:
    found = lint_text(src, "k.cu")
    assert not [f.message for f in found if f.code == "KP006"]  # no rule failed on the file
    return {f.line for f in found if f.code == "SY001"}


def _kernel(loop: str, body: str = "") -> str:
    return f"""__global__ void k(double* out, const int* idx, int shl_pair0, int shl_pair1, int gout_stride) {{
    __shared__ double s[256];
    int nsp = 256 / gout_stride;
    int sp_id = threadIdx.x % nsp;
    int gout_id = threadIdx.x / nsp;
    {loop} {{
        __syncthreads();
        {body}
        if (pair_ij < shl_pair1) s[threadIdx.x] = idx[pair_ij];
        __syncthreads();
        out[threadIdx.x] += s[(threadIdx.x + 1) % 256];
    }}
}}
"""


UNIFORM_TRIPS = [
    "for (int pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1 + sp_id; pair_ij += nsp)",
    "for (int pair_ij = sp_id + shl_pair0; pair_ij < sp_id + shl_pair1; pair_ij += nsp)",
    "for (int pair_ij = gout_id; pair_ij < shl_pair1 + gout_id; pair_ij += gout_stride)",
    "for (int pair_ij = shl_pair0 + threadIdx.x; pair_ij <= shl_pair1 + threadIdx.x; pair_ij = pair_ij + 4)",
    "int pair_ij; for (pair_ij = shl_pair1 - 1 + sp_id; pair_ij >= shl_pair0 + sp_id; pair_ij--)",
    "for (int pair_ij = (shl_pair0 + sp_id); ((pair_ij) < (shl_pair1 + sp_id)); (pair_ij += (nsp)))",
]


@pytest.mark.parametrize("loop", UNIFORM_TRIPS)
def test_an_offset_loop_runs_the_same_turns_in_every_thread(loop):
    assert _lines(_kernel(loop)) == set()


THREAD_TRIPS = [
    # the classic block-stride loop: the start depends on the thread, the bound does not
    "for (int pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1; pair_ij += nsp)",
    # the offsets differ (sp_id vs gout_id), or have opposite signs
    "for (int pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1 + gout_id; pair_ij += nsp)",
    "for (int pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1 - sp_id; pair_ij += nsp)",
    # a thread-dependent step, or a thread-dependent rest of the bound
    "for (int pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1 + sp_id; pair_ij += sp_id + 1)",
    "for (int pair_ij = shl_pair0 + sp_id; pair_ij < idx[threadIdx.x] + sp_id; pair_ij += nsp)",
    # an offset read from memory (another thread may change it), or through a call
    "for (int pair_ij = shl_pair0 + idx[sp_id]; pair_ij < shl_pair1 + idx[sp_id]; pair_ij += nsp)",
    "for (int pair_ij = shl_pair0 + min(sp_id, 3); pair_ij < shl_pair1 + min(sp_id, 3); pair_ij += nsp)",
]


@pytest.mark.parametrize("loop", THREAD_TRIPS)
def test_a_loop_whose_turns_depend_on_the_thread_is_still_reported(loop):
    assert _lines(_kernel(loop)) == {7, 10}


@pytest.mark.parametrize("body", ["sp_id += 1;", "pair_ij += 2;", "int* p = &sp_id; *p = 3;",
                                  "if (pair_ij >= shl_pair1) break;"])
def test_an_offset_changed_in_the_body_or_a_thread_dependent_exit_is_still_reported(body):
    loop = "for (int pair_ij = shl_pair0 + sp_id; pair_ij < shl_pair1 + sp_id; pair_ij += nsp)"
    assert _lines(_kernel(loop, body)) == {7, 10}

