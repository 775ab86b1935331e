"""A Thrust vector's braced list written as a std::vector of its elements on HIP (kernelport/vector_lists.py).

cuinterval's tests_loop.cu (heldout53) builds `thrust::device_vector<I> d_pi { a, b, c }`; rocThrust before ROCm 6.2
has no initializer_list constructor (hipcc: no matching constructor) and reads `{5}` as five zeros and `{n, x}` as
n copies of x.  Checked: the direct, copy and temporary forms become `std::vector<T>{...}` of the vector's element
type; look-alikes kept: `{}`, parentheses, a std::vector's own list, a vector of another namespace, and Metal."""
from __future__ import annotations

from kernelport import backends
from port_support import ported

SRC = """#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <vector>
namespace mine { template <typename T> struct device_vector { device_vector(std::initializer_list<T>) {} }; }

float run(float a, float b)
{
    thrust::device_vector<float> d{ a, b, a + b };
    thrust::host_vector<int> h = {5};
    auto t = thrust::device_vector<double>{2.0, 3.0};
    thrust::device_vector<int> empty{};
    thrust::device_vector<int> sized(5);
    std::vector<int> plain{5};
    mine::device_vector<int> other{5};
    return d[0] + h[0] + t[0] + empty.size() + sized.size() + plain[0];
}
"""


def test_lists_become_std_vectors_of_the_element_type():
    port, body = ported(SRC, dedent=False)
    assert "    thrust::device_vector<float> d(std::vector<float>{ a, b, a + b });" in body
    assert "    thrust::host_vector<int> h = std::vector<int>{5};" in body
    assert "    auto t = thrust::device_vector<double>(std::vector<double>{2.0, 3.0});" in body
    assert sum("initializer_list" in n.why for n in port.notes) == 3


def test_look_alikes_are_kept():
    _, body = ported(SRC, dedent=False)
    for line in ("    thrust::device_vector<int> empty{};", "    thrust::device_vector<int> sized(5);",
                 "    std::vector<int> plain{5};", "    mine::device_vector<int> other{5};"):
        assert line in body.splitlines(), line


def test_backends_without_data_keep_the_list():
    assert backends.get("metal").vector_list_constructors == {}
    assert backends.get("portable").vector_list_constructors == backends.get("hip").vector_list_constructors
