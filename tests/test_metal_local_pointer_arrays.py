"""Metal ports of local arrays of pointers (`float3 *vert[3];` filled with `vert[k] = &vertlist[..]` of a
`__shared__` array: quickses' MarchingCubes generateTriangles): the elements get the space their stores
give them (`threadgroup float3 *vert[3];`), reads of an element are pointers into that space, and an array
whose conditions fail is left as written, refused at its line (local_pointer_arrays.py)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port, require_tool

KERNEL = """
#define NB 32
__global__ void tri(const float3 *v, float3 *pos, const int *table, unsigned int n) {
    __shared__ float3 vertlist[12 * NB];
    vertlist[threadIdx.x] = v[threadIdx.x];
    vertlist[NB + threadIdx.x] = v[threadIdx.x + 1];
    __syncthreads();
    for (int i = 0; i < 3; i += 3) {
        float3 *vert[3];
        int edge = table[i];
        vert[0] = &vertlist[(edge * NB) + threadIdx.x];
        vert[1] = &vertlist[threadIdx.x];
        vert[2] = 0;
        float3 *p = vert[1];
        STMT
        if (i < n) { pos[i] = *vert[0]; pos[i + 1] = *p; }
    }
}
"""


def test_an_array_of_pointers_into_shared_memory_gets_threadgroup_elements():
    require_tool("clang")
    text = metal_checked(KERNEL.replace("STMT", ""))
    assert "threadgroup float3 *vert[3];" in text
    assert "threadgroup float3 *p = vert[1];" in text


def test_an_array_of_pointers_into_buffers_gets_device_elements():
    require_tool("clang")
    text = metal_checked("""
    __global__ void pick(float *a, float *b, float *out, int flip) {
        float *rows[2];
        rows[0] = a + threadIdx.x;
        rows[1] = b + threadIdx.x;
        out[threadIdx.x] = *rows[flip & 1];
    }
    """)
    assert "device float *rows[2];" in text


def test_an_element_whose_address_is_taken_is_left_as_written_and_refused_at_its_line():
    require_tool("clang")
    port, _ = metal_port(KERNEL.replace("STMT", "float3 **pp = &vert[2]; *pp = p;"))
    assert not port.ok
    assert "threadgroup float3 *vert[3];" not in port.body
    assert any(d.code == "KP215" and d.location.line == 14 for d in port.diagnostics), \
        [d.format() for d in port.diagnostics]


def test_elements_into_two_spaces_are_refused_at_the_declaration():
    port, _ = metal_port(KERNEL.replace("STMT", "vert[2] = (float3 *)v;"))
    assert not port.ok
    assert any(d.code == "KP215" and d.location.line == 9 for d in port.diagnostics), \
        [d.format() for d in port.diagnostics]
