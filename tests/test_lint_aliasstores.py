"""A store through a local pointer or reference to a local binds the local (kernelport/lint/aliasstores.py): a lane
index made per thread through `int* p = &src; *p = threadIdx.x & 3;` (or `int& r = src; r = ...`) is per thread,
so `__shfl_sync(FULL, v, src)` reads a different lane in each lane and a full-mask operation under a condition on
it keeps WS012 (on main, lint63's lane broadcasts read it as one lane's value and the branch as warp-uniform: the
finding was lost).  The look-alike storing a uniform value through the same alias stays silent."""
from __future__ import annotations

import pytest

from test_lint_lanebroadcasts import _findings

KERNEL = """\
struct P {{ int lane; int pad; }};
__global__ void k(const unsigned* in, unsigned* out) {{
    unsigned v = in[threadIdx.x];
    {decl}
    {store}
    unsigned b = __shfl_sync(0xffffffffu, v, {lane});
    if (b > 5) v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}}
"""
LINE = 7

ALIASES = {
    "pointer": ("int src = 0; int* p = &src;", "*p = {value};", "src"),
    "reference": ("int src = 0; int& r = src;", "r = {value};", "src"),
    "pointer to a member": ("P s; s.lane = 0; P* q = &s;", "q->lane = {value};", "s.lane"),
    "pointer to an element": ("int a[2] = {{0, 0}}; int* p = &a[1];", "*p = {value};", "a[1]"),
    "array decayed": ("int a[2] = {{0, 0}}; int* p = a;", "p[0] = {value};", "a[0]"),
    "alias of an alias": ("int src = 0; int* p = &src; int* q = p;", "*q = {value};", "src"),
    "assigned later": ("int src = 0; int* p; p = &src;", "*p = {value};", "src"),
}


@pytest.mark.parametrize("alias", ALIASES.values(), ids=ALIASES.keys())
def test_per_lane_store_through_alias_keeps_ws012(tmp_path, alias):
    decl, store, lane = alias
    text = KERNEL.format(decl=decl, store=store.format(value="threadIdx.x & 3"), lane=lane)
    assert (LINE, "WS012") in _findings(tmp_path, text)


@pytest.mark.parametrize("alias", ALIASES.values(), ids=ALIASES.keys())
def test_uniform_store_through_alias_stays_silent(tmp_path, alias):
    decl, store, lane = alias
    text = KERNEL.format(decl=decl, store=store.format(value="blockIdx.x & 3"), lane=lane)
    assert (LINE, "WS012") not in _findings(tmp_path, text)


def test_store_through_pointer_to_other_memory_binds_nothing(tmp_path):
    """A pointer never aimed at a local (`unsigned* p = out`) binds no local by its stores."""
    text = KERNEL.format(decl="int src = 0; unsigned* p = out;", store="*p = threadIdx.x & 3;", lane="src")
    assert (LINE, "WS012") not in _findings(tmp_path, text)
