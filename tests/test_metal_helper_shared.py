"""A helper's __shared__ array declared by the kernels that call it (kernelport/backends/metal/helper_shared.py):
each helper's array its own (CUDA's meaning: one array per function and per template instance), its type and
size bound from the kernel's call.  Ports type-checked by kernelport's Metal checker only (a clang model of
MSL; no Metal compiler runs on Linux)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked
except ImportError:  # pragma: no cover
    from conftest import metal_checked
from port_support import refusal


def errors(code: str) -> list[str]:
    return [f"{d.location.line}:{d.code}" for d in refusal(code, to="metal")]


REDUCE = """
    template <typename T>
    __device__ T blockMax(T v)
    {
        static __shared__ T shared[32];
        if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = v;
        __syncthreads();
        return shared[0];
    }
    template <typename T, int NUM>
    __device__ T blockSumV2(T* v)
    {
        static __shared__ T shared[32][NUM];
        if (threadIdx.x % 32 == 0) for (int i = 0; i < NUM; i++) shared[threadIdx.x / 32][i] = v[i];
        __syncthreads();
        return shared[0][0];
    }
"""


def test_two_helpers_arrays_of_one_name_are_two_kernel_arrays_of_the_calls_instances():
    # FasterTransformer's blockReduceMax / blockReduceSumV2 (tests/corpus/ft_block_reduce.cu): both name
    # their array `shared`.  Before: the kernel declared one `threadgroup T shared[32]` (the kernel's own
    # T, not the call's float) and passed it to both: KP224 'no matching function' for blockSumV2, and
    # where the shapes agree, one array where CUDA has two
    out = metal_checked(REDUCE + """
    template <typename T>
    __global__ void k(T* out)
    {
        float sums[2] = {1.0f, 2.0f};
        float m = blockMax<float>((float)out[0]);
        out[threadIdx.x] = (T)(m + blockSumV2<float, 2>(sums));
    }
    template __global__ void k<int>(int*);
    """)
    assert "threadgroup float shared_blockMax[32];" in out
    assert "threadgroup float shared_blockSumV2[32][2];" in out
    assert "threadgroup T (*shared_blockSumV2)[NUM]" in out  # the helper's parameter keeps its own template
    assert "blockSumV2<float, 2>(sums, shared_blockSumV2" in out


def test_a_defaulted_template_argument_sizes_the_array_through_a_local_constant():
    # vLLM's blockReduceSum<T, int maxBlockSize = 1024> called as blockReduceSum<float>(v): its array's
    # size is a constexpr local of maxBlockSize (before: `maxBlockSize` and `T` undeclared in the kernel, KP224)
    out = metal_checked("""
    template <typename T, int maxBlockSize = 1024>
    __device__ T blockSum(T val)
    {
        constexpr int lanes = (maxBlockSize + 31) / 32;
        static __shared__ T shared[lanes];
        if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = val;
        __syncthreads();
        return shared[0];
    }
    __global__ void k(float* out) { out[threadIdx.x] = blockSum<float>(out[threadIdx.x]); }
    """)
    assert "threadgroup float shared[((1024 + 31) / 32)];" in out


def test_a_template_argument_deduced_from_a_declared_argument():
    # cudf's single_lane_block_sum_reduce<block_size, leader_lane>(warp_valid_count): T from the local's type
    out = metal_checked("""
    template <int N, typename T>
    __device__ T sumLanes(T v)
    {
        __shared__ T vals[N];
        vals[threadIdx.x % N] = v;
        __syncthreads();
        return vals[0];
    }
    __global__ void k(unsigned int* out)
    {
        unsigned int count{3};
        out[threadIdx.x] = sumLanes<32>(count);
    }
    """)
    assert "threadgroup unsigned int vals[32];" in out


def test_two_instances_of_one_helper_in_a_kernel_are_two_arrays_of_their_types():
    """Re-pinned in stop 49 (tginst49): it was KP213 (one kernel-scope declaration cannot be float and
    int at once); each template instance now has its own array (instance_shared.py), as in CUDA."""
    out = metal_checked(REDUCE + """
    __global__ void k(float* out, int* n)
    {
        out[threadIdx.x] = blockMax<float>(out[0]);
        n[threadIdx.x] = blockMax<int>(n[0]);
    }
    """)
    assert "threadgroup float shared_blockMax[32];" in out and "threadgroup int shared_blockMax_1[32];" in out, out
    assert "blockMax<float>(out[0], shared_blockMax," in out and "blockMax<int>(n[0], shared_blockMax_1," in out, out


def test_an_argument_the_port_cannot_deduce_is_refused_at_the_array():
    # T deduced from an expression: no guess of its type (the kernel's own T is not the helper's)
    assert "5:KP213" in errors(REDUCE + """
    template <typename T>
    __global__ void k(T* out)
    {
        out[threadIdx.x] = (T)blockMax(out[0] * 2.0f);
    }
    template __global__ void k<int>(int*);
    """)


def test_a_helper_array_whose_name_nothing_else_declares_keeps_its_name():
    out = metal_checked("""
    __device__ float first(float v)
    {
        __shared__ float slot[1];
        if (threadIdx.x == 0) slot[0] = v;
        __syncthreads();
        return slot[0];
    }
    __global__ void k(float* out) { out[threadIdx.x] = first(out[threadIdx.x]); }
    """)
    assert "threadgroup float slot[1];  // for first()" in out


def test_a_file_scope_array_stays_one_array_beside_a_helpers_array_of_its_name():
    # Stop 41's file-scope arrays and stop 42's per-helper arrays together (h/metal42 was reverted for
    # breaking the first).  Before: every function naming the file-scope `shared` counted as an owner of
    # its own array, so fromFile and fileT each got a renamed copy (three arrays where CUDA has one, the
    # kernel's writes in one, the helpers' reads in others; the rename walked the whole file) and fileT's
    # template parameter N sized the file's array (8 where the file says N = 32)
    out = metal_checked("""
    constexpr int N = 32;
    __shared__ float shared[N];
    template <int WARPS>
    __device__ float blockMax(float v)
    {
        static __shared__ float shared[WARPS];
        if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = v;
        __syncthreads();
        return shared[0];
    }
    __device__ float fromFile(int i) { return shared[N - 1 - i]; }
    template <int N>
    __device__ float fileT(int i) { return shared[i % N]; }
    __global__ void k(float* out)
    {
        shared[threadIdx.x] = out[threadIdx.x];
        __syncthreads();
        out[threadIdx.x] = blockMax<4>(out[0]) + fromFile(threadIdx.x) + fileT<8>(threadIdx.x);
    }
    """)
    kernel = out[out.index("kernel void k"):]
    assert kernel.count("threadgroup float") == 2, kernel
    assert "threadgroup float shared[N];  // file scope" in kernel
    assert "threadgroup float shared_blockMax[4];  // for blockMax()" in kernel
    assert "float fromFile(int i, threadgroup float* shared) { return shared[N - 1 - i]; }" in out
    assert "float fileT(int i, threadgroup float* shared) { return shared[i % N]; }" in out
    assert "shared[tid.x] = out[tid.x];" in kernel
    assert "blockMax<4>(out[0], shared_blockMax, tid) + fromFile(tid.x, shared) + fileT<8>(tid.x, shared)" in kernel
