"""WS rules on lane masks a project builds by arithmetic rather than by a vote.

`0xFFFFFFFF >> (warpSize - n)` is the mask of a wave's n lowest lanes: a shift by an amount the wave
width sets only makes sense for a lane mask.  Written with a 32-bit all-ones value it holds lanes
0-31 only; on a 64-lane wave the shift is 33..64 for n < 32 (undefined in C++, and `x >> 64` is not
0 on AMD hardware) and lanes 32-63 cannot be named.  Cycles' HIP `ccl_gpu_thread_mask` had this form
until its Vega (wave64) support made it 64 bits (tests/labelled8).  Compatibility headers hold such
masks as function-like macros, so their replacement lists are read too.
"""
from __future__ import annotations

from tree_sitter import Node

from ... import dialect
from ...source import SourceFile
from ..macromasks import all_ones_32_literal
from ..rule import Rule, ex, register
from ... import lazy_re

_SHIFTS = ("<<", ">>")
_PROBE = "auto __kp_lane_mask_probe = "
_NAME = lazy_re.compile(r"[A-Za-z_]\w*")


class _WaveWords:
    """The names that read the wave width in this file: the built-in's spelling and the object-like
    macros (the file's own and its includes') whose replacement lists read it."""

    def __init__(self, ctx):
        self.word = dialect.concept("warp_size").spelling(ctx.lang)
        bodies = {name: m.value for name, m in ctx.module.macros.items()}
        bodies.update({name: m.body for name, m in (ctx.unit.macros or {}).items()
                       if getattr(m, "params", None) is None and name not in bodies})
        self.names = {self.word}
        for _ in range(4):  # `#define WS (warpSize)`, `#define LANES WS`
            grown = {n for n, b in bodies.items() if any(w in self.names for w in _NAME.findall(b or ""))}
            if grown <= self.names:
                break
            self.names |= grown

    def read_by(self, text: str) -> bool:
        return any(w in self.names for w in _NAME.findall(text))


def _masks(src, shifts, wave: _WaveWords):
    """The 32-bit all-ones literals of these binary expressions shifted by an amount that reads the wave width."""
    for n in shifts:
        op = n.child_by_field_name("operator")
        if op is None or src.text_of(op) not in _SHIFTS:  # (the operands read only for a shift)
            continue
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if left is None or right is None:
            continue
        while left.type == "parenthesized_expression" and left.named_child_count == 1:
            left = left.named_children[0]
        if left.type in ("number_literal", "unary_expression") and all_ones_32_literal(src.text_of(left)) and \
                wave.read_by(src.text_of(right)):
            yield left


@register
class LaneMaskFromWarpSize32(Rule):
    code, name = "WS025", "lane-mask-from-warp-size-in-32-bits"
    summary = "A lane mask is a 32-bit all-ones value shifted by an amount computed from the warp size."
    docs = """\
`0xFFFFFFFF >> (warpSize - n)` (the n lowest lanes) or `0xFFFFFFFF << (warpSize - n)`: a shift the
wave width sets is a lane mask, and a 32-bit all-ones value holds 32 lanes.  On a 64-lane wave the
amount is 33-64 for n < 32 (undefined behaviour; AMD's shifts do not give 0 at 64) and lanes 32-63
cannot be named, so a ballot ANDed with it loses them.  Function-like macros of a compatibility
header (`#define LANES_BELOW(n) uint(0xFFFFFFFF >> (WARP - (n)))`) are read as well.

**Fix**: build the mask in 64 bits (`(1ull << n) - 1`, or `0xFFFFFFFFFFFFFFFFull >> (warpSize - n)`
for 0 < n) and keep it in `unsigned long long`.  A 32-bit bit field of data
(`0xFFFFFFFF >> (32 - bits)`) stays silent: its amount does not come from the wave width."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
__device__ unsigned lanes_below(int lane) {
    return 0xFFFFFFFFu >> (warpSize - lane);  // !
}"""),
        ex("""
#define gpu_warp_size (warpSize)
#define gpu_thread_mask(thread_warp) uint(0xFFFFFFFF >> (gpu_warp_size - thread_warp))  // !
"""),
    )
    passes = (
        ex("""
__device__ unsigned low_bits(unsigned word, int bits) {
    return word & (0xFFFFFFFFu >> (32 - bits));
}"""),
        ex("""
__device__ unsigned long long lanes_below(int lane) {
    return 0xFFFFFFFFFFFFFFFFull >> (warpSize - lane);
}"""),
        ex("""
#define gpu_thread_mask(thread_warp) uint64_t((1ull << (thread_warp)) - 1)
"""),
    )

    def check(self, ctx) -> None:
        wave = _WaveWords(ctx)
        message = (f"a lane mask is built from a 32-bit all-ones value shifted by an amount the warp size sets: "
                   f"{ctx.breaks}, the shift reaches 33-64 bits and lanes 32-63 cannot be named; build it in "
                   f"64 bits (`unsigned long long`)")
        for lit in _masks(ctx.src, ctx.nodes("binary_expression"), wave):  # the file's node index
            if not ctx.guarded(lit):
                ctx.report(self, lit, message)
        for d in ctx.nodes("preproc_function_def"):
            value = d.child_by_field_name("value")
            if value is None or ctx.guarded(d) or not wave.read_by(ctx.text(value)):
                continue
            body = ctx.text(value)
            probe = SourceFile.from_text(_PROBE + body + ";\n", ctx.path)
            base = value.start_byte - len(_PROBE.encode())
            for lit in _masks(probe, probe.index.of_type("binary_expression"), wave):
                ctx.report(self, (base + lit.start_byte, base + lit.end_byte), message)
