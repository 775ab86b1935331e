"""A `__device__`-only functor whose result type rocThrust computes in host code gets `__host__` on HIP
(kernelport/host_typed_functors.py).

cuinterval's tests_loop.cu (heldout53) hands `pi_recip_fn` (a `__device__` operator() template) to
thrust::make_transform_iterator: nvcc takes it, clang drops the device-only candidate from the iterator's host-side
std::invoke_result ("no type named 'type'").  Measured with hipcc and rocThrust 5.3.3: make_transform_iterator,
transform_iterator<F, It> and transform_inclusive_scan's unary operator fail so; transform, transform_reduce and the
others take the functor as written (look-alikes kept here), as do a functor already `__host__ __device__`, a class
with a host twin of its operator(), one the file does not define, and Metal (no data).  The compile test stands a
small host-side invoke_result (what transform_iterator does) in for rocThrust, absent from Debian's ROCm."""
from __future__ import annotations

from kernelport import backends

from conftest import hip_compiles
from port_support import ported

SRC = """#include <thrust/device_vector.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>
#include <thrust/transform_scan.h>
#include <thrust/reduce.h>

__device__ float dev_only(float x) { return x * 2.f; }

struct recip_fn {
    template <typename I>
    __device__ I operator()(const I &x) const { return I(1) / dev_only(x); }
};
struct square_fn { __device__ float operator()(float x) const { return x * x; } };
struct neg_fn { __device__ float operator()(float x) const { return -x; } };
template <typename T> struct scale_fn { T s; __device__ T operator()(T x) const { return s * x; } };
struct both_fn { __host__ __device__ float operator()(float x) const { return x + 1.f; } };
struct twin_fn {
    __host__ float operator()(float x) const { return x; }
    __device__ float operator()(float x) const { return dev_only(x); }
};
struct plain_fn { __device__ float operator()(float x) const { return x - 1.f; } };
struct sum_fn { __device__ float operator()(float a, float b) const { return a + b; } };

float run(thrust::device_vector<float> &v, thrust::device_vector<float> &o, float k)
{
    thrust::counting_iterator<float> first(1.f);
    auto a = thrust::make_transform_iterator(first, recip_fn());
    thrust::transform_iterator<square_fn, thrust::counting_iterator<float>> b(first, square_fn{});
    neg_fn neg;
    auto c = thrust::make_transform_iterator(first, neg);
    auto d = thrust::make_transform_iterator(first, scale_fn<float>{k});
    auto e = thrust::make_transform_iterator(first, both_fn());
    auto f = thrust::make_transform_iterator(first, twin_fn());
    thrust::transform(v.begin(), v.end(), o.begin(), plain_fn());
    thrust::transform_inclusive_scan(thrust::device, v.begin(), v.end(), o.begin(), square_fn(), sum_fn());
    return thrust::reduce(a, a + 4) + thrust::reduce(b, b + 4) + thrust::reduce(c, c + 4) + thrust::reduce(d, d + 4)
        + thrust::reduce(e, e + 4) + thrust::reduce(f, f + 4);
}
"""


def test_functors_typed_in_host_code_get_host():
    port, body = ported(SRC, dedent=False)
    assert "    __host__ __device__ I operator()(const I &x) const { return I(1) / dev_only(x); }" in body
    assert "struct square_fn { __host__ __device__ float operator()" in body  # transform_iterator<F, It>, the scan
    assert "struct neg_fn { __host__ __device__ float operator()" in body  # a local declared neg_fn
    assert "template <typename T> struct scale_fn { T s; __host__ __device__ T operator()" in body
    assert sum("handed to" in n.why for n in port.notes) == 4


def test_look_alikes_keep_their_spaces():
    _, body = ported(SRC, dedent=False)
    assert "struct both_fn { __host__ __device__ float operator()" in body and "__host__ __host__" not in body
    assert "    __host__ float operator()(float x) const { return x; }\n    __device__ float operator()" in body
    assert "struct plain_fn { __device__ float operator()" in body  # thrust::transform takes it
    assert "struct sum_fn { __device__ float operator()" in body  # the scan's binary operator
    assert "__device__ float dev_only" in body and "__host__ __device__ float dev_only" not in body


def test_a_functor_defined_elsewhere_or_a_backend_without_data_is_kept():
    src = ('#include <thrust/iterator/transform_iterator.h>\n#include "fns.h"\n'
           "auto it(float *p) { return thrust::make_transform_iterator(p, header_fn()); }\n")
    _, body = ported(src, dedent=False)
    assert "__host__" not in body.split("#include", 1)[1]
    assert backends.get("metal").host_typed_functors == {}
    assert backends.get("portable").host_typed_functors == backends.get("hip").host_typed_functors


HOST_TYPED = """#include <type_traits>
template <class F, class It> struct typed_iterator {  // what transform_iterator does with its functor in host code
    using value_type = typename std::invoke_result<F, float>::type;
    It it; F f;
};
__device__ float dev_only(float x) { return x * 2.f; }
struct recip_fn { template <typename I> __device__ I operator()(const I &x) const { return I(1) / dev_only(x); } };
__global__ void k(float *o) { o[threadIdx.x] = recip_fn{}(o[threadIdx.x]); }
int main() {
    auto a = thrust::make_transform_iterator(1.f, recip_fn());
    return sizeof(typed_iterator<recip_fn, float>::value_type) == sizeof(float) ? 0 : 1;
}
"""


def test_clang_takes_the_widened_functor_in_host_code(tmp_path):
    """main's port: "no type named 'type' in std::invoke_result<recip_fn, float>"; the branch's compiles."""
    stub = "namespace thrust { template <class It, class F> It make_transform_iterator(It it, F) { return it; } }\n"
    _, body = ported(stub + HOST_TYPED, dedent=False)
    assert "__host__ __device__ I operator()" in body
    hip_compiles(tmp_path, body)
