"""A header's constexpr `max` template beside a class's member `max()` (kernelport/target_templates.py).

h/hip63 gives a header's constexpr device template that clang's own `max` template shadows a `kp_max` copy, and
its includers' `max<int>(...)` call the copy.  A member `int max() const` declared in a class of the same header
made the header's port write no copy (any other function named `max` stopped it) while the includer still
called `kp_max`: hipcc "use of undeclared identifier 'kp_max'".  A member declared in its class is another
function only inside that class: the copy is written and the includer compiles (gfx90a and gfx1030).  Look-alike:
a namespace's own `max` in the header still stops the copy, and then the includer keeps `max<int>` too (the two
decisions agree)."""
from __future__ import annotations

from conftest import assert_hip_file_compiles
from trust_support import kp_inproc

HEADER = """#pragma once
template <typename T> __host__ __device__ constexpr T max(T a, T b) { return a > b ? a : b; }
struct Range {
    int lo, hi;
    __host__ __device__ int max() const { return hi; }
};
"""
UNIT = """#include "util.cuh"
__global__ void k(int* x, Range r)
{
    constexpr int slots = max<int>(4, 8);
    __shared__ int s[slots];
    s[threadIdx.x % slots] = r.max();
    x[threadIdx.x] = s[0] + max<int>(x[0], 1);
}
"""


def _port(tmp_path, header: str, unit: str):
    d = tmp_path / "p"
    d.mkdir()
    (d / "util.cuh").write_text(header)
    (d / "k.cu").write_text(unit)
    rc, _, err = kp_inproc("translate", d / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0, err
    return (tmp_path / "out" / "util.hip.h").read_text(), (tmp_path / "out" / "k.hip").read_text()


def test_a_member_max_beside_the_template_keeps_the_copy(tmp_path):
    header, unit = _port(tmp_path, HEADER, UNIT)
    assert "constexpr T kp_max(T a, T b)" in header and "int max() const { return hi; }" in header, header
    assert "kp_max<int>(4, 8)" in unit and "r.max()" in unit, unit
    assert_hip_file_compiles(tmp_path / "out" / "k.hip")


def test_a_namespaces_max_stops_the_copy_and_its_calls_alike(tmp_path):
    header, unit = _port(tmp_path, HEADER + "namespace ns { __device__ inline int max(int a, int b, int c) { return a; } }\n",
                         UNIT.replace("constexpr int slots = max<int>(4, 8);", "constexpr int slots = 8;"))
    assert "kp_max" not in header and "kp_max" not in unit, (header, unit)
    assert_hip_file_compiles(tmp_path / "out" / "k.hip")
