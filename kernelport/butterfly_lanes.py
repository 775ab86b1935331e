"""An xor butterfly over CUDA's 32 lanes whose result every lane keeps: evidence of 32-lane groups.

`for (m = 16; m >= 1; m /= 2) v += __shfl_xor_sync(full, v, m);` leaves in every lane the fold of its
own 32-lane warp.  The wave rewrite (ladder from `warpSize / 2`) makes it the fold of the whole 64-lane
wave: right where one lane per warp hands the result on (`if (lane == 0) part[warp] = v;`, with the
warp index rewritten alike), wrong where every lane stores it or adds it atomically (`out[i] = v;`,
`y[i] = x[i] / v;`): each would hold the sum of 64 values where CUDA's holds 32 (the emulator at wave
64: out[0] = -21.0 where CUDA gives -2.0).  Such a function's group keeps CUDA's 32-lane groups
(kernelport/warpwidth.py reads this as code evidence, as it reads a shuffle's explicit width 32).

Read within one function: the butterfly's steps (a literal 16, or a loop variable that starts at 16),
the variable it folds, and a later store or atomic of an expression that reads it outside any test of
equality (`lane == 0`, `lane == __ffs(ballot) - 1`: read as a leader's, where the wave rewrite stays).  A shuffle that names its width is already explicit; a helper returning the fold to a
caller that stores it is not followed (open).
"""
from __future__ import annotations

from tree_sitter import Node

from . import dialect
from .source import call_args
from . import lazy_re

_LEADER = lazy_re.compile(r"(?<![=!<>])==(?!=)|^\s*!\s*\w+\s*$")  # a test of equality picks lanes: read as a leader's
_STARTS_AT_16 = r"(?<![\w.])%s\s*=\s*(0x10|16)[uUlL]*\b"


def every_lane_keeps(module, f, read_as: str) -> Node | None:
    """The store (or atomic call) through which every lane keeps a 32-lane xor butterfly's result in `f`."""
    src = module.source
    if f.body is None:
        return None
    folded: dict[str, int] = {}  # variable -> end of its butterfly's last step
    for call in src.index.under(f.body, "call_expression"):
        fn = call.child_by_field_name("function")
        found = dialect.spelled_by(read_as, src.text_of(fn)) if fn is not None else None
        if found is None or found[0].key != "shfl_xor":
            continue
        names, args = dialect.call_params(*found)[0], call_args(call)
        if len(args) > names.index("width") or len(args) <= names.index("lanemask"):
            continue  # a width named: the code says which group it means
        value, lane = args[names.index("value")], args[names.index("lanemask")]
        if value.type != "identifier" or not _from_16(src, lane, call) or not _folds(src, call, src.text_of(value)):
            continue
        v = src.text_of(value)
        folded[v] = max(folded.get(v, 0), _statement_end(call))
    if not folded:
        return None
    for n in src.index.under_types(f.body, "assignment_expression", "call_expression"):
        kept = _keeper(src, n, folded)
        if kept and not _under_leader(src, n, f.body):
            return n
    return None


def _folds(src, call: Node, v: str) -> bool:
    """The step folds the partner's value into v itself (`v += shfl(v, m)`, `v = fmaxf(v, shfl(v, m))`), not
    an exchange that keeps it apart (`q = shfl(a, 16)`, a transpose's step: xorexchange.py)."""
    n = call.parent
    while n is not None and n.type in ("parenthesized_expression", "argument_list", "call_expression",
                                       "binary_expression", "cast_expression"):
        n = n.parent
    if n is None or n.type != "assignment_expression":
        return False
    left = n.child_by_field_name("left")
    return left is not None and left.type == "identifier" and src.text_of(left) == v


def loop_inits(src, node: Node):
    """(the `for` statement, its initialiser's text) of each loop around `node` in its function, innermost first
    (a ladder's step variable is started there)."""
    n = node.parent
    while n is not None and n.type != "function_definition":
        if n.type == "for_statement":
            init = n.child_by_field_name("initializer")
            if init is not None:
                yield n, src.text_of(init)
        n = n.parent


def _from_16(src, lane: Node, call: Node) -> bool:
    t = src.text_of(lane).strip()
    if t in ("16", "0x10", "16u", "16U"):
        return True
    if lane.type != "identifier":
        return False
    return any(lazy_re.compile(_STARTS_AT_16 % t).search(init) for _, init in loop_inits(src, call))


def _statement_end(call: Node) -> int:
    """The end of the loop that holds the step (its last iteration), else of the step's statement."""
    n, end = call, call.end_byte
    while n.parent is not None and n.type != "function_definition":
        n = n.parent
        if n.type in ("for_statement", "while_statement", "do_statement"):
            end = n.end_byte
        if n.type == "compound_statement" and n.parent is not None and n.parent.type == "function_definition":
            break
    return end


def _reads(src, n: Node | None, names: set[str]) -> bool:
    if n is None:
        return False
    if n.type == "identifier":
        return src.text_of(n) in names
    return any(src.text_of(i) in names for i in src.index.under(n, "identifier"))


def _keeper(src, n: Node, folded: dict[str, int]) -> bool:
    """`mem[...] = ...v...` or `atomicX(p, ...v...)` after v's butterfly."""
    after = {v for v, end in folded.items() if n.start_byte >= end}
    if not after:
        return False
    if n.type == "assignment_expression":
        left = n.child_by_field_name("left")
        return left is not None and left.type in ("subscript_expression", "pointer_expression") and \
            _reads(src, n.child_by_field_name("right"), after)
    fn = n.child_by_field_name("function")
    name = src.text_of(fn) if fn is not None else ""
    return name.startswith("atomic") and any(_reads(src, a, after) for a in call_args(n)[1:])


def _under_leader(src, n: Node, body: Node) -> bool:
    p = n.parent
    while p is not None and p != body:
        if p.type in ("if_statement", "conditional_expression"):
            c = p.child_by_field_name("condition")
            if c is not None and _LEADER.search(src.text_of(c).strip("() ")):
                return True
        p = p.parent
    return False


starts_at_16, folds_into, under_leader = _from_16, _folds, _under_leader  # read by fold_levels too
