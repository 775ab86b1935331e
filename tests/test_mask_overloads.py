"""A lane mask held in a type the caller does not spell plainly, passed to a helper overloaded for 32 and 64
bits (heldout88, SPH-EXA's warpscan.cuh: `countLeadingZeros(uint32_t)` / `countLeadingZeros(uint64_t)`, called
with a `GpuConfig::ThreadMask`, a `std::conditional_t` of the two by the warp size).  fnscopes joined both
overloads at the call, so the 32-bit one received the ballot: lint reported WS008/WS009 in it, and translate
widened it to `unsigned long long` (its `__brev` to `__brevll`, a different result for a 32-bit caller), beside
the 64-bit overload.  A wave-64 target's mask is 64 bits wide: C++ calls the 64-bit overload there, and where
the caller's type is 32 bits the store into it is the hazard (WS008 at the store).  Look-alikes keep their
findings: only 32-bit overloads, and a mask stored in a plain `unsigned`.  The snippets are written here."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text

from kernelport.lint.engine import lint_text

HELPERS = """#include <cstdint>
#include <type_traits>
struct Cfg
{
#if defined(__GFX9__)
    static constexpr int warpSize = 64;
#else
    static constexpr int warpSize = 32;
#endif
    using ThreadMask = std::conditional_t<warpSize == 32, uint32_t, uint64_t>;
};
__device__ __forceinline__ int countLeadingZeros(uint32_t x) { return __clz(x); }
__device__ __forceinline__ int countLeadingZeros(uint64_t x) { return __clzll(x); }
__device__ __forceinline__ uint32_t reverseBits(uint32_t x) { return __brev(x); }
__device__ __forceinline__ uint64_t reverseBits(uint64_t x) { return __brevll(x); }
"""
KERNEL = """
__global__ void last(const int* in, int* out)
{
    Cfg::ThreadMask m = __ballot_sync(Cfg::ThreadMask(-1), in[threadIdx.x] > 0);
    out[threadIdx.x] = countLeadingZeros(reverseBits(m));
}
"""


def _found(src: str):
    return [(f.code, f.line) for f in lint_text(src, "t.cu", "cuda", targets={"hip-rdna", "hip-cdna"})
            if f.code in ("WS008", "WS009")]


def test_the_32_bit_overload_no_64_bit_mask_selects_is_neither_reported_nor_widened(tmp_path):
    assert _found(HELPERS + KERNEL) == []
    text = port_text(HELPERS + KERNEL, dedent=False)
    assert "int countLeadingZeros(uint32_t x) { return __clz(x); }" in text
    assert "uint32_t reverseBits(uint32_t x) { return __brev(x); }" in text
    assert "Cfg::ThreadMask m = __ballot(in[threadIdx.x] > 0);" in text
    hip_compiles(tmp_path, text)


def test_look_alikes_keep_their_findings():
    only_32 = "\n".join(l for l in HELPERS.splitlines() if "(uint64_t x)" not in l) + "\n"
    assert sorted(set(_found(only_32 + KERNEL))) == [("WS008", 12), ("WS008", 13), ("WS009", 12), ("WS009", 13)]
    plain = KERNEL.replace("Cfg::ThreadMask m =", "unsigned m =")
    assert ("WS008", 19) in _found(HELPERS + plain)  # the store into 32 bits


def test_a_ballot_cast_to_32_bits_selects_the_32_bit_overload():
    """`reverseBits((uint32_t)m)`: an explicit conversion names the argument's type, so C++ calls the 32-bit
    overload (lanes 32-63 cut there on a wave-64 target): reported at its parameter, as a plain `uint32_t`
    variable is; the cast to the project's own mask type (wide on a wave-64 build) stays silent."""
    for cast in ("(uint32_t)m", "static_cast<uint32_t>(m)", "uint32_t(m)", "((uint32_t)(m))"):
        found = _found(HELPERS + KERNEL.replace("reverseBits(m)", f"reverseBits({cast})"))
        assert ("WS008", 14) in found and ("WS009", 14) in found, (cast, found)
    assert _found(HELPERS + KERNEL.replace("reverseBits(m)", "reverseBits((Cfg::ThreadMask)m)")) == []


def test_a_mask_type_aliased_to_32_bits_selects_the_32_bit_overload(tmp_path):
    """A class's own `using ThreadMask = uint32_t;` (or a file's typedef): the store into it cuts the wave's
    mask (WS008 at the declaration, the port widens it), and the calls through it, `reverseBits(m)` and the
    `countLeadingZeros(...)` of what that returns, are the 32-bit overloads in C++: reported, widened, and the
    port compiles (no ambiguous call between the widened overload and `uint64_t`'s).  h/hip63 read every alias
    as 64 bits wide: lint went silent and the port kept a 32-bit `Cfg::ThreadMask`."""
    fixed = HELPERS.replace("using ThreadMask = std::conditional_t<warpSize == 32, uint32_t, uint64_t>;",
                            "using ThreadMask = uint32_t;")
    assert fixed != HELPERS
    found = _found(fixed + KERNEL)
    assert ("WS008", 19) in found and ("WS009", 12) in found and ("WS009", 14) in found, found
    text = port_text(fixed + KERNEL, dedent=False)
    assert "unsigned long long m = __ballot(in[threadIdx.x] > 0);" in text
    assert "int countLeadingZeros(unsigned long long x) { return (__clzll(x) - (64 - warpSize)); }" in text  # (the
    # wave's width: test_clz_lanes)
    hip_compiles(tmp_path, text)
    typedef = fixed.replace("struct Cfg\n", "typedef uint32_t mask_t;\nstruct Cfg\n")
    assert ("WS008", 20) in _found(typedef + KERNEL.replace("Cfg::ThreadMask m", "mask_t m"))
