"""Metal: a pointer loaded through a local pointer-to-pointer that points into device memory (`node **ch =
nd->childs; node *c = ch[i];`, gpucfr's walk over a node's children, or a helper's `node **q = ch` of a device
table).  local_pointers writes such a local `device` at every level (`device node * device *ch`), so an
element loaded from it is a `device` pointer (KP215 "cannot tell which address space" before).  A local copy
of a threadgroup table, or a helper's local that is threadgroup in one of its specialisations, keeps the
refusal at its line.  Snippets written for the tests (kernelport.backends.metal.loaded_pointers)."""
from __future__ import annotations

from conftest import metal_checked
from port_support import refusal

CHILDREN = """\
struct node { float v; node **childs; int n; };
__global__ void k(node **nodes, float *o, int n) {
    node *nd = nodes[threadIdx.x];
    node **ch = nd->childs;
    float s = 0;
    for (int i = 0; i < nd->n; i++) { node *c = ch[i]; s += c->v; }
    o[threadIdx.x] = s;
}
"""


def test_an_element_of_a_local_copy_of_a_device_table_is_a_device_pointer():
    text = metal_checked(CHILDREN)
    assert "device node * device *ch = nd->childs;" in text
    assert "device node *c = ch[i];" in text


HELPER = """\
struct node { float v; int n; };
__device__ float sum(node **ch, int n) {
    node **q = ch;
    float s = 0;
    for (int i = 0; i < n; i++) { node *c = q[i]; s += c->v; }
    return s;
}
__global__ void k(node **nodes, float *o, int n) { o[threadIdx.x] = sum(nodes, n); }
"""


def test_a_helpers_local_copy_of_its_device_table_parameter():
    text = metal_checked(HELPER)
    assert "device node * device *q = ch;" in text and "device node *c = q[i];" in text


# Look-alike: the local copies a __shared__ table of pointers into threadgroup memory: no known space
def test_a_local_copy_of_a_threadgroup_table_stays_refused_at_its_line():
    errors = refusal("""\
        struct node { float v; };
        __global__ void k(float *o) {
            __shared__ node pool[4];
            __shared__ node *slots[4];
            slots[threadIdx.x % 4] = &pool[threadIdx.x % 4];
            node **ch = slots;
            node *c = ch[1];
            o[threadIdx.x] = c->v;
        }
        """, to="metal", expect="KP215")
    assert [(e.code, e.location.line) for e in errors] == [("KP215", 7)], [e.format() for e in errors]


# Look-alike: the helper is also called with a threadgroup table: its local is not device in every
# specialisation, so its element's space is unknown: refused, located (never a thread pointer guessed)
def test_a_helper_called_with_a_threadgroup_table_too_stays_refused():
    errors = refusal(HELPER.replace("{ o[threadIdx.x] = sum(nodes, n); }",
                                    "{\n    __shared__ node *slots[4];\n    slots[threadIdx.x % 4] = 0;\n"
                                    "    o[threadIdx.x] = sum(nodes, n) + sum(slots, 4);\n}"), to="metal")
    assert errors and any(e.code == "KP215" and e.location.line == 5 for e in errors), [e.format() for e in errors]
