"""A shared array's address in a local braced initializer (kernelport/lds_address_lists.py; heldout96: a quantised
GEMM test's double buffer `int8_t (*buf[2])[CK] = { sWA, sWB };` stopped hipcc with "error in backend: Unsupported
expression in static initializer: addrspacecast"): the HIP port passes each such element through the prologue's
identity `kp_lds_address`, so clang stores the elements as the declaration runs; the port compiles for gfx90a and
gfx1030.  A value read from a shared array, a `static` list, host code and a list of plain pointers are left as
written; the CUDA original is not changed for other backends (no spelling: Metal)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

KERNEL = """\
__global__ void k(int* out, const int* src, int s) {
    __shared__ int a[4][8], b[4][8];
    __shared__ float f[32];
    int (*p[2])[8] = { a, b };
    int* q[2] = { &a[1][0], b[2] };
    int v[2] = { a[0][1], b[0][2] };
    const int* plain[2] = { src, src + 8 };
    float* g[1] = { f };
    p[s & 1][threadIdx.x & 3][threadIdx.x & 7] = 1;
    __syncthreads();
    out[threadIdx.x] = a[0][threadIdx.x & 7] + b[1][0] + *q[s & 1] + v[s & 1] + (int)g[0][1] + *plain[s & 1];
}
"""


def _port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(code, "t.cu"), backend)


def test_shared_addresses_in_local_lists_pass_through_the_identity_and_compile(tmp_path):
    from test_header_uses import _hipcc
    port, whole = _port(KERNEL)
    assert port.ok, [d.format() for d in port.diagnostics]
    lines = port.body.splitlines()
    assert lines[3].strip() == "int (*p[2])[8] = { kp_lds_address(a), kp_lds_address(b) };", lines[3]
    assert lines[4].strip() == "int* q[2] = { kp_lds_address(&a[1][0]), kp_lds_address(b[2]) };", lines[4]
    assert lines[5].strip() == "int v[2] = { a[0][1], b[0][2] };", lines[5]  # values, not addresses
    assert lines[6].strip() == "const int* plain[2] = { src, src + 8 };", lines[6]
    assert lines[7].strip() == "float* g[1] = { kp_lds_address(f) };", lines[7]
    assert "template <class T> __device__ inline T kp_lds_address(T p) { return p; }" in whole
    r = _hipcc(tmp_path, whole)
    assert r.returncode == 0, r.stderr[-3000:]


def test_the_original_as_written_stops_hipcc_where_the_port_did_not(tmp_path):
    """The look-alike the pass exists for: the same list without the identity is the backend error."""
    from test_header_uses import _hipcc
    _, whole = _port(KERNEL)
    r = _hipcc(tmp_path, whole.replace("kp_lds_address(a)", "a").replace("kp_lds_address(b)", "b"))
    assert r.returncode != 0 and "static initializer" in r.stderr, r.stderr[-2000:]


def test_no_list_without_a_shared_address_and_no_other_backend_is_touched():
    code = KERNEL.replace("__shared__ int a[4][8], b[4][8];", "int a[4][8], b[4][8];").replace(
        "__shared__ float f[32];", "float f[32];")
    _, whole = _port(code)
    assert "kp_lds_address" not in whole
    port, metal = _port(KERNEL, "metal")
    assert "kp_lds_address" not in metal
