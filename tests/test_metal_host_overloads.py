"""A name with a device definition and a host-only overload (heldout55: sliding-puzzle's idas_*.cu define
`__device__ state_move(Direction)` and the host's `state_move(State, Direction)`, whose `elog(...)` is
`fprintf(stderr, ...)`): device code can call only the device one, so what the host overload uses is not
what device code needs (kernelport/model.device_references).  Before: KP223 at `fprintf` in `elog`, and
the Metal port refused.  Look-alike: a `__host__ __device__` overload is device code's too, so its
`fprintf` stays KP223; a name defined by the host alone keeps its definition's needs."""
from __future__ import annotations

from kernelport.model import build, device_references
from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked
except ImportError:  # pragma: no cover
    from conftest import metal_checked

CODE = """#include <stdio.h>
#define elog(...) fprintf(stderr, __VA_ARGS__)

__device__ static int step(int d) { return d + 1; }

{quals}int step(int *state, int d) {
    if (d < 0) elog("bad direction %d\\n", d);
    return state[d] + 1;
}

__global__ void k(int *out) {
    out[threadIdx.x] = step((int)threadIdx.x);
}
"""


def test_the_host_overload_is_left_out_and_the_port_written():
    out = metal_checked(CODE.replace("{quals}", ""))
    assert "static int step(int d) { return d + 1; }" in out
    assert "fprintf" not in out and "state[d]" not in out


def test_a_host_device_overload_is_device_code_and_stays_kp223():
    port, _ = translate(SourceFile.from_text(CODE.replace("{quals}", "__host__ __device__ "), "a.cu"), "metal")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP223", 2)], \
        [d.format() for d in port.diagnostics]


def test_a_name_only_the_host_defines_keeps_its_needs():
    src = "#define LIMIT 4\nint only_host(int d) { return d < LIMIT; }\n__device__ int f(int d) { return only_host(d); }\n"
    needed = device_references(build(SourceFile.from_text(src, "b.cu")))
    assert {"only_host", "LIMIT"} <= needed
