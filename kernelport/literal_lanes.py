"""Literal lane tests of a ballot word the port widens: the bit of the thread's own CUDA warp.

`unsigned m = __ballot_sync(FULL, p); if (m & 1) ...`, `(m & 0x80000000)`, `((m >> 5) & 1)`, and the same
inside a helper taking the word (`__device__ int top(unsigned b) { return (b & 0x80000000u) != 0; }`) name
lanes of the thread's 32-lane CUDA warp.  The port widens the word to the wave's lane mask (WS008's site),
which holds warp 2w at bits 0-31 and warp 2w + 1 at bits 32-63 of a 64-lane wave: read as written, lanes
32-63 test lane 0 / lane 31 of the other warp.  The word such a test reads is written as the thread's
warp's 32 bits, `(((m) >> (__lane_id() & 32)) & 0xffffffffu)` on HIP (the shift is 0 on gfx1030's 32-lane
waves and for a 64-lane wave's lower half), exactly the original's word in the widened type (an overload the
port widens still takes it); compared for equality, `(unsigned)((m) >> (__lane_id() & 32))`, so that a
literal's 32-bit reading stays (`m == -1`: all 32 lanes).  Only a test whose other operand is an
integer literal (`& LIT`, `>> K` then `& LIT` with K < 32, `== LIT` / `!= LIT` with LIT non-zero, the literal
as CUDA wrote it: the full mask's port would be the wave's) is rewritten here; sign tests are
kernelport/signed_masks.py's, and `__popc` / `__ffs` keep their port.  `m == 0` / `m != 0` keep main's port,
which asks whether any lane of the WAVE voted (the original: of the thread's warp): not yet changed here.
"""
from __future__ import annotations

from tree_sitter import Node

from . import signed_masks


def _literal(tr, n: Node | None) -> int | None:
    """The value of the integer literal `n` (through parentheses), None where it is not one."""
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    if n is None or n.type != "number_literal":
        return None
    t = tr.src.text_of(n).rstrip("uUlL")
    try:
        return int(t, 0) if not (len(t) > 1 and t[0] == "0" and t[1:].isdigit()) else int(t, 8)
    except ValueError:
        return None


def _op(tr, n: Node) -> str:
    o = n.child_by_field_name("operator")
    return tr.src.text_of(o) if o is not None else ""


def _tested(tr, top: Node) -> bool:
    """Whether the value `top` is read by a literal bit test: `top & LIT`, `LIT & top`, `(top >> K) & LIT`."""
    p = top.parent
    if p is None or p.type != "binary_expression":
        return False
    left, right = p.child_by_field_name("left"), p.child_by_field_name("right")
    other = right if left == top else left
    if _op(tr, p) == "&":
        return _literal(tr, other) is not None
    if _op(tr, p) in ("==", "!="):  # (`m == 0xffffffff`: the thread's warp all voted; `m != 0`: see the docstring)
        return bool(_literal(tr, other))
    if _op(tr, p) == ">>" and left == top:
        k = _literal(tr, right)
        up = signed_masks._up(p).parent
        if k is None or not 0 <= k < 32 or up is None or up.type != "binary_expression" or _op(tr, up) != "&":
            return False
        a, b = up.child_by_field_name("left"), up.child_by_field_name("right")
        return _literal(tr, b if signed_masks._up(p) == a else a) is not None
    return False


def rewrite(tr, site) -> None:
    """Write the widened word `site` types as the thread's warp's 32 bits where a literal bit test reads it."""
    for v in signed_masks._values(tr, site):
        top = signed_masks._up(v)
        if not _tested(tr, top):
            continue
        try:
            shift = f"{tr.spell('lane_id')} & 32"
        except LookupError:  # (a dialect without a lane id, lint's CUDA-to-CUDA fix: its warp is 32 lanes)
            return
        test = top.parent

        def render(rw, n, top=top, shift=shift) -> str:
            a, b = n.child_by_field_name("left"), n.child_by_field_name("right")
            op = _op(tr, n)
            word = f"((({rw.text(top)}) >> ({shift})) & 0xffffffffu)" if op != "==" and op != "!=" else \
                f"((unsigned)(({rw.text(top)}) >> ({shift})))"  # (the widened type kept for `&`: overloads)
            keep = (lambda c: tr.src.text_of(c)) if op in ("==", "!=") else rw.text  # (the literal as CUDA wrote it)
            return f"{word if a == top else keep(a)} {op} {word if b == top else keep(b)}"
        tr.rw.replace(test, render)
        tr.note(test, f"(unsigned)((mask) >> ({shift}))", "a literal lane test of a ballot's 32-bit word names a lane "
                "of the thread's CUDA warp; the port's mask is the wave's, which holds that warp at a 32-lane offset")
