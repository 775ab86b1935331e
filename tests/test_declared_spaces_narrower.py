"""A definition that names fewer execution spaces than its declaration takes the declared ones
(rewrite_declared_spaces): a header declares `__device__ __host__ double cp(double t);` and the
unit defines `__host__ double cp(double t) {...}` (heldout76: THOR's ultrahot_thermo.h / .cu).  nvcc
treats the definition as `__host__ __device__` (a kernel may call it), clang reads a host function
overloading the declared one and refuses it ("__host__ function 'cp' cannot overload __host__
__device__ function 'cp'").  A definition with a space its declaration lacks, or overloads of one
arity declared with different spaces, are left as written (no space is guessed)."""
from __future__ import annotations

from conftest import assert_hip_file_compiles, require_tool


def _port(tmp_path, header: str, unit: str) -> str:
    from trust_support import kp_inproc
    (tmp_path / "thermo.h").write_text(header)
    (tmp_path / "thermo.cu").write_text(unit)
    out = tmp_path / "out"
    rc, _, err = kp_inproc("translate", str(tmp_path / "thermo.cu"), "--to", "hip", "-o", str(out))
    assert rc == 0, err
    return (out / "thermo.hip").read_text()


def test_a_host_definition_of_a_host_device_declaration_says_both(tmp_path):
    text = _port(tmp_path, "#pragma once\n__device__ __host__ double cp(double t);\n",
                 '#include "thermo.h"\n__host__ double cp(double t) { return 1.5 * t; }\n'
                 "__global__ void k(double* p) { p[threadIdx.x] = cp(p[threadIdx.x]); }\n")
    assert "__device__ __host__ double cp(double t) {" in text, text
    require_tool("hipcc")
    assert_hip_file_compiles(tmp_path / "out" / "thermo.hip", ["gfx90a", "gfx1030"],
                             extra_args=("-std=c++17", f"-I{tmp_path}"))


def test_a_definition_of_another_space_is_left_as_written(tmp_path):
    # the look-alike: declared device-only, defined host-only (no subset): nothing is guessed
    text = _port(tmp_path, "#pragma once\n__device__ double cp(double t);\n",
                 '#include "thermo.h"\n__host__ double cp(double t) { return 1.5 * t; }\n')
    assert "\n__host__ double cp(double t) {" in text, text


def test_overloads_declared_with_different_spaces_are_left_as_written(tmp_path):
    # one arity, two overloads, two declared spaces: the host overload's definition stays host
    text = _port(tmp_path, "#pragma once\nstruct A { int x; };\nstruct B { int y; };\n"
                 "__device__ __host__ int cp(A a);\n__host__ int cp(B b);\n",
                 '#include "thermo.h"\n__host__ int cp(B b) { return b.y; }\n'
                 "__device__ __host__ int cp(A a) { return a.x; }\n")
    assert "\n__host__ int cp(B b) {" in text, text


def test_spaces_through_a_macro_and_a_prototype_in_the_unit(tmp_path):
    # the declaration's spaces spelt by a project macro, and a prototype in the unit itself
    text = _port(tmp_path, "#pragma once\n#define HD __host__ __device__\nHD float mix(float a);\n",
                 '#include "thermo.h"\n__host__ float mix(float a) { return a + 1.0f; }\n'
                 "__device__ __host__ int twice(int a);\n__host__ int twice(int a) { return 2 * a; }\n"
                 "__global__ void k(float* p, int* q) { p[0] = mix(p[0]); q[0] = twice(q[0]); }\n")
    assert "__device__ __host__ float mix(float a) {" in text, text
    assert "__device__ __host__ int twice(int a) {" in text, text


def test_metal_ports_a_kernel_calling_a_host_definition_declared_host_device():
    # the model gives the definition the declared spaces too: nvcc compiles the call, so Metal ports it
    from conftest import metal_checked
    text = metal_checked("""
        __device__ __host__ float cp(float t);
        __host__ float cp(float t) { return 1.5f * t; }
        __global__ void k(float* p) { p[threadIdx.x] = cp(p[threadIdx.x]); }
    """)
    assert "float cp(float t) { return 1.5f * t; }" in text, text


def test_metal_still_refuses_a_call_of_a_host_only_function():
    # the look-alike: declared and defined host-only, a kernel's call of it is refused (nvcc rejects it too)
    from conftest import metal_port
    port, _ = metal_port("""
        __host__ float cp(float t);
        __host__ float cp(float t) { return 1.5f * t; }
        __global__ void k(float* p) { p[threadIdx.x] = cp(p[threadIdx.x]); }
    """)
    assert not port.ok and any(d.code == "KP223" for d in port.diagnostics), [d.format() for d in port.diagnostics]


def test_a_host_overload_of_another_type_is_not_widened_to_a_lone_host_device_prototype(tmp_path):
    # review60: the declaration `__host__ __device__ float cp(float t)` and a host definition of another
    # parameter type, same name and arity (an overload nvcc keeps on the host): its host-only body must
    # not become __host__ __device__ (clang compiles an HD body for the device too and refuses fopen)
    text = _port(tmp_path, "#pragma once\n__host__ __device__ float cp(float t);\n",
                 '#include "thermo.h"\n#include <cstdio>\n'
                 "__host__ __device__ float cp(float t) { return 1.5f * t; }\n"
                 "__host__ int cp(const char* name) { FILE* f = fopen(name, \"r\"); return f != 0; }\n"
                 "int cp(long n) { FILE* f = fopen(\"x\", \"r\"); return f != 0 && n; }\n")
    assert "\n__host__ int cp(const char* name) {" in text, text
    assert "\nint cp(long n) {" in text, text
    require_tool("hipcc")
    assert_hip_file_compiles(tmp_path / "out" / "thermo.hip", ["gfx90a", "gfx1030"],
                             extra_args=("-std=c++17", f"-I{tmp_path}"))


def test_the_same_parameter_types_spelt_with_other_names_and_top_level_const_still_match(tmp_path):
    # the look-alike of the above: one function, its definition's parameters named otherwise and const
    text = _port(tmp_path, "#pragma once\n__host__ __device__ float cp(float t, const int* p);\n",
                 '#include "thermo.h"\n__host__ float cp(const float x, const int * q) { return x * q[0]; }\n')
    assert "__device__ __host__ float cp(const float x, const int * q) {" in text, text


def test_metal_refuses_a_kernels_call_of_a_host_overload_beside_a_host_device_prototype():
    # review60: the model gave `cp(int*)` the spaces of `cp(float)` (name and arity alone) and Metal ported the
    # kernel's call of a host function (nvcc rejects it); a declaration of its own types is needed
    from conftest import metal_port
    port, _ = metal_port("""
        __device__ __host__ float cp(float t);
        __host__ float cp(int* t) { return 1.5f * t[0]; }
        __global__ void k(int* p, float* o) { o[threadIdx.x] = cp(p); }
    """)
    assert not port.ok and any(d.code == "KP223" for d in port.diagnostics), [d.format() for d in port.diagnostics]
