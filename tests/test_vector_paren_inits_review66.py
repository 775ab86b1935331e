"""A CUDA vector initialised in parentheses from one value the grammar misreads (review66a of metal66's
kernelport/vector_paren_inits.py).

`float2 s(in[i]);`, `float2 s(ONE);` (a macro of a number), `float2 s(kScale);` (a file-scope constexpr),
`float2 s(cval);` (a `__constant__`) and `float2 s(a);` in a member function (`a` a data member) all parse as
prototypes whose parameter type is that name; metal66 read such a prototype as the initialiser only where every
name was a parameter or local of the function, so these were left as written: HIP's explicit one-scalar
constructor and Metal's constructor broadcast the scalar, (v, v) where CUDA's aggregate gives (v, 0), a port
that compiled and computed something else.  Now each such name that is a value is read as the initialiser, its
type decides copy or member, and one of a type the port cannot tell is KP248."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles, require_tool
from kernelport.emulator import run_kernel
from port_support import metal_checker, ported, refusal

CUDA = """#define ONE 1.5f
constexpr float kScale = 2.0f;
struct Holder {
    float a;
    __device__ float2 get() const { float2 s(a); return s; }
};
struct Tile { float v; };
#define REAL float
__global__ void k(float* out, const float* in, const float2* vin) {
    int i = threadIdx.x;
    float2 s1(ONE);
    float2 s2(kScale);
    float2 s4(vin[i]);
    float2 s5(in[i]);
    Holder h = {in[i]};
    float2 g = h.get();
    float2 proto(Tile);
    float2 proto2(REAL);
    out[i] = s1.y + s2.y + s4.y + s5.y + g.y + s1.x + s2.x + s5.x + g.x;
}
"""


def test_misread_values_are_members_or_copies_on_both_targets(tmp_path):
    hip = ported(CUDA, to="hip", dedent=False)[1]
    for want in ("float2 s1(ONE, 0);", "float2 s2(kScale, 0);", "float2 s4(vin[i]);", "float2 s5(in[i], 0);",
                 "float2 s(a, 0);", "float2 proto(Tile);", "float2 proto2(REAL);"):
        assert want in hip, (want, hip)
    hip_compiles(tmp_path, hip)
    require_tool("clang")
    metal = ported(CUDA, to="metal", dedent=False)[1]
    for want in ("float2 s1 = float2(ONE, 0);", "float2 s2 = float2(kScale, 0);", "float2 s4 = float2(vin[i]);",
                 "float2 s5 = float2(in[i], 0);", "float2 s = float2(a, 0);", "float2 proto(Tile);"):
        assert want in metal, (want, metal)
    assert metal_checker(metal) == [], metal_checker(metal)


def test_the_metal_port_computes_cudas_zero_members_at_32():
    cuda = CUDA.replace("    float2 proto(Tile);\n    float2 proto2(REAL);\n", "")
    metal = ported(cuda, to="metal", dedent=False)[1]
    rng = np.random.default_rng(66)
    args = {"out": np.zeros(32, np.float32), "in": rng.standard_normal(32).astype(np.float32),
            "vin": rng.standard_normal(64).astype(np.float32)}
    got = run_kernel(metal, "k", args=dict(args), grid=(1,), block=(32,), backend="metal").outputs["out"]
    x = args["in"]
    want = args["vin"][1::2] + (1.5 + 2.0 + x + x)  # the .y of the scalar ones are 0
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=1e-5, atol=1e-6)


def test_a_macro_of_an_expression_is_refused_at_it():
    bad = CUDA.replace("#define ONE 1.5f", "#define ONE (in[0] > 0 ? in[0] : 1.0f)")
    errors = refusal(bad, to="hip", dedent=False, expect="KP248")
    assert any(e.code == "KP248" and e.line == 11 and e.column == 15 for e in errors), [e.format() for e in errors]


CASTS = """__device__ float2 mk(float a) { return float2(a); }
__global__ void k(float* out, const float* in, const float2* vin) {
    int i = threadIdx.x;
    float a = in[i];
    float2 u = float2(a, 1.0f) + float2(vin[i]) + float2(in[i]);
    float4 w = float4(a, a);
    float2 m = mk(a);
    out[i] = m.y + u.x + u.y + w.z + w.w + w.y;
}
"""


def test_a_functional_cast_completes_the_members_on_both_targets(tmp_path):
    # `float2(a)` is C++20's aggregate (nvcc -std=c++20: (a, 0)); both targets' constructors broadcast one scalar
    for to in ("hip", "metal"):
        text = ported(CASTS, to=to, dedent=False)[1]
        for want in ("return float2(a, 0);", "float2(in[i], 0)", "float4(a, a, 0, 0)",
                     "float2(a, 1.0f) + float2(vin[i])"):  # (look-alikes: every member, a copy)
            assert want in text, (to, want, text)
        if to == "hip":
            hip_compiles(tmp_path, text)
    rng = np.random.default_rng(7)
    args = {"out": np.zeros(32, np.float32), "in": rng.standard_normal(32).astype(np.float32),
            "vin": rng.standard_normal(64).astype(np.float32)}
    metal = ported(CASTS, to="metal", dedent=False)[1]
    got = run_kernel(metal, "k", args=dict(args), grid=(1,), block=(32,), backend="metal").outputs["out"]
    x, v = args["in"], args["vin"]
    want = 0 + (x + v[0::2] + x) + (1 + v[1::2] + 0) + 0 + 0 + x
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=1e-5, atol=1e-6)


def test_a_cast_of_one_value_of_unknown_type_is_refused():
    bad = CASTS.replace("float2(in[i])", "float2(pick(a))").replace("__global__", "__device__ float pick(float);\n"
                                                                    "__global__", 1)
    errors = refusal(bad, to="metal", dedent=False, expect="KP248")
    assert any(e.code == "KP248" and e.line == 6 and e.column == 58 for e in errors), [e.format() for e in errors]


def test_the_emulator_reads_cudas_cast_as_the_aggregate_and_hips_as_its_constructor():
    # the oracle: main's emulator broadcast `float2(a)` in the CUDA original too (a, a), as HIP's class does
    src = ("__global__ void k(float* out, const float* in) { float a = in[threadIdx.x]; float2 v = make_float2(a, 7.0f);"
           " float2 s = float2(a); float4 w = float4(a, a); float2 c = float2(v);"
           " out[threadIdx.x] = s.y + w.w * 10 + w.y * 100 + c.y * 1000; }")
    args = {"out": np.zeros(4, np.float32), "in": np.arange(1, 5, dtype=np.float32)}
    cuda = run_kernel(src, "k", args=dict(args), grid=(1,), block=(4,), backend="cuda").outputs["out"]
    np.testing.assert_array_equal(cuda, np.arange(1, 5) * 100 + 7000)
    hip = run_kernel(ported(src, to="hip", dedent=False)[1], "k", args=dict(args), grid=(1,), block=(4,),
                     backend="hip").outputs["out"]
    np.testing.assert_array_equal(hip, cuda)
    # look-alike: HIP source's own one-scalar constructor broadcasts
    own = src.replace(" float4 w = float4(a, a);", " float4 w = make_float4(0, a, 0, 0);")
    got = run_kernel(own, "k", args=dict(args), grid=(1,), block=(4,), backend="hip").outputs["out"]
    np.testing.assert_array_equal(got, np.arange(1, 5) * 101 + 7000)


def test_the_portable_port_completes_too_and_a_number_macro_is_a_scalar():
    # the portable text runs as HIP on AMD (HIP_vector_type's constructor broadcasts): main left `float2(a)` there
    src = CASTS.replace("float2(in[i])", "float2(ONE)").replace("__device__", "#define ONE 1.5f\n__device__", 1)
    text = ported(src, to="portable", dedent=False)[1]
    for want in ("return float2(a, 0);", "float2(ONE, 0)", "float4(a, a, 0, 0)", "float2(vin[i])"):
        assert want in text, (want, text)
