"""Steps of an unrolled shuffle ladder: which literals belong to one step, and the extra step a
64-wide wave needs.

A step `if (n >= 32) v += __shfl_down_sync(m, v, 16);` folds values 16 lanes apart when at least
32 take part: 32 is the step's own threshold (twice its delta), whatever n is (a count of
threads, a lane).  On a 64-wide wave the ladder keeps all its steps and gains one at 32, whose
thresholds double with its delta (`n >= 64`).  Rewriting the 32 to warpSize instead moves the test
off its step: with 16 warps of 64 lanes the step at 8 would be skipped (HeCBench gemv's
`warpReduceSum(sum, blockDim.x / WARP_SIZE)`).  The same holds for a scan's `if (lane >= 16)` that
guards the use of the step at 16.

A step may be one statement (`v += shfl(v, 16)`) or split (`y = shfl(v, 16); if (lane >= 16) v += y;`):
the extra step copies all of it, else its result would be a dead store.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends, dialect
from .source import call_args, walk
from .warpsites import BODY_OF, int_value, shuffled_name

_STEP_KEYS = ("shfl_down", "shfl_xor", "shfl_up")
_DELTA = {"shfl_down": "delta", "shfl_up": "delta", "shfl_xor": "lanemask"}
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_SKIP = ("comment", "preproc_call")


def step_delta(src, dialect_name: str, call: Node) -> int | None:
    """The literal distance of a ladder step (`__shfl_down_sync(m, v, 8)` -> 8), else None."""
    fn = call.child_by_field_name("function") if call.type == "call_expression" else None
    found = dialect.spelled_by(dialect_name, src.text_of(fn)) if fn is not None else None
    if found is None or found[0].key not in _STEP_KEYS:
        return None
    names, args = dialect.call_params(found[0], found[1])[0], call_args(call)
    p = _DELTA[found[0].key]
    i = names.index(p) if p in names else len(args)
    return int_value(src.text_of(args[i])) if i < len(args) and args[i].type == "number_literal" else None


def _steps(src, dialect_name: str, node: Node | None) -> list[tuple[Node, int]]:
    out = []
    for n in (walk(node) if node is not None else ()):
        d = step_delta(src, dialect_name, n) if n.type == "call_expression" else None
        if d:
            out.append((n, d))
    return out


def _guarded_if(cmp: Node) -> Node | None:
    """The if statement whose condition `cmp` is (a conjunct or disjunct of)."""
    n = cmp
    while n.parent is not None and (n.parent.type in ("parenthesized_expression", "condition_clause") or (
            n.parent.type == "binary_expression" and n.parent.child_by_field_name("operator").type in ("&&", "||"))):
        n = n.parent
    p = n.parent
    return p if p is not None and p.type == "if_statement" and p.child_by_field_name("condition") == n else None


def _prev_stmt(n: Node) -> Node | None:
    p = n.prev_named_sibling
    while p is not None and p.type in _SKIP:
        p = p.prev_named_sibling
    return p


def _next_stmt(n: Node) -> Node | None:
    p = n.next_named_sibling
    while p is not None and p.type in _SKIP:
        p = p.next_named_sibling
    return p


def assigned_name(src, stmt: Node) -> str | None:
    """`y = ...;`, `y += ...;`: y."""
    e = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else None
    left = e.child_by_field_name("left") if e is not None and e.type == "assignment_expression" else None
    return src.text_of(left) if left is not None and left.type == "identifier" else None


def _reads(src, node: Node, name: str) -> bool:
    return any(v.type == "identifier" and src.text_of(v) == name for v in walk(node))


def threshold(src, dialect_name: str, cmp: Node) -> tuple[Node, int] | None:
    """(the literal, the step's delta) when comparison `cmp` is a step's own threshold: it guards
    one step (the shuffle, or the use of the shuffle's result right before it) and its literal is
    the step's delta or twice it."""
    if cmp.type != "binary_expression" or src.text_of(cmp.child_by_field_name("operator")) not in _COMPARE:
        return None
    lits = [c for c in (cmp.child_by_field_name("left"), cmp.child_by_field_name("right"))
            if c is not None and c.type == "number_literal"]
    if len(lits) != 1:
        return None
    t, stmt = int_value(src.text_of(lits[0])), _guarded_if(cmp)
    if not t or stmt is None:
        return None
    body = stmt.child_by_field_name("consequence")
    steps = _steps(src, dialect_name, body)
    prev = _prev_stmt(stmt)
    if not steps and prev is not None and (y := assigned_name(src, prev)) is not None and _reads(src, body, y):
        steps = _steps(src, dialect_name, prev)  # `y = shfl(v, 16); if (lane >= 16) v += y;`
    if len(steps) != 1 or t not in (steps[0][1], 2 * steps[0][1]):
        return None
    return lits[0], steps[0][1]


def _thresholds_in(src, dialect_name: str, node: Node, delta: int) -> list[Node]:
    return [t[0] for n in walk(node) if n.type == "binary_expression"
            and (t := threshold(src, dialect_name, n)) is not None and t[1] == delta]


def wide_step(tr, lit: Node) -> None:
    """Give the unrolled ladder whose step at 16 holds `lit` its step at 32 (a 64-wide wave), right
    before the step at 16 and under `if (warpSize > 32)`; refuse (KP205) a step it cannot copy whole."""
    src, rw, source = tr.src, tr.rw, backends.source().name
    stmt = lit
    while stmt is not None and stmt.type != "expression_statement":
        if stmt.type in ("declaration", "compound_statement", "function_definition"):
            stmt = None
            break
        stmt = stmt.parent
    if stmt is None:
        return _refuse(tr, lit, "an unrolled shuffle ladder starts at 16 inside a declaration")
    call = next((c for c, d in _steps(src, source, stmt) if d == 16), None)
    y, shuffled = assigned_name(src, stmt), shuffled_name(src, call, source) if call is not None else None
    part = [stmt]
    plain = src.text_of(stmt.named_children[0].child_by_field_name("operator")) == "=" if y is not None else False
    if plain and shuffled is not None and y != shuffled:  # a split step `y = shfl(v, 16)`: its uses come along
        nxt = _next_stmt(stmt)
        while nxt is not None and _reads(src, nxt, y) and not _steps(src, source, nxt):
            part.append(nxt)
            nxt = _next_stmt(nxt)
        if len(part) == 1 or stmt.parent is None or stmt.parent.type in BODY_OF:
            return _refuse(tr, lit, f"the step at 16 stores its shuffle in '{y}', whose use translate cannot "
                                    "find right after it")
    guard = stmt.parent if stmt.parent is not None and stmt.parent.type == "if_statement" else None
    outer = [t for t in _thresholds_in(src, source, guard.child_by_field_name("condition"), 16)] \
        if guard is not None else []
    inner = [t for s in part[1:] for t in _thresholds_in(src, source, s, 16)]
    line_start = src.data.rfind(b"\n", 0, stmt.start_byte) + 1
    indent = re.match(rb"[ \t]*", src.data[line_start:stmt.start_byte]).group(0).decode()
    ws = tr.spell("warp_size")
    half = f"{ws} / 2"  # 32 where the guard holds: one width in the whole ladder

    def doubled(rw, nodes, render):
        for t in nodes:
            rw.replace(t, str(2 * int_value(src.text_of(t))))
        try:
            return render()
        finally:
            for t in nodes:
                rw.remove(t)

    cond = f"if ({ws} > 32) "
    if outer:  # `if (n >= 32) v += ...`: the step at 32 needs n >= 64
        cond = f"if ({ws} > 32 && {doubled(rw, outer, lambda: rw.text(guard.child_by_field_name('condition')))}) "

    def render(rw, node: Node) -> str:
        normal = rw.stitch(node)
        rw.replace(lit, half)
        try:
            wide = doubled(rw, inner, lambda: "\n".join(
                rw.stitch(s) if s == stmt else rw.text(s) for s in part))
        finally:
            rw.remove(lit)
        if len(part) > 1:
            wide = "{ " + wide.replace("\n", f"\n{indent}  ") + " }"
        if stmt.parent is not None and stmt.parent.type in BODY_OF:  # `if (n >= 32) v += ...;`: one statement
            return f"{{ {cond}{wide}\n{indent}  {normal} }}"
        return f"{cond}{wide}\n{indent}{normal}"

    rw.replace(stmt, render)
    tr.note(stmt, cond + f"... {half} ...", "the ladder needs a step at 32 on a 64-wide wave")


def _refuse(tr, lit: Node, message: str) -> None:
    tr.problem("KP205", lit, message, "write each step as `v += __shfl_down_sync(mask, v, 16);` (or its guarded "
               "form `if (n >= 32) v += ...;`) or as a loop from warpSize / 2")
