"""A class's own `warpSize` member (SPH-EXA's `struct GpuConfig { static constexpr int warpSize = 64;
using ThreadMask = std::conditional_t<warpSize == 32, uint32_t, uint64_t>; };`) is the project's constant, not
the built-in: the HIP port keeps it where a constant expression needs it, as lint does (kernelport/lint/
membernames.py).  Main wrote `KP_WAVE_SIZE == 32` there: on gfx1030 ThreadMask became 32 bits while the
member stayed 64 (hipcc then rejected SPH-EXA's warpscan overloads as ambiguous).  Found on heldout88."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """
#include <type_traits>
#include <cstdint>
struct GpuConfig
{
    static constexpr int warpSize = 64;
    using ThreadMask = std::conditional_t<warpSize == 32, uint32_t, uint64_t>;
};
template<int N> struct Lanes { int v[N]; };
__global__ void k(int* out)
{
    __shared__ int s[warpSize];
    Lanes<GpuConfig::warpSize> l{};
    s[threadIdx.x % warpSize] = l.v[0] + sizeof(GpuConfig::ThreadMask);
    out[threadIdx.x] = s[0];
}
"""


def test_a_class_member_named_warpsize_is_kept_and_the_builtin_still_rewritten():
    s = SourceFile.from_text(textwrap.dedent(CODE), "g.cu")
    _, text = translate(s, "hip")
    assert "std::conditional_t<warpSize == 32, uint32_t, uint64_t>" in text
    assert "Lanes<GpuConfig::warpSize>" in text
    # look-alike: the built-in where a constant is needed (an array bound) is still the backend's constant
    assert "__shared__ int s[KP_WAVE_SIZE];" in text
