"""A local reference bound to device or threadgroup memory takes its object's address space
(kernelport/backends/metal/reference_spaces.py).  cuda-lbvh's build.cu (heldout57) writes
`bvh_node& curr_node = nodes[curr_node_idx]; atomicAdd(&(curr_node.visited), 1)`: main wrote the reference
unqualified, a `thread` reference in MSL, and the checker refused the atomic on its address (KP224)."""
from __future__ import annotations

from conftest import metal_checked, metal_port

_BVH = """
    struct Node { int child_l, child_r, paren; unsigned int visited; float lo, hi; };
    __global__ void refit(Node *nodes, const float *leaf, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        int idx = nodes[i].paren;
        while (idx != -1) {
            Node& curr = nodes[idx];
            unsigned int seen = atomicAdd(&(curr.visited), 1);
            if (seen == 0) break;
            const Node& l = nodes[curr.child_l];
            const Node& r = nodes[curr.child_r];
            curr.lo = fminf(l.lo, r.lo) + leaf[i];
            curr.hi = fmaxf(l.hi, r.hi);
            idx = curr.paren;
        }
    }
"""


def test_a_reference_to_a_device_struct_is_a_device_reference():
    text = metal_checked(_BVH)
    assert "device Node& curr = nodes[idx];" in text
    assert "const device Node& l = nodes[curr.child_l];" in text
    assert "(device atomic_uint*)(&(curr.visited))" in text


def test_a_helpers_reference_follows_each_specialisation():
    text = metal_checked("""
        __device__ void bump(float *buf, int i) { float& s = buf[i]; s += 1.0f; }
        __global__ void k(float *g) {
            __shared__ float tile[64];
            tile[threadIdx.x] = g[threadIdx.x];
            bump(tile, threadIdx.x);
            bump(g, threadIdx.x);
            __syncthreads();
            g[threadIdx.x] += tile[threadIdx.x];
        }
    """)
    assert "device float& s = buf[i];" in text and "threadgroup float& s = buf[i];" in text


def test_lookalike_a_reference_to_a_local_or_a_temporary_stays_as_written():
    port, text = metal_port("""
        __global__ void k(float *g, float a) {
            float loc[4] = {1, 2, 3, 4};
            float& r = loc[threadIdx.x & 3];
            const float& t = a * 2.0f;
            r += t;
            g[threadIdx.x] = r;
        }
    """)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "    float& r = loc[" in text and "    const float& t = a * 2.0f;" in text
