"""Lint behaviours designed on tests/labelled8 (HOOMD-blue's HIP port and others), each with a case
it must flag, where it points, and a look-alike it must not:

- an autotuner that sweeps block sizes from 32 in steps of 32 and pairs each with lane groups up to
  the device's warp size puts a 64-lane group in a 32-thread block on a 64-lane wave (WS024), and
  names the read of the warp size that bounds the groups;
- a C++ source (`.cc`, `.cpp`, `.cxx`) is linted like a header: when it holds device code (HIP kernels
  a build compiles as HIP) or is named on the command line (the host code that picks block sizes)."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import discovery
from kernelport.lint.engine import lint_paths, lint_text

TUNER = """\
template <class evaluator>
PairGPU<evaluator>::PairGPU(std::shared_ptr<Conf> conf) : m_conf(conf)
    {
    std::vector<unsigned int> valid_params;
    const unsigned int max_tpp = m_conf->dev_prop.warpSize;
    for (unsigned int block_size = 32; block_size <= 1024; block_size += 32)
        {
        unsigned int s = 1;
        while (s <= max_tpp)
            {
            valid_params.push_back(block_size * 10000 + s);
            s = s * 2;
            }
        }
    m_tuner.reset(new Autotuner(32, 1024, 32, 5, 100000, "bonds", m_conf));
    }
"""


def _ws(text: str, code: str, name: str = "t.h"):
    return [f for f in lint_text(text, name) if f.code == code]


def test_a_block_sweep_by_32_with_groups_up_to_the_device_warp_size_is_flagged():
    found = _ws(TUNER, "WS024")
    assert [f.line for f in found] == [6]  # the sweep, not the element-wise tuner's Autotuner(32, 1024, 32, ...)
    assert [r.line for r in found[0].related] == [9]  # `while (s <= max_tpp)`: max_tpp is the device's warp size
    assert found[0].severity == "error"


def test_a_sweep_by_the_warp_size_or_with_groups_bounded_by_32_or_by_the_block_is_quiet():
    by_wave = TUNER.replace("block_size = 32; block_size <= 1024; block_size += 32",
                            "block_size = max_tpp; block_size <= 1024; block_size += max_tpp")
    assert not _ws(by_wave, "WS024")
    assert not _ws(TUNER.replace("while (s <= max_tpp)", "while (s <= 32)"), "WS024")
    assert not _ws(TUNER.replace("while (s <= max_tpp)", "while (s <= max_tpp && s <= block_size)"), "WS024")
    assert not _ws(TUNER.replace("block_size += 32", "block_size *= 2"), "WS024")


def test_cxx_sources_are_lint_inputs_like_headers(tmp_path: Path):
    for ext in (".cc", ".cpp", ".cxx"):
        assert discovery.kind(Path("x" + ext)) == discovery.HEADER
    host = tmp_path / "tuner.cc"
    host.write_text(TUNER, encoding="utf-8")
    kernel = tmp_path / "k.cpp"
    kernel.write_text("__global__ void k(unsigned* out) { unsigned m = __ballot(out[threadIdx.x] > 0); out[0] = m; }\n",
                      encoding="utf-8")
    plain = tmp_path / "main.cpp"
    plain.write_text("int main() { return 32; }\n", encoding="utf-8")
    named = lint_paths([host])
    assert [f.code for r in named for f in r.findings] == ["WS024"]  # named on the command line: linted
    walked = {Path(r.path).name: r for r in lint_paths([tmp_path])}
    assert {f.code for f in walked["k.cpp"].findings} == {"WS008"}  # device code found in a tree: linted
    assert "main.cpp" not in walked or walked["main.cpp"].skipped  # no device code in a tree: not a lint input


COMPAT = """\
#define gpu_block_dim_x (blockDim.x)
#define gpu_warp_size (warpSize)
#define gpu_thread_mask(thread_warp) uint(0xFFFFFFFF >> (gpu_warp_size - thread_warp))
#define gpu_ballot(predicate) __ballot(predicate)
"""


def test_a_lane_mask_built_in_32_bits_from_the_warp_size_is_flagged_in_a_macro_and_in_code():
    found = _ws(COMPAT, "WS025")
    col = COMPAT.splitlines()[2].index("0xFFFFFFFF") + 1
    assert [(f.line, f.column) for f in found] == [(3, col)]  # the 0xFFFFFFFF in the macro's replacement list
    code = "__device__ unsigned below(int lane) { return 0xffffffffu << (warpSize - lane); }\n"
    assert [f.line for f in _ws(code, "WS025", "t.cu")] == [1]


def test_a_64_bit_lane_mask_or_a_32_bit_data_field_is_quiet():
    assert not _ws(COMPAT.replace("uint(0xFFFFFFFF >>", "uint64_t(0xFFFFFFFFFFFFFFFFull >>"), "WS025")
    assert not _ws(COMPAT.replace("gpu_warp_size - thread_warp", "32 - thread_warp"), "WS025")
    assert not _ws("__device__ unsigned low(unsigned w, int b) { return w & (0xFFFFFFFFu >> (32 - b)); }\n",
                   "WS025", "t.cu")


# Kokkos at 07495ac203^, reduced: a vector length rounded down to a power of two by 5 doublings (at
# most 32) while the length is bounded by the HIP wave (`HIPTraits::WarpSize`, 64 on CDNA).
ROUNDING = """\
struct HIPTraits { static int constexpr WarpSize = 64; };
struct TeamPolicyInternal {
  static int vector_length_max() { return HIPTraits::WarpSize; }
  static int verify_requested_vector_length(int requested_vector_length) {
    int test_vector_length = std::min(requested_vector_length, vector_length_max());
    if (!(is_integral_power_of_two(test_vector_length))) {
      int test_pow2 = 1;
      for (int i = 0; i < 5; i++) {
        test_pow2 = test_pow2 << 1;
        if (test_pow2 > test_vector_length) {
          break;
        }
      }
      test_vector_length = test_pow2 >> 1;
    }
    return test_vector_length;
  }
};
"""


def test_five_doublings_compared_with_a_length_the_wave_bounds_are_flagged():
    found = _ws(ROUNDING, "WS030", "Kokkos_HIP_Parallel_Team.hpp")
    assert [f.line for f in found] == [8]
    assert [r.line for r in found[0].related] == [10, 5]  # the comparison, the call that reads the wave


def test_five_doublings_against_a_count_or_six_or_a_loop_to_the_wave_stay_quiet():
    name = "Kokkos_HIP_Parallel_Team.hpp"
    assert not _ws(ROUNDING.replace("vector_length_max());", "max_items);"), "WS030", name)
    assert not _ws(ROUNDING.replace("i < 5", "i < 6"), "WS030", name)
    assert not _ws(ROUNDING.replace("for (int i = 0; i < 5; i++)", "while (test_pow2 < vector_length_max())"),
                   "WS030", name)
