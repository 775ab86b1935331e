"""Causes of Metal refusals of the seventy-seventh held-out set (bench/heldout77.toml, game and
interactive physics), each as a minimal CUDA snippet written here (no fetched file is read)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

# A particle solver's constraint unit: its kernels live in another file, this one holds the constraints'
# `__device__` members, which take the solver's `struct Args { float *x, *dx; ... }` by value (filled by
# the host, passed by the kernels). No kernel of the file takes Args, so its pointer members stayed
# unqualified (generic), and passing `a.x` to a helper's `device float*` parameter was KP224 ("cannot pass
# pointer to address space '__generic' as a pointer to address space 'device'"). A struct that helpers
# only receive (no device code declares, builds or names one) holds device addresses: `device float* x`.
RECEIVED = """\
struct Args { float* x; float* dx; float k; };
__device__ float gap(float* x, int i) { return x[i] - 1.0f; }
struct Con {
    int p;
    __device__ void solve(Args a);
};
__device__ void Con::solve(Args a) {
    float c = gap(a.x, p);
    atomicAdd(a.dx + p, -c * a.k);
}
__device__ float first(Args a) { return a.x[0]; }
"""


def _metal(code: str, tmp_path, name: str):
    return translate(SourceFile.from_text(code, str(tmp_path / name)), "metal")


def test_a_struct_helpers_only_receive_has_device_pointer_members(tmp_path):
    port, text = _metal(RECEIVED, tmp_path, "con.cu")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "device float* x;" in text and "device float* dx;" in text, text
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    assert [str(d) for d in check_metal_source(text, "t.metal")] == []


def test_a_struct_device_code_builds_keeps_its_members(tmp_path):
    # look-alike: a helper builds an Args over its own (thread) array, so its pointers are no device addresses
    built = RECEIVED + "__device__ float local_first() { float t[2] = {1.0f, 2.0f}; Args b; b.x = t; return first(b); }\n"
    port, text = _metal(built, tmp_path, "built.cu")
    assert "device float* x;" not in text
    assert not port.ok and any(d.code == "KP224" and d.location.line for d in port.diagnostics)
