"""The HIP port's nvcuda::wmma (kernelport/backends/hip_wmma.py): fragments over logical 32-lane warps,
exchanged by width-32 shuffles.  A wmma GEMM kernel ports and compiles for gfx90a (wave 64) and gfx1030
(wave 32); its warp arithmetic keeps CUDA's 32 (warpwidth: wmma's calls act on a 32-lane warp), and a
vote in such a kernel, whose mask would hold two warps of a 64-lane wave, is refused (KP219); the
polyfill's arithmetic is checked on the host against a plain GEMM, 64 lanes (two warps of one wave)
run as threads in lockstep at each shuffle, with HIP's `__shfl` and `__lane_id` semantics."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

GEMM = """\
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;
// C = A (row-major, M x K) * B (col-major, K x N), one 16x16 tile per warp; each warp also sums its tile
__global__ void wmma_gemm(const half* A, const half* B, float* C, float* sums, int M, int N, int K) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int lane = threadIdx.x % 32;
    int tm = warp / (N / 16), tn = warp % (N / 16);
    if (tm * 16 >= M) return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
        wmma::load_matrix_sync(b, B + tn * 16 * K + k, K);
        wmma::mma_sync(c, a, b, c);
    }
    float s = 0.0f;
    for (int i = 0; i < c.num_elements; ++i) s += c.x[i];
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) sums[warp] = s;
    wmma::store_matrix_sync(C + tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}
"""


def _port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), backend)


def test_a_wmma_gemm_s_hip_port_compiles_for_cdna_and_rdna(tmp_path):
    from test_header_uses import _hipcc
    port, whole = _port(GEMM)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#include <mma.h>" not in whole and "namespace wmma" in whole
    assert any(n.before == "<mma.h>" and n.after == "(defined in the port)" for n in port.notes)
    r = _hipcc(tmp_path, whole)
    assert r.returncode == 0, r.stderr[-3000:]


def test_a_wmma_kernel_keeps_cuda_s_32_lane_warps():
    """The fragments are spread over 32 lanes: the warp index, the lane and the shuffle's reach stay 32
    (at the wave width, two warps of a 64-lane wave would take one tile and sum two warps' tiles)."""
    port, whole = _port(GEMM)
    body = whole[whole.index("__global__"):]
    assert "threadIdx.x) / 32;" in body and "threadIdx.x % 32;" in body, body
    assert "o = 16;" in body and "__shfl_xor(s, o, 32)" in body, body
    assert "warpSize" not in body, body


def test_a_kernel_calling_its_own_mma_sync_still_reads_the_wave():  # look-alike: the name, not wmma's
    code = """\
__device__ float mma_sync(const float* a, int i) { return a[i] * 2.0f; }
__global__ void sum(const float* a, float* sums) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    float s = mma_sync(a, blockIdx.x * blockDim.x + threadIdx.x);
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
    if (threadIdx.x % 32 == 0) sums[warp] = s;
}
"""
    port, whole = _port(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    body = whole[whole.index("__global__"):]
    assert "/ warpSize;" in body and "__shfl_xor(s, o)" in body, body


def test_a_vote_in_a_wmma_kernel_is_refused_where_the_wave_holds_two_warps():
    code = GEMM.replace("if (lane == 0) sums[warp] = s;",
                        "unsigned m = __ballot_sync(0xffffffff, s > 0.0f);\n    if (lane == 0) sums[warp] = m;")
    port, _ = _port(code)
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert errors and {d.code for d in errors} == {"KP219"}, [d.format() for d in port.diagnostics]
    assert "mma_sync" in errors[0].message or "32-lane" in errors[0].message, errors[0].format()


def test_metal_still_refuses_wmma():
    port, _ = _port(GEMM, "metal")
    assert not port.ok and any(d.code in ("KP209", "KP223") for d in port.diagnostics)


def test_a_wmma_name_the_port_does_not_define_is_refused_at_its_use():
    code = GEMM.replace("wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;",
                        "wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> t;\n"
                        "    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;")
    port, _ = _port(code)
    errors = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    assert errors == [("KP209", 10)], [d.format() for d in port.diagnostics]
    assert "precision" in port.diagnostics[0].message


# -- the polyfill's arithmetic on the host -------------------------------------------------------------
# 64 threads are the lanes of one 64-lane wave (two 32-lane warps, each with its own matrices); HIP's
# __shfl (index = src + (lane & ~(width - 1))) exchanges through a slot array between two barriers.
_HOST = r"""
#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#define __device__
static thread_local unsigned kp_lane;
static std::barrier<>* kp_bar;
static unsigned __lane_id() { return kp_lane; }
template <class T> static T __shfl(T v, int src, int width) {
    static T slot[64];
    slot[kp_lane] = v;
    kp_bar->arrive_and_wait();
    T r = slot[src + (int)(kp_lane & ~(unsigned)(width - 1))];
    kp_bar->arrive_and_wait();
    return r;
}
POLYFILL
using namespace nvcuda::wmma;
static int failures = 0;
// D = 2 * (A * B + C) per warp, A/B/C/D with a leading dimension 4 past the tile's, the layouts given
template <int M, int N, int K, class T, class TC, class LA, class LB>
static void check(layout_t lc, layout_t ld, const char* what) {
    const unsigned lda = (std::is_same<LA, row_major>::value ? K : M) + 4;
    const unsigned ldb = (std::is_same<LB, row_major>::value ? N : K) + 4;
    const unsigned ldc = (lc == mem_row_major ? N : M) + 4, ldd = (ld == mem_row_major ? N : M) + 4;
    std::vector<T> A[2], B[2];
    std::vector<TC> C[2], D[2];
    for (int w = 0; w < 2; ++w) {
        A[w].resize(lda * 32); B[w].resize(ldb * 32); C[w].resize(ldc * 32); D[w].assign(ldd * 32, TC(-1));
        for (auto& v : A[w]) v = T(std::rand() % 7 - 3);
        for (auto& v : B[w]) v = T(std::rand() % 7 - 3);
        for (auto& v : C[w]) v = TC(std::rand() % 19 - 9);
    }
    std::barrier<> bar(64);
    kp_bar = &bar;
    std::vector<std::thread> lanes;
    for (unsigned l = 0; l < 64; ++l)
        lanes.emplace_back([&, l] {
            kp_lane = l;
            const int w = l / 32;
            fragment<matrix_a, M, N, K, T, LA> a;
            fragment<matrix_b, M, N, K, T, LB> b;
            fragment<accumulator, M, N, K, TC> c;
            load_matrix_sync(a, A[w].data(), lda);
            load_matrix_sync(b, B[w].data(), ldb);
            load_matrix_sync(c, C[w].data(), ldc, lc);
            mma_sync(c, a, b, c);
            for (int i = 0; i < c.num_elements; ++i) c.x[i] = c.x[i] * TC(2);
            store_matrix_sync(D[w].data(), c, ldd, ld);
        });
    for (auto& t : lanes) t.join();
    for (int w = 0; w < 2; ++w)
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                TC want = lc == mem_row_major ? C[w][i * ldc + j] : C[w][j * ldc + i];
                for (int k = 0; k < K; ++k) {
                    T a = std::is_same<LA, row_major>::value ? A[w][i * lda + k] : A[w][k * lda + i];
                    T b = std::is_same<LB, row_major>::value ? B[w][k * ldb + j] : B[w][j * ldb + k];
                    want += TC(a) * TC(b);
                }
                want = want * TC(2);
                TC got = ld == mem_row_major ? D[w][i * ldd + j] : D[w][j * ldd + i];
                if (got != want && failures++ < 5)
                    std::printf("%s warp %d: D[%d][%d] = %g, want %g\n", what, w, i, j, (double)got, (double)want);
            }
}
int main() {
    check<16, 16, 16, float, float, row_major, col_major>(mem_row_major, mem_row_major, "16x16x16 f32 rc");
    check<16, 16, 16, float, float, col_major, row_major>(mem_col_major, mem_row_major, "16x16x16 f32 cr");
    check<32, 8, 16, signed char, int, row_major, row_major>(mem_row_major, mem_col_major, "32x8x16 s8 rr");
    check<8, 32, 16, signed char, int, col_major, col_major>(mem_col_major, mem_col_major, "8x32x16 s8 cc");
    check<8, 8, 4, double, double, row_major, col_major>(mem_row_major, mem_row_major, "8x8x4 f64 rc");
    std::printf("%d failures\n", failures);
    return failures != 0;
}
"""


def test_the_polyfill_computes_d_equals_a_b_plus_c_on_each_warp_of_a_64_lane_wave(tmp_path):
    from conftest import run_host_check
    from kernelport.backends.hip_wmma import WMMA_POLYFILL
    run_host_check(tmp_path, "wmma_host", _HOST.replace("POLYFILL", WMMA_POLYFILL))


_HELPER = """\
__device__ inline float warp_sum(float s) {
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
    return s;
}
"""


def _summing(include: str) -> str:
    return GEMM.replace("for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);",
                        "s = warp_sum(s);").replace("#include <mma.h>\n", "#include <mma.h>\n" + include)


def test_a_header_s_warp_helper_called_by_a_wmma_kernel_is_refused_at_the_call(tmp_path):
    """The header is ported on its own at the wave width: at wave 64 its fold would sum two wmma warps."""
    from trust_support import kp_inproc
    (tmp_path / "warp_util.cuh").write_text(_HELPER)
    path = tmp_path / "t.cu"
    path.write_text(_summing('#include "warp_util.cuh"\n'))
    rc, _, err = kp_inproc("translate", path, "--to", "hip")
    assert rc != 0 and "t.cu:22:9: error: KP219 `warp_sum` is a header's warp helper" in err, err
    assert "`wmma::fill_fragment` (line 14) keeps 32-lane warps" in err, err


def test_the_same_helper_in_the_file_keeps_the_kernel_s_32_lanes():  # look-alike: one group, width 32
    port, whole = _port(_summing(_HELPER))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "o = 16;" in whole and "__shfl_xor(s, o, 32)" in whole and "warpSize" not in whole[
        whole.index("inline float warp_sum"):], whole


def _reading(loop: str) -> str:
    return GEMM.replace("for (int i = 0; i < c.num_elements; ++i) s += c.x[i];", loop)


def test_a_fragment_element_read_by_its_place_is_refused_at_its_line():
    """The layout is CUDA's unspecified one: `c.x[0]`, a hard-coded count (`i < 8`, CUDA's accumulator count
    at 16x16x16 only) or a lane-derived index would read the tensor cores' layout, not the port's."""
    for loop in ("s = c.x[0];", "for (int i = 0; i < 8; ++i) s += c.x[i];",
                 "for (int i = 0; i < c.num_elements; i += 2) s += c.x[i];", "s = c.x[lane % 8];"):
        port, _ = _port(_reading(loop))
        errors = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
        assert errors == [("KP209", 20)], (loop, [d.format() for d in port.diagnostics])
        assert "reads a fragment element by its place" in port.diagnostics[0].message


def test_element_wise_loops_over_num_elements_are_ported():  # look-alikes: every element, by its index
    for loop in ("for (int i = 0; i < c.num_elements; ++i) s += c.x[i];",
                 "for (size_t i{0U}; i < c.num_elements; i++) { c.x[i] = 2.0f * c.x[i]; s += c.x[i]; }",
                 "float v[8] = {}; for (int i = 0; i < c.num_elements; ++i) s += c.x[i] * v[0];"):
        port, _ = _port(_reading(loop))
        assert port.ok, (loop, [d.format() for d in port.diagnostics])
