"""Second real-world CUDA corpus: kernelport's HIP and Metal ports and its lint on warp-level code
from public projects not covered by tests/corpus/ (cusplibrary, PCL, faiss, LightGBM, FBGEMM and
cuda-samples files other than the first corpus's).

Every file under tests/corpus2/ is real code trimmed to a self-contained file that
`nvcc -c -arch=sm_80` compiles; its first line names the source and licence.  Where a trimmed file
adds a minimal caller that is not in the project, the file says so in a comment.

For each file:
  (a) the HIP translation succeeds, or stops with the diagnostic codes that are the right answer;
  (b) the HIP port compiles with hipcc for gfx90a (wave64) and gfx1030 (wave32);
  (c) precise expectations on the output text encode an AMD expert's review: every warp-size
      assumption rewritten consistently (a lane numbered to 63 next to a 32-lane scan or a
      32-slot array computes wrong numbers on wave64), every look-alike left alone;
  (d) the Metal port passes the Metal checker, or stops with the located diagnostics that are
      the right answer;
  (e) lint finds the real hazards (rule and line) and is silent on the look-alike lines.

Checks that fail today because of a kernelport bug are `xfail(strict=True)` with the bug as the
reason, so they flip to XPASS (and fail the run) when the bug is fixed: then drop the marker.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from kernelport.errors import KernelportError
from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool
from corpus_support import body, originals_built, port_built, xfail

CORPUS = Path(__file__).resolve().parent / "corpus2"
FILES = sorted(CORPUS.glob("*.cu"))
NAMES = [p.stem for p in FILES]
HIP_FLAGS = ("-std=c++17",)
ALL_TARGETS = ["cuda", "hip-cdna", "hip-rdna", "metal"]




# ---------------------------------------------------------------------------------------------
# helpers (body() and xfail() come from tests/corpus_support.py)
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def port(name: str, target: str = "hip", allow_unported: bool = False):
    """(port, text), or (None, error message) when kernelport refuses the file outright."""
    src = SourceFile.read(CORPUS / f"{name}.cu")
    try:
        return translate(src, target, allow_unported=allow_unported, source_label=f"corpus2/{name}.cu")
    except KernelportError as e:  # e.g. a syntax error on code that nvcc accepts
        return None, str(e)


def out(name: str, target: str = "hip") -> str:
    p, text = port(name, target, True)
    assert p is not None, text
    return text


def error_codes(name: str, target: str = "hip") -> set[str] | None:
    p, _ = port(name, target)
    if p is None:
        return None
    return {d.code for d in p.diagnostics if d.severity == "error"}


@lru_cache(maxsize=None)
def findings(name: str):
    text = (CORPUS / f"{name}.cu").read_text()
    return tuple(lint_text(text, f"{name}.cu", "cuda", targets=ALL_TARGETS))


def src_line(name: str, line: int) -> str:
    return (CORPUS / f"{name}.cu").read_text().splitlines()[line - 1]


# ---------------------------------------------------------------------------------------------
# corpus hygiene
# ---------------------------------------------------------------------------------------------
def test_corpus2_is_complete_and_attributed():
    assert 12 <= len(FILES) <= 16
    assert set(NAMES) == set(EXPECT) == set(METAL_EXPECT) == set(LINT)
    first_corpus = {p.stem for p in (CORPUS.parent / "corpus").glob("*.cu")}
    assert not set(NAMES) & first_corpus
    for f in FILES:
        lines = f.read_text().splitlines()
        assert re.match(r"// Source: \S+/\S+ .*\((MIT|BSD|Apache)[^)]*\) — trimmed for the kernelport test corpus",
                        lines[0]), f"{f.name}: {lines[0]}"
        assert len(lines) <= 250, f.name


@pytest.fixture(scope="module")
def originals():
    return originals_built(FILES)


@pytest.mark.parametrize("path", FILES, ids=NAMES)
def test_original_compiles_with_nvcc(path, originals):
    r = originals[path]
    assert r.ok, r.output[-3000:]


# ---------------------------------------------------------------------------------------------
# (a) HIP translation outcome.  codes: the error codes that are the right answer (empty = must
#     translate); bug: what kernelport does instead today.
# ---------------------------------------------------------------------------------------------
EXPECT: dict[str, dict] = {
    "cuda_samples_bitonic_sort": dict(codes=set()),          # look-alike: `& (stride - 1)` indexing
    "cuda_samples_matrix_mul": dict(codes=set()),            # look-alike: BLOCK_SIZE 32 tile, 32-step loop
    "cuda_samples_scan": dict(codes=set()),                  # look-alike: volatile scan with barriers
    "cuda_samples_shfl_integral_image": dict(codes=set()),   # 32-wide CG tiles, explicit width 32
    "cuda_samples_threadfence_reduction": dict(codes=set()),  # VEC = 32 with tiled_partition<32>
    "cuda_samples_warp_aggregated_atomics": dict(
        # mapToBuckets/calculateMaxInEachBuckets have their whole body, and their helpers, under `#if
        # __CUDA_ARCH__ >= 700` with no #else: every current GPU runs it, so the port is that code (stop 51,
        # kernelport/arch_branches.py; was KP208, empty kernels), refused where HIP lacks what it uses:
        # cg::labeled_partition (KP210, not in ROCm 5.2) and cg::reduce (<cooperative_groups/reduce.h>, KP209).
        codes={"KP209", "KP210"}),
    "cusp_csr_vector_spmv": dict(codes=set()),   # logical vectors of <= 32 lanes, lockstep is per wave
    "faiss_block_reduce": dict(codes=set()),
    # extern __shared__ __align__(16) float smem[]; KP225: lint's WS014, a 64 under the AMD guard (RDNA is 32)
    "fbgemm_quantize_mx4": dict(codes={"KP225"}),
    "lightgbm_shuffle_reduce": dict(codes={"KP203"}),  # 0xffffffff >> (warpSize - len): a lane-count mask
    "pcl_kinfu_block_reduce": dict(codes=set()),
    "pcl_kinfu_extract": dict(codes=set()),      # the %laneid PTX idiom has a rewrite (__lane_id())
}


def _outcome_params():
    for name in NAMES:
        e = EXPECT[name]
        yield pytest.param(name, id=name, marks=[xfail(e["bug"])] if e.get("bug") else [])


@pytest.mark.parametrize("name", list(_outcome_params()))
def test_hip_translation_outcome(name):
    codes = error_codes(name)
    want = EXPECT[name]["codes"]
    assert codes == want, port(name)[0].diagnostics if codes is not None else port(name)[1]


def test_warp_aggregated_atomics_diagnosed_at_their_lines():
    p, _ = port("cuda_samples_warp_aggregated_atomics")
    got = sorted((d.code, d.location.line) for d in p.diagnostics if d.severity == "error")
    # the two #if bodies, and the first use of <cooperative_groups/reduce.h>'s names (`cg::reduce`, KP209 at
    # the use: kernelport.header_uses), not the include
    assert got == [("KP209", 91), ("KP210", 50), ("KP210", 89)]  # (stop 51: was KP208 at the #if bodies, 69 and 103)


def test_lightgbm_partial_mask_diagnosed_at_its_line():
    p, _ = port("lightgbm_shuffle_reduce")
    assert [d.location.line for d in p.diagnostics if d.code == "KP203"] == [164]  # the shuffle that takes the mask


# ---------------------------------------------------------------------------------------------
# (b) the HIP port compiles for gfx90a and gfx1030 (made with --allow-unported)
# ---------------------------------------------------------------------------------------------
COMPILE_BUGS: dict[str, str] = {}  # (shfl_integral_image's tile.meta_group_rank(): the built-ins it means, b7b674a)


# Files whose translation rightly stops: even --allow-unported output keeps what has no HIP form.
NO_PORT = {"cuda_samples_warp_aggregated_atomics": "KP210 (cg::labeled_partition), KP209 (<cooperative_groups/reduce.h>)"}


def _compile_params():
    for name in (n for n in NAMES if n not in NO_PORT):
        yield pytest.param(name, id=name, marks=[xfail(COMPILE_BUGS[name])] if name in COMPILE_BUGS else [])


@pytest.mark.parametrize("name", list(_compile_params()))
def test_hip_port_compiles_for_gfx90a_and_gfx1030(name, tmp_path):
    r = port_built(name, out(name), tmp_path, HIP_FLAGS)
    assert r.ok, r.output[-3000:]


# ---------------------------------------------------------------------------------------------
# (c) expert review of the HIP output
# ---------------------------------------------------------------------------------------------
# --- faiss: kWarpSize = 32 (CUDA branch) sizes shuffles, warp ids and smem slots; getLaneId() is PTX.
def test_faiss_lane_id_and_warp_size_agree():
    t = out("faiss_block_reduce")
    cuda_branch = t.split("#else // USE_AMD_ROCM")[1]
    assert "__lane_id()" in t
    assert "constexpr int kWarpSize = KP_WAVE_SIZE;" in cuda_branch


def test_faiss_rocm_branch_left_alone():
    t = out("faiss_block_reduce")
    assert "#if __AMDGCN_WAVEFRONT_SIZE == 32u\nconstexpr int kWarpSize = 32;\n#else\nconstexpr int kWarpSize = 64;" in t


def test_faiss_full_masks_dropped():
    t = out("faiss_block_reduce")
    assert "return __shfl_xor(val, laneMask, width);" in t and "_sync(0xffffffff" not in t


# --- PCL kinfu extract: 32-lane scan_warp (`idx & 31`), LOG_WARP_SIZE 5 partitions, wave-wide ballots.
@xfail("half a rewrite: ballots become 64-bit (__popcll(__ballot(..))) and laneId() becomes __lane_id() "
       "(0..63), but scan_warp keeps `idx & 31` and its ladder to 16, Warp keeps LOG_WARP_SIZE = 5 / STRIDE 32 "
       "and storage_index keeps 32-lane partitions: on wave64 only lane 0 of the wave takes the atomicAdd ticket "
       "with a 64-lane total_warp while the upper 32-group reads its own scan slot as old_global_count")
def test_pcl_extract_warp_width_consistent():
    t = out("pcl_kinfu_extract")
    scan = body(t, "scan_warp")
    assert "__lane_id()" in t and "__popcll(__ballot(local_count > 0))" in t
    assert "idx & 31" not in scan and "LOG_WARP_SIZE = 5" not in t


def test_pcl_extract_votes_translated():
    t = out("pcl_kinfu_extract")
    assert "if (__all(x >= VOLUME_X)" in t and "_sync" not in body(t, "operator", 0)


# --- PCL kinfu block reduce: the classic `if (tid < 32)` volatile reduction, 32-lane Emulation.
def test_pcl_block_reduce_left_consistent():
    # Left at 32 everywhere this is consistent: threads 0-31 are half of one wave64 (lockstep holds
    # within a wave on AMD), and warp_reduce's `tid & 31` groups match countKernel's `& 31` leaders.
    t = out("pcl_kinfu_block_reduce")
    red = body(t, "reduce")
    assert "if (tid < 32)" in red and "buffer[tid +  32]" in red
    assert "const unsigned int lane = tid & 31;" in body(t, "warp_reduce")
    assert "if ((threadIdx.x & 31) == 0)" in body(t, "countKernel")


# --- cusp: THREADS_PER_VECTOR <= 32 logical vectors; volatile steps within a 32-group.
def test_cusp_logical_vectors_left_alone():
    t = out("cusp_csr_vector_spmv")
    k = body(t, "spmv_csr_vector_kernel")
    assert "threadIdx.x & (THREADS_PER_VECTOR - 1)" in k
    assert "if (THREADS_PER_VECTOR > 16) {temp = sdata[threadIdx.x + 16];" in k
    assert "KP_WAVE_SIZE" not in t and "warpSize" not in t
    assert "hipStream_t s" in t and "cudaStream_t" not in t


# --- LightGBM: the live HIP branch defines WARPSIZE as warpSize, used as an array size.
def test_lightgbm_live_hip_branch_constant():
    t = out("lightgbm_shuffle_reduce")
    assert "#define WARPSIZE warpSize" not in t


def test_lightgbm_prefix_sum_slots_sized_for_wave64():
    k = body(out("lightgbm_shuffle_reduce"), "ShufflePrefixSumGlobalKernel")
    assert "shared_mem_buffer[32]" not in k


def test_lightgbm_reduce_slots_may_stay_32():
    # ShuffleReduceSum/Min read smem only for warpLane < num_warp (<= 16 at wave64): 32 slots suffice.
    t = out("lightgbm_shuffle_reduce")
    assert "__shared__ T shared_buffer[32];" in body(t, "BlockReduceSum")
    assert "value += __shfl_down(value, offset);" in t


# --- cuda-samples threadFenceReduction: VEC = 32 is the tiled_partition<32> width, not the wave.
def test_threadfence_tile_width_left_alone():
    t = out("cuda_samples_threadfence_reduction")
    rb = body(t, "reduceBlock")
    assert "cg::tiled_partition<32>(cta)" in rb and "const int VEC = 32;" in rb
    assert "tid & (VEC - 1)" in rb and "KP_WAVE_SIZE" not in t
    assert "#include <hip/hip_cooperative_groups.h>" in t


# --- cuda-samples shfl_integral_image: explicit width 32, 8-lane column groups, sums[32][9] tile.
def test_integral_image_logical_widths_left_alone():
    t = out("cuda_samples_shfl_integral_image")
    k = body(t, "shfl_vertical_shfl")
    assert "__shfl_up(partial_sum, i, 32)" in k
    assert "unsigned int lane_id = tidx % 8;" in k and "__shared__ unsigned int sums[32][9];" in k
    assert "KP_WAVE_SIZE" not in t and t.count("warpSize") == 1  # only the original's comment


# --- look-alikes: nothing about the wave width may change.
@pytest.mark.parametrize("name,keep", [
    ("cuda_samples_scan", "uint pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));"),
    ("cuda_samples_bitonic_sort", "uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));"),
    ("cuda_samples_matrix_mul", "for (int k = 0; k < BLOCK_SIZE; ++k) {"),
])
def test_look_alikes_left_alone(name, keep):
    t = out(name)
    assert keep in t
    assert "KP_WAVE_SIZE" not in t and "warpSize" not in t and "kp_device_warp_size" not in t


def test_matrix_mul_tile_and_launch_left_alone():
    t = out("cuda_samples_matrix_mul")
    assert "__shared__ float As[BLOCK_SIZE][BLOCK_SIZE];" in t and "int block_size = 32;" in t


# ---------------------------------------------------------------------------------------------
# (d) Metal: the port passes the Metal checker, or stops with the diagnostics that are the right answer
# ---------------------------------------------------------------------------------------------
METAL_EXPECT: dict[str, dict] = {
    "cuda_samples_bitonic_sort": dict(codes=set()),  # cg::sync(cta) is threadgroup_barrier
    "cuda_samples_matrix_mul": dict(codes=set()),
    "cuda_samples_scan": dict(codes=set()),  # thread_block-only cooperative groups; host-only d_Buf left out
    "cuda_samples_shfl_integral_image": dict(codes=set()),   # 32-wide tiles are the SIMD-group (make_uchar4 is now uchar4(...))
    "cuda_samples_threadfence_reduction": dict(codes={"KP213"}),  # __device__ retirementCount (its 32-tiles port)
    "cuda_samples_warp_aggregated_atomics": dict(codes={"KP217"}),  # coalesced groups (stop 51: the sm_70 bodies are ported)
    "cusp_csr_vector_spmv": dict(codes={"KP216"}),  # launched only from a host template: no concrete instance
    "faiss_block_reduce": dict(codes=set()),  # built-ins are passed before the defaulted parameters
    "fbgemm_quantize_mx4": dict(codes={"KP223"}),  # instanced from the host template's launch (h/kp216); scalbn (its __float2int_rn is the prologue's: float_math)
    "lightgbm_shuffle_reduce": dict(codes={"KP203", "KP214"}),  # partial mask, double (its template kernel's instances are deduced from the launches)
    "pcl_kinfu_block_reduce": dict(codes={"KP215"}),   # pointer carried inside a by-value struct parameter
    "pcl_kinfu_extract": dict(codes={"KP213", "KP223"}),  # __device__ counters; __int2float_rn
}


def _metal_params():
    for name in NAMES:
        e = METAL_EXPECT[name]
        yield pytest.param(name, id=name, marks=[xfail(e["bug"])] if e.get("bug") else [])


@pytest.mark.parametrize("name", list(_metal_params()))
def test_metal_port_passes_the_checker_or_stops_with_diagnostics(name):
    p, text = port(name, "metal")
    assert p is not None, text
    codes = {d.code for d in p.diagnostics if d.severity == "error"}
    assert codes == METAL_EXPECT[name]["codes"], [d.format() for d in p.diagnostics]
    assert all(d.location.line >= 1 for d in p.diagnostics)
    if p.ok:
        require_tool("clang")
        from kernelport.backends.metal.check import check_metal_source
        diags = check_metal_source(text, f"{name}.metal")
        assert diags == [], "\n".join(map(str, diags[:5]))


def test_metal_pcl_extract_diagnostics_located():
    p, _ = port("pcl_kinfu_extract", "metal")
    # the writable __device__ counters; the file-scope __shared__ arrays (90-92) are the kernels' threadgroup arrays
    assert sorted(d.location.line for d in p.diagnostics if d.code == "KP213") == [86, 87, 88]


# ---------------------------------------------------------------------------------------------
# (e) lint: (line, code) pairs that must be found; look-alike lines that must stay silent.
#     Each expected pair or silent line that kernelport gets wrong today carries its bug.
# ---------------------------------------------------------------------------------------------
LINT: dict[str, dict] = {
    "cuda_samples_bitonic_sort": dict(silent=[68, 78, 103]),
    "cuda_samples_matrix_mul": dict(silent=[59, 63, 79]),
    "cuda_samples_scan": dict(silent=[28, 33, 35]),           # volatile, but barriers between the steps
    "cuda_samples_shfl_integral_image": dict(found=[(185, "WS007")], silent=[154, 157, 26]),
    "cuda_samples_threadfence_reduction": dict(silent=[33, 37, 38, 46]),  # tile32 syncs between the steps
    "cuda_samples_warp_aggregated_atomics": dict(),
    "cusp_csr_vector_spmv": dict(
        found=[(106, "SY002")],  # steps through a temporary, each behind an `if`
        silent=[60]),   # `& (THREADS_PER_VECTOR - 1)`: a logical vector, not the wave
    # 31: `kWarpSize = 32` in the #else of `#ifdef USE_AMD_ROCM` (faiss's ROCm build flag) is NVIDIA's
    # branch, like fbgemm's `#ifdef USE_ROCM` one (kernelport/guards.py reads both alike).
    "faiss_block_reduce": dict(found=[(60, "PT002")], silent=[18, 31]),
    "fbgemm_quantize_mx4": dict(
        found=[(19, "WS014"), (97, "SY001"),  # the early return, naming the barriers at 129, 147, 186, 193
               (123, "WS003"), (124, "WS002")],  # through the namespaced helper fbgemm_gpu::shfl_xor
        no_kp001=True),
    "lightgbm_shuffle_reduce": dict(
        found=[(114, "WS013"), (192, "WS011"),
               (162, "WS025")],  # `0xffffffff >> (warpSize - len)`: a 32-bit lane mask from warpSize (a
                                 # shift of 64 at wave64); was an xfail until labelled8's WS025
        silent=[207, 220]),   # 32 slots read only below num_warp (<= 16 at wave64)
    "pcl_kinfu_block_reduce": dict(
        found=[(67, "SY002"),
               (46, "SY002")]),  # the classic last-warp reduction of Block::reduce
    "pcl_kinfu_extract": dict(
        found=[(163, "WS009"),
               (40, "SY002"),  # scan_warp's volatile ladder
               (38, "WS002", "`lane = idx & 31` feeds the 32-lane scan whose result pairs with a wave-wide "
                             "ballot count; not reported"),
               (170, "WS003", "`ftid >> Warp::LOG_WARP_SIZE` (an enum equal to 5) splits the block into "
                              "32-lane partitions next to wave-wide ballots; not reported"),
               (62, "WS001", "`LOG_WARP_SIZE = 5, WARP_SIZE = 1 << LOG_WARP_SIZE` (an enum) hardcodes the "
                             "warp size; enumerators are not recognised as warp-size constants")]),
}


def _lint_found_params():
    for name in NAMES:
        for item in LINT[name].get("found", []):
            line, code = item[0], item[1]
            marks = [xfail(item[2])] if len(item) > 2 else []
            yield pytest.param(name, line, code, id=f"{name}:{line}:{code}", marks=marks)


@pytest.mark.parametrize("name,line,code", list(_lint_found_params()))
def test_lint_finds_hazard(name, line, code):
    hits = [f for f in findings(name) if f.line == line and (code is None or f.code == code)]
    assert hits, f"{name}:{line} `{src_line(name, line).strip()}`: got " + \
        str([(f.line, f.code) for f in findings(name)])


def _lint_silent_params():
    for name in NAMES:
        for line in LINT[name].get("silent", []):
            yield pytest.param(name, line, id=f"{name}:{line}")


@pytest.mark.parametrize("name,line", list(_lint_silent_params()))
def test_lint_silent_on_look_alike(name, line):
    hits = [(f.line, f.code) for f in findings(name) if f.line == line and f.code[:2] in ("WS", "SY")]
    assert not hits, f"{name}:{line} `{src_line(name, line).strip()}`: {hits}"


@pytest.mark.parametrize("name", ["cuda_samples_bitonic_sort", "cuda_samples_matrix_mul", "cuda_samples_scan",
                                  "cuda_samples_threadfence_reduction", "cuda_samples_warp_aggregated_atomics"])
def test_lint_clean_files_stay_clean(name):
    assert [(f.line, f.code) for f in findings(name) if f.code[:2] in ("WS", "SY")] == []


def test_lint_parses_align_attribute():
    assert not [f for f in findings("fbgemm_quantize_mx4") if f.code == "KP001"]


def test_lint_barrier_after_early_return_names_the_return():
    got = [f for f in findings("fbgemm_quantize_mx4") if f.code == "SY001"]
    assert [f.line for f in got] == [97]  # one finding for the return (stop 62: lint/return_groups.py)
    assert "skips 4 block barriers after it (lines 129, 147, 186, 193)" in got[0].message
    assert [r.line for r in got[0].related] == [129, 147, 186, 193]
