"""`__shared__` tables of device pointers (stop 58's open item: `__shared__ node *slots[4]` was written
`threadgroup node *slots[4]`, which the checker refused, KP224): the port declares the threadgroup array
of device pointers `device node * threadgroup slots[4]`, and an element loaded from it is a `device`
pointer.  Look-alikes: a table that also holds threadgroup pointers, a table passed on whole, and an
element's address keep the declaration as written (refused, located), never a space guessed."""
from __future__ import annotations

import pytest

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port as metal, require_tool
    from .port_support import metal_checker as checker, metal_errors as errors
except ImportError:  # pragma: no cover
    from conftest import metal_port as metal, require_tool
    from port_support import metal_checker as checker, metal_errors as errors


TABLE = """\
    struct node { float v; node *next; };
    __global__ void k(node *nodes, float *o, int n)
    {
        __shared__ node *slots[4];
        if (threadIdx.x < 4) slots[threadIdx.x] = threadIdx.x == 3 ? nullptr : &nodes[threadIdx.x * 2];
        if (threadIdx.x == 0) slots[3] = NULL;
        __syncthreads();
        node *c = slots[threadIdx.x % 3];
        o[blockIdx.x * blockDim.x + threadIdx.x] = c->v + slots[0]->next->v;
    }
"""


def test_a_shared_table_of_device_pointers_is_a_threadgroup_array_of_device_pointers():
    require_tool("clang")
    port, text = metal(TABLE)
    assert errors(port) == []
    assert "device node * threadgroup slots[4];" in text
    assert "device node *c = slots[tid.x % 3];" in text
    assert checker(text) == []


def test_qualifiers_of_the_element_stay():
    require_tool("clang")
    port, text = metal("""\
        __global__ void k(const float *x, float *out, int n)
        {
            __shared__ const float *rows[4];
            if (threadIdx.x < 4) rows[threadIdx.x] = x + threadIdx.x * n;
            __syncthreads();
            const float *r = rows[threadIdx.x % 4];
            out[threadIdx.x] = r[0] + rows[1][threadIdx.x];
        }
    """)
    assert errors(port) == []
    assert "const device float * threadgroup rows[4];" in text
    assert checker(text) == []


@pytest.mark.parametrize("change", [
    # a threadgroup pointer stored too: the elements' space is not one
    ("if (threadIdx.x == 0) slots[3] = NULL;",
     "__shared__ node pool[4];\n    if (threadIdx.x == 0) slots[3] = &pool[0];"),
    # the table passed on whole: a helper would need both spaces
    ("__syncthreads();", "__syncthreads();\n    node **all = slots;"),
    # an element's address: a pointer to a device pointer in threadgroup memory
    ("__syncthreads();", "__syncthreads();\n    node **one = &slots[1];"),
])
def test_look_alikes_keep_the_declaration_and_are_refused_located(change):
    port, _ = metal(TABLE.replace(*change))
    assert "device node * threadgroup slots" not in port.body
    errs = [d for d in port.diagnostics if d.severity == "error"]
    assert errs and all(d.location.line > 0 for d in errs), [d.format() for d in errs]
