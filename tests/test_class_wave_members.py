"""A class's own wave-size member whose value the port cannot trust (heldout88, SPH-EXA's GpuConfig):

    struct GpuConfig {
    #if defined(__CUDACC__) && !defined(__HIPCC__)
        static constexpr int warpSize = 32;
    #else
        static constexpr int warpSize = 64;   // every compiler that is not nvcc: hipcc too
    #endif };

hipcc predefines `__HIPCC__` and never `__CUDACC__` (`hipcc -dM -E` for gfx90a and gfx1030, device and host
passes), so the HIP build takes the `#else`: 64 on gfx1030, whose waves are 32 wide.  Lint's WS014 read only
macros and variables, not a class member; translate wrote a port that compiles and computes lanes
`threadIdx.x & 63` on a 32-lane wave.  Now WS014 reports the member, and translate refuses it at its line
(KP225).  An unconditional member of 32 (`static constexpr int warpSize = 32;` read as `GpuConfig::warpSize`):
translate's dataflow does not read a member's value, so `threadIdx.x & (GpuConfig::warpSize - 1)` stayed a
32-lane index beside a ballot widened to the 64-lane wave (lane 32's count read lanes 0-63): refused too
(KP225 on lint's WS001).  The snippets are written here; no held-out file is read.  Look-alikes: a member
chosen per architecture (`__GFX9__`), a non-warp 64 member under the AMD guard, a free constant of 32 (whose
logical 32-lane groups translate reads and ports): written, and compiled for gfx90a and gfx1030."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text, refusal

from kernelport.lint.engine import lint_text

GPU_CONFIG = """#include <cstdint>
#include <type_traits>
struct GpuConfig
{
#if defined(__CUDACC__) && !defined(__HIPCC__)
    static constexpr int warpSize = 32;
#else
    static constexpr int warpSize = 64;
#endif
    using ThreadMask = std::conditional_t<warpSize == 32, uint32_t, uint64_t>;
};
"""
KERNEL = """
__global__ void count(const int* in, int* out)
{
    int lane = threadIdx.x & (GpuConfig::warpSize - 1);
    GpuConfig::ThreadMask m = __ballot_sync(GpuConfig::ThreadMask(-1), in[threadIdx.x] > 0);
    if (lane == 0) out[threadIdx.x / GpuConfig::warpSize] = __popcll(m);
}
"""


def _codes(src: str, targets=frozenset({"hip-rdna", "hip-cdna"})):
    return [(f.code, f.line, f.column, f.severity) for f in lint_text(src, "t.cu", "cuda", targets=set(targets))
            if f.code in ("WS001", "WS014")]


def test_lint_reports_a_members_64_in_the_branch_every_compiler_but_nvcc_takes():
    assert _codes(GPU_CONFIG + KERNEL) == [("WS014", 8, 37, "error")]
    assert _codes(GPU_CONFIG + KERNEL, {"hip-cdna"}) == [("WS014", 8, 37, "warning")]  # right by luck on CDNA
    amd_guard = GPU_CONFIG.replace("#if defined(__CUDACC__) && !defined(__HIPCC__)", "#ifndef __HIP_PLATFORM_AMD__")
    assert _codes(amd_guard + KERNEL) == [("WS014", 8, 37, "error")]


def test_translate_refuses_the_member_at_its_line():
    errors = refusal(GPU_CONFIG + KERNEL, expect="KP225", dedent=False)
    assert [(e.code, e.line, e.column) for e in errors] == [("KP225", 8, 37)]
    assert "WS014" in errors[0].message


def test_an_unconditional_32_member_read_as_the_lane_width_is_refused():
    src = GPU_CONFIG.replace("#if defined(__CUDACC__) && !defined(__HIPCC__)\n", "").replace(
        "#else\n    static constexpr int warpSize = 64;\n#endif\n", "")
    src += KERNEL.replace("GpuConfig::ThreadMask m", "unsigned m").replace("GpuConfig::ThreadMask(-1)", "0xffffffffu") \
        .replace("__popcll", "__popc")
    errors = refusal(src, expect="KP225", dedent=False)
    assert [(e.code, e.line) for e in errors] == [("KP225", 5)] and "WS001" in errors[0].message


def test_look_alikes_are_ported_and_compile_for_both_wave_widths(tmp_path):
    per_arch = GPU_CONFIG.replace("#if defined(__CUDACC__) && !defined(__HIPCC__)\n    static constexpr int warpSize = 32;",
                                  "#if defined(__GFX9__)\n    static constexpr int warpSize = 64;").replace(
        "#else\n    static constexpr int warpSize = 64;", "#else\n    static constexpr int warpSize = 32;")
    assert "__GFX9__" in per_arch and _codes(per_arch + KERNEL) == []
    text = port_text(per_arch + KERNEL, dedent=False)
    assert "int lane = threadIdx.x & (GpuConfig::warpSize - 1);" in text
    hip_compiles(tmp_path, text, "arch.hip")
    not_warp = """struct Tiling
{
#ifdef __HIP_PLATFORM_AMD__
    static constexpr int blockSize = 64;
#else
    static constexpr int blockSize = 128;
#endif
};
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * Tiling::blockSize + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i];
}
"""
    assert _codes(not_warp) == []
    hip_compiles(tmp_path, port_text(not_warp, dedent=False), "tiling.hip")
    free = """constexpr int kWarp = 32;
__global__ void count(const int* in, int* out)
{
    int lane = threadIdx.x & (kWarp - 1);
    unsigned m = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
    if (lane == 0) out[threadIdx.x / kWarp] = __popc(m);
}
"""
    text = port_text(free, dedent=False)
    assert "constexpr int kWarp = 32;" in text and "__lane_id() & 32" in text  # its own 32-lane half of the wave
    hip_compiles(tmp_path, text, "free.hip")
