"""Real-world CUDA corpus: kernelport's HIP translation of warp-level code from public projects.

Every file under tests/corpus/ is real code (FasterTransformer, llama.cpp/ggml, vLLM, apex,
PyTorch, cudf, XGBoost, sppark via HeCBench, NVIDIA cuda-samples), trimmed to a self-contained
file that `nvcc -c -arch=sm_80` compiles; its first line names the source and licence.

For each file:
  (a) translation succeeds, or stops with the diagnostic codes that are the right answer;
  (b) the port compiles with hipcc for gfx90a (wave64) and gfx1030 (wave32);
  (c) a few precise expectations on the output text encode an AMD expert's review: every
      warp-size assumption rewritten consistently, every look-alike (TILE_DIM tiles, per-"warp"
      histogram partitions) left alone.  A partial rewrite is worse than none: a lane computed
      from warpSize next to a shuffle that still works in 32-lane groups gives wrong numbers.

Checks that fail today because of a kernelport bug are `xfail(strict=True)` with the bug as the
reason, so they flip to XPASS (and fail the run) when the bug is fixed: then drop the marker.

Ports are compiled with `-std=c++17`: nvcc (>= 11) defaults to C++17 and the corpus relies on
it (`if constexpr`, C++14 constexpr loops); Debian's hipcc 5.2 defaults to an older standard.
"""
from __future__ import annotations

import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from kernelport import toolchains
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool
from corpus_support import body, originals_built, port_built, xfail

CORPUS = Path(__file__).resolve().parent / "corpus"
FILES = sorted(CORPUS.glob("*.cu"))
NAMES = [p.stem for p in FILES]
HIP_FLAGS = ("-std=c++17",)




# ---------------------------------------------------------------------------------------------
# (a) expected translation outcome per file.
#   codes: the diagnostic codes (errors) that are the RIGHT answer; empty = must translate.
#   bug:   set when kernelport currently does something else (the test is a strict xfail).
# ---------------------------------------------------------------------------------------------
EXPECT: dict[str, dict] = {
    # WARP_SHFL's mask defaults to the full mask. KP225: lint's WS021 at 97 (a 32-lane group's
    # `(threadIdx.x + (1 << l)) & 31` source lane through a wave helper) is kept as written.
    "apex_layernorm_welford": dict(codes={"KP225"}),
    "apex_scaled_masked_softmax": dict(codes=set()),
    "cuda_samples_histogram256": dict(codes=set()),
    "cuda_samples_reduce7": dict(
        # The mask really is partial: (0xffffffff) >> maskLength for blockSize % 32 != 0.
        # __reduce_add_sync sits under `#if __CUDA_ARCH__ >= 800`: dead in every HIP pass.
        codes={"KP203"}),
    # KP225: WS015, the host sizes the per-warp sums from 32 (issue 11's shfl_scan case).
    "cuda_samples_shfl_scan": dict(codes={"KP225"}),
    "cuda_samples_simple_vote": dict(codes=set()),
    "cuda_samples_transpose": dict(codes=set()),
    "cuda_samples_vector_add": dict(codes=set()),
    "cudf_valid_if": dict(
        # The right answer is a diagnostic at `output[cudf::word_index(i)] = ballot;`: a 64-lane
        # ballot cannot be stored in one 32-bit bitmask word (the layout is data, not the wave).
        codes={"KP207"}),
    "ft_block_reduce": dict(codes=set()),
    "ggml_argmax": dict(codes=set()),
    # A block of WARP_SIZE = 32 threads from host code (182, 193) for kernels whose shuffles have the
    # width 32: right at wave 64 too (lint's WS015 reads the launch geometry), so nothing is kept
    "ggml_norm": dict(codes=set()),
    "sppark_bitpermute": dict(codes=set()),
    # The PTX lane-id idiom (`mov.s32 %0, %%laneid`) becomes __lane_id(); WARP_BALLOT's mask
    # parameter defaults to the full mask.
    "torch_radix_count": dict(codes=set()),
    "vllm_block_reduce": dict(codes={"KP225"}),  # KP225: lint's WS013 in `static_assert(numLanes <= WARP_SIZE)`
    "xgboost_atomic_increment": dict(codes=set()),
}

COMPILE_BUGS: dict[str, str] = {}


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def port(name: str, allow_unported: bool = False):
    src = SourceFile.read(CORPUS / f"{name}.cu")
    p, text = translate(src, "hip", allow_unported=allow_unported, source_label=f"corpus/{name}.cu")
    return p, text


def out(name: str) -> str:
    """The port text, made with --allow-unported: what has no rewrite is kept behind a marker, so
    the review and compile checks see every other rewrite even where translation stops today."""
    return port(name, True)[1]


def error_codes(name: str) -> set[str]:
    p, _ = port(name)
    return {d.code for d in p.diagnostics if d.severity == "error"}


def norm(s: str) -> str:
    return " ".join(s.split())


# ---------------------------------------------------------------------------------------------
# corpus hygiene
# ---------------------------------------------------------------------------------------------
def test_corpus_is_complete_and_attributed():
    assert 12 <= len(FILES) <= 20
    assert set(NAMES) == set(EXPECT), "every corpus file needs an expectation (and vice versa)"
    for f in FILES:
        first = f.read_text().splitlines()[0]
        assert re.match(r"// Source: \S+/\S+ .*\((MIT|BSD|Apache)[^)]*\) — trimmed for the kernelport test corpus",
                        first), f"{f.name}: {first}"
        assert len(f.read_text().splitlines()) <= 270, f.name  # "about 250"


@pytest.fixture(scope="module")
def originals():
    return originals_built(FILES)


@pytest.mark.parametrize("path", FILES, ids=NAMES)
def test_original_compiles_with_nvcc(path, originals):
    r = originals[path]
    assert r.ok, r.output[-3000:]


# ---------------------------------------------------------------------------------------------
# (a) translation outcome
# ---------------------------------------------------------------------------------------------
def _outcome_params():
    for name in NAMES:
        e = EXPECT[name]
        marks = [xfail(e["bug"])] if e.get("bug") else []
        yield pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", list(_outcome_params()))
def test_translation_outcome(name):
    assert error_codes(name) == EXPECT[name]["codes"], [d.format() for d in port(name)[0].diagnostics]


# ---------------------------------------------------------------------------------------------
# (b) the port compiles for gfx90a and gfx1030
# ---------------------------------------------------------------------------------------------
def _compile_params():
    for name in NAMES:
        marks = [xfail(COMPILE_BUGS[name])] if name in COMPILE_BUGS else []
        yield pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", list(_compile_params()))
def test_port_compiles_for_gfx90a_and_gfx1030(name, tmp_path):
    r = port_built(name, out(name), tmp_path, HIP_FLAGS)
    assert r.ok, r.output[-3000:]


def test_sppark_port_needs_cxx14_which_the_hip_compile_check_now_defaults_to(tmp_path):
    """The port needs C++14 (hipcc 5.2 defaults to C++11): the compile check uses nvcc's default, C++17."""
    require_tool("hipcc")
    f = tmp_path / "sppark_bitpermute.hip"
    f.write_text(out("sppark_bitpermute"))
    assert toolchains.compile_hip(f, "gfx90a").ok
    r = toolchains.compile_hip(f, "gfx90a", extra_args=["-std=c++11"])
    assert not r.ok and "constexpr" in r.output


# ---------------------------------------------------------------------------------------------
# (c) expert review, per file
# ---------------------------------------------------------------------------------------------
# --- FasterTransformer: shuffles with a literal width 32, lane/warp split with & 0x1f and >> 5.
def test_ft_block_reduce_lane_and_warp_split_agree_with_shuffle_width():
    for fn in ("blockReduceSum", "blockReduceMax", "blockReduceSumV2"):
        b = body(out("ft_block_reduce"), fn)
        ladder_is_32 = "__shfl_xor(val, mask, 32)" in out("ft_block_reduce") or \
                       "for (int mask = 16;" in out("ft_block_reduce")
        if ladder_is_32:  # 32-lane logical warps: the split must stay 32-based too
            assert "threadIdx.x >> 5" in b and "& 0x1f" in b and "blockDim.x / 32.f" in b, fn
        else:
            assert "% warpSize" in b and "/ warpSize" in b, fn


def test_ft_block_reduce_slot_count_matches_warp_id():
    b = body(out("ft_block_reduce"), "blockReduceSum")
    assert ("/ warpSize" in b) == ("blockDim.x / 32.f" not in b)


def test_ft_block_reduce_full_mask_dropped():
    assert "FINAL_MASK, val" not in out("ft_block_reduce")
    assert "__shfl_xor_sync" not in out("ft_block_reduce")


# --- llama.cpp norm: warp_reduce_sum works in 32-lane groups (literal width 32); WARP_SIZE 32.
def test_ggml_norm_warp_size_consistent_with_reduce_width():
    t = out("ggml_norm")
    reduce_is_32 = "__shfl_xor(x, offset, 32)" in t
    assert ("#define WARP_SIZE 32" in t) == reduce_is_32


def test_ggml_norm_host_and_device_instantiate_the_same_kernels(tmp_path):
    require_tool("hipcc")
    f = tmp_path / "ggml_norm.hip"
    f.write_text(out("ggml_norm"))
    res, asm = toolchains.hip_device_asm(f, "gfx90a")
    assert res.ok, res.output[-2000:]
    dev = set(re.findall(r"_ZL\d+\w*?norm_f32ILi\d+E", asm))
    host_s = tmp_path / "host.s"
    cmd = [toolchains.find_hipcc().path, "-x", "hip", "-std=c++17", "--offload-arch=gfx90a",
           "--cuda-host-only", "-S", str(f), "-o", str(host_s)]
    subprocess.run(cmd, check=True, capture_output=True, env={**__import__("os").environ, "HIP_PLATFORM": "amd"})
    host = {s.replace("__device_stub__", "") for s in
            re.findall(r"_ZL\d+__device_stub__\w*?norm_f32ILi\d+E", host_s.read_text())}
    host = {re.sub(r"^_ZL\d+", "", s) for s in host}
    dev = {re.sub(r"^_ZL\d+", "", s) for s in dev}
    assert host <= dev, f"host launches {sorted(host - dev)} that the gfx90a code object lacks"


def test_ggml_norm_host_geometry_consistent_with_the_logical_warp():
    # Every shuffle has the literal width 32: the kernels work in 32-lane logical warps, which is
    # right at both wave widths, so WARP_SIZE stays 32 on the host and on the device alike.
    t = out("ggml_norm")
    assert "#define WARP_SIZE 32" in t and "KP_WAVE_SIZE" not in t


# --- llama.cpp argmax: everything keyed on WARP_SIZE (width too): a clean, consistent port.
def test_ggml_argmax_consistent_port():
    t = out("ggml_argmax")
    k = body(t, "argmax_f32")
    assert "#define WARP_SIZE KP_WAVE_SIZE" in t
    assert "__shfl_xor(maxval, offset, WARP_SIZE)" in k
    assert "constexpr int    max_warps = 1024 / WARP_SIZE;" in k
    host = body(t, "ggml_cuda_argmax")
    assert "(ne00 + kp_device_warp_size() - 1) / kp_device_warp_size() * kp_device_warp_size()" in host


# --- vLLM: the shuffle lives in a macro body; the CUDA branch of `#ifndef USE_ROCM` is live on HIP.
def test_vllm_macro_shuffle_rewritten():
    assert "__shfl_xor_sync" not in out("vllm_block_reduce")


def test_vllm_logical_warp_split_untouched_or_consistent():
    t = out("vllm_block_reduce")
    b = body(t, "blockReduceSum")
    # Left at 32 this is consistent (xor masks < 32 stay inside 32-lane halves); either way the
    # lane/warp split and the per-warp array must use the same WARP_SIZE.
    assert "threadIdx.x % WARP_SIZE" in b and "threadIdx.x / WARP_SIZE" in b


# --- apex layer norm: blockDim.x == warpSize assumed; host launches threads(32,4,1): rows of 32 are a logical
# 32-lane group (warpwidth), so `&31` stays and WARP_SHFL shuffles with width 32.
def test_apex_welford_warp_reduction_consistent():
    t = out("apex_layernorm_welford")
    fn = body(t, "cuWelfordMuSigma2")
    if "&(warpSize - 1)" in fn or "& (warpSize - 1)" in fn:
        assert "l <= 4" not in fn
        assert "threads(32,4,1)" not in t
    else:
        assert "&31" in fn  # untouched: then WARP_SHFL must shuffle in 32-lane groups
        assert "int width = 32" in t or "WARP_SHFL(mu, srcLaneB, 32)" in fn


# --- apex/Megatron softmax: host asks the device (at::cuda::warp_size()), device uses C10_WARP_SIZE.
def test_apex_softmax_c10_warp_size_is_the_wave_width():
    t = out("apex_scaled_masked_softmax")
    assert "#define C10_WARP_SIZE KP_WAVE_SIZE" in t


def test_apex_softmax_host_query_kept():
    t = out("apex_scaled_masked_softmax")
    assert "hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, device)" in t


# --- cuda-samples reduce7: ballot stored in unsigned int.
def test_reduce7_ballot_widened():
    assert "const unsigned long long ballot_result = __ballot(tid < shmem_extent);" in out("cuda_samples_reduce7")


# --- cudf valid_if: bitmask words are 32-bit data; a wave64 ballot covers two words.
def test_cudf_digit_separator_is_a_full_mask():
    assert not any("0xFFFF'FFFF" in d.message for d in port("cudf_valid_if")[0].diagnostics)


def test_cudf_ballot_not_truncated():
    k = body(out("cudf_valid_if"), "valid_if_kernel")
    assert "bitmask_type ballot = __ballot" not in k


def test_cudf_ballot_store_into_32bit_word_is_diagnosed():
    p, _ = port("cudf_valid_if")
    assert [(d.code, d.severity) for d in p.diagnostics if d.location.line == 86] == [("KP207", "error")]


# --- PyTorch radix select: WARP_BALLOT wrapper returns unsigned int.
def test_torch_warp_ballot_wrapper_returns_64_bits():
    assert "unsigned int WARP_BALLOT" not in out("torch_radix_count")


def test_torch_callers_widened():
    t = out("torch_radix_count")
    assert "unsigned long long mask = WARP_BALLOT(threadIdx.x < sliceSize);" in t
    assert "__popcll(WARP_BALLOT(vote, mask))" in t


# --- XGBoost: activemask in an int, ballot in unsigned, __ffs/__popc, % 32 leader test.
def test_xgboost_atomic_increment_port():
    t = out("xgboost_atomic_increment")
    fn = body(t, "AtomicIncrement")
    assert "unsigned long long mask = __ballot(1);" in fn
    assert "unsigned long long ballot = __ballot(increment);" in fn
    assert "__ffsll(mask)" in fn and "__popcll(ballot)" in fn
    assert "% 32" not in fn and "__popc(" not in fn


def test_xgboost_runtime_lane_test_uses_warpsize():
    assert "threadIdx.x % warpSize == leader" in out("xgboost_atomic_increment")


# --- cuda-samples shfl_scan: width passed from the host as 32.
def test_shfl_scan_host_width_asks_device():
    t = out("cuda_samples_shfl_scan")
    assert "shfl_scan_test<<<gridSize, blockSize, shmem_sz>>>(d_data, kp_device_warp_size(), d_partial_sums);" in t
    k = body(t, "shfl_scan_test")
    assert "__shfl_up(value, i, width)" in k
    assert "threadIdx.x % warpSize == warpSize - 1" in k


# --- cuda-samples simpleVote: host `int warp_size = 32` drives geometry and a vote predicate.
def test_simple_vote_host_warp_size_asks_device():
    assert "int warp_size = kp_device_warp_size();" in out("cuda_samples_simple_vote")


def test_simple_vote_votes_translated():
    t = out("cuda_samples_simple_vote")
    assert "__any(input[tx])" in t and "__all(input[tx])" in t and "_sync(" not in t


# --- look-alikes: must be left alone.
def test_transpose_tile_left_alone():
    t = out("cuda_samples_transpose")
    assert "#define TILE_DIM 32" in t and "__shared__ float tile[TILE_DIM][TILE_DIM + 1];" in t
    assert "KP_WAVE_SIZE" not in t and "warpSize" not in t and "kp_device_warp_size" not in t


def test_histogram_per_warp_partition_left_alone():
    t = out("cuda_samples_histogram256")
    assert "#define LOG2_WARP_SIZE 5U" in t
    assert "s_Hist + (threadIdx.x >> LOG2_WARP_SIZE) * HISTOGRAM256_BIN_COUNT" in t
    assert "threadIdx.x << (UINT_BITS - LOG2_WARP_SIZE)" in t
    assert "KP_WAVE_SIZE" not in t and "warpSize" not in t


def test_vector_add_only_runtime_renames():
    t = out("cuda_samples_vector_add")
    assert "C[i] = A[i] + B[i] + 0.0f;" in t
    assert "KP_WAVE_SIZE" not in t and "warpSize" not in t
    assert not re.search(r"\bcuda[A-Z]\w*", t)


def test_runtime_header_included_once():
    assert out("cuda_samples_vector_add").count("#include <hip/hip_runtime.h>") == 1


# --- sppark: WARP_SZ decides __syncthreads vs __syncwarp for 32-thread exchange groups.
def test_sppark_warp_sz_is_wave_width():
    assert "#define WARP_SZ KP_WAVE_SIZE" in out("sppark_bitpermute")


def test_sppark_syncwarp_keeps_lds_ordering():
    assert '__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront")' in out("sppark_bitpermute")


# ---------------------------------------------------------------------------------------------
# (d) Metal: every corpus file ports to MSL that passes the Metal checker, or stops with
#     diagnostics at the lines that have no Metal equivalent (the codes that are the right answer).
# ---------------------------------------------------------------------------------------------
METAL_EXPECT: dict[str, dict] = {
    "apex_layernorm_welford": dict(codes={"KP216"}),   # launched only from a host template: no instance
    # launched from a host template, explicitly instantiated (<float, float, float>): its instances
    # reach the checker, which refuses the port (simd_width in a template helper, copy_vector overloads)
    "apex_scaled_masked_softmax": dict(codes={"KP224"}),
    "cuda_samples_histogram256": dict(codes=set()),  # thread_block-only cooperative groups
    "cuda_samples_reduce7": dict(codes={"KP203", "KP213", "KP215"}),  # instanced from the host switch (h/kp216)
    "cuda_samples_shfl_scan": dict(codes=set()),
    "cuda_samples_simple_vote": dict(codes=set()),
    "cuda_samples_transpose": dict(codes=set()),        # thread_block-only cooperative groups
    "cuda_samples_vector_add": dict(codes=set()),
    "cudf_valid_if": dict(codes={"KP212"}),  # instanced from host code since h/kp216; the atomic stays
    # Each helper's static __shared__ array its own kernel-scope array (three named `shared`), typed by the call's instance
    "ft_block_reduce": dict(codes=set()),
    "ggml_argmax": dict(codes=set()),
    # Same-named threadgroup arrays of sibling scopes are renamed when hoisted; min(uint, int)
    # converts the int as CUDA's overload does; discarded `if constexpr` branches are not checked.
    "ggml_norm": dict(codes=set()),
    "sppark_bitpermute": dict(codes=set()),
    "torch_radix_count": dict(codes=set()),             # atomics on a template type: its one instance (int, threadgroup) has them (h/metal58 atomic_instances)
    "vllm_block_reduce": dict(codes=set()),  # blockReduceSum<float>'s array sized by its default maxBlockSize = 1024
    "xgboost_atomic_increment": dict(codes={"KP212"}),  # 64-bit atomic add
}


def _metal_params():
    for name in NAMES:
        e = METAL_EXPECT[name]
        yield pytest.param(name, id=name, marks=[xfail(e["bug"])] if e.get("bug") else [])


@pytest.mark.parametrize("name", list(_metal_params()))
def test_metal_port_passes_the_checker_or_stops_with_diagnostics(name):
    assert set(METAL_EXPECT) == set(NAMES)
    src = SourceFile.read(CORPUS / f"{name}.cu")
    p, text = translate(src, "metal", source_label=f"corpus/{name}.cu")
    codes = {d.code for d in p.diagnostics if d.severity == "error"}
    assert codes == METAL_EXPECT[name]["codes"], [d.format() for d in p.diagnostics]
    assert all(d.location.line >= 1 for d in p.diagnostics)
    if p.ok:
        require_tool("clang")
        from kernelport.backends.metal.check import check_metal_source
        diags = check_metal_source(text, f"{name}.metal")
        assert diags == [], "\n".join(map(str, diags[:5]))
