"""A class whose virtual members serve host subclasses, and which device code names only as the scope
of its nested types (`Lens::Ray* rays` in a kernel: held-out set 70's AlloVolume lens.cu; the cases here
are synthetic): its virtual member declarations are left out of the Metal port, which the checker
refused on main (KP224: virtual functions are not supported).  A kernel that takes a pointer to the
class itself keeps them, and stays refused, located (kernelport/backends/metal/host_virtuals.py; since stop 65
KP254 at the pointer: device_virtuals.py)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

SCOPE_ONLY = """\
class Lens {
public:
    struct Ray { float o, d; };
    virtual void getRays(Ray* rays, int n) = 0;
    virtual ~Lens() {}
};
__global__ void rays_kernel(Lens::Ray* rays, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { rays[i].o = 0.f; rays[i].d = 1.f; }
}
class Pinhole : public Lens {
public:
    void getRays(Ray* rays, int n) override { rays_kernel<<<(n + 31) / 32, 32>>>(rays, n); }
};
"""
OBJECT_USE = SCOPE_ONLY.replace("(Lens::Ray* rays, int n) {", "(Lens::Ray* rays, int n, const Lens* owner) {") \
    .replace("(rays, n); }", "(rays, n, this); }")


def metal(code: str):
    return translate(SourceFile.from_text(code, "t.cu"), "metal")


def test_virtual_members_of_a_class_device_code_names_only_as_a_scope_are_left_out():
    require_tool("clang")
    port, text = metal(SCOPE_ONLY)  # main: KP224, virtual functions are not supported
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "/* virtual void getRays(Ray* rays, int n) = 0; a virtual member of Lens, which device code names " \
           "only as a scope: left out of the Metal port (MSL has no virtual functions) */" in text
    assert "struct Ray { float o, d; };" in text and "device Lens::Ray* rays [[buffer(0)]]" in text


def test_a_class_a_kernel_points_at_keeps_its_virtual_members_and_stays_refused_located():
    require_tool("clang")
    port, _ = metal(OBJECT_USE)
    assert not port.ok
    errors = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    # stop 65: refused at the pointer to the class (KP254, device_virtuals.py), where main's checker refused the
    # virtual declaration (KP224 at line 4)
    assert errors and all(code == "KP254" and line == 7 for code, line in errors), errors
