"""32-bit parameters that a helper's own 64-bit lane-mask operation reads (WS008 without a caller).

`__device__ int count_below(uint32_t mask, int n) { return __popcll(mask & ((1ull << n) - 1)); }`:
the helper counts (`__popcll`) or searches (`__ffsll`) its parameter as a 64-lane mask, the width
of a ballot on a 64-lane wave, but takes it in 32 bits, so a caller's ballot loses lanes 32-63 at
the call (hipCollections' `count_least_significant_bits`).  Where a caller in the file passes a
ballot, the dataflow reports the parameter already (kernelport.masksources, warpflow); this is the
helper whose callers lint cannot see (a header's, called from other files): the 64-bit operation
is the evidence that the value is a wave's mask.  Left alone: a parameter of 64 bits, a 32-bit one
counted with the 32-bit operation (`__popc`: a data word), one widened by a cast before the
operation (the author chose the width), one the helper assigns to, and a helper that the file
calls (the dataflow follows what its callers pass: a data word is no mask).
"""
from __future__ import annotations

from tree_sitter import Node

from .. import fnscopes
from ..masksources import is_int32
from ..source import walk
from ..warpsites import type_aliases

MASK_OPS = ("popc64", "ffs64")  # the operations that read a mask's lanes, 64 of them


def narrow_mask_params(ctx) -> list[tuple[Node, str, Node]]:
    """(the parameter's type node, its name, the 64-bit operation) for each such parameter."""
    m = ctx.module
    out: list[tuple[Node, str, Node]] = []
    fns = [f for f in m.functions.values() if f.body is not None and f.is_device and not f.is_kernel]
    if not fns:
        return out
    aliases = type_aliases(ctx.src)
    called = {fnscopes.of(m).key(g) for c in ctx.nodes("call_expression")
              for g in fnscopes.callees(m, m.function_at(c), c)}
    for f in fns:
        types = {p.name: t for p in f.params if not p.pointer and (t := p.node.child_by_field_name("type")) is not None
                 and is_int32(ctx.text(t), aliases)}
        if not types or ctx.key(f) in called:
            continue
        assigned = {ctx.text(a.child_by_field_name("left")) for a in ctx.src.index.under(f.body, "assignment_expression")}
        assigned |= {ctx.text(u.child_by_field_name("argument")) for u in ctx.src.index.under(f.body, "update_expression")}
        for call in ctx.src.index.under(f.body, "call_expression"):
            found = ctx.concept_of_call(call)
            if found is None or found[0].key not in MASK_OPS or "x" not in found[2]:
                continue
            for name in _read_unwidened(ctx, found[2]["x"]) & types.keys() - assigned:
                if not ctx.guarded(types[name]):
                    out.append((types[name], name, call))
                    del types[name]  # once per parameter
    return out


def _read_unwidened(ctx, arg: Node) -> set[str]:
    """The identifiers the argument reads as mask bits: outside any cast (`(unsigned long long)x` is
    widened) and outside a shift's count (`1ull << n`: n is a lane's position, not a mask)."""
    def bits(n: Node) -> bool:
        if n.type == "cast_expression" or n.type == "call_expression" and \
                "_cast" in ctx.text(n.child_by_field_name("function") or n):
            return False
        p = n.parent
        return not (p is not None and p.type == "binary_expression" and n == p.child_by_field_name("right") and
                    ctx.text(p.child_by_field_name("operator")) in ("<<", ">>"))
    return {ctx.text(n) for n in walk(arg, bits) if n.type == "identifier" and bits(n)}
