"""A bare definition takes the execution spaces its prototype names (rewrite_declared_spaces), but
prototypes are matched by name and arity: where the overloads of one arity are declared with
different spaces, none is guessed (heldout33: GpuShareSat's Assigs.cuh declares
`__device__ __host__ void printC(MultiAgg)` and `void printC(VarUpdate)`; the port made the host
`printC(VarUpdate)` definition `__host__ __device__`, and hipcc refused it: "__host__ __device__
function 'printC' cannot overload __host__ function 'printC'")."""
from __future__ import annotations


from conftest import assert_hip_file_compiles, require_tool


def _port(tmp_path, header: str, unit: str) -> str:
    from trust_support import kp_inproc
    (tmp_path / "types.h").write_text(header)
    (tmp_path / "types.cu").write_text(unit)
    out = tmp_path / "out"
    rc, _, err = kp_inproc("translate", str(tmp_path / "types.cu"), "--to", "hip", "-o", str(out))
    assert rc == 0, err
    return (out / "types.hip").read_text()


HEADER = ("#pragma once\n#include <cstdio>\nstruct A { int x; };\nstruct B { int y; };\n"
          "__device__ __host__ void show(A a);\nvoid show(B b);\n")
UNIT = ('#include "types.h"\n'
        "__device__ __host__ void show(A a) { printf(\"%d\", a.x); }\n"
        "void show(B b) { printf(\"%d\", b.y); }\n"
        "__global__ void k(A* p) { show(p[threadIdx.x]); }\n")


def test_a_host_overload_beside_a_declared_host_device_one_stays_host(tmp_path):
    text = _port(tmp_path, HEADER, UNIT)
    assert "\nvoid show(B b) {" in text, text
    require_tool("hipcc")
    assert_hip_file_compiles(tmp_path / "out" / "types.hip", ["gfx90a", "gfx1030"],
                             extra_args=("-std=c++17", f"-I{tmp_path}"))


def test_the_overloads_declared_in_two_headers_still_disagree(tmp_path):
    # the host prototype in one header, the host-device one in another: the unit's headers merged
    (tmp_path / "more.h").write_text("#pragma once\nstruct B { int y; };\nvoid show(B b);\n")
    text = _port(tmp_path, '#pragma once\n#include <cstdio>\n#include "more.h"\nstruct A { int x; };\n'
                 "__device__ __host__ void show(A a);\n",
                 UNIT)
    assert "\nvoid show(B b) {" in text, text


def test_one_declared_overload_still_gives_its_definition_the_spaces(tmp_path):
    # the look-alike: a lone host-device prototype, its bare definition takes the spaces (as before)
    text = _port(tmp_path, "#pragma once\n__device__ __host__ int mix(int a);\n",
                 '#include "types.h"\nint mix(int a) { return a + 1; }\n'
                 "__global__ void k(int* p) { p[threadIdx.x] = mix(p[0]); }\n")
    assert "__host__ __device__ int mix(int a) {" in text, text
