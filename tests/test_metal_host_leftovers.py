"""Three spellings of heldout40's physics code that stopped the Metal port at the checker (KP224)
though Metal has what they mean (kernelport/backends/metal/translator.py, file_scope; the `extern` one:
hostcode.py's _host_extern since stop 49's merge with h/metal49):
- a kernel's `static const float g = -98.0665;` (a sweep-and-prune step's gravity,
  Course_GPGPU_FinalProject's mySAP.cu): MSL keeps a static local in the constant space only;
- a header's host state, `extern size_t particleCount;` that no device code reads, a kernel's
  parameter of that name shadowing it (Cloth_CUDA's Physics.cuh): the host code's, left out as an
  uninitialised host global already is (the host-code pass kept it for the name device code spells);
- `__device__ void f(P* p, V (*b)[8]);`, a prototype the grammar reads as a `void` variable built
  from arguments (a pointer-to-array parameter): its CUDA space words go, as a prototype's do.
Each with a look-alike the port must still refuse or leave alone."""
from __future__ import annotations

from conftest import metal_checked, metal_port

STATIC_CONST = """
__global__ void fall(float* v, float dt, int n) {
    static const float g = -98.0665f;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += g * dt;
}
"""

STATIC_WRITTEN = """
__global__ void count(int* out) {
    static int calls = 0;
    calls += 1;
    out[threadIdx.x] = calls;
}
"""

HOST_EXTERN = """
struct Particle { float x, v; };
extern unsigned long particleCount;
__global__ void step(Particle* p, float dt, int particleCount) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < particleCount) p[i].x += p[i].v * dt;
}
"""

HOST_EXTERN_READ = """
extern int limit;
__global__ void clampit(int* x) { x[threadIdx.x] = min(x[threadIdx.x], limit); }
"""

VOID_PROTOTYPE = """
struct Particle { float x, v; };
struct Vector4 { float x, y, z, w; };
__device__
void bindingForces(Particle* particles, Vector4 (*bindingPositions)[8]);
__global__ void drift(Particle* p, const Vector4* w, float dt) { p[threadIdx.x].x += w[threadIdx.x].x * dt; }
"""


def test_a_static_const_local_is_a_constant_space_static():
    text = metal_checked(STATIC_CONST)
    assert "static const constant float g = -98.0665f;" in text


def test_a_written_static_local_is_still_refused():
    port, _ = metal_port(STATIC_WRITTEN)
    assert not port.ok


def test_host_state_no_device_code_reads_is_left_out():
    """(stop 49's merge: h/heldout40 and h/metal49 each left such an `extern` host variable out, in two places;
    one place is kept, hostcode's `_host_extern`, whose wording this pins)"""
    text = metal_checked(HOST_EXTERN)
    assert "/* particleCount: used by host code only, left out of the Metal port */" in text
    assert "extern unsigned long" not in text


def test_an_extern_device_code_reads_is_not_left_out():
    """Device code reading a host `extern` (which nvcc rejects) is no port: refused at the read, never a port
    that drops the variable silently."""
    port, text = metal_port(HOST_EXTERN_READ)
    assert not port.ok and any("limit" in d.format() for d in port.diagnostics), [d.format() for d in port.diagnostics]


def test_a_prototype_read_as_a_void_variable_loses_its_space_words():
    text = metal_checked(VOID_PROTOTYPE)
    assert "\\nvoid bindingForces(Particle* particles, Vector4 (*bindingPositions)[8]);" in text.replace("\n", "\\n")
