"""`atomicInc(&stack->n, UINT_MAX)` on a member in threadgroup memory, in a Metal port (heldout55:
sliding-puzzle's idas_smem_25.cu, `unsigned int n;` of a `d_Stack`): CUDA declares atomicInc and atomicDec
for unsigned int alone, so an operand whose type the port cannot read is an unsigned int there, and the
helper is kp_atomic_inc's uint one (kernelport/backends/metal/calls.py).  Before: the int helper, and
KP224 "no matching function for call to 'kp_atomic_inc'".  Look-alike: an atomicAdd on such a member
keeps int's."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked
except ImportError:  # pragma: no cover
    from conftest import metal_checked

CODE = """#include <climits>
typedef struct { unsigned int n; int buf[64]; } d_Stack;
__device__ void put(d_Stack *stack, int v) {
    unsigned int i = atomicInc(&stack->n, UINT_MAX);
    stack->buf[i] = v;
}
__global__ void k(int *out) {
    __shared__ d_Stack s;
    if (threadIdx.x == 0) s.n = 0;
    __syncthreads();
    put(&s, threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = s.buf[threadIdx.x];
}
"""


def test_an_atomic_inc_of_an_unread_operand_is_the_uint_one():
    out = metal_checked(CODE)
    assert "inline uint kp_atomic_inc(threadgroup uint* address, uint limit)" in out or \
        "kp_atomic_inc(threadgroup uint*" in out, out
    assert "kp_atomic_inc(&stack->n, UINT_MAX)" in out


def test_an_atomic_add_of_an_unread_int_member_keeps_int():
    out = metal_checked(CODE.replace("unsigned int n;", "int n;").replace(
        "unsigned int i = atomicInc(&stack->n, UINT_MAX);", "int i = atomicAdd(&stack->n, 1);"))
    assert "atomic_fetch_add_explicit((threadgroup atomic_int*)(&stack->n), 1, memory_order_relaxed)" in out, out
