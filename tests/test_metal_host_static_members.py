"""A static data member no device function names (`static unsigned nextUUID;` of CudaSynth's
ParameterStates on the fifty-sixth held-out set, bumped by its host constructor; the cases here are
synthetic) is left out of the Metal port, which the checker refused on main (KP224: program-scope
variables must be in the constant address space).  One a device function names stays, and so stays
refused, located; a `static const` member stays as written (kernelport/backends/metal/host_static_members.py)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate
from conftest import require_tool

HOST_ONLY = """\
struct Params {
    static unsigned nextId;
    static const int width = 4;
    unsigned id;
    float gain;
    Params() { id = nextId++; }
};
unsigned Params::nextId(0);
__global__ void k(Params *p, float *out) {
    out[threadIdx.x] = p->gain * Params::width;
}
"""
DEVICE_USE = HOST_ONLY.replace("p->gain * Params::width", "p->gain * Params::nextId")


def metal(code: str):
    port, _ = translate(SourceFile.from_text(code, "t.cu"), "metal")
    return port


def test_a_static_member_only_host_code_names_is_left_out_of_the_port():
    require_tool("clang")  # fails in CI where the toolchain is missing (a skip hid it)
    port = metal(HOST_ONLY)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "/* static unsigned nextId; used by host code only, left out of the Metal port */" in port.body
    assert "static const constant int width = 4;" in port.body  # a constant, as main wrote it


def test_a_static_member_device_code_names_stays_and_is_refused_located():
    require_tool("clang")  # fails in CI where the toolchain is missing (a skip hid it)
    port = metal(DEVICE_USE)
    assert not port.ok
    assert "static unsigned nextId;" in port.body and "left out" not in port.body.split("nextId;")[0][-60:]
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP224", 2)], \
        [d.format() for d in port.diagnostics]
