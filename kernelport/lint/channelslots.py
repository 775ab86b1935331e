"""One tree step over several channels of a shared buffer: no lockstep assumed (SY002).

A block reduction of several quantities at once lays them out as channels of one shared buffer, `C` rows of
blockDim.x slots, and folds every channel in the same tree step (heldout80's robotics image pipeline sums r, g, b
and their squares so):

    for (int stride = bd / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            for (int c = 0; c < 6; ++c) sdata[c * bd + tid] += sdata[c * bd + tid + stride];
        }
        __syncthreads();
    }

The channel loop holds no barrier, and needs none.  With B the block's x size (blockDim.x, or a local that only
holds it) and d the step, every slot `E * B + t` or `E * B + t + d` has residue t or t + d modulo B, whatever E is,
since 0 <= t < d and d <= B / 2 put t + d below B.  A thread writes only slots of residue t, below d; the other
slots it reads have residue t + d, at or above d, which no thread that passes `t < d` writes; and residue t is
thread t's own (x the only thread index of the function).  So no thread reads a slot another thread writes in the
step: the order the channel loop's iterations run in across the threads does not matter.

The conditions: the loop is a `for` inside a `for` over d whose body holds a block barrier, whose initialiser sets d
to `B / 2` (or `B >> 1`), whose update halves it (`d >>= 1`, `d /= 2`, `d = d / 2`, `d = d >> 1`) and whose body
assigns d nowhere else; an `if` between the two is entered under `t < d` (a conjunct; `d > t`), t threadIdx.x or a
local that only holds it; every access to the arrays in the channel loop is a subscript `E * B + t` (written or
read) or `E * B + t + d` (read), its terms in any order, with E free of t and d.  A step that starts at B (d may
reach B), a read one slot past the step, a missing `t < d` test or a second thread index stay SY002.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import lazy_re
from . import loneguards, rowslots
from .slotloops import _assigned, _conjuncts, _is_written, _variable

_YZ = lazy_re.compile(r"\bthreadIdx\s*\.\s*[yz]\b")
_BDIM = lazy_re.compile(r"^\(?blockDim\.x\)?$")
_IDENT = lazy_re.compile(r"^[A-Za-z_]\w*$")


def one_step(ctx, loop: Node, arrays, is_barrier) -> bool:
    """Whether `loop` (a loop without a barrier) is one tree step over channels of `arrays`, as the module says;
    `is_barrier(ctx, node)`: whether node's subtree holds a barrier."""
    if loop.type != "for_statement" or not arrays:
        return False
    f = ctx.module.function_at(loop)
    body = loop.child_by_field_name("body")
    if f is None or f.body is None or body is None or _YZ.search(ctx.text(f.node)):
        return False
    step, guard = None, None
    n = loop.parent
    while n is not None and n.type != "function_definition":
        if n.type == "if_statement" and guard is None:
            guard = n
        if n.type == "for_statement":
            step = n
            break
        n = n.parent
    if step is None or guard is None or not _inside(loop, guard.child_by_field_name("consequence")):
        return False
    d = _variable(ctx, step)
    sbody = step.child_by_field_name("body")
    if d is None or sbody is None or not is_barrier(ctx, sbody) or d in _assigned(ctx, sbody):
        return False
    if _halving(ctx, f, step, d) is None or _thread_bound(ctx, f, guard.child_by_field_name("condition"), d) is None:
        return False
    return _channel_slots(ctx, f, body, arrays, d)


def _inside(n: Node, outer: Node | None) -> bool:
    while n is not None:
        if outer is not None and n.id == outer.id:
            return True
        n = n.parent
    return False


def _flat(ctx, n: Node | None) -> str:
    return re.sub(r"\s+", "", ctx.text(n)) if n is not None else ""


def _is_bdim(ctx, f, text: str) -> bool:
    """blockDim.x, or a local of f declared once from it and never assigned after."""
    if _BDIM.match(text):
        return True
    if _IDENT.match(text) is None:
        return False
    inits = loneguards._declared(ctx, f, text)
    return len(inits) == 1 and inits[0][1] is not None and _BDIM.match(_flat(ctx, inits[0][1])) is not None and \
        not loneguards._stored(ctx, f, text)


def _halving(ctx, f, step: Node, d: str) -> str | None:
    """B where the step loop starts d at `B / 2` (`B >> 1`) and halves it each time; None otherwise."""
    init, upd = step.child_by_field_name("initializer"), step.child_by_field_name("update")
    value = None
    if init is not None and init.type == "declaration":
        for dec in init.children_by_field_name("declarator"):
            if dec.type == "init_declarator" and _flat(ctx, dec.child_by_field_name("declarator")) == d:
                value = dec.child_by_field_name("value")
    elif init is not None and init.type == "assignment_expression" and _flat(ctx, init.child_by_field_name("left")) == d:
        value = init.child_by_field_name("right")
    m = re.fullmatch(r"\(?(.+?)(?:/2|>>1)\)?", _flat(ctx, value)) if value is not None else None
    if m is None or not _is_bdim(ctx, f, rowslots._strip(m.group(1))):
        return None
    halves = {f"{d}>>=1", f"{d}/=2", f"{d}={d}/2", f"{d}={d}>>1"}
    return rowslots._strip(m.group(1)) if _flat(ctx, upd) in halves else None


def _thread_bound(ctx, f, cond: Node | None, d: str) -> str | None:
    """t where a conjunct of `cond` is `t < d` (`d > t`) with t the thread's x index."""
    while cond is not None and cond.type in ("condition_clause", "parenthesized_expression") and cond.named_children:
        cond = cond.named_children[-1]
    if cond is None:
        return None
    for c in _conjuncts(cond):
        op = c.child_by_field_name("operator") if c.type == "binary_expression" else None
        if op is None or op.type not in ("<", ">"):
            continue
        lo, hi = c.child_by_field_name("left"), c.child_by_field_name("right")
        lo, hi = (lo, hi) if op.type == "<" else (hi, lo)
        t = rowslots._strip(_flat(ctx, lo))
        if rowslots._strip(_flat(ctx, hi)) == d and rowslots._is_x(ctx, f, t):
            return t
    return None


def _channel_slots(ctx, f, body: Node, arrays, d: str) -> bool:
    """Every mention of an array of `arrays` in body is a subscript `E * B + t` or, read, `E * B + t + d`."""
    seen = False
    for ident in ctx.src.index.under(body, "identifier"):
        if ctx.text(ident) not in arrays:
            continue
        sub = ident.parent
        if sub is None or sub.type != "subscript_expression" or sub.child_by_field_name("argument").id != ident.id:
            return False
        idx = sub.child_by_field_name("indices")
        if idx is None or idx.named_child_count != 1:
            return False
        kind = _slot(ctx, f, idx.named_children[0], d)
        if kind is None or (kind == "above" and _is_written(sub)):
            return False
        seen = True
    return seen


def _slot(ctx, f, e: Node, d: str) -> str | None:
    """"own" for `E * B + t`, "above" for `E * B + t + d` (terms in any order; B blockDim.x or a copy, t
    threadIdx.x or a copy), None otherwise."""
    terms = rowslots._split(rowslots._strip(_flat(ctx, e)), "+")
    if terms is None:
        return None
    terms = [rowslots._strip(x) for x in terms]
    xs = [x for x in terms if rowslots._is_x(ctx, f, x)]
    rest = [x for x in terms if x != d and x not in xs]
    if len(xs) != 1 or terms.count(d) > 1 or len(rest) != 1:
        return None
    factors = rowslots._split(rest[0], "*")
    if factors is None or len(factors) < 2 or sum(_is_bdim(ctx, f, rowslots._strip(x)) for x in factors) != 1:
        return None
    names = set(re.findall(r"[A-Za-z_]\w*(?:\.[xyz])?", rest[0]))
    if d in names or any(rowslots._is_x(ctx, f, x) for x in names):
        return None
    return "above" if d in terms else "own"

