"""C++ of library kernels on the emulator (issue 18: apex's groupbn and layer norm): class templates
used as compile-time tables, template type arguments deduced from the arguments' declarations,
block-scope typedefs and const lengths, vector loads, vectors in sparsely taken branches.  Each
with the look-alike that must stay as it was."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

TABLES = """
template <typename T, int N>
struct Packed { enum { ELEMS = N }; typedef T Type; };
template <int N>
struct Packed<unsigned short, N> { enum { ELEMS = N / 2 }; typedef int Type; };
template <int P, int E>
struct Sums {
    template <int T>
    __device__ static void dispatch(float* y, int v) { y[0] = v + 1000 * T + P; }
};
template <>
struct Sums<16, 4> {
    template <int T>
    __device__ static void dispatch(float* y, int v) { y[0] = v - T; }
};
struct Scratch;
template <typename T> struct Smem;
template <> struct Smem<float> { __device__ float* get() { extern __shared__ float s_f[]; return s_f; } };
template <typename S>
__global__ void k(float* y) {
    typedef Packed<S, 4> P;
    typedef typename P::Type Word;
    Word w[P::ELEMS];
    w[0] = 7;
    Sums<16, 4>::dispatch<3>(y + threadIdx.x, w[0] + P::ELEMS);
    Sums<8, 4>::dispatch<3>(y + 8 + threadIdx.x, sizeof(Word));
    Smem<float> sm;
    float* buf = sm.get();
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    y[16 + threadIdx.x] = buf[3 - threadIdx.x];
}
"""


def _tables(targ: str, src: str = TABLES):
    return run_kernel(src, "k", args=dict(y=np.zeros(32, np.float32)), grid=(1, 1, 1), block=(4, 1, 1),
                      shared_bytes=16, template_args=[targ]).outputs["y"]


def test_class_template_members_take_the_most_specialized_definition():
    """Packed<unsigned short, 4> is the partial specialization (int, 2 elements); Packed<float, 4>
    the primary (float, 4); Sums<16, 4> the full specialization, Sums<8, 4> the primary."""
    y = _tables("unsigned short")
    assert y[0] == 7 + 2 - 3 and y[8] == 4 + 3000 + 8
    y = _tables("float")
    assert y[0] == 7 + 4 - 3 and y[8] == 4 + 3000 + 8
    assert y[16:20].tolist() == [3, 2, 1, 0]  # a data-less class's object calls its member


def test_a_member_no_definition_has_stays_an_error():
    with pytest.raises(EmulatorError):
        _tables("float", TABLES.replace("Sums<8, 4>::dispatch<3>", "Sums<8, 4>::other<3>"))


DEDUCE = """
template <typename T, typename U>
__device__ void mean_of(const T* v, int n, U& mu) {
    U sum = U(0);
    for (int i = 0; i < n; ++i) sum += static_cast<U>(v[i]);
    mu = sum / U(n);
}
__global__ void k(const int* x, float* y, int* z) {
    float mu;
    int imu;
    mean_of(x + 4 * threadIdx.x, 4, mu);
    mean_of(x + 4 * threadIdx.x, 4, imu);
    y[threadIdx.x] = mu;
    z[threadIdx.x] = imu;
}
"""


def test_template_type_arguments_are_deduced_from_the_arguments_declarations():
    """U is float for `float mu` and int for `int imu` (`U(0)` needs the type when lowered); T
    (from `x + 4 * t`, no declaration) is left to the run, as before."""
    args = dict(x=np.arange(16, dtype=np.int32), y=np.zeros(4, np.float32), z=np.zeros(4, np.int32))
    out = run_kernel(DEDUCE, "k", args=args, grid=(1, 1, 1), block=(4, 1, 1)).outputs
    assert out["y"].tolist() == [1.5, 5.5, 9.5, 13.5]
    assert out["z"].tolist() == [1, 5, 9, 13]  # integer division


def test_block_scope_typedef_const_length_and_vector_loads():
    src = """
__global__ void k(const float* x, float* y) {
    typedef float Word;
    const int HALF = 8 / 2;
    Word w[HALF];
    float4 v = __ldg(reinterpret_cast<const float4*>(&x[4 * threadIdx.x]));
    float4 u = *(const float4*)&x[4 * threadIdx.x];
    w[0] = v.x + v.y + v.z + v.w;
    w[HALF - 1] = u.w;
    y[threadIdx.x] = w[0] + w[HALF - 1] + sizeof(Word);
}
"""
    args = dict(x=np.arange(16, dtype=np.float32), y=np.zeros(4, np.float32))
    y = run_kernel(src, "k", args=args, grid=(1, 1, 1), block=(4, 1, 1)).outputs["y"]
    assert y.tolist() == [6 + 3 + 4, 22 + 7 + 4, 38 + 11 + 4, 54 + 15 + 4]
    with pytest.raises(EmulatorError, match=":5:12: `HALF` is not a constant expression"):  # a run-time value
        run_kernel(src.replace("const int HALF = 8 / 2;", "const int n = threadIdx.x; const int HALF = n;"),
                   "k", args=args, grid=(1, 1, 1), block=(4, 1, 1))


def test_a_vector_in_a_branch_few_lanes_take():
    """Few of 512 lanes take the branch (it runs on those lanes alone): its vector is gathered and
    scattered back component by component."""
    src = """
__global__ void k(const float* x, float* y) {
    int t = threadIdx.x;
    float2 v = make_float2(x[t], 1.0f);
    if (t % 64 == 5) { v.y = v.x * 2.0f; }
    y[t] = v.x + v.y;
}
"""
    x = np.arange(512, dtype=np.float32)
    y = run_kernel(src, "k", args=dict(x=x, y=np.zeros(512, np.float32)), grid=(1, 1, 1),
                   block=(512, 1, 1)).outputs["y"]
    want = x + np.where(np.arange(512) % 64 == 5, 2 * x, 1)
    assert y.tolist() == want.tolist()


def test_a_compile_error_says_the_same_on_the_next_run():
    src = "__global__ void k(float* y) { y[threadIdx.x] = nope(1); }"
    for _ in range(2):
        with pytest.raises(EmulatorError, match="unknown function `nope`"):
            run_kernel(src, "k", args=dict(y=np.zeros(4, np.float32)), grid=(1, 1, 1), block=(4, 1, 1))


def test_another_kernel_that_does_not_lower_does_not_stop_this_one():
    src = """
__global__ void other(float* y) { Unknown<int> u; y[0] = 1; }
__global__ void k(float* y) { y[threadIdx.x] = 2; }
"""
    y = run_kernel(src, "k", args=dict(y=np.zeros(4, np.float32)), grid=(1, 1, 1), block=(4, 1, 1)).outputs["y"]
    assert y.tolist() == [2, 2, 2, 2]
    with pytest.raises(EmulatorError, match=":2:"):  # that kernel itself is still refused at its line
        run_kernel(src, "other", args=dict(y=np.zeros(4, np.float32)), grid=(1, 1, 1), block=(4, 1, 1))


SPECIAL = """
template <typename U> __device__ U twice(U v) { return v + v; }
template <> __device__ float twice(float v) { return v * 2.0f + 1000.0f; }
template <> __device__ void twice(const at::Half* v) { }
__global__ void k(const float* x, const int* n, float* y, int* z) {
    float a = x[threadIdx.x], b = 1.0f;
    int i = n[threadIdx.x];
    y[threadIdx.x] = twice(a);
    y[4 + threadIdx.x] = twice(a + b);
    z[threadIdx.x] = twice(i);
}
"""


def test_an_explicit_specialization_runs_where_the_arguments_have_its_types():
    """`twice(a)` with `float a` (and `a + b` of floats) takes `template<> float twice(float)`;
    `twice(i)` with `int i` the primary; the at::Half one, which the emulator cannot lower, is
    never chosen, so it does not stop the file."""
    args = dict(x=np.arange(4, dtype=np.float32), n=np.arange(4, dtype=np.int32), y=np.zeros(8, np.float32),
                z=np.zeros(4, np.int32))
    out = run_kernel(SPECIAL, "k", args=args, grid=(1, 1, 1), block=(4, 1, 1)).outputs
    assert out["y"].tolist() == [1000, 1002, 1004, 1006, 1002, 1004, 1006, 1008]
    assert out["z"].tolist() == [0, 2, 4, 6]


def test_a_library_warp_helper_the_file_does_not_define_runs_as_its_concept():
    """PyTorch's WARP_SHFL(value, lane[, width][, mask]) from a header not in the set: its width
    defaults to the wave (apex layer norm's hazard); an explicit 32 keeps the halves apart."""
    src = """
__global__ void k(const float* x, float* y) {
    int t = threadIdx.x;
    y[t] = WARP_SHFL(x[t], (t + 1) & 31);
    y[64 + t] = WARP_SHFL(x[t], (t + 1) & 31, 32);
}
"""
    def run(wave):
        return run_kernel(src, "k", args=dict(x=np.arange(64, dtype=np.float32), y=np.zeros(128, np.float32)),
                          grid=(1, 1, 1), block=(64, 1, 1), wave=wave).outputs["y"]
    assert run(32)[30:34].tolist() == [31, 0, 33, 34]
    wide = run(64)
    assert wide[30:34].tolist() == [31, 0, 1, 2] and wide[94:98].tolist() == [31, 0, 33, 34]
    with pytest.raises(EmulatorError, match="`WARP_SHFL` called with 1 arguments"):
        run_kernel(src.replace("WARP_SHFL(x[t], (t + 1) & 31)", "WARP_SHFL(x[t])"), "k",
                   args=dict(x=np.zeros(64, np.float32), y=np.zeros(128, np.float32)), grid=(1, 1, 1),
                   block=(64, 1, 1))
