"""A CUB reduction operator taking `T&` operands it never writes is ported taking `const T&`
(kernelport/reduce_operands.py): heldout52's fastjet_gpu passes `dist_compare`, whose
`operator()(Dist &first, Dist &second)` CUB calls on lvalues, to BlockReduce::Reduce; hipCUB's
rocPRIM warp reduction calls it on a temporary (`reduce_op(warp_move_dpp(output), output)`), so with
rocThrust/hipCUB on the path hipcc refused both ports ("expects an lvalue for 1st argument")."""
from __future__ import annotations

from port_support import ported

CODE = """#include <cub/cub.cuh>
struct Dist { double d; int i; };
struct dist_compare {
  __host__ __device__ Dist operator()(Dist &first, Dist &second) { return first.d < second.d ? first : second; }
};
struct keeps_count {
  __device__ Dist operator()(Dist &a, Dist &b) { a.i += 1; return a.d < b.d ? a : b; }
};
struct unused_op {
  __device__ Dist operator()(Dist &a, Dist &b) { return a; }
};
__global__ void k(Dist* in, Dist* out) {
  typedef cub::BlockReduce<Dist, 256> R;
  __shared__ typename R::TempStorage s;
  Dist d = in[threadIdx.x];
  Dist m = R(s).Reduce(d, dist_compare());
  __syncthreads();
  Dist n = R(s).Reduce(d, keeps_count{});
  if (threadIdx.x == 0) { out[0] = m; out[1] = n; }
}
"""


def port_of(code: str, backend: str = "hip"):
    return ported(code, "k.cu", backend, dedent=False)[0]


def test_an_operator_that_only_reads_its_operands_takes_them_const():
    body = port_of(CODE).body
    assert "Dist operator()(const Dist &first, const Dist &second) { return first.d < second.d" in body
    assert "hipcub::BlockReduce<Dist, 256>" in body


def test_look_alikes_are_left_as_written():
    """An operator that writes an operand (keeps_count: `a.i += 1`), a functor no reduction is given
    (unused_op), an operand already const or an rvalue reference, and a target whose collectives call
    on lvalues (Metal's port has no CUB, and its backend says no): unchanged."""
    body = port_of(CODE).body
    assert "__device__ Dist operator()(Dist &a, Dist &b) { a.i += 1;" in body
    assert "__device__ Dist operator()(Dist &a, Dist &b) { return a; }" in body
    already = port_of(CODE.replace("(Dist &first, Dist &second)", "(const Dist &first, Dist &&second)")).body
    assert "operator()(const Dist &first, Dist &&second)" in already and "const const" not in already
    called = port_of(CODE.replace("return first.d < second.d ? first : second;",
                                  "return pick(first, second);")).body
    assert "operator()(Dist &first, Dist &second) { return pick(first, second); }" in called  # pick may write
