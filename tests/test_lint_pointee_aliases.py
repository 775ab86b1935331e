"""Stores through pointers into memory that no local owns (kernelport/lint/aliasstores.py).

lechebs-nbody's barnes_hut.cu (heldout100) carves its `extern __shared__` buffer into pointers (`T *x_buff =
(T *) shmem; T *y_buff = &x_buff[G];` ...) and reuses one (`int *leaves = approx_blk_scan; leaves[lane] = node;`):
that store had bound every pointer of the chain per thread, so `n = approx_blk_scan[0]` after the barrier, and
every loop it bounds, read as per thread (false SY001/WS012).  diego-nbody's octree_kernel.cu binds `Node &curNode
= node[nodeIndex]` (block-uniform) and writes `curNode.isLeaf` under `if (tx == 0)`: the store had made the
reference per thread, and `if (curNode.start == -1) return;` before the barriers a false SY001.
The look-alikes: a pointer into a local array, a reference to a local, a local copy of the element: their stores
bind the local as before (aliasstores' own tests keep the rest)."""
from __future__ import annotations

import pytest

from test_lint_lanebroadcasts import _findings

CARVED = """\
__global__ void k(const int* in, int* out, int g) {{
    extern __shared__ int shmem[];
    {carve}
    int node = in[threadIdx.x];
    int *leaves = scan;
    leaves[threadIdx.x] = node;
    __syncthreads();
    int n = scan[0];
    for (int i = 0; i < n; ++i) {{
        __syncthreads();
        out[i] += 1;
    }}
}}
"""
BARRIER = 10

CARVINGS = {
    "cast then subscripts": "float *x = (float *) shmem; float *y = &x[g]; int *scan = (int *) &y[g];",
    "element of the shared array": "int *a = &shmem[g]; int *scan = &a[g];",
    "pointer parameter": "int *a = out + g; int *scan = &a[2];",
}


@pytest.mark.parametrize("carve", CARVINGS.values(), ids=CARVINGS.keys())
def test_store_through_a_carved_pointer_binds_no_local(tmp_path, carve):
    assert (BARRIER, "SY001") not in _findings(tmp_path, CARVED.format(carve=carve))


def test_pointer_into_a_local_array_still_binds_it(tmp_path):
    """`int *scan = &arr[0]` names the local array: the per-thread store makes `arr[0]`, and the bound, per thread."""
    text = CARVED.format(carve="int arr[4] = {0, 0, 0, 0}; int *scan = &arr[0];")
    assert (BARRIER, "SY001") in _findings(tmp_path, text)


REF = """\
struct Node {{ int start; int end; int leaf; }};
__global__ void k(Node* node, int idx, int* out) {{
    idx += blockIdx.x;
    {bind}
    int start = cur.start;
    if (start == -1) return;
    __syncthreads();
    out[threadIdx.x] = start;
    if (threadIdx.x == 0) cur.{field} = -1;
}}
"""


def _sy001(tmp_path, text) -> set[int]:
    """The lines of the SY001 findings (the return's, or the barrier's where it alone is reported)."""
    return {line for line, code in _findings(tmp_path, text) if code == "SY001"}


def test_reference_to_an_element_through_a_pointer_stays_uniform(tmp_path):
    text = REF.format(bind="Node &cur = node[idx];", field="leaf")
    assert not _sy001(tmp_path, text)


def test_reference_assigned_whole_stays_uniform(tmp_path):
    text = REF.format(bind="Node &cur = node[idx];", field="start").replace("cur.start = -1", "cur = node[0]")
    assert not _sy001(tmp_path, text)


@pytest.mark.parametrize("bind", ["Node cur = node[idx];", "Node loc = node[idx]; Node &cur = loc;"],
                         ids=["a local copy", "a reference to a local"])
def test_store_into_a_local_still_makes_it_per_thread(tmp_path, bind):
    """The thread's own copy written under `threadIdx.x == 0` before the read: `cur.start` differs by thread."""
    text = REF.format(bind=bind + " if (threadIdx.x == 0) cur.start = -1;", field="leaf")
    assert _sy001(tmp_path, text) & {6, 7}


FRAG = """\
struct Frag {{
    int v[4];
    __device__ int& operator[](int i) {{ return v[i]; }}
}};
__global__ void k(int* out) {{
    Frag a;
    a.v[0] = 0;
    {bind}
    if (a.v[0]) {{
        __syncthreads();
    }}
    out[threadIdx.x] = a.v[0];
}}
"""


@pytest.mark.parametrize("bind", ["int& r = a[0]; r = threadIdx.x & 1;", "int* q = &a[0]; *q = threadIdx.x & 1;"],
                         ids=["reference", "pointer"])
def test_element_of_a_local_object_is_the_local(tmp_path, bind):
    """review66e: `a[0]` of a local object is its operator[] on the thread's own storage, not memory through a
    pointer: the per-thread store makes `a` per thread and the barrier under `a.v[0]` is SY001 (was quiet)."""
    assert (10, "SY001") in _findings(tmp_path, FRAG.format(bind=bind))


def test_auto_pointer_carving_stays_uniform(tmp_path):
    """The look-alike: an `auto` local holding a cast pointer is a pointer, its `&x[g]` memory (no SY001)."""
    carve = "auto x = (float *) shmem; int *scan = (int *) &x[g];"
    assert (BARRIER, "SY001") not in _findings(tmp_path, CARVED.format(carve=carve))
