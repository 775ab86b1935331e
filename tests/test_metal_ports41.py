"""Metal ports of real code, stop 41: CUDA constructs with a definite Metal meaning that were refused
(bench/metal_census40.txt's groups).  Each port is type-checked by kernelport's Metal checker only
(a clang model of MSL; no Metal compiler runs on Linux)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port
from port_support import refusal


def errors(code: str) -> list[str]:
    return [f"{d.location.line}:{d.code}" for d in refusal(code, to="metal")]


def test_a_file_scope_shared_array_is_declared_by_each_kernel_that_uses_it():
    # KP213 before ("file-scope __shared__ variables have no Metal equivalent").  CUDA's file-scope
    # __shared__ is per block, as one in a kernel is: each kernel declares it at its scope and passes it
    # to the helpers that name it; a parameter of the same name shadows it (k3 gets no array)
    out = metal_checked("""
        #define N 64
        __shared__ float tile[N];
        __device__ float mirrored(int i) { return tile[N - 1 - i]; }
        __global__ void k(float* out)
        {
            tile[threadIdx.x] = out[threadIdx.x];
            __syncthreads();
            out[threadIdx.x] = mirrored(threadIdx.x);
        }
        __global__ void k2(float* out) { out[threadIdx.x] = mirrored(threadIdx.x); }
        __global__ void k3(float* out, int tile) { out[threadIdx.x] = tile; }
    """)
    assert "/* threadgroup tile: declared by each kernel that uses it */" in out
    assert "float mirrored(int i, threadgroup float* tile)" in out
    assert out.count("threadgroup float tile[N];") == 2  # k and k2 (through its helper), not k3
    assert "out[tid.x] = mirrored(tid.x, tile);" in out
    k3 = out[out.index("kernel void k3"):]
    assert "threadgroup float" not in k3


def test_a_file_scope_extern_shared_array_is_the_kernels_threadgroup_parameter():
    # SobelFilter_kernels.cu: `extern __shared__ unsigned char LocalBlock[];` at file scope (KP213 before)
    out = metal_checked("""
        extern __shared__ unsigned char LocalBlock[];
        __global__ void k(unsigned char* out)
        {
            LocalBlock[threadIdx.x] = out[threadIdx.x];
            __syncthreads();
            out[threadIdx.x] = LocalBlock[blockDim.x - 1 - threadIdx.x];
        }
    """)
    assert "threadgroup unsigned char* LocalBlock [[threadgroup(0)]]" in out


def test_shared_in_a_class_members_body_the_port_does_not_translate_stays_refused():
    # cuda-samples reduce7's `SharedMemory<T>` operator: its `extern __shared__` is no device function's
    # here; a located refusal, not a declaration silently dropped
    assert "5:KP213" in errors("""
        template <class T>
        struct SharedMemory {
          __device__ inline operator T *() {
            extern __shared__ int __smem[];
            return (T *)__smem;
          }
        };
        __global__ void k(float* x) { float* s = SharedMemory<float>(); s[0] = x[0]; }
    """)


def test_stdint_integer_constant_macros_are_literals_with_their_types_suffix():
    # hecbench f8cast's `UINT32_C(255) << 23`: KP223 ('UINT32_C' is defined neither in this file nor in
    # Metal's standard library) before; <stdint.h>'s macros are the literal with its type's suffix
    out = metal_checked("""
        __global__ void k(unsigned int* x, unsigned long long* y)
        {
            x[0] = UINT32_C(255) << 23 | UINT8_C(7);
            y[0] = UINT64_C(1) << 40;
        }
    """)
    assert "#define UINT32_C(c) c ## u" in out and "#define UINT8_C(c) c" in out
    assert "#define UINT64_C(c) c ## ul" in out
    assert "INT16_C" not in out  # only those the port names


def test_a_files_own_integer_constant_macro_is_not_defined_twice():
    out = metal_checked("""
        #define UINT32_C(v) (v##U)
        __global__ void k(unsigned int* x) { x[0] = UINT32_C(255) << 23; }
    """)
    assert "#define UINT32_C(c)" not in out and "#define UINT32_C(v) (v##U)" in out


LINEAR_OBJECTS = """
    __device__ float twice(cudaTextureObject_t t, int i) { return 2.0f * tex1Dfetch<float>(t, i); }
    __global__ void k(float* out, cudaTextureObject_t tex, cudaTextureObject_t idx, int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = tex1Dfetch<float>(tex, i + 1) + twice(tex, i) + tex1Dfetch<int>(idx, i);
    }
    void run(float* d, float* out, int n)
    {
        cudaResourceDesc res = {};
        res.resType = cudaResourceTypeLinear;
        res.res.linear.devPtr = d;
        res.res.linear.sizeInBytes = n * sizeof(float);
        cudaTextureDesc desc = {};
        desc.readMode = cudaReadModeElementType;
        cudaTextureObject_t tex, idx;
        cudaCreateTextureObject(&tex, &res, &desc, NULL);
        cudaCreateTextureObject(&idx, &res, &desc, NULL);
        k<<<1, 32>>>(out, tex, idx, n);
    }
"""


def test_tex1dfetch_of_a_texture_object_is_a_read_of_its_linear_buffer():
    # KP223 before ('tex1Dfetch' in device code has no Metal meaning).  tex1Dfetch reads linear memory only:
    # element i unconverted, zero outside the bound range, as of a texture reference (kp_tex1Dfetch)
    out = metal_checked(LINEAR_OBJECTS)
    assert ("kernel void k(device float* out [[buffer(0)]], device const float* tex [[buffer(1)]], "
            "device const int* idx [[buffer(2)]], constant int& n [[buffer(3)]],") in out
    assert "constant uint& tex_count [[buffer(4)]]" in out and "constant uint& idx_count [[buffer(5)]]" in out
    assert ("out[i] = kp_tex1Dfetch(tex, tex_count, i + 1) + twice(tex, tex_count, i) + "
            "kp_tex1Dfetch(idx, idx_count, i);") in out
    assert "float twice(device const float* t, constant uint& t_count, int i) " \
           "{ return 2.0f * kp_tex1Dfetch(t, t_count, i); }" in out
    assert "uint(i) < count ? t[i] : T(0)" in out


def test_the_sidecar_binds_a_linear_texture_object_as_a_buffer_and_its_length():
    import json
    port, _ = metal_port(LINEAR_OBJECTS)
    args = {a["name"]: a for a in json.loads(port.extra_files[".json"])["kernels"][0]["arguments"]}
    assert (args["tex"]["index"], args["tex"]["kind"], args["tex"]["type"]) == (1, "buffer", "float")
    assert (args["tex_count"]["index"], args["tex_count"]["kind"], args["tex_count"]["type"]) == (4, "bytes", "uint")
    assert "sizeInBytes / sizeof(float)" in args["tex_count"]["from"]
    assert (args["idx"]["type"], args["idx_count"]["index"]) == ("int", 5)


def test_a_linear_texture_object_read_normalised_or_made_by_a_cast_stays_refused():
    # a normalised read converts integers to float: no read of a float buffer has that meaning
    assert "2:KP223" in errors(LINEAR_OBJECTS.replace("cudaReadModeElementType", "cudaReadModeNormalizedFloat"))
    # heldout18's `(cudaTextureObject_t)luma`: no texture parameter to bind
    assert "2:KP223" in errors("""
        __global__ void k(unsigned long long t, float* a) { a[0] = tex1Dfetch<float>((cudaTextureObject_t)t, 0); }
    """)


def test_a_template_kernel_nothing_names_is_left_out_as_cuda_compiles_no_instance():
    # cutt's CudaMemcpy.cu: `memcpyFloatLoopKernel<numElem>`, whose only launch is commented out: KP216
    # before.  No launch, instantiation, address or specialisation in the translation unit: no instance
    # exists in CUDA either
    out = metal_checked("""
        template <int N>
        __global__ void unused(float* x) { x[threadIdx.x] *= N; }  // a launch: unused<4><<<1, 32>>>(x)
        __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }
        void run(float* x) {
            // unused<4><<<1, 32>>>(x);
            k<<<1, 32>>>(x);
        }
    """)
    assert "// template kernel unused(): nothing in this file names it" in out
    assert "kernel void unused" not in out and "kernel void k(" in out
    port, _ = metal_port("""
        template <int N>
        __global__ void unused(float* x) { x[threadIdx.x] *= N; }
        __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }
    """)
    import json
    assert [e["name"] for e in json.loads(port.extra_files[".json"])["kernels"]] == ["k"]


def test_a_template_kernel_a_macro_names_or_pastes_keeps_its_refusal():
    # cutt's cuttkernel.cu launches `transposeTiled<TYPE> <<<...>>>` inside a macro: instances exist, not
    # left out (KP216 here until kp216 expanded the macro's use: now its instance, test_metal_template_ids.py)
    assert 'template [[host_name("tiled_float")]] kernel void tiled<float>(' in metal_checked("""
        template <typename T>
        __global__ void tiled(T* x) { x[threadIdx.x] += 1; }
        #define LAUNCH(TYPE) tiled<TYPE><<<1, 32>>>((TYPE*)p)
        void run(void* p) { LAUNCH(float); }
    """)
    assert "3:KP216" in errors("""
        template <typename T>
        __global__ void copy_float(T* x) { x[threadIdx.x] += 1; }
        #define LAUNCH(S, TYPE) copy_##S<TYPE><<<1, 32>>>((TYPE*)p)
        void run(void* p) { LAUNCH(float, float); }
    """)


def test_a_file_of_uninstantiated_template_kernels_alone_keeps_its_refusal():
    # a header of template kernels translated by itself: KP216 and its hint, not an empty port
    assert "3:KP216" in errors("""
        template <int N>
        __global__ void unused(float* x) { x[threadIdx.x] *= N; }
    """)


CG = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
"""


def test_cooperative_groups_tiles_below_32_are_segments_of_the_simd_group():
    # KP217 before (only thread_block_tile<32>, the SIMD-group, had a meaning).  A W-tile is a W-lane
    # segment of the SIMD-group: shuffles are CUDA's width-W shuffles, votes the tile's bits of the ballot
    out = metal_checked(CG + """
        __device__ float quad_sum(cg::thread_block_tile<4>& q, float v) {
            for (int i = q.size() / 2; i > 0; i /= 2) v += q.shfl_xor(v, i);
            return v;
        }
        __global__ void k(float* out, const float* x) {
            cg::thread_block block = cg::this_thread_block();
            cg::thread_block_tile<16> h = cg::tiled_partition<16>(block);
            auto q = cg::tiled_partition<4>(block);
            float v = x[blockIdx.x * blockDim.x + threadIdx.x];
            float first = h.shfl(v, 0) + h.shfl_down(v, 1) + h.shfl_up(v, 1);
            unsigned b = h.ballot(v > 0.0f);
            if (h.any(v > 1.0f) && q.all(v > 0.0f))
                out[h.meta_group_rank() * 16 + h.thread_rank()] = first + quad_sum(q, v) + b + q.meta_group_size();
        }
    """)
    assert "for (int i = 4u / 2; i > 0; i /= 2) v += kp_simd_shuffle_xor(v, i, 4u, simd_lane);" in out
    assert ("float first = kp_simd_shuffle(v, 0, 16u, simd_lane) + kp_simd_shuffle_down(v, 1, 16u, simd_lane) + "
            "kp_simd_shuffle_up(v, 1, 16u, simd_lane);") in out
    assert "unsigned b = static_cast<uint>((static_cast<ulong>(simd_ballot(v > 0.0f)) >> (simd_lane & ~15u)) & 65535ul);" in out
    assert "(static_cast<ulong>(simd_ballot(v > 0.0f)) >> (simd_lane & ~3u)) & 15ul) == 15u)" in out
    assert "out[(simd_group * (32u / 16u) + simd_lane / 16u) * 16 + (simd_lane & 15u)]" in out
    assert "((bdim.x * bdim.y * bdim.z + 3u) / 4u)" in out


def test_what_a_subtile_has_no_meaning_for_stays_kp217():
    # sync: a SIMD-group barrier would wait for the other tiles too; a reduce over a sub-tile; one name, two widths
    sync = errors(CG + """
        __global__ void k(float* out) {
            auto q = cg::tiled_partition<8>(cg::this_thread_block());
            q.sync();
            out[0] = q.thread_rank();
        }
    """)
    assert any(e.endswith("KP217") for e in sync), sync
    reduce_ = errors("#include <cooperative_groups/reduce.h>\n" + CG + """
        __global__ void k(float* out) {
            auto q = cg::tiled_partition<8>(cg::this_thread_block());
            out[0] = cg::reduce(q, out[1], cg::plus<float>{});
        }
    """)
    assert any(e.endswith("KP217") for e in reduce_), reduce_
    two = errors(CG + """
        __device__ float f(cg::thread_block_tile<32>& t, float v) { return t.shfl(v, 0); }
        __device__ float g(cg::thread_block_tile<8>& t, float v) { return t.shfl(v, 0); }
        __global__ void k(float* out) { out[0] = 0; }
    """)
    assert any(e.endswith("KP217") for e in two), two


def test_a_launched_explicit_specialisation_or_a_header_keeps_its_template_kernel():
    # hecbench fma's `template <> __global__ void k<float>(...)`, launched as `k<float><<<...>>>`: named
    spec = """
        template <typename T> __global__ void k(T* x) { x[0] = 1; }
        template <> __global__ void k<float>(float* x) { x[0] = 2.0f; }
        __global__ void other(float* x) { x[0] = 3.0f; }
        void run(float* x) { k<float><<<1, 1>>>(x); other<<<1, 1>>>(x); }
    """
    assert "3:KP216" in errors(spec)  # (left out, unrefused, before the base name was searched)
    # a header: the sources that include it may instantiate what it does not name itself
    import textwrap
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    port, _ = translate(SourceFile.from_text(textwrap.dedent("""
        template <int N>
        __global__ void unused(float* x) { x[threadIdx.x] *= N; }
        __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }
    """), "t.cuh"), "metal")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP216"]
