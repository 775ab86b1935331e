"""A Metal port of a file whose device work is Thrust's (heldout66 nvParse's test.cu: `thrust::count`,
`thrust::copy_if(..., is_break())`, `thrust::for_each(..., ff)` with nvparse.h's `__host__ __device__`
functors): no port is written (Thrust has no Metal port), and KP227 now says that, at the first algorithm
call, naming the functors and their lines, where main said "the file has no device code"
(kernelport/backends/metal/thrust_work.py).  Look-alikes keep "no device code": a host file whose Thrust
calls are only helpers (`thrust::raw_pointer_cast`), a vector built in place and an operator object, and one with no Thrust at all."""
from __future__ import annotations

from conftest import metal_port
from kernelport.source import SourceFile
from kernelport.translate import translate

HEADER = """
struct is_break {
  __host__ __device__ bool operator()(const char x) { return x == 10; }
};
struct plus_one {
  int *out;
  plus_one(int *o) : out(o) {}
  __host__ __device__ void operator()(int i) { out[i] += 1; }
};
struct host_only { bool operator()(int x) { return x > 0; } };
"""
MAIN = """#include <thrust/device_vector.h>
#include <thrust/count.h>
#include <thrust/for_each.h>
#include "parse.h"

int main() {
  thrust::device_vector<char> dev(64, 'a');
  thrust::device_vector<int> out(64);
  int *raw = thrust::raw_pointer_cast(out.data());
  int cnt = thrust::count_if(dev.begin(), dev.end(), is_break());
  plus_one ff(raw);
  thrust::for_each(thrust::make_counting_iterator(0), thrust::make_counting_iterator(64), ff);
  return cnt;
}
"""


def _metal(tmp_path, main: str):
    (tmp_path / "parse.h").write_text(HEADER)
    (tmp_path / "test.cu").write_text(main)
    port, _ = translate(SourceFile.read(tmp_path / "test.cu"), "metal")
    assert port.ok and port.empty
    assert [(d.code, d.severity) for d in port.diagnostics] == [("KP227", "warning")]
    return port.diagnostics[0]


def test_thrust_algorithms_and_functors_are_named_at_the_first_call(tmp_path):
    d = _metal(tmp_path, MAIN)
    assert (d.location.line, d.location.column) == (10, 13)
    assert "device code is Thrust algorithm calls (`thrust::count_if` here, 2 in all)" in d.message
    assert "functors they run (`is_break` (parse.h:2), `plus_one` (parse.h:5))" in d.message
    assert "host_only" not in d.message and "no device code" not in d.message


def test_thrust_helpers_alone_and_host_code_still_say_no_device_code(tmp_path):
    helpers = MAIN.replace("int cnt = thrust::count_if(dev.begin(), dev.end(), is_break());", "int cnt = raw[0];")
    helpers = helpers.replace("thrust::for_each(thrust::make_counting_iterator(0), "
                              "thrust::make_counting_iterator(64), ff);",
                              "(void)ff; thrust::host_vector<int> h = thrust::host_vector<int>(4); "
                              "int s = thrust::plus<int>()(1, 2);")  # a type, an operator object: no algorithm
    d = _metal(tmp_path, helpers)
    assert "the file has no device code" in d.message and d.location.line == 1
    port, _ = metal_port("int main() { return 0; }\n")
    assert "the file has no device code" in port.diagnostics[0].message
