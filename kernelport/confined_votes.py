"""A vote that only the threads of one 32-lane CUDA warp reach: a logical 32-lane group's vote at any wave.

GPUPrefixSums' decoupled look-back votes (`__all_sync(0xffffffff, ..)`, `__ballot_sync(0xffffffff, ..)`)
in `LookbackWarp`, which CSDL calls under `if (partitionIndex && threadIdx.x < LANE_COUNT)`.  CUDA's warps are
the block's linear threads in runs of 32, a 64-lane wave a run of 64.  Where a guard confines the threads
that reach a vote to one 32-aligned run of 32 (`threadIdx.x < 32`, `warp == 0` with `warp = threadIdx.x / 32`,
`!(threadIdx.x >> 5)`), the wave that runs the vote has only that CUDA warp's lanes active; with CUDA's full
mask all 32 of them run the vote together (CUDA requires it), and the backends' votes are over the active
lanes (HIP's `__all`/`__any`, and `__ballot`, whose inactive lanes' bits are 0), so:

- `all`/`any` of the wave are the warp's, wherever the run lies in its wave;
- a ballot is the warp's 32 bits only where the run is the lower half of its 64-lane wave (threads
  64k .. 64k+31): the upper half's bits would sit at 32-63 (`warp == 1` stays refused).

So such a vote does not make its group share a wave with another group's vote: warpwidth keeps the group
logical (32 lanes, every shuffle width 32) as it does a group without votes.  Conditions, checked here:
the vote is a ballot, any or all of the source dialect with a full mask (or none, the legacy forms); an
`if` whose consequence holds it (in its function, or around every call of its function, followed up the
callers: a kernel, an address taken or no call seen ends it) has a conjunct over `threadIdx.x` alone
(macros and a local's one value followed) whose threads, 0 .. 1023, are one such run; and the group reads
no `threadIdx.y`/`.z` and no launch of it has a 2-D block (`threadIdx.x` is then the linear thread index: with
`dim3(32, 8)` the guard `threadIdx.x < 32` lets in every thread).  Anything else stays as before (KP219).
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import cexpr, dialect, fullmask, lazy_re
from .model import Function, Module
from .source import call_args

_TX = "__kp_tx"
_THREAD_X = lazy_re.compile(r"\bthreadIdx\s*\.\s*x\b")
_WORD = lazy_re.compile(r"\b[A-Za-z_]\w*\b")
_DEPTH = 6
_BLOCK = 1024  # CUDA's most threads in a block's x


def confined(module: Module, vote: Node, names, read_as: str) -> bool:
    """Whether `vote` is a 32-lane warp's vote at any wave (the module docstring's conditions)."""
    src = module.source
    fn = vote.child_by_field_name("function")
    found = dialect.spelled_by(read_as, src.text_of(fn)) if fn is not None else None
    if not found or found[0].key not in ("ballot", "any", "all"):
        return False
    params, args = dialect.call_params(*found)[0], call_args(vote)
    if "mask" in params:
        if params.index("mask") >= len(args):
            return False
        if not fullmask.low_32_full(module, src.text_of(args[params.index("mask")]), names):
            return False
    runs = _threads(module, vote, names, 0, set())
    if not runs:
        return False
    lo, hi = min(min(r) for r in runs), max(max(r) for r in runs)
    if any(min(r) // 32 != max(r) // 32 for r in runs):
        return False
    if found[0].key == "ballot" and any(min(r) // 32 % 2 for r in runs):
        return False  # the upper half of a 64-lane wave: its ballot bits are 32-63
    return lo >= 0 and hi < _BLOCK


def two_d(module: Module, functions) -> bool:
    """Whether any of `functions` (a group's) reads `threadIdx.y` or `.z`: `threadIdx.x` is then not linear."""
    src = module.source
    return any(f.body is not None and re.search(r"\bthreadIdx\s*\.\s*[yz]\b", src.text_of(f.body)) for f in functions)


def _threads(module: Module, node: Node, names, depth: int, seen: set) -> list[set[int]] | None:
    """The sets of `threadIdx.x` that may reach `node`, one per path (None: some path is not confined)."""
    f = module.function_at(node)
    if f is None or f.body is None or depth > _DEPTH:
        return None
    here = _guarded(module, f, node, names)
    if here is not None:
        return [here]
    if f.is_kernel or f.name in _taken(module) or f.name in seen:
        return None
    calls = [c for c in module.source.index.of_type("call_expression") if _calls(module, c, f.name)]
    if not calls:
        return None
    out = []
    for c in calls:
        got = _threads(module, c, names, depth + 1, seen | {f.name})
        if got is None:
            return None
        out += got
    return out


def _taken(module: Module) -> set[str]:
    from .pointer_calls import address_taken
    return address_taken(module)


def _calls(module: Module, call: Node, name: str) -> bool:
    from .fnscopes import callee_name
    return callee_name(call.child_by_field_name("function")) == name


def _guarded(module: Module, f: Function, node: Node, names) -> set[int] | None:
    """The threads an `if` around `node` in `f` lets in, where a conjunct over `threadIdx.x` alone decides it."""
    src = module.source
    best = None
    child, p = node, node.parent
    while p is not None and p != f.node:
        if p.type == "if_statement" and p.child_by_field_name("consequence") == child:
            from .guardmasks import _conjuncts  # (an `&&` chain's terms)
            for c in _conjuncts(p.child_by_field_name("condition"), []):
                got = _satisfying(module, f, c, names)
                if got is not None:
                    best = got if best is None else best & got
        child, p = p, p.parent
    return best


def _satisfying(module: Module, f: Function, cond: Node, names) -> set[int] | None:
    """The values of `threadIdx.x` in 0 .. 1023 for which `cond` holds, where `threadIdx.x` is its only unknown."""
    text = _expand(module, f, module.source.text_of(cond), 0, names)
    if text is None or _TX not in text:
        return None
    try:
        ev = cexpr.evaluator(text, cxx=True)
        known = dict(names)
        out = set()
        for t in range(_BLOCK):
            known[_TX] = t
            if ev(known).v:
                out.add(t)
    except (cexpr.CExprError, ZeroDivisionError, TypeError, RecursionError, KeyError, ValueError, AttributeError):
        return None
    return out


def _expand(module: Module, f: Function, text: str, depth: int, names=()) -> str | None:
    """`text` with `threadIdx.x` named, object-like macros (the file's or its headers': those `names` does not
    value) and `f`'s locals of one value replaced (None: too deep)."""
    if depth > _DEPTH:
        return None
    text = _THREAD_X.sub(_TX, text)

    def word(m: re.Match) -> str:
        w = m.group(0)
        mac = module.macros.get(w)
        if mac is None and module.visible is not None:  # a header's macro (GPUPrefixSums' LANE_COUNT in Utils.cuh)
            mac = module.visible.macros.get(w)
        if mac is not None and mac.value and (_THREAD_X.search(mac.value) or
                                              mac.node.type == "preproc_def" and w not in names):
            got = _expand(module, f, mac.value, depth + 1, names)
            return f"({got})" if got is not None else w
        value = _local(module, f, w)
        if value is not None:
            got = _expand(module, f, value, depth + 1, names)
            return f"({got})" if got is not None else w
        return w
    return _WORD.sub(word, text)


def _local(module: Module, f: Function, name: str) -> str | None:
    """The one value of `f`'s local `name` (declared once with an initializer, never assigned or updated)."""
    src = module.source
    if f.body is None or f.param(name) is not None or name == _TX:
        return None
    decls, writes = [], 0
    for n in src.index.under(f.body, "identifier"):
        if src.text_of(n) != name or n.parent is None:
            continue
        p = n.parent
        if p.type == "init_declarator" and p.child_by_field_name("declarator") == n:
            decls.append(p)
        elif (p.type == "assignment_expression" and p.child_by_field_name("left") == n) or p.type == "update_expression" \
                or (p.type == "pointer_expression" and src.text_of(p).lstrip().startswith("&")):
            writes += 1
    if len(decls) != 1 or writes:
        return None
    value = decls[0].child_by_field_name("value")
    return src.text_of(value) if value is not None else None


def every(module: Module, votes: list[Node], names, read_as: str, functions, geometries=()) -> str:
    """Why the group's votes leave it a logical 32-lane group ('' where one of them is not so confined).
    `geometries` (warpwidth's evidence): a block seen with more threads than its x (`dim3(32, 8)`) makes
    `threadIdx.x` no linear index even where the code reads no `threadIdx.y`."""
    if two_d(module, functions) or any(e.x is not None and e.total is not None and e.total != e.x for e in geometries) \
            or not all(confined(module, v, names, read_as) for v in votes):
        return ""
    line = module.source.loc(votes[0]).line
    return (f"32-lane groups: its votes (line {line}) run only in threads of one 32-lane CUDA warp (a guard on "
            "threadIdx.x), each a 32-lane warp's vote at any wave")


def spans(tr) -> list[tuple[int, int]]:
    """The byte spans of the functions of groups kept logical by such votes: there a ballot is one 32-lane
    warp's, in the lower half of its wave (bits 32-63 are 0), so a 32-bit mask holds all of it.  Lint of the
    original alone (a header read without its includes' macros and helpers) may judge the group native and
    report a plain port's 32-bit mask hazards there, which this port does not have (soundness.self_check:
    no KP225 for them)."""
    from . import fnscopes
    scopes = fnscopes.of(tr.module)
    return [(f.node.start_byte, f.node.end_byte) for g in tr.widths.groups if g.confined_votes
            for m in g.functions if (f := scopes.function(m)) is not None]
