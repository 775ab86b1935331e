"""Pointers loaded from a table of device pointers that a struct holds (astar-cuda heap.cu `state *res =
heap->states[1]` of `struct heap { state **states; }`, gpucfr's `typedef struct efg_node_t { ...
struct efg_node_t **childs; } EFGNODE;` reached through a kernel's `EFGNODE **nodes`; stop 55's held-out
set, the cases here are synthetic).  The host fills such a table with device addresses: the member is
written `device T * device *`, an element loaded from it is a `device` pointer, and so is a local
`T **` that takes the table (kernelport/backends/metal/pointer_tables.py).  Main refused each load
(KP215).  A pointer into another space stored in the table is refused where it is stored; a table
assigned a thread array is left as written (its loads stay refused)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port
from port_support import refusal

HEAP = """\
    struct state { int f; };
    struct heap { state **states; int size; };
    __device__ static void swap(state **s1, state **s2) { state *t = *s1; *s1 = *s2; *s2 = t; }
    __device__ void heap_insert(heap *h, state *s) {
        h->states[++h->size] = s;
        if (h->size > 1 && h->states[h->size]->f < h->states[1]->f) swap(&(h->states[h->size]), &(h->states[1]));
    }
    __device__ state *heap_extract(heap *h) {
        state *res = h->states[1];
        h->states[1] = h->states[h->size];
        h->states[h->size] = NULL;
        h->size--;
        return res;
    }
    __global__ void step(heap **heaps, state *pool, int *out) {
        heap *h = heaps[blockIdx.x];
        heap_insert(h, pool + threadIdx.x);
        state *best = heaps[0]->states[1];
        out[threadIdx.x] = heap_extract(h)->f + best->f;
    }
    """


def errors(code: str):
    return [(d.code, d.location.line, d.location.column) for d in refusal(code, to="metal")]


def test_a_struct_members_table_of_device_pointers_loads_device_pointers():
    text = metal_checked(HEAP)
    assert "struct heap { device state * device *states; int size; };" in text, text
    assert "device state *res = h->states[1];" in text
    assert "device state *best = heaps[0]->states[1];" in text
    assert "static void swap(device state * device *s1, device state * device *s2)" in text
    assert "device state *t = *s1;" in text


NODES = """\
    typedef float INFO;
    typedef struct node_t {
        struct node_t *parent;
        INFO *info;
        int count;
        struct node_t **childs;
    } NODE;
    __global__ void reach(NODE **nodes, unsigned int n) {
        unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        NODE *node = nodes[i];
        NODE *up = node->parent;
        float p = 1.0f;
        while (up) {
            NODE **children = up->childs;
            for (int c = 0; c < up->count; c++) if (children[c] == node) p *= up->info[c];
            up = up->parent;
        }
        atomicAdd(&node->info[0], p);
    }
    """


def test_a_typedef_structs_members_and_its_table_of_children_are_device():
    text = metal_checked(NODES)
    assert "device struct node_t *parent;" in text and "device INFO *info;" in text, text
    assert "device struct node_t * device *childs;" in text
    assert "device NODE * device *children = up->childs;" in text
    assert "atomic_fetch_add_explicit((device atomic_float*)(&node->info[0]), p, memory_order_relaxed);" in text


def test_a_shared_pointer_stored_in_the_table_is_refused_where_it_is_stored():
    code = HEAP.replace("    __global__ void step(heap **heaps, state *pool, int *out) {\n",
                        "    __global__ void step(heap **heaps, state *pool, int *out) {\n"
                        "        __shared__ state local[4];\n"
                        "        heaps[1]->states[0] = &local[0];\n")
    got = errors(code)
    assert ("KP215", 17, 5) in got, got
    port, _ = metal_port(code)
    assert any("stored in 'states'" in d.message for d in port.diagnostics)


def test_look_alike_a_table_given_a_thread_array_is_left_as_written():
    code = """\
        struct box { float **rows; };
        __global__ void k(float *a, float *out) {
            float *local[2];
            local[0] = a; local[1] = a + 1;
            box b;
            b.rows = local;
            float *r = b.rows[1];
            out[threadIdx.x] = r[0];
        }
        """
    port, text = metal_port(code)
    assert "device float * device *rows" not in (text or "")
    assert ("KP215", 7, 11) in errors(code)


def test_a_float_atomic_through_a_struct_member_is_a_float_atomic():
    """Main wrote `atomicAdd(&node->info[0], p)` of a `float *info` member as an atomic_int add (the
    member's type was not read): a silently wrong port.  The member's declared type decides now."""
    text = metal_checked("""\
        struct node_t { float *info; int n; };
        __global__ void reach(node_t *node, float p) {
            atomicAdd(&node->info[0], p);
            atomicAdd(&node->n, 1);
        }
        """)
    assert "atomic_fetch_add_explicit((device atomic_float*)(&node->info[0]), p, memory_order_relaxed);" in text, text
    assert "atomic_fetch_add_explicit((device atomic_int*)(&node->n), 1, memory_order_relaxed);" in text
