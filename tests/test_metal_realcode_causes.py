"""Causes of Metal refusals on real code (issue 11, Metal part): llm.c's dev/cuda kernels
(encoder_forward, gelu_forward, residual_forward) and what else tests/realcorpus showed, each as a
minimal CUDA snippet written for the test (no fetched file is read)."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool
from port_support import ported


def _checked(text: str) -> None:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text


def _port(code: str, tmp_path: Path):
    return ported(code, str(tmp_path / "k.cu"), "metal", dedent=False)


# llm.c common.h's Packed128: a constructor and a const method memcpy between a local and the
# struct's own member (`&payload`, through `this`: `thread` in MSL, `__generic` in the checker's
# C++ for OpenCL), so the polyfill's byte views had no overload for it (KP224 at line 1: no
# matching function for call to 'kp_bytes' / 'kp_cbytes', in the port's prologue).
PACKED = """\
struct Packed { 
  float payload[4];
  __device__ explicit Packed(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
  __device__ int4 get_bits() const { int4 bits; memcpy(&bits, &payload, sizeof(bits)); return bits; }
};
__global__ void k(const int4 *in, int4 *out) {
  Packed p(in[threadIdx.x]);
  out[threadIdx.x] = p.get_bits();
}
"""


def test_memcpy_to_and_from_a_member_through_this_passes_the_checker(tmp_path: Path):
    port, text = _port(PACKED, tmp_path)
    assert "kp_memcpy(&payload, &bits, sizeof(bits));" in port.body
    assert "kp_memcpy(&bits, &payload, sizeof(bits));" in port.body
    _checked(text)


# llm.c common.h: `using reduction_func_t = float (*) (float);` is needed by blockReduce alone, a
# helper no kernel of the file reaches (left out of the port); the alias was judged needed by
# device code all the same and kept (KP224 at common.h:27: pointers to functions are not allowed).
COMMON = """\
#pragma once
using reduction_func_t = float (*) (float);
__device__ float twice(float x) { return 2.0f * x; }
template<reduction_func_t warp_reduction>
__device__ float block_reduce(float v) { return warp_reduction(v); }
"""


def test_a_type_only_an_unreached_header_helper_needs_is_left_out(tmp_path: Path):
    (tmp_path / "common.h").write_text(COMMON)
    code = '#include "common.h"\n__global__ void k(float *o) { o[threadIdx.x] = twice(o[threadIdx.x]); }\n'
    port, text = _port(code, tmp_path)
    assert 'block_reduce(): in "common.h", reached by none' in port.body
    assert "float (*)" not in port.body and "reduction_func_t: used by" in port.body
    _checked(text)
    # a kernel that calls the helper: the function passed as its template argument is a function object
    # (re-pinned in stop 48, h/metal48: it was refused at the alias, Metal having no function pointers;
    # function_args.py now ports it, and the alias goes)
    uses = code.replace("twice(o[threadIdx.x])", "block_reduce<twice>(o[threadIdx.x])")
    port, text = _port(uses, tmp_path)
    assert port.ok and "block_reduce<kp_fn_twice>(" in port.body and "float (*)" not in port.body
    _checked(text)


# llm.c common.h's Packed128 has `operator[]`; kernels index an `x128` (a typedef of it) and name the
# operator nowhere, so it was left out as reached by no device code (KP224: type 'thread x128' does
# not provide a subscript operator).  Look-alike: an operator of a type no kernel uses still goes.
PACKED_H = """\
#pragma once
template<class T> struct Pack {
  T v[4];
  __device__ T& operator[](int i) { return v[i]; }
  __device__ const T& operator[](int i) const { return v[i]; }
};
typedef Pack<float> f4;
struct Unused { float u; __device__ float operator()(float x) const { return x * u; } };
__device__ Unused operator+(Unused a, Unused b) { return Unused{a.u + b.u}; }
"""


def test_an_operator_is_reached_with_its_class_through_a_typedef(tmp_path: Path):
    (tmp_path / "pack.h").write_text(PACKED_H)
    code = ('#include "pack.h"\n__global__ void k(float *o) {\n  f4 p;\n'
            '  for (int i = 0; i < 4; ++i) p[i] = o[4 * threadIdx.x + i];\n  o[threadIdx.x] = p[0] + p[3];\n}\n')
    port, text = _port(code, tmp_path)
    assert port.body.count("operator[](int i)") == 2
    assert "Unused: used by host code only" in port.body  # with its member operator()
    assert "operator+(): in \"pack.h\", reached by none" in port.body
    _checked(text)


# llm.c gelu_forward: `#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)`: math.h's M_PI, a double, is no
# name in Metal (KP224 use of undeclared identifier 'M_PI'); <metal_stdlib> has the float M_PI_F.
def test_a_c_math_constant_is_metals_float_constant(tmp_path: Path):
    code = ("#include <math.h>\n#define SCALE sqrtf(2.0f / M_PI)\n"
            "__global__ void k(float *o) { o[threadIdx.x] = SCALE * o[threadIdx.x] + (float)M_SQRT1_2; }\n")
    port, text = _port(code, tmp_path)
    assert "#define M_PI M_PI_F\n" in text and "#define M_SQRT1_2 M_SQRT1_2_F\n" in text
    assert "M_E " not in text  # only what the port names
    _checked(text)
    # a file that defines the constant itself keeps its own
    own = "#define M_PI 3.14159265f\n" + code
    port, text = _port(own, tmp_path)
    assert "#define M_PI M_PI_F" not in text and "#define M_SQRT1_2 M_SQRT1_2_F\n" in text
    _checked(text)



# BEVFusion's and CenterPoint's voxelization `atomicCAS(hash_table + slot, UINT32_MAX, key)`: <stdint.h>'s
# limits are no names in Metal (KP224 use of undeclared identifier 'UINT32_MAX'); MSL has UINT_MAX and kin.
def test_a_stdint_limit_is_msls_limit_of_the_same_type(tmp_path: Path):
    code = ("#include <stdint.h>\n__global__ void k(unsigned int *o, int *s, long long *l) {\n"
            "  o[threadIdx.x] = UINT32_MAX - o[threadIdx.x]; s[0] = INT32_MIN; l[0] = INT64_MAX; o[1] = UINT16_MAX;\n}\n")
    port, text = _port(code, tmp_path)
    for c, m in (("UINT32_MAX", "UINT_MAX"), ("INT32_MIN", "INT_MIN"), ("INT64_MAX", "LONG_MAX"),
                 ("UINT16_MAX", "USHRT_MAX")):
        assert f"#define {c} {m}\n" in text
    assert "#define UINT8_MAX" not in text  # only what the port names
    _checked(text)

# llm.c matmul_forward's ld_vec/st_vec, RadixSort's uint4 loads: `reinterpret_cast<const float4*>(p)`
# kept an unqualified pointer type, which is `thread` in Metal: a cast from device or threadgroup
# memory that Metal rejects (the checker's clang read it as __generic and let it pass, unless a
# local pointer's space made it an error).  A named cast now takes its operand's space, as a C cast does.
CASTS = """\
__device__ float4 ld_vec(const float* address) { return *reinterpret_cast<const float4*>(address); }
__device__ void st_vec(float* address, float4 val) { *reinterpret_cast<float4*>(address) = val; }
__global__ void k(const float *in, float *out) {
  __shared__ float s[64];
  st_vec(s + 4 * threadIdx.x, ld_vec(in + 4 * threadIdx.x));
  __syncthreads();
  const uint2* q = reinterpret_cast<const uint2*>(in);
  float loc[4] = {0.0f, 1.0f, 2.0f, 3.0f};
  float4 w = *reinterpret_cast<float4*>(loc);
  int bits = static_cast<int>(w.x);
  st_vec(out + 4 * threadIdx.x, ld_vec(s + 4 * threadIdx.x) + w + (float)q[0].x + (float)bits);
}
"""


def test_a_named_pointer_cast_takes_its_operands_address_space(tmp_path: Path):
    port, text = _port(CASTS, tmp_path)
    for cast in ("reinterpret_cast<const device float4*>(address)", "reinterpret_cast<const threadgroup float4*>(address)",
                 "reinterpret_cast<device float4*>(address)", "reinterpret_cast<threadgroup float4*>(address)",
                 "const device uint2* q = reinterpret_cast<const device uint2*>(in);",
                 "reinterpret_cast<thread float4*>(loc)", "static_cast<int>(w.x)"):
        assert cast in port.body, cast
    _checked(text)


# hecbench threadcpy: the kernel is launched from a host template (`threads_copy_kernel<scalar_t,
# vec_size><<<...>>>` in `template <int vec_size, typename scalar_t> void test_threads_copy(...)`)
# that main calls with explicit arguments (`test_threads_copy<4, int>(n, r)`): KP216 template kernel
# has no instantiation.  Each explicit call now gives the kernel an instance; a call that deduces
# the host template's arguments from arguments of unknown type gives none (still KP216, located).
HOST_TEMPLATE = """\
struct Pix { unsigned char r, g, b, a; };
template <typename T, int V>
__global__ void copy_kernel(const T *in, T *out, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * V;
  for (int j = 0; j < V; ++j) if (i + j < n) out[i + j] = in[i + j];
}
template <int V, typename T>
void run(const T *in, T *out, int n) { copy_kernel<T, V><<<(n + 255) / 256, 256>>>(in, out, n); }
template <typename T>
void run_all(const T *in, T *out, int n) { run<1, T>(in, out, n); run<4, T>(in, out, n); }
int main() {
  float *a = 0, *b = 0; int *c = 0, *d = 0; Pix *e = 0, *f = 0;
  run_all<float>(a, b, 1024);
  run<2, int>(c, d, 1024);
  run<1, Pix>(e, f, 1024);
  return 0;
}
"""


def test_a_kernel_launched_from_a_host_template_is_instantiated_per_explicit_call(tmp_path: Path):
    port, text = _port(HOST_TEMPLATE, tmp_path)
    for host, args in (("copy_kernel_float_1", "float, 1"), ("copy_kernel_float_4", "float, 4"),
                       ("copy_kernel_int_2", "int, 2"), ("copy_kernel_Pix_1", "Pix, 1")):
        assert f'template [[host_name("{host}")]] kernel void copy_kernel<{args}>(' in port.body
    assert port.body.count("[[host_name(") == 4
    assert "struct Pix { unsigned char r, g, b, a; };" in port.body  # named by host code alone: an instance needs it
    _checked(text)
    # run_all's argument deduced from its call's arguments: from their declared types (`float *a`)
    # since h/metal37 (tests/test_metal_deduced_instances.py); from an argument of unknown type, no
    # instance is known
    deduced = HOST_TEMPLATE.replace("run_all<float>(a, b, 1024);", "run_all(a, b, 1024);").replace(
        "run<2, int>(c, d, 1024);", "").replace("run<1, Pix>(e, f, 1024);", "")
    port, _ = _port(deduced, tmp_path)
    assert port.body.count("[[host_name(") == 2 and "kernel void copy_kernel<float, 4>(" in port.body
    unknown = deduced.replace("run_all(a, b, 1024);", "run_all(input(), b, 1024);")
    port, _ = translate(SourceFile.from_text(unknown, str(tmp_path / "k.cu")), "metal")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP216", 3)]
    # cusp's `spmv_kernel<..., VECTORS_PER_BLOCK, V>` where VECTORS_PER_BLOCK is a local of the host
    # template: no instance is known (the name means nothing at file scope)
    local = HOST_TEMPLATE.replace("{ copy_kernel<T, V><<<", "{ const int W = 2 * V; copy_kernel<T, W><<<")
    port, _ = translate(SourceFile.from_text(local, str(tmp_path / "k.cu")), "metal")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP216", 3)]


# cuda-gemm-optimization (held-out): `template void launch_gemm_kernel_v00<float>(...);`, an explicit
# instance of the host template that launches `gemm_v00<T>`, is where the kernel's instance comes from
def test_an_explicit_instance_of_the_host_template_instantiates_the_kernel(tmp_path: Path):
    code = ("template <typename T>\n__global__ void scale(T *x, T a, int n) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] = a * x[i];\n}\n"
            "template <typename T>\nvoid launch(T *x, T a, int n) { scale<T><<<(n + 255) / 256, 256>>>(x, a, n); }\n"
            "template void launch<float>(float *x, float a, int n);\n"
            "template void launch<int>(int *x, int a, int n);\n")
    port, text = _port(code, tmp_path)
    assert 'template [[host_name("scale_float")]] kernel void scale<float>(' in port.body
    assert 'template [[host_name("scale_int")]] kernel void scale<int>(' in port.body
    _checked(text)
