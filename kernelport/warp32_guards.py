"""A literal lane mask under a guard on a lane of CUDA's 32-lane warp: a partial warp's shuffle (guardmasks).

A learner's warp primitives demo folds the first half of each warp:

    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int lane_id = tid % WARP_SIZE;                        // #define WARP_SIZE 32
    if (lane_id < 16)
      for (int offset = 8; offset >= 1; offset /= 2)
        value += __shfl_down_sync(0x0000FFFF, value, offset);

The mask `0x0000FFFF` is `(1 << 16) - 1`, lanes 0 .. 15: exactly the lanes the guard lets into each warp.
`lane_id` is the lane of CUDA's 32-lane warp (`% 32`, `& 31`, a macro or constant that is 32), not the
wave's: a port to the wave would make it `tid % 64` and the guard another set of lanes (wave lanes 0 .. 31,
one per wave where CUDA has one per warp).  So the code means 32-lane groups, and warpwidth reads it as it
reads a shuffle's explicit width 32 (`evidence`): the group keeps CUDA's 32 lanes, its literals stay 32
and every shuffle gets width 32.

Why that port computes CUDA's defined lanes at wave 64: a 64-lane wave holds two of the 32-lane groups
(threads 64k .. 64k+31 and 64k+32 .. 64k+63; the lane of the global id is threadIdx.x's only where every
block is whole 32-lane groups, which guardmasks checks at every launch and refuses where no launch says).
The guard lets in lanes 0 .. N-1 of each group (wave lanes 0 .. N-1 and 32 .. 31+N), the mask's lanes in
CUDA.  A shuffle of width 32 (or N) reads, in lane l's section, the lane at the same offset CUDA's warp
reads; where that lane is in the mask it is active in both and holds the same value.  CUDA's read of a
lane outside the mask is undefined, so no port owes it; but a ladder whose steps reach N or more reads
outside the mask from every lane (`offset 16` under `lane < 16`): it computes nothing CUDA defines and
stays refused.  A vote is not ported so: the wave's vote would see both groups.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .blockdims import names, value
from .warpsites import int_value

WHY = "a shuffle's literal mask (line {line}) names the first lanes of CUDA's 32-lane warp, those its guard " \
      "on a lane of that warp lets in (warp32_guards)"
_DOWN = r"(?<![\w.])%s\s*(/=\s*2|>>=\s*1)|%s\s*=\s*%s\s*(/\s*2|>>\s*1)\b"  # a step halved
_UP = r"(?<![\w.])%s\s*(\*=\s*2|<<=\s*1|\+\+|\+=\s*1)|\+\+\s*%s\b"  # doubled or counted up


def lanes(v: int | None) -> int | None:
    """N where the mask `v` is `(1 << N) - 1`, lanes 0 .. N-1 of a 32-lane warp (1 <= N <= 31)."""
    if v is None or v <= 0 or v & (v + 1):
        return None
    n = (v + 1).bit_length() - 1
    return n if n < 32 else None


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[-1]
    return n


def modulus(module, fn, n: Node | None) -> Node | None:
    """The operand of `x % W` (W 32) or `x & M` (M 31) that is CUDA's warp size, where `n` is such a lane and
    W is not `warpSize` (the wave's own name); None otherwise."""
    n = _strip(n)
    if n is None or n.type != "binary_expression":
        return None
    op, right = module.source.text_of(n.child_by_field_name("operator")), _strip(n.child_by_field_name("right"))
    if right is None or "warpSize" in module.source.text_of(right):
        return None
    want = {"%": 32, "&": 31}.get(op)
    return right if want is not None and value(right, module, names(module), fn) == want else None


def local_value(module, fn, ident: Node | None) -> Node | None:
    """The initializer of the local `ident` names, where the function declares it once (text-level: the
    evidence; guardmasks follows its one definition)."""
    src = module.source
    if ident is None or ident.type != "identifier" or fn.body is None:
        return None
    name = src.text_of(ident)
    decls = [d for d in src.index.under(fn.body, "init_declarator")
             if src.text_of(d.child_by_field_name("declarator")) == name]
    return decls[0].child_by_field_name("value") if len(decls) == 1 else None


def evidence(module, fn, call: Node, mask: Node | None) -> bool:
    """Whether the shuffle `call` passes a literal mask `(1 << N) - 1` inside an `if` whose condition
    has a conjunct `lane < N`, lane (or the local it names) a lane of CUDA's 32-lane warp."""
    src = module.source
    n = lanes(int_value(src.text_of(mask))) if mask is not None and _strip(mask).type == "number_literal" else None
    if n is None:
        return False
    from .guardmasks import _conjuncts
    at = call
    while at.parent is not None and at.type != "function_definition":
        at, child = at.parent, at
        if at.type != "if_statement" or child != at.child_by_field_name("consequence"):
            continue
        for c in _conjuncts(at.child_by_field_name("condition"), []):
            if c.type != "binary_expression" or src.text_of(c.child_by_field_name("operator")) not in ("<", ">"):
                continue
            lane, lim = ("left", "right") if src.text_of(c.child_by_field_name("operator")) == "<" else ("right", "left")
            x, bound = _strip(c.child_by_field_name(lane)), _strip(c.child_by_field_name(lim))
            if bound is None or int_value(src.text_of(bound)) != n:
                continue
            if modulus(module, fn, x) is not None or modulus(module, fn, local_value(module, fn, x)) is not None:
                return True
    return False


def step_bound(tr, step: Node | None, call: Node) -> int | None:
    """The largest value a shuffle's step (its delta, lane mask or source lane) takes: a literal, or a ladder's
    variable started at a literal and halved (`o /= 2`, `o >>= 1`), or doubled or counted up under `o < B`
    (`o <= B`), B a literal; and never assigned in the loop's body.  None where it is not so known."""
    from .butterfly_lanes import loop_inits
    src = tr.src
    step = _strip(step)
    if step is None:
        return None
    if step.type == "number_literal":
        return int_value(src.text_of(step))
    if step.type != "identifier":
        return None
    name = re.escape(src.text_of(step))
    for loop, init in loop_inits(src, call):
        got = re.search(r"(?<![\w.])%s\s*=\s*([^;,]*)" % name, init)
        if got is None:
            continue
        start, body = int_value(got.group(1).strip()), loop.child_by_field_name("body")
        update, cond = (src.text_of(loop.child_by_field_name(f)) if loop.child_by_field_name(f) is not None else ""
                        for f in ("update", "condition"))
        if start is None or body is not None and re.search(r"(?<![\w.])%s\s*([-+*/%%&|^]|<<|>>)?=[^=]|\+\+\s*%s\b|"
                                                           r"(?<![\w.])%s\s*(\+\+|--)" % (name, name, name), src.text_of(body)):
            return None
        if re.search(_DOWN % (name, name, name), update):
            return start
        bound = re.fullmatch(r"\s*%s\s*(<=?)\s*(\w+)\s*" % name, cond)
        if re.search(_UP % (name, name), update) and bound is not None and \
                (b := int_value(bound.group(2))) is not None:
            return b if bound.group(1) == "<=" else b - 1
        return None
    return None
