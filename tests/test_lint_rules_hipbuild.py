"""Lint judges wave-64 hazards under the project's HIP build (kernelport.hipbuild): what a branch
only the AMD build takes (re)defines, in the file or in a header included only there, is what
that build compiles.  WS007: a full 32-bit mask that the HIP build's own macro drops is no hazard."""
from __future__ import annotations

import json
from pathlib import Path

from trust_support import kp_inproc

KERNEL = """\
#include "compat.cuh"
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
"""

# The mask-less mapping under a platform name (exllamav2's compat.cuh), include guard around it.
COMPAT_PLATFORM = """\
#ifndef COMPAT_CUH
#define COMPAT_CUH
#if defined(USE_ROCM)
#define __shfl_xor_sync(mask, var, laneMask) __shfl_xor(var, laneMask)
#endif
#endif
"""

# The same in a vendor header included only by the HIP build (ggml's vendors/hip.h), chosen by a
# project name the project ties to HIP by including <hip/...> under it.
COMPAT_VENDOR = """\
#pragma once
#if defined(MYPROJ_AMD)
#include <hip/hip_runtime.h>
#include "vendor_hip.h"
#else
#include <cuda_runtime.h>
#endif
"""
VENDOR_HIP = """\
#pragma once
#define __shfl_xor_sync(mask, var, laneMask) __shfl_xor(var, laneMask)
"""


def _ws007(tmp_path: Path, files: dict[str, str], *args) -> list[int]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rc, out, err = kp_inproc("lint", "--format", "json", "--select", "WS007", *args, str(tmp_path / "k.cu"))
    assert rc in (0, 1), err
    return [f["line"] for f in json.loads(out)]


def test_a_mask_the_hip_builds_macro_drops_is_not_flagged(tmp_path):
    assert _ws007(tmp_path, {"k.cu": KERNEL, "compat.cuh": COMPAT_PLATFORM}) == []


def test_a_macro_that_passes_the_mask_on_is_still_flagged(tmp_path):
    compat = COMPAT_PLATFORM.replace("__shfl_xor(var, laneMask)", "__shfl_xor_sync(mask, var, laneMask)")
    assert _ws007(tmp_path, {"k.cu": KERNEL, "compat.cuh": compat}) == [3]


def test_a_mapping_on_the_nvidia_side_only_is_still_flagged(tmp_path):
    compat = COMPAT_PLATFORM.replace("#if defined(USE_ROCM)", "#if !defined(USE_ROCM)")
    assert _ws007(tmp_path, {"k.cu": KERNEL, "compat.cuh": compat}) == [3]


def test_a_mapping_under_a_project_switch_not_tied_to_hip_is_still_flagged(tmp_path):
    compat = COMPAT_PLATFORM.replace("USE_ROCM", "FAST_SHUFFLES")
    assert _ws007(tmp_path, {"k.cu": KERNEL, "compat.cuh": compat}) == [3]


def test_the_user_names_the_hip_builds_macro(tmp_path):
    compat = COMPAT_PLATFORM.replace("USE_ROCM", "FAST_SHUFFLES")
    assert _ws007(tmp_path, {"k.cu": KERNEL, "compat.cuh": compat}, "--hip-define", "FAST_SHUFFLES") == []
    (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\nhip-defines = ["FAST_SHUFFLES"]\n')
    assert _ws007(tmp_path, {}) == []


def test_a_vendor_header_included_by_the_hip_build_only(tmp_path):
    files = {"k.cu": KERNEL, "compat.cuh": COMPAT_VENDOR, "vendor_hip.h": VENDOR_HIP}
    assert _ws007(tmp_path, files) == []


def test_a_vendor_header_on_the_cuda_side_is_not_the_hip_build(tmp_path):
    compat = COMPAT_VENDOR.replace('#include "vendor_hip.h"\n#else\n', '#else\n#include "vendor_hip.h"\n')
    files = {"k.cu": KERNEL, "compat.cuh": compat, "vendor_hip.h": VENDOR_HIP}
    assert _ws007(tmp_path, files) == [3]


def test_the_mapping_in_the_file_itself(tmp_path):
    own = "#ifdef __HIP_PLATFORM_AMD__\n" + VENDOR_HIP.replace("#pragma once\n", "") + "#endif\n"
    assert _ws007(tmp_path, {"k.cu": own + KERNEL.replace('#include "compat.cuh"\n', "")}) == []


def test_a_bad_hip_define_is_a_located_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\nhip-defines = ["1BAD"]\n')
    (tmp_path / "k.cu").write_text(KERNEL)
    rc, out, err = kp_inproc("lint", str(tmp_path / "k.cu"))
    assert rc == 2 and "pyproject.toml:2:1" in err and "Traceback" not in err


# WS020: the slot count of a per-wave array as the HIP build sizes it (exllamav2's rms_norm.cu).
SLOTS_HEADER = """\
#pragma once
#if defined(USE_ROCM)
#define NUM_WARPS (1024 / warpSize)
#define WARP_SIZE (warpSize)
#else
#define NUM_WARPS 32
#define WARP_SIZE 32
#endif
"""
REDUCE = """\
#include "sizes.cuh"
__global__ void row_sum(const float* x, float* out) {
    __shared__ float sums[NUM_WARPS];
    int lane_id = threadIdx.x % WARP_SIZE, warp_id = threadIdx.x / WARP_SIZE;
    float v = x[threadIdx.x];
    if (lane_id == 0) sums[warp_id] = v;
    __syncthreads();
    v = sums[lane_id];
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
"""


def _ws020(tmp_path: Path, files: dict[str, str]) -> list[int]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    rc, out, err = kp_inproc("lint", "--format", "json", "--select", "WS020", str(tmp_path / "k.cu"))
    assert rc in (0, 1), err
    return [f["line"] for f in json.loads(out)]


def test_every_lane_reads_fewer_slots_than_a_64_lane_wave_has(tmp_path):
    assert _ws020(tmp_path, {"k.cu": REDUCE, "sizes.cuh": SLOTS_HEADER}) == [8]


def test_a_read_bounded_by_the_slot_count_is_quiet(tmp_path):
    bounded = REDUCE.replace("v = sums[lane_id];", "v = lane_id < NUM_WARPS ? sums[lane_id] : 0.0f;")
    assert _ws020(tmp_path, {"k.cu": bounded, "sizes.cuh": SLOTS_HEADER}) == []


def test_a_cuda_only_size_or_one_not_tied_to_hip_is_not_this_rule(tmp_path):
    assert _ws020(tmp_path, {"k.cu": REDUCE, "sizes.cuh": SLOTS_HEADER.replace("USE_ROCM", "FAST_PATH")}) == []
    nvidia = SLOTS_HEADER.replace("#if defined(USE_ROCM)", "#if !defined(USE_ROCM)")
    assert _ws020(tmp_path, {"k.cu": REDUCE, "sizes.cuh": nvidia}) == []


def test_enough_slots_for_the_widest_wave_is_quiet(tmp_path):
    wide = SLOTS_HEADER.replace("(1024 / warpSize)", "(4096 / warpSize)")
    assert _ws020(tmp_path, {"k.cu": REDUCE, "sizes.cuh": wide}) == []
