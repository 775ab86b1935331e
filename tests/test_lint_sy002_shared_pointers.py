"""SY002 through a pointer that every caller points into `__shared__` memory (kernelport/lint/sharedptrs.py).

heldout60's gpu-samplesort scan.h: `brent_kung_inclusive(T *data)` copies `data` to a local `a` and runs the last
levels of its up-sweep and down-sweep in loops with no barrier (a warp-synchronous tail); its callers, in other
files of the project, pass `buffer = (unsigned int *) shared` of a `__shared__` array.  Look-alikes that stay
quiet: a caller passing a global pointer (alone or beside a shared caller), no caller at all, a local pointer
re-pointed at global memory, and the same function with a barrier in each loop.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from test_lint_sharedrefs import _tree
from trust_support import kp_inproc

from kernelport.lint.engine import lint_text

SCAN = """\
template <typename T, int n>
__device__ void sweep(T *data) {
    T *a = data;
    int id = threadIdx.x;
    int d = n;
    for (; d > 64; d /= 2) {
        if (id < d / 2) a[d + id] = a[2 * id] + a[2 * id + 1];
        a += d;
        __syncthreads();
    }
    for (; d > 2; d /= 2) {
        if (id < d / 2) a[d + id] = a[2 * id] + a[2 * id + 1];
        a += d;
    }
    __syncthreads();
}
"""
TAIL_LINE = 12  # the loop with no barrier

SHARED_CALLER = """\
#include "scan.h"
__global__ void k(unsigned *out) {
    __shared__ unsigned pool[1024];
    __shared__ unsigned *buffer;
    if (threadIdx.x == 0) buffer = (unsigned *) pool;
    __syncthreads();
    buffer[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    sweep<unsigned, 256>(buffer);
    out[threadIdx.x] = buffer[threadIdx.x];
}
"""

GLOBAL_CALLER = """\
#include "scan.h"
__global__ void g(unsigned *out) {
    unsigned *buffer = out + blockIdx.x * 512;
    sweep<unsigned, 256>(buffer);
}
"""


def _sy002(root: Path) -> list[tuple[str, int]]:
    rc, out, err = kp_inproc("lint", "--format", "json", str(root))
    assert rc in (0, 1), err
    found = json.loads(out)
    assert not [f for f in found if f["code"] == "KP006"]  # no rule failed
    return sorted((Path(f["path"]).name, f["line"]) for f in found if f["code"] == "SY002")


def test_an_includer_passing_a_shared_buffer_makes_the_tail_a_finding(tmp_path):
    assert _sy002(_tree(tmp_path, {"scan.h": SCAN, "main.cu": SHARED_CALLER})) == [("scan.h", TAIL_LINE)]


def test_no_caller_or_a_global_caller_keeps_the_helper_quiet(tmp_path):
    assert _sy002(_tree(tmp_path, {"scan.h": SCAN}, "alone")) == []
    assert _sy002(_tree(tmp_path, {"scan.h": SCAN, "main.cu": GLOBAL_CALLER}, "global")) == []
    mixed = {"scan.h": SCAN, "main.cu": SHARED_CALLER, "other.cu": GLOBAL_CALLER}
    assert _sy002(_tree(tmp_path, mixed, "mixed")) == []  # one call on global memory: not every call is shared


def test_a_pointer_re_pointed_at_global_memory_is_no_shared_pointer(tmp_path):
    moved = SHARED_CALLER.replace("    __syncthreads();\n    sweep", "    __syncthreads();\n    buffer = out;\n    sweep")
    assert "buffer = out;" in moved
    assert _sy002(_tree(tmp_path, {"scan.h": SCAN, "main.cu": moved})) == []


def test_a_barrier_in_every_loop_stays_quiet(tmp_path):
    synced = SCAN.replace("        a += d;\n    }", "        a += d;\n        __syncthreads();\n    }")
    assert synced.count("__syncthreads();") == 3
    assert _sy002(_tree(tmp_path, {"scan.h": synced, "main.cu": SHARED_CALLER})) == []


def test_callers_in_the_own_file_decide_with_every_form_of_shared_pointer():
    forms = ["pool", "&pool[0]", "pool + 64", "reinterpret_cast<unsigned *>(pool)", "(unsigned *) pool", "p"]
    for arg in forms:
        src = SCAN + textwrap.dedent(f"""\
        __global__ void k(unsigned *out) {{
            __shared__ unsigned pool[1024];
            unsigned *p = pool;
            pool[threadIdx.x] = out[threadIdx.x];
            __syncthreads();
            sweep<unsigned, 256>({arg});
            out[threadIdx.x] = pool[threadIdx.x];
        }}
        """)
        assert [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"] == [TAIL_LINE], arg
        local = src.replace("__shared__ unsigned pool[1024];", "unsigned pool[1024];")  # a thread's own array
        assert [f.line for f in lint_text(local, "k.cu") if f.code == "SY002"] == [], arg


def test_a_pointer_parameter_passed_on_from_a_shared_caller_is_followed():
    src = SCAN + textwrap.dedent("""\
    __device__ void both(unsigned *buf) { sweep<unsigned, 256>(buf); }
    __global__ void k(unsigned *out) {
        __shared__ unsigned pool[1024];
        both(pool);
    }
    """)
    assert [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"] == [TAIL_LINE]
    glob = src.replace("both(pool);", "both(out);")
    assert [f.line for f in lint_text(glob, "k.cu") if f.code == "SY002"] == []
