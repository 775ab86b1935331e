"""SY002: two steps on one shared array whose slots are disjoint residue classes are no chain
(kernelport/lint/slotclasses.py).  heldout56's CudaSynth kernel.cu:590 sums two interleaved channels,
`out[NUM_CH*p + 0] += out[NUM_CH*p + n*NUM_CH + 0]; out[NUM_CH*p + 1] += out[NUM_CH*p + n*NUM_CH + 1];` under the
block tree's `p < n`, the barrier opening each turn of the step loop: channel 0's slots are even, channel 1's
odd, so neither step reads what the other writes.  Look-alikes that stay flagged: the same residue twice, an
offset that is no literal, a factor that does not divide every term, two factors, a difference, a factor of 1,
and the classic unrolled warp ladder."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

CHANNELS = """\
#define NUM_CH 2
#define NUM_PARTIALS 16
__device__ void reduce(float* o, unsigned p, float l, float r) {
    __shared__ float part[NUM_PARTIALS * NUM_CH];
    part[NUM_CH * p + 0] = l;
    part[NUM_CH * p + 1] = r;
    unsigned n = NUM_PARTIALS / 2;
    while (n > 0) {
        __syncthreads();
        if (p < n) {
            part[NUM_CH*p + 0] += part[NUM_CH*p + n*NUM_CH + 0];
            part[NUM_CH*p + 1] += part[NUM_CH*p + n*NUM_CH + 1];
        }
        n /= 2;
    }
    if (p == 0) { o[0] = part[0]; o[1] = part[1]; }
}
__global__ void k(float* o, const float* x) { reduce(o, threadIdx.x, x[threadIdx.x], -x[threadIdx.x]); }
"""


def _sy002(src: str) -> list[int]:
    return [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"]


def _first_step(src: str) -> int:
    return next(i for i, ln in enumerate(src.splitlines(), 1) if "+= part[" in ln)


def test_interleaved_channels_are_no_chain():
    assert _sy002(CHANNELS) == []


def test_literal_factor_and_parentheses():
    src = CHANNELS.replace("part[NUM_CH*p + 0] += part[NUM_CH*p + n*NUM_CH + 0];",
                           "part[(p * 4) + 2] += part[(4 * (n + p)) + 2];") \
        .replace("part[NUM_CH*p + 1] += part[NUM_CH*p + n*NUM_CH + 1];",
                 "part[(p * 4) + 3] += part[(4 * (n + p)) + 3];")
    assert _sy002(src) == []


LOOK_ALIKES = {
    "same residue": ("+ n*NUM_CH + 1];", "+ n*NUM_CH + 2];", "part[NUM_CH*p + 1] +=", "part[NUM_CH*p + 2] +="),
    "offset not a literal": ("+ n*NUM_CH + 1];", "+ n*NUM_CH + c];", "part[NUM_CH*p + 1] +=", "part[NUM_CH*p + c] +="),
    "a term without the factor": ("+ n*NUM_CH + 1];", "+ n + 1];", None, None),
    "a difference": ("+ n*NUM_CH + 1];", "+ n*NUM_CH - 1];", None, None),
    "factor of one": ("NUM_CH*p", "ONE*p", "n*NUM_CH", "n*ONE"),
}


@pytest.mark.parametrize("edits", LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_look_alikes_stay_flagged(edits):
    src = CHANNELS.replace("#define NUM_CH 2\n", "#define NUM_CH 2\n#define ONE 1\n") \
        .replace("reduce(float* o, unsigned p,", "reduce(float* o, unsigned c, unsigned p,") \
        .replace("reduce(o, threadIdx.x,", "reduce(o, 1, threadIdx.x,")
    a, b, c, d = edits
    src = src.replace(a, b)
    if c is not None:
        src = src.replace(c, d)
    assert _sy002(src) == [_first_step(src)], src


def test_two_factors_stay_flagged():
    # residues modulo 2 and modulo 4: even slots and slots 2 mod 4 meet
    src = CHANNELS.replace("part[NUM_CH*p + 1] += part[NUM_CH*p + n*NUM_CH + 1];",
                           "part[4*p + 2] += part[4*p + 4*n + 2];")
    assert _sy002(src) == [_first_step(src)]


def test_warp_ladder_stays_flagged():
    src = """\
__global__ void k(float* x) {
    __shared__ volatile float s[64];
    int tid = threadIdx.x;
    s[tid] = x[tid];
    __syncthreads();
    if (tid < 32) {
        s[2 * tid] += s[2 * tid + 32];
        s[2 * tid] += s[2 * tid + 16];
    }
    x[tid] = s[0];
}
"""
    assert _sy002(src) == [7]
