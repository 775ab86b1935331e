"""A pointer loaded from a device buffer of pointers (`INFORMATION_SET *p = dev_infoset_data[i];` of a
kernel's `INFORMATION_SET **dev_infoset_data`, gpucfr on the fifty-fifth held-out set; the cases here are
synthetic) points into device memory: the port writes such a parameter `device T * device *`, so its
element is a `device T *`, as a hand port writes it.  Main refused every such local (KP215).  A pointer
loaded from thread memory, or from a `__shared__` table that holds a threadgroup pointer, keeps no known
space and stays refused, located (a `__shared__` table of device pointers only is ported:
shared_pointer_tables.py), and so does a
helper's load in a specialisation whose pointer-to-pointer is not in device memory
(kernelport/backends/metal/loaded_pointers.py)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate
from conftest import require_tool

TABLE = """\
struct Node { float *data; int n; };
__device__ float first(float **tab, int i) {
    float *p = tab[i];
    return p[0];
}
__global__ void gather(float **tab, Node **nodes, float ***cube, float *out) {
    int i = threadIdx.x;
    float *row = tab[i];
    Node *node = nodes[i];
    float *head = *tab;
    float *plane = cube[i][1];
    float *later;
    later = (tab[i + 1]);
    out[i] = row[0] + node->data[0] + head[1] + plane[2] + later[0] + first(tab, i);
}
"""
SHARED = """\
__global__ void pick(float *a, float *b, float *out) {
    __shared__ float *rows[2];
    int i = threadIdx.x;
    if (i < 2) rows[i] = i ? b : a;
    __syncthreads();
    float *r = rows[i & 1];
    out[i] = r[0];
}
"""
TWO_SPACES = """\
__device__ float first(float **tab, int i) {
    float *p = tab[i];
    return p[0];
}
__global__ void both(float **tab, float *out) {
    __shared__ float *rows[2];
    int i = threadIdx.x;
    out[i] = first(tab, i) + first(rows, i & 1);
}
"""
ONE_LEVEL = """\
__global__ void one(float *buf, float *out) {
    float *p = *buf;
    out[0] = p[0];
}
"""


def metal(code: str):
    port, _ = translate(SourceFile.from_text(code, "t.cu"), "metal")
    return port


def errors(port):
    return [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"]


def test_pointers_loaded_from_a_device_pointer_table_point_into_device_memory():
    require_tool("clang")  # fails in CI where the toolchain is missing (a skip hid it)
    port = metal(TABLE)
    assert port.ok, [d.format() for d in port.diagnostics]
    for decl in ("device float *p = tab[i];", "device float *row = tab[i];", "device Node *node = nodes[i];",
                 "device float *head = *tab;", "device float *plane = cube[i][1];", "device float *later;"):
        assert decl in port.body, decl
    assert "device float * device *tab" in port.body


def test_a_pointer_loaded_from_a_shared_table_of_device_pointers_is_a_device_pointer():
    """Refused (KP215) until h/metal59: the table is `device float * threadgroup rows[2]`
    (shared_pointer_tables.py; its look-alikes, a threadgroup pointer stored among them, stay refused:
    tests/test_metal_shared_pointer_tables.py)."""
    port = metal(SHARED)
    assert errors(port) == [], [d.format() for d in port.diagnostics]
    assert "device float * threadgroup rows[2];" in port.body and "device float *r = rows[i & 1];" in port.body


def test_a_pointer_loaded_from_a_shared_table_holding_threadgroup_pointers_stays_refused_located():
    port = metal(SHARED.replace("__shared__ float *rows[2];", "__shared__ float *rows[2];\n    __shared__ float t[4];")
                 .replace("rows[i] = i ? b : a;", "rows[i] = i ? b : t;"))
    assert errors(port) == [("KP215", 7, 11)], [d.format() for d in port.diagnostics]


def test_a_helper_called_with_device_and_threadgroup_tables_is_refused_for_the_threadgroup_one():
    port = metal(TWO_SPACES)
    assert errors(port) == [("KP215", 2, 11)], [d.format() for d in port.diagnostics]
    msg = next(d.message for d in port.diagnostics if d.code == "KP215")
    assert "when 'first' is called with (threadgroup) arguments" in msg


def test_a_load_through_a_single_level_pointer_is_not_a_pointer_and_gets_no_space():
    port = metal(ONE_LEVEL)
    assert ("KP215", 2, 11) in errors(port), [d.format() for d in port.diagnostics]
