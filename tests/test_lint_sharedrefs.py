"""SY001 in a device function whose `int&` parameters every caller binds to a `__shared__` scalar
(gpu4pyscf's create_tasks.cu, included by rys_contract_jk_ip2.cu: 12 false SY001 on heldout19,
bench/lint_audit39.txt): the callers' facts decide, in the file's own unit or in the run's files that
include it (kernelport/lint/sharedrefs.py).  A per-thread argument, a mixed set of callers, a local that
shadows the shared name, or no caller at all keep the finding."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from trust_support import kp_inproc

from kernelport.lint.engine import lint_text

# the create_tasks.cu shape: one thread resets and advances the counters between barriers; every
# loop bound and early return reads them
TASKS = """\
__device__ static
void fill_tasks(int& ntasks, int& pair0, int* out, const float* q, int pair1, float cutoff)
{
    int t = threadIdx.x;
    __syncthreads();
    if (t == 0) {
        ntasks = 0;
    }
    __syncthreads();
    if (q[pair0] < cutoff) {
        return;
    }
    while (pair0 < pair1 && ntasks < 256) {
        int pair = pair0 + t;
        __syncthreads();
        if (pair < pair1 && q[pair] < cutoff) {
            pair0 = pair1;
        }
        __syncthreads();
        if (t == 0) {
            out[ntasks] = pair;
            ntasks += 1;
            pair0 += blockDim.x;
        }
        __syncthreads();
    }
}
"""

SHARED_CALLER = """\
#include "tasks.cu"

__global__ void k(int* out, const float* q, int npairs) {
    __shared__ int ntasks, pair0;
    if (threadIdx.x == 0) pair0 = blockIdx.x * 64;
    __syncthreads();
    fill_tasks(ntasks, pair0, out, q, npairs, 0.5f);
    if (ntasks == 0) return;
    out[threadIdx.x] += ntasks;
}
"""

LOCAL_CALLER = """\
#include "tasks.cu"

__global__ void k(int* out, const float* q, int npairs) {
    int ntasks = threadIdx.x, pair0 = blockIdx.x * 64;
    fill_tasks(ntasks, pair0, out, q, npairs, 0.5f);
    out[threadIdx.x] += ntasks;
}
"""


def _tree(tmp_path: Path, files: dict[str, str], name: str = "proj") -> Path:
    d = tmp_path / name
    d.mkdir()
    for f, text in files.items():
        (d / f).write_text(textwrap.dedent(text))
    return d


def _sy001(*args) -> list[tuple[str, int]]:
    rc, out, err = kp_inproc("lint", "--format", "json", *map(str, args))
    assert rc in (0, 1), err
    found = json.loads(out)
    assert not [f for f in found if f["code"] == "KP006"]  # no rule failed
    return sorted((Path(f["path"]).name, f["line"]) for f in found if f["code"] == "SY001")


def test_no_caller_in_the_run_keeps_the_file_alone_finding(tmp_path):
    d = _tree(tmp_path, {"tasks.cu": TASKS})
    found = _sy001(d)
    assert found and {n for n, _ in found} == {"tasks.cu"}
    assert ("tasks.cu", 15) in found  # the __syncthreads() in the loop whose bound reads ntasks


def test_an_includer_passing_shared_scalars_refutes_the_finding(tmp_path):
    d = _tree(tmp_path, {"tasks.cu": TASKS, "main.cu": SHARED_CALLER})
    assert _sy001(d) == []
    alone = _sy001(_tree(tmp_path, {"tasks.cu": TASKS}, "alone"))
    assert alone  # (the same file without its includer: the finding the includer refutes)


def test_an_includer_passing_a_thread_dependent_local_keeps_the_finding(tmp_path):
    d = _tree(tmp_path, {"tasks.cu": TASKS, "main.cu": LOCAL_CALLER})
    alone = _sy001(_tree(tmp_path, {"tasks.cu": TASKS}, "alone"))
    assert [x for x in _sy001(d) if x[0] == "tasks.cu"] == alone


def test_one_per_thread_caller_among_shared_ones_keeps_the_finding(tmp_path):
    d = _tree(tmp_path, {"tasks.cu": TASKS, "main.cu": SHARED_CALLER,
                         "other.cu": LOCAL_CALLER.replace("void k(", "void k2(")})
    assert ("tasks.cu", 15) in _sy001(d)


def test_a_local_shadowing_the_shared_name_is_per_thread(tmp_path):
    shadow = SHARED_CALLER.replace("    fill_tasks(ntasks", "    { int ntasks = threadIdx.x;\n    fill_tasks(ntasks") \
        .replace("0.5f);\n", "0.5f); }\n", 1)
    assert "{ int ntasks = threadIdx.x;" in shadow
    d = _tree(tmp_path, {"tasks.cu": TASKS, "main.cu": shadow})
    assert ("tasks.cu", 15) in _sy001(d)


def _own_file(caller_body: str) -> set[int]:
    src = TASKS + textwrap.dedent(caller_body)
    found = lint_text(src, "k.cu")
    assert not [f.message for f in found if f.code == "KP006"]
    return {f.line for f in found if f.code == "SY001"}


def test_callers_in_the_functions_own_file_decide_too():
    shared = """
    __global__ void k(int* out, const float* q, int npairs) {
        __shared__ int ntasks;
        __shared__ int counters[2];
        fill_tasks(ntasks, counters[1], out, q, npairs, 0.5f);
    }
    """
    assert _own_file(shared) == set()
    # an element at a thread-dependent index is the thread's own
    assert 15 in _own_file(shared.replace("counters[1]", "counters[threadIdx.x & 1]"))


def test_a_wrapper_passing_its_own_shared_bound_reference_on():
    wrapped = """
    __device__ void next_batch(int& n, int& p0, int* out, const float* q, int npairs) {
        fill_tasks(n, p0, out, q, npairs, 0.5f);
    }
    __global__ void k(int* out, const float* q, int npairs) {
        __shared__ int ntasks, pair0;
        next_batch(ntasks, pair0, out, q, npairs);
    }
    """
    assert _own_file(wrapped) == set()
    local = wrapped.replace("__shared__ int ntasks, pair0;", "int ntasks = 0, pair0 = threadIdx.x;")
    assert 15 in _own_file(local)
