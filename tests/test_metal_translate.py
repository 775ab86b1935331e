"""`kernelport translate --to metal`: goldens, the Metal checker on every port, one test per rewrite.

The committed `examples/<name>.metal` and `examples/<name>.metal.json` are the goldens;
regenerate them after an intended change with `kernelport translate examples/*.cu --to metal`.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import metal_checked
from kernelport import output
from kernelport.source import SourceFile
from kernelport.translate import destination, port_file, translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))
NAMES = [p.stem for p in EXAMPLES]


def metal(code: str, **kw):
    src = SourceFile.from_text(textwrap.dedent(code), "t.cu")
    return translate(src, "metal", **kw)


def body(code: str, **kw) -> str:
    port, _ = metal(code, **kw)
    assert port.ok, [d.format() for d in port.diagnostics]
    return port.body


def check(text: str, name: str = "t.metal") -> list[str]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    return [str(d) for d in check_metal_source(text, name)]


def assert_checks(code: str, **kw) -> str:
    port, text = metal(code, **kw)
    assert port.ok, [d.format() for d in port.diagnostics]
    diags = check(text)
    assert diags == [], "\n".join(diags) + "\n" + text
    return port.body


# ---------------------------------------------------------------------------------------------
# goldens and the checker on every example
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", EXAMPLES, ids=NAMES)
def test_metal_golden(path):
    dest = destination(path, "metal")
    port, text = port_file(SourceFile.read(path), "metal", dest.parent)
    assert port.ok, [d.format() for d in port.diagnostics]
    hint = "run kernelport translate examples/*.cu --to metal"
    assert dest.exists() and text == dest.read_text(), f"stale or missing golden {dest.name}: {hint}"
    side = dest.with_name(dest.name + ".json")
    assert side.exists() and port.extra_files[".json"] == side.read_text(), f"stale sidecar {side.name}: {hint}"
    assert output.state(side.read_text()) == "intact"


@pytest.mark.parametrize("path", EXAMPLES, ids=NAMES)
def test_metal_port_passes_the_checker(path):
    dest = destination(path, "metal")
    diags = check(dest.read_text(), str(dest))
    assert diags == [], "\n".join(diags)


def test_template_port_is_checked_per_instantiation():
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_file
    assert check_metal_file(ROOT / "examples" / "template_reduce.metal") == []


@pytest.mark.parametrize("path", EXAMPLES, ids=NAMES)
def test_sidecar_describes_every_argument_and_the_dispatch(path):
    side = json.loads(destination(path, "metal").with_name(path.stem + ".metal.json").read_text())
    src = SourceFile.read(path)
    from kernelport.model import build
    kernels = [f for f in build(src).functions.values() if f.is_kernel]
    assert {k["name"] for k in side["kernels"]} == {k.name for k in kernels}
    for entry in side["kernels"]:
        k = next(f for f in kernels if f.name == entry["name"])
        buffers = [a for a in entry["arguments"] if a["kind"] in ("buffer", "bytes")]
        assert [a["name"] for a in buffers] == [p.name for p in k.params]
        assert [a["index"] for a in buffers] == list(range(len(k.params)))
        for a in buffers:
            assert a["kind"] == ("buffer" if k.param(a["name"]).pointer else "bytes")
            assert a["bytes_value"] > 0
        d = entry["dispatch"]
        assert d["method"].startswith("dispatchThreadgroups")
        assert all(v >= 1 for v in d["threadgroups_per_grid_value"] + d["threads_per_threadgroup_value"])


def test_sidecar_of_the_dynamic_shared_example_gives_the_threadgroup_length():
    side = json.loads((ROOT / "examples" / "dynamic_shared.metal.json").read_text())
    tg = [a for a in side["kernels"][0]["arguments"] if a["kind"] == "threadgroup"]
    assert tg == [{"name": "smem", "index": 0, "kind": "threadgroup", "type": "float",
                   "bytes": "round_up(256 * sizeof(float), 16)", "bytes_value": 1024,
                   "host": "setThreadgroupMemoryLength:atIndex:0"}]


def test_sidecar_names_each_template_instantiation():
    side = json.loads((ROOT / "examples" / "template_reduce.metal.json").read_text())
    assert [(k["name"], k["host_name"], k["template_args"]) for k in side["kernels"]] == \
        [("template_reduce", "template_reduce_256", ["256"])]


def test_files_without_annotations_get_a_sidecar_with_what_is_known():
    port, _ = metal("__global__ void k(float* x, int n) { x[threadIdx.x] = n; }")
    side = json.loads(port.extra_files[".json"])
    args = side["kernels"][0]["arguments"]
    assert [(a["name"], a["index"], a["kind"], a["type"]) for a in args] == [("x", 0, "buffer", "float"),
                                                                              ("n", 1, "bytes", "int")]
    assert side["kernels"][0]["dispatch"] is None


# ---------------------------------------------------------------------------------------------
# signatures and built-ins
# ---------------------------------------------------------------------------------------------
def test_signature_buffers_scalars_and_only_the_builtins_used():
    out = assert_checks("""
        __global__ void k(const float* __restrict__ a, float* b, int n, float s)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) b[i] = s * a[i];
        }
    """)
    assert "kernel void k(const device float* __restrict__ a [[buffer(0)]], device float* b [[buffer(1)]]" in out
    assert "constant int& n [[buffer(2)]], constant float& s [[buffer(3)]]" in out
    assert "uint3 tid [[thread_position_in_threadgroup]]" in out
    assert "uint3 bid [[threadgroup_position_in_grid]]" in out and "uint3 bdim [[threads_per_threadgroup]]" in out
    assert "gdim" not in out and "simd" not in out
    assert "int i = bid.x * bdim.x + tid.x;" in out


def test_builtin_names_avoid_the_users_names():
    out = assert_checks("""
        __global__ void k(float* x) { int tid = threadIdx.x; x[tid] = gridDim.x; }
    """)
    assert "int tid = thread_position_in_threadgroup.x;" in out
    assert "uint3 thread_position_in_threadgroup [[thread_position_in_threadgroup]]" in out
    assert "uint3 gdim [[threadgroups_per_grid]]" in out


def test_warp_size_becomes_threads_per_simdgroup():
    out = assert_checks("""
        __global__ void k(int* x) { x[threadIdx.x] = threadIdx.x % warpSize; }
    """)
    assert "tid.x % simd_width" in out and "uint simd_width [[threads_per_simdgroup]]" in out


def test_launch_bounds_become_max_total_threads():
    out = assert_checks("""
        __global__ void __launch_bounds__(256) k(float* x) { x[threadIdx.x] = 0.0f; }
    """)
    assert "[[max_total_threads_per_threadgroup(256)]]\nkernel void k(device float* x [[buffer(0)]]" in out


def test_template_kernel_is_instantiated_with_host_names():
    _, text = metal("""
        // @kp kernel k
        // @kp instantiate <128>
        // @kp instantiate <256>
        // @kp grid 1
        // @kp block 128
        // @kp why test
        // @kp arg x out float[256]
        // @kp reference k_ref(x)
        template <int B>
        __global__ void k(float* x) { __shared__ float s[B]; s[threadIdx.x] = 1.0f; x[threadIdx.x] = s[0]; }
        void k_ref(float* x) {}
    """)
    assert "template <int B>\nkernel void k(device float* x [[buffer(0)]], uint3 tid [[thread_position_in_threadgroup]])" in text
    assert 'template [[host_name("k_128")]] kernel void k<128>(device float* x [[buffer(0)]], uint3 tid ' \
           '[[thread_position_in_threadgroup]]);' in text
    assert 'template [[host_name("k_256")]] kernel void k<256>' in text
    assert check(text) == []


def test_multiline_signature_stays_aligned_under_the_parenthesis():
    out = body("""
        __global__ void k(const float* a,
                          float* b)
        { b[threadIdx.x] = a[threadIdx.x]; }
    """)
    assert "kernel void k(const device float* a [[buffer(0)]],\n              device float* b [[buffer(1)]],\n" \
           "              uint3 tid [[thread_position_in_threadgroup]])" in out


def test_host_code_is_left_out():
    out = assert_checks("""
        #include <cuda_runtime.h>
        __global__ void k(float* x) { x[0] = 1.0f; }
        void launch(float* d) { k<<<1, 1>>>(d); cudaDeviceSynchronize(); }
        double helper_on_host(double v) { return v * 2.0; }
    """)
    assert "cuda" not in out and "<<<" not in out and "double" not in out
    assert "// launch() is a host launcher: left out" in out
    assert "// helper_on_host() is host code: left out of the Metal port." in out


def test_prologue_includes_metal_stdlib_and_no_cuda_header():
    _, text = metal("#include <cuda_runtime.h>\n#include <math.h>\n__global__ void k(float* x) { x[0] = 1.0f; }\n")
    assert "#include <metal_stdlib>\nusing namespace metal;" in text
    assert "cuda_runtime" not in text and "math.h" not in text


# ---------------------------------------------------------------------------------------------
# device helpers
# ---------------------------------------------------------------------------------------------
def test_helper_gets_address_spaces_from_its_call_sites_and_is_specialised_per_space():
    out = assert_checks("""
        __device__ float first(const float* p) { return p[0]; }
        __global__ void k(const float* x, float* y)
        {
            __shared__ float s[64];
            s[threadIdx.x] = x[threadIdx.x];
            __syncthreads();
            y[threadIdx.x] = first(x) + first(s);
        }
    """)
    assert "float first(const device float* p) { return p[0]; }" in out
    assert "float first(const threadgroup float* p) { return p[0]; }" in out
    assert "__device__" not in out


def test_helper_using_builtins_gets_them_as_parameters_transitively():
    out = assert_checks("""
        __device__ __forceinline__ int lane() { return threadIdx.x % warpSize; }
        __device__ int twice_lane() { return 2 * lane(); }
        __global__ void k(int* x) { x[threadIdx.x] = twice_lane(); }
    """)
    assert "inline int lane(uint3 tid, uint simd_width) { return tid.x % simd_width; }" in out
    assert "int twice_lane(uint3 tid, uint simd_width) { return 2 * lane(tid, simd_width); }" in out
    assert "x[tid.x] = twice_lane(tid, simd_width);" in out
    assert "uint simd_width [[threads_per_simdgroup]]" in out


def test_local_pointer_gets_the_space_it_points_into():
    out = assert_checks("""
        __global__ void k(float* x)
        {
            __shared__ float s[32];
            float* row = x + 4 * blockIdx.x;
            float* t = &s[1];
            t[threadIdx.x] = row[threadIdx.x];
        }
    """)
    assert "device float* row = x + 4 * bid.x;" in out and "threadgroup float* t = &s[1];" in out


# ---------------------------------------------------------------------------------------------
# threadgroup memory
# ---------------------------------------------------------------------------------------------
def test_static_shared_in_a_helper_is_hoisted_to_the_kernel_and_passed_down():
    out = assert_checks("""
        __device__ float stage(float v)
        {
            __shared__ float buf[64];
            buf[threadIdx.x] = v;
            __syncthreads();
            return buf[63 - threadIdx.x];
        }
        __global__ void k(float* x) { x[threadIdx.x] = stage(x[threadIdx.x]); }
    """)
    assert "float stage(float v, threadgroup float* buf, uint3 tid)" in out
    assert "threadgroup float buf[64];  // for stage()" in out
    assert "stage(x[tid.x], buf, tid)" in out


def test_two_dimensional_hoisted_array_is_passed_as_a_row_pointer():
    out = assert_checks("""
        __device__ float get(int i) { __shared__ float t[8][9]; t[i][i] = 1.0f; return t[0][i]; }
        __global__ void k(float* x) { x[threadIdx.x] = get(threadIdx.x); }
    """)
    assert "float get(int i, threadgroup float (*t)[9])" in out and "threadgroup float t[8][9];" in out


def test_dynamic_shared_is_a_threadgroup_parameter():
    out = assert_checks("""
        __global__ void k(float* x)
        {
            extern __shared__ float smem[];
            smem[threadIdx.x] = x[threadIdx.x];
            __syncthreads();
            x[threadIdx.x] = smem[0];
        }
    """)
    assert "threadgroup float* smem [[threadgroup(0)]]" in out
    assert "/* smem: the kernel's threadgroup(0) parameter */" in out


def test_static_threadgroup_memory_over_32_kb_is_an_error_at_its_line():
    port, _ = metal("""
        #define N 4096
        __global__ void k(float* x)
        {
            __shared__ float a[N];
            __shared__ float b[N + 1];
            a[threadIdx.x] = b[threadIdx.x];
            x[0] = a[0];
        }
    """)
    assert not port.ok
    d = next(d for d in port.diagnostics if d.code == "KP211")
    assert d.location.line == 6 and "32772 bytes" in d.message


# ---------------------------------------------------------------------------------------------
# barriers
# ---------------------------------------------------------------------------------------------
def test_barrier_is_threadgroup_only_without_device_communication():
    out = assert_checks("""
        __global__ void k(float* x) { __shared__ float s[32]; s[threadIdx.x] = x[threadIdx.x];
            __syncthreads(); x[threadIdx.x] = s[31 - threadIdx.x]; }
    """)
    assert "threadgroup_barrier(mem_flags::mem_threadgroup);" in out


def test_barrier_adds_mem_device_when_the_group_shares_data_through_device_memory():
    out = assert_checks("""
        __global__ void k(float* buf, float* out)
        {
            buf[threadIdx.x] = 2.0f * threadIdx.x;
            __syncthreads();
            out[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
        }
    """)
    assert "threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);" in out


def test_syncwarp_and_fences():
    out = body("""
        __global__ void k(float* x) { x[0] = 1.0f; __syncwarp(); __threadfence(); __threadfence_block(); }
    """)
    assert "simdgroup_barrier(mem_flags::mem_threadgroup);" in out
    assert "atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device);" in out
    _, text = metal("__global__ void k(float* x) { x[0] = 1.0f; __threadfence(); }")
    assert "// Metal Shading Language 3.2 or later" in text


# ---------------------------------------------------------------------------------------------
# SIMD-group operations
# ---------------------------------------------------------------------------------------------
def test_shuffles_become_simd_shuffles():
    out = assert_checks("""
        __global__ void k(float* x)
        {
            float v = x[threadIdx.x];
            v += __shfl_down_sync(0xffffffff, v, 1);
            v += __shfl_up_sync(0xffffffff, v, 2);
            v += __shfl_xor_sync(0xffffffff, v, 4);
            v = __shfl_sync(0xffffffff, v, 0);
            x[threadIdx.x] = v;
        }
    """)
    for s in ("simd_shuffle_down(v, 1)", "simd_shuffle_up(v, 2)", "simd_shuffle_xor(v, 4)", "simd_shuffle(v, 0)"):
        assert s in out


def test_shuffle_with_a_width_below_the_simd_width_is_emulated_per_segment():
    port, text = metal("""
        __global__ void k(float* x)
        {
            float v = x[threadIdx.x];
            v += __shfl_down_sync(0xffffffff, v, 4, 8);
            v += __shfl_xor_sync(0xffffffff, v, 1, 16);
            x[threadIdx.x] = v;
        }
    """)
    assert "kp_simd_shuffle_down(v, 4, 8, simd_lane)" in port.body
    assert "kp_simd_shuffle_xor(v, 1, 16, simd_lane)" in port.body
    assert "uint simd_lane [[thread_index_in_simdgroup]]" in port.body
    assert "inline T kp_simd_shuffle_down(T v, uint delta, uint width, uint lane)" in text
    assert "kp_simd_shuffle_up" not in text  # helpers only when used
    assert check(text) == []


def test_width_equal_to_the_warp_is_a_plain_shuffle():
    out = body("""
        __global__ void k(float* x) { x[0] = __shfl_down_sync(0xffffffff, x[0], 1, 32); }
    """)
    assert "simd_shuffle_down(x[0], 1)" in out


def test_ballot_converts_explicitly_to_a_64_bit_mask():
    out = assert_checks("""
        __global__ void k(const float* x, int* out)
        {
            int lane = threadIdx.x & 31;
            unsigned int m = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
            out[threadIdx.x] = __popc(m & ((1u << lane) - 1)) + __any_sync(0xffffffff, m != 0)
                               + __all_sync(0xffffffff, m == 0);
        }
    """)
    assert "ulong m = static_cast<ulong>(simd_ballot(x[tid.x] > 0.0f));" in out
    assert "popcount(m & ((1ul << lane) - 1))" in out
    assert "simd_any(m != 0)" in out and "simd_all(m == 0)" in out


def test_activemask_and_ffs():
    _, text = metal("""
        __global__ void k(int* out)
        {
            unsigned int a = __activemask();
            out[threadIdx.x] = __ffs(a) - 1;
        }
    """)
    assert "static_cast<ulong>(simd_active_threads_mask())" in text
    assert "kp_ffs(a)" in text and "inline int kp_ffs(ulong x)" in text
    assert check(text) == []


def test_full_xor_butterfly_max_becomes_simd_max_with_a_comment():
    out = assert_checks("""
        __device__ float wmax(float v)
        {
            for (int o = 16; o > 0; o >>= 1)
                v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
            return v;
        }
        __device__ int wsum(int v)
        {
            for (int o = warpSize / 2; o > 0; o /= 2)
                v += __shfl_xor_sync(0xffffffff, v, o);
            return v;
        }
        __global__ void k(float* x, int* y) { x[0] = wmax(x[threadIdx.x]); y[0] = wsum(y[threadIdx.x]); }
    """)
    assert "exactly simd_max" in out and "return simd_max(v);" in out
    assert "return simd_sum(v);" in out


def test_reductions_that_are_not_exactly_native_keep_their_shuffles():
    out = body("""
        __device__ float fsum(float v)   // a float sum: another order rounds differently
        {
            for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
            return v;
        }
        __device__ int dsum(int v)       // shfl_down: only lane 0 is complete
        {
            for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
            return v;
        }
        __device__ int part(int v)       // starts at 8: a partial butterfly
        {
            for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
            return v;
        }
        __global__ void k(float* x, int* y) { x[0] = fsum(x[0]); y[0] = dsum(y[0]) + part(y[1]); }
    """)
    assert "simd_sum" not in out
    assert "simd_shuffle_xor(v, o)" in out and "simd_shuffle_down(v, o)" in out


# ---------------------------------------------------------------------------------------------
# atomics
# ---------------------------------------------------------------------------------------------
def test_atomics_cast_to_the_address_space_and_type():
    out = assert_checks("""
        __global__ void k(unsigned int* hist, const int* keys, float* total, int* n)
        {
            __shared__ unsigned int bins[64];
            atomicAdd(&bins[keys[threadIdx.x]], 1u);
            atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
            atomicAdd(total, 1.5f);
            atomicMax(n, keys[threadIdx.x]);
            atomicOr(n, 1);
        }
    """)
    assert "atomic_fetch_add_explicit((threadgroup atomic_uint*)(&bins[keys[tid.x]]), 1u, memory_order_relaxed)" in out
    assert "atomic_fetch_add_explicit((device atomic_uint*)(&hist[tid.x]), bins[tid.x], memory_order_relaxed)" in out
    assert "atomic_fetch_add_explicit((device atomic_float*)(total), 1.5f, memory_order_relaxed)" in out
    assert "atomic_fetch_max_explicit((device atomic_int*)(n), keys[tid.x], memory_order_relaxed)" in out


def test_float_atomics_on_threadgroup_memory_and_float_max_use_a_cas_loop():
    port, text = metal("""
        __global__ void k(float* out)
        {
            __shared__ float acc;
            atomicAdd(&acc, 1.0f);
            atomicMax(out, acc);
        }
    """)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_atomic_add(&acc, 1.0f)" in port.body and "kp_atomic_max(out, acc)" in port.body
    assert "inline float kp_atomic_add(threadgroup float* address, float value)" in text
    assert "inline float kp_atomic_max(device float* address, float value)" in text
    assert "kp_atomic_sub" not in text
    assert check(text) == []


def test_atomic_cas_polyfill():
    _, text = metal("__global__ void k(int* x) { atomicCAS(x, 0, 1); }")
    assert "kp_atomic_cas(x, 0, 1)" in text and "inline int kp_atomic_cas(device int* address" in text
    assert check(text) == []


def test_64_bit_atomics_are_an_error():
    # (an unused add of an unread counter is split since h/metal57: tests/test_metal_split_atomics.py)
    port, _ = metal("__global__ void k(unsigned long long* c, int* o) { o[0] = (int)atomicAdd(c, 1ull); }")
    assert not port.ok and [d.code for d in port.diagnostics] == ["KP212"]
    assert "64-bit" in port.diagnostics[0].message and port.diagnostics[0].location.line == 1


# ---------------------------------------------------------------------------------------------
# types and math
# ---------------------------------------------------------------------------------------------
def test_double_is_an_error_at_its_line_unless_demoted():
    code = "__global__ void k(float* x)\n{\n    double acc = x[0];\n    x[0] = (float)acc;\n}\n"
    port, _ = metal(code)
    assert not port.ok
    assert [(d.code, d.location.line) for d in port.diagnostics] == [("KP214", 3)]
    assert "--demote-double" in port.diagnostics[0].hint
    out = assert_checks(code, demote_double=True)
    assert "float acc = x[0];" in out


def test_double_in_a_host_only_declaration_the_port_leaves_out_is_no_error():
    # polybench.h's `extern double polybench_program_total_flops;` (19 realcorpus files refused by it)
    code = ("extern double total_flops;\n__global__ void k(float* x) { x[0] = 1.0f; }\n"
            "int main() { total_flops = 2.0; k<<<1, 1>>>(0); }\n")
    out = assert_checks(code)
    assert "double" not in out.replace("total_flops: used by host code only", "")
    # the look-alike: a double the device code uses is still refused at its line
    port, _ = metal("__device__ double g;\n__global__ void k(float* x) { x[0] = (float)g; }\n")
    assert not port.ok and ("KP214", 1) in [(d.code, d.location.line) for d in port.diagnostics]


def test_double_in_host_code_is_fine():
    assert_checks("__global__ void k(float* x) { x[0] = 1.0f; }\nvoid ref(float* x) { double s = 0.0; x[0] = s; }\n")


def test_half_and_bfloat():
    port, text = metal("""
        #include <cuda_fp16.h>
        #include <cuda_bf16.h>
        __global__ void k(__half* h, __nv_bfloat16* b) { h[0] = h[1]; b[0] = b[1]; }
    """)
    assert "device half* h [[buffer(0)]], device bfloat* b [[buffer(1)]]" in port.body
    assert "// Metal Shading Language 3.1 or later (bfloat (3.1))" in text
    assert check(text) == []


def test_float3_buffers_are_packed_and_make_float4_is_a_constructor():
    out = assert_checks("""
        __global__ void k(const float3* p, float4* q)
        {
            float3 v = p[threadIdx.x];
            q[threadIdx.x] = make_float4(v.x, v.y, v.z, 1.0f);
        }
    """)
    assert "const device packed_float3* p [[buffer(0)]]" in out and "float3 v = p[tid.x];" in out
    assert "float4(v.x, v.y, v.z, 1.0f)" in out


def test_fast_and_precise_math():
    out = metal_checked("""
        __global__ void k(float* x)
        {
            x[0] = __expf(x[0]) + __fdividef(x[1], x[2]);
            x[1] = expf(x[1]) + sqrtf(x[2]) + fmaxf(x[0], x[1]) + fabsf(x[3]);
        }
    """)
    # CUDA's fast intrinsics keep their names over Metal's fast:: forms (the prologue), as fminf does
    assert "__expf(x[0]) + __fdividef(x[1], x[2])" in out
    assert "inline float __expf(float x) { return fast::exp(x); }" in out
    assert "inline float __fdividef(float x, float y) { return fast::divide(x, y); }" in out
    assert "precise::exp(x[1]) + precise::sqrt(x[2]) + fmaxf(x[0], x[1]) + fabs(x[3])" in out


def test_polyfills_are_emitted_only_when_used():
    _, text = metal("__global__ void k(float* x) { x[0] = erff(x[0]) + log1pf(x[1]); }")
    assert "kp_erf(x[0]) + kp_log1p(x[1])" in text
    assert "inline float kp_erf(float x)" in text and "inline float kp_log1p(float x)" in text
    assert "kp_expm1" not in text
    assert check(text) == []
    _, plain = metal("__global__ void k(float* x) { x[0] = 1.0f; }")
    assert "kp_" not in plain


def test_program_scope_constants_are_in_the_constant_space_and_globals_are_errors():
    out = assert_checks("""
        constexpr int kN = 4;
        __constant__ float kScale[2] = {1.0f, 2.0f};
        __global__ void k(float* x) { x[threadIdx.x] = kScale[0] * kN; if (x == NULL) return; }
    """)
    assert "constexpr constant int kN = 4;" in out and "constant float kScale[2]" in out
    assert "x == nullptr" in out
    port, _ = metal("__device__ int counter;\n__global__ void k(int* x) { x[0] = counter; }\n")
    assert [(d.code, d.location.line) for d in port.diagnostics] == [("KP213", 1)]


def test_long_long_in_device_code_is_long():
    out = assert_checks("__global__ void k(float* x) { long long i = threadIdx.x; x[i] = 0.0f; }")
    assert "long i = tid.x;" in out


# ---------------------------------------------------------------------------------------------
# the MSL version floor
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("code, version", [
    ("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }", "2.0"),
    ("__global__ void k(float* x) { x[0] = __shfl_down_sync(0xffffffff, x[0], 1); }", "2.1"),
    ("__global__ void k(float* x) { atomicAdd(x, 1.0f); }", "3.0"),
    ("__global__ void k(__nv_bfloat16* x) { x[0] = x[1]; }", "3.1"),
    ("__global__ void k(float* x) { __threadfence(); }", "3.2"),
])
def test_msl_version_floor_from_the_features_used(code, version):
    port, text = metal(code)
    assert f"// Metal Shading Language {version} or later" in text
    assert json.loads(port.extra_files[".json"])["msl_version"] == version


# ---------------------------------------------------------------------------------------------
# errors and the checker itself
# ---------------------------------------------------------------------------------------------
def test_inline_ptx_stops_the_metal_port():
    port, _ = metal('__global__ void k(int* x) { asm volatile("membar.gl;"); x[0] = 1; }')
    assert not port.ok and port.diagnostics[0].code == "KP201"


def test_ptx_lane_id_idiom_is_the_simd_lane():
    out = body('__global__ void k(int* x) { int l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); x[0] = l; }')
    assert "l = simd_lane" in out and "[[thread_index_in_simdgroup]]" in metal(
        '__global__ void k(int* x) { int l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); x[0] = l; }')[1]


def test_the_checker_rejects_a_deliberately_broken_port():
    text = (ROOT / "examples" / "vector_add.metal").read_text()
    broken = text.replace("device float* __restrict__ c [[buffer(2)]]", "float* __restrict__ c [[buffer(2)]]")
    assert broken != text
    diags = check(broken)
    assert any("without an address space" in d for d in diags), diags
    # a helper fed threadgroup memory where it expects device memory
    bad = check(textwrap.dedent("""\
        #include <metal_stdlib>
        using namespace metal;
        float first(device float* p) { return p[0]; }
        kernel void k(device float* x [[buffer(0)]]) { threadgroup float s[4]; s[0] = 1.0f; x[0] = first(s); }
    """))
    assert bad and any(":4:" in d for d in bad)


# ---------------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------------
def kp(*args, cwd=None):
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, timeout=120, env={k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"})
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.fixture
def work(tmp_path):
    for name in ("warp_reduce.cu", "dynamic_shared.cu"):
        shutil.copy(ROOT / "examples" / name, tmp_path / name)
    return tmp_path


def test_cli_to_metal_writes_the_port_and_its_sidecar(work):
    r = kp("translate", "warp_reduce.cu", "--to", "metal", cwd=work)
    assert r.returncode == 0, r.stderr
    assert (work / "warp_reduce.metal").read_text() == (ROOT / "examples" / "warp_reduce.metal").read_text()
    assert (work / "warp_reduce.metal.json").read_text() == (ROOT / "examples" / "warp_reduce.metal.json").read_text()
    assert "created   warp_reduce.metal.json" in r.stdout
    assert kp("translate", "warp_reduce.cu", "--to", "metal", "--check", cwd=work).returncode == 0


def test_cli_to_hip_and_metal(work):
    r = kp("translate", "dynamic_shared.cu", "--to", "hip,metal", "-o", "ports", cwd=work)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (work / "ports").iterdir()) == \
        ["dynamic_shared.hip", "dynamic_shared.metal", "dynamic_shared.metal.json"]


def test_cli_check_and_no_clobber_cover_the_sidecar(work):
    assert kp("translate", "warp_reduce.cu", "--to", "metal", cwd=work).returncode == 0
    side = work / "warp_reduce.metal.json"
    side.write_text(side.read_text().replace('"index": 0', '"index": 7', 1))
    r = kp("translate", "warp_reduce.cu", "--to", "metal", "--check", cwd=work)
    # the sidecar was edited by hand: the hint is the command that works (--force) and says why
    assert r.returncode == 1 and "warp_reduce.metal.json was edited by hand" in r.stderr and "--force" in r.stderr
    r = kp("translate", "warp_reduce.cu", "--to", "metal", cwd=work)
    assert r.returncode == 1 and "was edited since kernelport generated it" in r.stderr
    assert kp("translate", "warp_reduce.cu", "--to", "metal", "--force", cwd=work).returncode == 0
    side.unlink()
    r = kp("translate", "warp_reduce.cu", "--to", "metal", "--check", cwd=work)
    assert r.returncode == 1 and "warp_reduce.metal.json: missing" in r.stderr


def test_cli_double_error_and_demotion(tmp_path):
    f = tmp_path / "d.cu"
    f.write_text("__global__ void k(float* x)\n{\n    double a = x[0];\n    x[0] = a;\n}\n")
    r = kp("translate", f, "--to", "metal")
    assert r.returncode == 1 and "d.cu:3:5: error: KP214" in r.stderr and not (tmp_path / "d.metal").exists()
    r = kp("translate", f, "--to", "metal", "--demote-double")
    assert r.returncode == 0, r.stderr
    assert "float a = x[0];" in (tmp_path / "d.metal").read_text()


def test_min_of_unsigned_builtin_and_int_converts_like_cuda():
    out = body("__global__ void k(int* x, int n) { x[0] = min(threadIdx.x, n) + max(n, 3); }")
    assert "min(tid.x, uint(n))" in out and "max(n, 3)" in out


def test_same_named_arrays_of_sibling_scopes_are_renamed_when_hoisted():
    out = body("""
__global__ void k(float* x, int mode) {
    if (mode) { __shared__ float s[32]; s[threadIdx.x] = 1.0f; __syncthreads(); x[0] = s[1]; }
    else { __shared__ float s[32]; s[threadIdx.x] = 2.0f; __syncthreads(); x[0] = s[2]; }
}
""")
    assert "threadgroup float s[32];" in out and "threadgroup float s_2[32];" in out
    assert "s_2[tid.x] = 2.0f;" in out and "x[0] = s_2[2];" in out and "x[0] = s[1];" in out


def test_device_function_prototypes_lose_cuda_qualifiers_and_get_address_spaces():
    out = body("""
__device__ void store(float* dst, const float* src);
__device__ void store(float* dst, const float* src) { *dst = *src; }
__global__ void k(float* y, const float* x) { store(y, x); }
""")
    assert "void store(device float* dst, const device float* src);" in out and "__device__" not in out


def test_builtins_are_passed_before_defaulted_parameters():
    out = body("""
__device__ float sh(float v, int l, int width = 32) { return __shfl_sync(0xffffffff, v, l, width) + threadIdx.x; }
__global__ void k(float* x) { x[0] = sh(x[1], 0) + sh(x[2], 1, 16); }
""")
    assert "uint3 tid, uint simd_lane, int width = 32)" in out
    assert "sh(x[1], 0, tid, simd_lane)" in out and "sh(x[2], 1, tid, simd_lane, 16)" in out


def test_thread_block_cooperative_groups_are_the_threadgroup():
    port, text = metal("""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void step(float* s, cg::thread_block cta) { s[threadIdx.x] += 1.0f; cg::sync(cta); }
__global__ void k(float* x) {
    __shared__ float s[64];
    cg::thread_block cta = cg::this_thread_block();
    s[threadIdx.x] = x[threadIdx.x];
    cta.sync();
    step(s, cta);
    x[threadIdx.x] = s[63 - threadIdx.x];
}
""")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "struct kp_thread_block {};" in text and "kp_thread_block cta = kp_thread_block();" in text
    assert text.count("threadgroup_barrier(mem_flags::mem_threadgroup)") == 2
    assert check(text) == []


def test_tiles_of_cooperative_groups_stop_the_metal_port():
    """A 32-tile is the SIMD-group (tests/test_metal_cg_tiles.py); a tile of 16 is a segment of it
    (tests/test_metal_ports41.py); a tile of 64 has no Metal counterpart."""
    code = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x) {
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    x[threadIdx.x] = tile.shfl(x[threadIdx.x], 0);
}
"""
    port, _ = metal(code.replace("<32>", "<64>"))
    assert [d.code for d in port.diagnostics] == ["KP217"]
    port, text = metal(code.replace("<32>", "<16>"))
    assert port.ok and "x[tid.x] = kp_simd_shuffle(x[tid.x], 0, 16u, simd_lane);" in text, text
    port, text = metal(code)
    assert port.ok and "x[tid.x] = simd_shuffle(x[tid.x], 0);" in text, text


def test_host_only_globals_and_extern_c_launchers_are_left_out():
    out = body("""
static float* d_buf;
__global__ void k(float* d_buf) { d_buf[threadIdx.x] = 1.0f; }
extern "C" void launch() { k<<<1, 32>>>(d_buf); }
""")
    assert "host-side state, left out" in out and 'extern "C"' not in out


DEVICE_LAMBDA = """
#define LIB_DEVICE __device__
template<typename f_t> void transform(f_t f, int n);
int main() {
    float* out = 0;
    auto k = [=] {qual} (int index) { out[index] = 2.0f * index; };
    transform(k, 10);
    return 0;
}
"""


@pytest.mark.parametrize("qual", ["__device__", "LIB_DEVICE"])
def test_a_device_lambda_in_host_code_is_refused_not_left_out_silently(qual):
    """moderngpu's tutorials pass `[=] MGPU_DEVICE (int index) {...}` to a launch helper: the Metal
    port leaves host code out, and with it the kernel body (an empty port that 'passed')."""
    port, _ = translate(SourceFile.from_text(DEVICE_LAMBDA.replace("{qual}", qual), "l.cu"), "metal")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP223", 6)]
    assert "device lambda in host code" in port.diagnostics[0].message
    # the look-alike: a host lambda in host code is host code, left out
    host, _ = translate(SourceFile.from_text(DEVICE_LAMBDA.replace("{qual}", ""), "l.cu"), "metal")
    assert host.ok


def test_rintf_is_metals_rint_and_the_port_checks():
    """gpujpeg's IDCT rounds with rintf (round half to even, exact on both): Metal spells it rint."""
    text = body("__global__ void k(float* x) { x[0] = rintf(x[1]) + floorf(x[2]); }\n")
    assert "x[0] = rint(x[1]) + floor(x[2]);" in text
    assert_checks("__global__ void k(float* x) { x[0] = rintf(x[1]); }\n")
