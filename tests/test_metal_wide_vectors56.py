"""CUDA's 64-bit vector types in a Metal port (g2flip's flip4.cu `ulonglong2`, cuda-lbvh's vec_math.h
`longlong2` helpers, stops 55/57's held-out sets): MSL 2.2 has them as `longn`/`ulongn` (16 bytes for 2,
32 for 3 and 4: CUDA's longlong2/4 have the same size and lanes), so `longlong2` is written `long2`,
`make_ulonglong4(...)` is `ulong4(...)`, and `make_long2` is Metal's `long2(...)` (main refused all of
them, KP223).  A buffer of 3-component 64-bit vectors is CUDA's 24 bytes an element: `packed_long3`
(MSL 2.2.3, Metal 2.3); MSL has no unsigned packed form, so a buffer of ulonglong3 is refused at its
type.  A 1-component vector (longlong1) has no Metal form: refused as before (kernelport/dialect.py
RESPELLED_VECTORS, backends/metal VECTOR_BASES)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port
from port_support import refusal

WIDE = """\
    __global__ void k(const longlong2* a, ulonglong4* b, long long* c, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        longlong2 v = a[i];
        ulonglong4 w = make_ulonglong4(v.x, v.y, 3, (unsigned long long)c[i]);
        w.x += 1;
        b[i] = w;
        long2 q = make_long2(v.x, v.y);
        ulong3 u = make_ulong3(1, 2, 3);
        c[i] = q.x + q.y + v.x * v.y + (long long)u.z;
    }
    """


def errors(code: str):
    return [(d.code, d.location.line, d.location.column) for d in refusal(code, to="metal")]


def test_cudas_64_bit_vectors_and_their_makers_are_metals_long_vectors():
    text = metal_checked(WIDE)
    assert "kernel void k(const device long2* a [[buffer(0)]], device ulong4* b [[buffer(1)]]" in text, text
    assert "long2 v = a[i];" in text
    assert "ulong4 w = ulong4(v.x, v.y, 3, (ulong)c[i]);" in text
    assert "long2 q = long2(v.x, v.y);" in text and "ulong3 u = ulong3(1, 2, 3);" in text
    assert "longlong" not in text.split("using namespace metal;", 1)[1]


VEC_MATH = """\
    inline __host__ __device__ longlong2 make_longlong2(const long long s) { return make_longlong2(s, s); }
    inline __host__ __device__ longlong2 operator+(const longlong2& a, const longlong2& b) {
        return make_longlong2(a.x + b.x, a.y + b.y);
    }
    __global__ void add(longlong2* out, const longlong2* in, long long s) {
        int i = threadIdx.x;
        out[i] = in[i] + make_longlong2(s);
    }
    """


def test_a_projects_own_longlong2_helpers_beside_metals_vectors():
    """vec_math.h's shapes: an overload of make_longlong2 keeps its name (CUDA's own is the prologue's
    constructor of long2); an operator+ whose body is component-wise is left out (Metal's is built in)."""
    body = metal_checked(VEC_MATH).split("using namespace metal;", 1)[1]
    assert "inline long2 make_longlong2(long x, long y) { return long2(x, y); }" in body, body
    assert "long2 make_longlong2(const long s) { return make_longlong2(s, s); }" in body
    assert "// operator+(longlong2, longlong2): Metal's vector types define it (component-wise), left out" in body
    assert "long2 operator+" not in body
    assert "out[i] = in[i] + make_longlong2(s);" in body


THREE = """\
    __global__ void k3(longlong3* a, long3* b, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) a[i].x += b[i].y;
    }
    """


def test_a_buffer_of_3_component_64_bit_vectors_is_packed_at_cudas_24_bytes():
    text = metal_checked(THREE)
    assert "kernel void k3(device packed_long3* a [[buffer(0)]], device packed_long3* b [[buffer(1)]]" in text, text
    assert "// Metal Shading Language 2.3 or later (packed_long vectors (2.3))." in text


def test_look_alike_a_float3_buffer_is_packed_as_before_at_metal_2_0():
    text = metal_checked(THREE.replace("longlong3", "float3").replace("long3", "int3"))
    assert "device packed_float3* a [[buffer(0)]], device packed_int3* b [[buffer(1)]]" in text
    assert "// Metal Shading Language 2.0 or later." in text


def test_a_buffer_of_ulonglong3_has_no_metal_layout_and_is_refused_at_its_type():
    code = """\
        __global__ void k(ulonglong3* a, int n) {
            int i = threadIdx.x;
            if (i < n) a[i].x += 1;
        }
        """
    assert errors(code) == [("KP223", 1, 19)]
    port, _ = metal_port(code)
    msg = next(d.message for d in port.diagnostics if d.code == "KP223")
    assert "ulonglong3" in msg and "packed_ulong3" in msg and "24" in msg


def test_a_one_component_64_bit_vector_stays_refused():
    code = """\
        __global__ void k(longlong1* a) { a[threadIdx.x].x += 1; }
        """
    assert [e[0] for e in errors(code)] == ["KP223"]
