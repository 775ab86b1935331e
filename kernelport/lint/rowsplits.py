"""Blocks split into 32-lane rows that compute the same on a 64-lane wave: lint's advice, not a hazard.

A kernel that splits its block itself (`lane = tid & 31`, `warp = tid >> 5`, or a block whose x
dimension is a 32-lane row, `c += 32` from `threadIdx.x` with rows by `threadIdx.y`:
kernelport/warpsplits.py) runs two rows to a 64-lane wave.  Its lane, warp and slot arithmetic agrees on 32, so what could
change is only what its warp operations read across the two rows.  The group (the kernel and the
helpers it calls: warpwidth's groups) computes the same at 64 when:

- nothing in it names the hardware wave (`warpSize`, a `WARP_SIZE` not known to be 32, `__lane_id`)
  or runs a library collective at the wave width (cub's `WarpReduce<T>`): those mix the two widths
  (a local `int warpSize = 32;` is a 32: warpsplits.local32);
- it calls nothing lint cannot read (a template or function-pointer parameter, a header's warp helper
  but one whose every warp operation keeps each lane in its half: a `xor` by less than 32, or any
  shuffle at a width of 32 or less, halflanes.header_keeps_halves: llm.c's `warpReduceSum`);
- it has no vote (ballot, any, all, activemask) but as the member mask of warp operations (ADEPT's
  `mask = __ballot_sync(...)` given only to its shuffles): a vote's word holds all 64 lanes of the wave;
- every shuffle at the default width is a `xor` or `down` with an offset below 32 (a literal, or a
  ladder variable from 16 down): a `xor` then never leaves its aligned 32 lanes, and a `down`
  ladder leaves lane 0 of each row with its row's result.  A shuffle from a source lane
  (`__shfl_sync(m, v, 0)`: lanes 32-63 read the first row) or `up` (lane 32 reads lane 31) does not;
- the result of a `down` shuffle (or of a helper that hands one on: returns it, or leaves it in a
  reference parameter) is read only under a leader test of the row (`if (lane == 0)`): lanes 1-31
  of a row may read the next row at 64, and only the leader's value is the same (lint/halflanes.py has the lanes of each kind).  Every read the result reaches counts:
  after the block it is made in, and in the next turn of a loop around it; the tree's own folds
  (offsets adding up to at most 31) are the only others.  Another reduction of the result is a
  read (a second tree gathers lanes 1-31 of the first).

A helper whose warp index is a parameter (`reduce_max(m, warpid)`) takes its callers' split where
every call the run shows passes `threadIdx.x / 32`, and a result it hands on is checked at the
callers in the run's other files too; a ladder start written from a template's value parameter
(`num_elems / 2`) is bounded by the instances the run shows (lint/callersplits.py, lint/instances.py).

Where a group does not hold as a whole, each of its kernels with rows of its own is checked with
the functions it reaches; a function that a failing kernel reaches keeps its findings.

Then the 32s of its rows (WS002, WS003, WS004, WS006, WS011, WS017) are reported as info: correct
at 64 as written, while `kernelport translate` still ports the kernel to the whole wave.  The 32-bit
masks (WS007) stay warnings: HIP's `_sync` shuffles reject them whatever the rows do.
"""
from __future__ import annotations

import re
from functools import lru_cache

from tree_sitter import Node

from .. import backends, dialect, fnscopes, warpshapes, warpsplits
from ..source import call_args, ident_name, walk
from ..warpsites import int_value
from .. import lazy_re
from . import callersplits, halflanes, instances

ROW_CODES = frozenset({"WS001", "WS002", "WS003", "WS004", "WS005", "WS006", "WS011", "WS017"})
ADVICE = "correct at 64 as written: two 32-lane rows to a wave ({why}); `kernelport translate` {port}"
WHOLE_WAVE = "ports it to the whole wave"
KEPT_ROWS = "keeps its 32-lane rows (a fixed count of 32-lane warps reads their per-warp slots: warpcounts)"
REFUSED_ROWS = ("refuses it (KP219: a fixed count of 32-lane warps reads its per-warp slots, beside votes or a "
                "warp-size macro the port makes the wave width)")
_FOLD = "every lane reads a 32-lane ladder's fold whose value a port to the wave would change"  # fold_levels' mark
KEPT_FOLD_ROWS = f"keeps its 32-lane rows ({_FOLD}: fold_levels)"
REFUSED_FOLD_ROWS = f"refuses it (KP219: {_FOLD}, beside votes or a warp-size macro the port makes the wave width)"
ROWS_NOTE = """\
Reported as info (advice, not a hazard: `--fail-on` warning passes it, SARIF calls it a note) in a
block the kernel splits into 32-lane rows itself (`lane = tid & 31` with `warp = tid >> 5`, or `% 32`
with `/ 32`, or a block whose x dimension is the row: a loop stepping by 32 from `threadIdx.x`, no
`blockDim.x`, rows indexed by `threadIdx.y` or `.z`) when the rows compute the same on a 64-lane wave, two to a wave: nothing in the kernel
and its helpers reads `warpSize` (a local `int warpSize = 32;` is a 32) or votes (but for a member mask),
every shuffle at the default width is a `xor` or `down` by less than 32 (or an `up` added only where
`lane >= d`), and what a `down` ladder leaves is read under `if (lane == 0)`, in the kernel or in the
callers a helper hands it to (not by a second ladder: lanes 1-31 of a row took the next row's lanes).
A header's helper counts where its every shuffle is a `xor` by less than 32 or has a width of 32 or
less.  `kernelport translate` still ports such a kernel to the whole wave, but where a count of 32-lane warps
that its port would keep at 32 bounds a read of the per-warp slots (`lane < 256 / 32 ? part[lane] : 0`): it
keeps those rows at 32 lanes."""
_HALVING = lazy_re.compile(r">>=\s*1\b|/=\s*2\b|=\s*\w+\s*(>>\s*1|/\s*2)\b")
_GROWING = lazy_re.compile(r"<<=\s*1\b|\*=\s*2\b|\+\+|\+=\s*1\b|=\s*\w+\s*(<<\s*1|\*\s*2)\b")
_STATEMENTS = ("expression_statement", "declaration", "return_statement")
_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")
_BOUND = lazy_re.compile(r"^\(?\s*(\w+)\s*(<=?)\s*(\w+)\s*\)?$")


def consistent(ctx) -> dict[str, str]:
    """Function -> why its group's rows are correct at 64, for the groups that are."""
    widths = ctx.analysis.widths
    splits, wave_named = warpsplits.find(ctx.module, _known32(ctx))
    splits.update(callersplits.splits(ctx, splits, wave_named, _known32(ctx)))  # a warp index from every caller
    out: dict[str, str] = {}
    seen: set[str] = set()
    for f in splits:
        if f in seen:
            continue
        g = widths.by_function.get(f) if widths is not None else None
        fs = set(g.functions) if g is not None else {f}
        seen |= fs
        wave = wave_named | ctx.analysis.wave_collectives
        if not fs & wave and not any(m in ctx.warp_level and (k := ctx.function_of(m)) is not None and k.is_kernel
                                     and m not in splits for m in fs) and _rows_hold(ctx, fs, splits):
            out.update((m, _why(ctx, splits[f])) for m in fs)
        else:  # one kernel of the group may not hold (no rows of its own, `warpSize`, a tree read at every lane)
            out.update(_kernels_hold(ctx, fs, splits, wave))
    return out


def _why(ctx, sp) -> str:
    return ("`" + ctx.text(sp.warp) + "`" + (f" ({sp.source})" if sp.source else "") + " splits the block" if sp.stride is None else
            "`" + ctx.text(sp.stride) + "` from `threadIdx.x` makes the block's x dimension a 32-lane row, "
            "`" + ctx.text(sp.warp) + "` its rows") + " and every shuffle stays in its row"


def _kernels_hold(ctx, fs: set[str], splits, wave: set[str]) -> dict[str, str]:
    """A group that does not hold as a whole, kernel by kernel: each kernel with rows of its own
    whose rows hold with the functions it calls (llm.c's softmax_forward_kernel4 beside kernels of
    its file that read `warpReduceMax` at every lane).  A function another kernel of the group
    reaches without holding keeps its findings (a shared helper's ladder)."""
    ok: dict[str, str] = {}
    bad: set[str] = set()
    for k in sorted(fs):
        fn = ctx.function_of(k)
        if fn is None or not fn.is_kernel:
            continue
        reach = _reached(ctx, k, fs)
        if k in splits and not reach & wave and _rows_hold(ctx, reach, splits):
            ok.update((m, _why(ctx, splits[k])) for m in reach if m not in ok)
        else:
            bad |= reach
    return {m: why for m, why in ok.items() if m not in bad}


def _reached(ctx, k: str, fs: set[str]) -> set[str]:
    """`k` and the functions of `fs` it calls, directly or through others."""
    out, todo = {k}, [k]
    while todo:
        fn = ctx.function_of(todo.pop())
        for call in ctx.src.index.under(fn.body, "call_expression") if fn is not None and fn.body is not None else ():
            for g in fnscopes.callees(ctx.module, fn, call):
                if (key := ctx.key(g)) in fs and key not in out:
                    out.add(key)
                    todo.append(key)
    return out


def advise(ctx, code: str, node: Node) -> str | None:
    """The advice that replaces a hazard's consequence, where the site is in such a group."""
    if code not in ROW_CODES:
        return None
    rows = ctx.row_splits
    f = ctx.function_at(node) if rows else None
    return _advice(ctx, k, rows[k]) if (k := ctx.key(f)) in rows else None


def _advice(ctx, key: str, why: str) -> str:
    """ADVICE, saying what translate does with the function's group (warpcounts: kept at 32 lanes)."""
    widths = ctx.analysis.widths
    g = widths.by_function.get(key) if widths is not None else None
    if g is None or g.counted is None:
        return ADVICE.format(why=why, port=WHOLE_WAVE)
    from ..warpcounts import adopted  # translate's view of the group
    kept = adopted(widths, ctx.analysis).by_function[key].width == "32"
    fold = g.counted_by == "fold_levels"
    return ADVICE.format(why=why, port=(KEPT_FOLD_ROWS if fold else KEPT_ROWS) if kept else
                         REFUSED_FOLD_ROWS if fold else REFUSED_ROWS)


def advise_uses(ctx, code: str, uses: list[Node]) -> str | None:
    """The advice for a constant (`#define WARP_SIZE 32`) whose every use is in such a group's
    device code or in host code (a block size: the rows' width there too)."""
    rows = ctx.row_splits if code in ROW_CODES and uses else {}
    fns = [ctx.function_at(u) for u in uses] if rows else [None]
    if any(f is None or (f.is_device and ctx.key(f) not in rows) for f in fns):
        return None
    inside = [k for f in fns if (k := ctx.key(f)) in rows]
    return _advice(ctx, inside[0], rows[inside[0]]) if inside else None


def lead(message: str) -> str:
    """A message's claim before its consequence: the text before the first `: ` outside backticks."""
    quoted = False
    for i, ch in enumerate(message):
        if ch == "`":
            quoted = not quoted
        elif not quoted and message.startswith(": ", i):
            return message[:i]
    return message


def _bound(ctx, call: Node) -> tuple[str, dict[str, Node]] | None:
    """(concept key, parameter -> argument) of a shuffle call, a dialect or a library spelling."""
    found = ctx.concept_of_call(call)
    if found is not None:
        return found[0].key, found[2]
    fn = call.child_by_field_name("function")
    lib = dialect.library_call(backends.source().name, ctx.text(fn)) if fn is not None else None
    return (lib[0].key, dict(zip(lib[1], call_args(call)))) if lib is not None else None


def _below_32(ctx, arg: Node) -> bool:
    """A literal offset below 32, or a loop variable that starts at 16 or less and halves."""
    v = int_value(ctx.text(arg))
    if v is not None:
        return 0 <= v < 32
    if arg.type != "identifier":
        return False
    p = arg.parent
    while p is not None and p.type != "function_definition":
        if p.type == "for_statement":
            init, upd = p.child_by_field_name("initializer"), p.child_by_field_name("update")
            if init is not None and upd is not None:
                for d in walk(init):
                    if d.type == "init_declarator" and ident_name(d.child_by_field_name("declarator")) == ctx.text(arg):
                        first = d.child_by_field_name("value")
                        if first is not None and first.type == "initializer_list" and first.named_child_count == 1:
                            first = first.named_children[0]  # `int off{16}` as `int off = 16`
                        start = _value(ctx, first)
                        if start is None and first is not None:  # `num_elems / 2`
                            start = instances.largest(ctx, first, _known32(ctx))
                        cond = p.child_by_field_name("condition")
                        bound = _BOUND.match(" ".join(ctx.text(cond).split())) if cond is not None else None
                        if bound is not None and bound.group(1) == ctx.text(arg) and start is not None and start >= 0:
                            k = int_value(bound.group(3))  # `d < 32` with d growing from 1
                            return k is not None and (k <= 32 if bound.group(2) == "<" else k < 32) and \
                                bool(_GROWING.search(ctx.text(upd)))
                        return start is not None and start <= 16 and bool(_HALVING.search(ctx.text(upd)))
        p = p.parent
    return False


def _value(ctx, n: Node | None) -> int | None:
    """A literal, or a constant expression of names known to be 32 in its function (`warpSize / 2`
    under a local `int warpSize = 32;`, `WARP_SIZE / 2` under `#define WARP_SIZE 32`)."""
    if n is None:
        return None
    f = ctx.function_at(n)
    own = warpsplits.local32(ctx.src, f.body) if f is not None and f.body is not None else frozenset()
    return warpsplits.value32(ctx.text(n), _known32(ctx) | own)


def _known32(ctx) -> frozenset[str]:
    """The file's warp-size macros and constants whose value is the literal 32."""
    return frozenset(n for n, m in ctx.hardcoded_macros.items() if int_value(m.value) == 32)


def _hidden_calls(ctx, fs: set[str]) -> bool:
    """A call whose body lint cannot read: through a template or function-pointer parameter
    (`blockReduce<warp_reduction>`), or a header's warp helper: its shuffles are unknown."""
    vis = ctx.module.visible
    for f in sorted(fs):
        fn = ctx.function_of(f)
        if fn is None or fn.body is None:
            continue
        tparams = {m.group(0) for t in fn.template_params if (m := re.search(r"\w+", t))}  # `(*REDUCE)(float)`
        types = _type_params(ctx, fn)
        if any((name in tparams and not (name in types and _conversion(call))) or fn.param(name) is not None
               for call, name in ctx.calls(fn.body)) or \
                vis is not None and any(_header_warp(ctx, fn, c) and not halflanes.header_keeps_halves(ctx, fn, c)
                                        for c in ctx.src.index.under(fn.body, "call_expression")):
            return True
    return False


def _type_params(ctx, fn) -> set[str]:
    """The template's type parameters (`typename I`, `class T`), not its values or templates."""
    plist = fn.template_node.child_by_field_name("parameters") if fn.template_node is not None else None
    return {ctx.text(c) for tp in (plist.named_children if plist is not None else ())
            if tp.type in ("type_parameter_declaration", "optional_type_parameter_declaration")
            for c in tp.named_children if c.type == "type_identifier"}


def _conversion(call: Node) -> bool:
    """A type parameter "called" once, `I(val)`: a conversion or a construction, whose result is not
    called in turn (`Op()(a, b)` runs the functor's body, which lint cannot read)."""
    p = call.parent
    return not (p is not None and p.type == "call_expression" and p.child_by_field_name("function") == call)


def _header_warp(ctx, fn, call: Node) -> bool:
    """A call of a header's warp-level helper (by qualified name, fnscopes), none of this file's."""
    f = call.child_by_field_name("function")
    return not fnscopes.callees(ctx.module, fn, call) and \
        not ctx.module.visible.warp_qualified.isdisjoint(fnscopes.of(ctx.module).candidates(fn, f))


def _rows_hold(ctx, fs: set[str], splits) -> bool:
    if _hidden_calls(ctx, fs):
        return False
    downs: set[str] = set()  # functions whose output is a `down` shuffle's result
    inline: list[Node] = []  # `down` shuffles in a kernel's own body
    for call, fn, b in _warp_calls(ctx, fs):
        if dialect.concept(b[0]).kind == "vote":
            if _only_masks(ctx, fn, call):
                continue  # it names the lanes of warp operations checked on their own, carries no data
            return False  # a ballot's word holds all 64 lanes of the wave, both rows
        width = b[1].get("width")
        if width is not None:
            w = int_value(ctx.text(width))
            if w is not None and 0 < w <= 32:
                continue  # an explicit width of a row or less: its lanes stay in it
            return False
        if b[0] not in ("shfl_down", "shfl_xor", "shfl_up"):
            return False  # a source lane (`__shfl_sync(m, v, 0)`: lanes 32-63 read row 0)
        off = b[1].get("delta", b[1].get("lanemask"))
        if off is None or not _below_32(ctx, off):
            return False
        if b[0] == "shfl_up" and (fn not in splits or not _up_guarded(ctx, call, off, splits[fn])):
            return False  # lane 32 of the wave reads lane 31, the other row's, unless `lane >= d` holds it back
        if b[0] == "shfl_down":
            k = ctx.function_of(fn)
            (inline.append(call) if k is not None and k.is_kernel else downs.add(fn))
    for stmt, names, fn in _calls_of(ctx, fs, downs) + [_ladder(ctx, c) for c in inline]:
        if not _leaders_read(ctx, stmt, names, splits.get(fn), ctx.function_of(fn)):
            return False
    return callersplits.readers_hold(ctx, downs, _leaders_read)  # the callers the run shows in other files


def _only_masks(ctx, f: str, call: Node) -> bool:
    """A vote whose value is only the member mask of warp operations (ADEPT's `unsigned mask =
    __ballot_sync(0xffffffff, threadIdx.x < n);` then `__shfl_down_sync(mask, v, offset)`): which
    lanes it names changes no value a lane reads, and the operations it masks are checked on their
    own.  Its 32-bit type stays WS007's and WS008's."""
    fn = ctx.function_of(f)
    return fn is not None and warpshapes.only_masks(ctx.src, fn.body, call, lambda outer, arg: (
        (b := _bound(ctx, outer)) is not None and b[1].get("mask") is not None and b[1]["mask"].id == arg.id),
        lambda outer: (b := _bound(ctx, outer)) is not None and dialect.concept(b[0]).warp_level)


def _up_guarded(ctx, call: Node, off: Node, split) -> bool:
    """An `up` shuffle whose value is used only under `if (lane >= d)` (the row's lane, the same d):
    the lanes it holds back are the ones that would read the row before."""
    test = _row_guard(tuple(sorted(split.lanes, key=len, reverse=True)), ctx.text(off))
    stmt = _statement(call)
    if _under(ctx, call, test, stop=stmt.parent):
        return True  # `if (lane >= d) v += __shfl_up_sync(m, v, d);`
    if stmt.type != "declaration" or stmt.parent is None:
        return False
    names = {ident_name(d) for d in stmt.children_by_field_name("declarator")} - {None}
    later = stmt.next_named_sibling
    while later is not None:
        if any(i.type == "identifier" and ctx.text(i) in names and not _under(ctx, i, test, stop=stmt.parent)
               for i in walk(later)):
            return False
        later = later.next_named_sibling
    return True


def _warp_calls(ctx, fs: set[str]):
    """(call, function, (concept key, parameter -> argument)) of every shuffle and vote in the group."""
    for f in sorted(fs):
        fn = ctx.function_of(f)
        for call, _ in ctx.calls(fn.body) if fn is not None and fn.body is not None else ():
            b = _bound(ctx, call)
            if b is not None and dialect.concept(b[0]).kind in ("shuffle", "vote") and dialect.concept(b[0]).warp_level:
                yield call, f, b


def _calls_of(ctx, fs: set[str], downs: set[str]) -> list[tuple[Node, set[str], str]]:
    """(statement, variables it leaves the result in, function) of each call of a down helper.
    A helper that hands one on to its callers (`return warp_sum(v);`, or `v = warp_sum(v);` then
    `return v;` or `ref = v;` to a reference parameter) is a down helper too: its callers are checked."""
    out, grew = [], True
    while grew:
        grew, out = False, []
        for f in sorted(fs):
            fn = ctx.function_of(f)
            if fn is None or fn.body is None:
                continue
            for call in ctx.src.index.under(fn.body, "call_expression"):
                called = [g for g in fnscopes.callees(ctx.module, fn, call) if ctx.key(g) in downs]
                if not called:
                    continue
                stmt = _statement(call, own=True)
                if _shuffled_again(ctx, fn, call, stmt, downs):
                    out.append((stmt, set(), f))  # `warp_sum(warp_sum(v))`: only a leader's statement may
                    continue
                if stmt.type == "return_statement" and not fn.is_kernel:
                    grew |= f not in downs
                    downs.add(f)
                    continue
                names = _results(ctx, stmt, call, called[0])
                if not fn.is_kernel and f not in downs and any(
                        _hands_on(ctx, i, fn) for i, _ in _reads(ctx, stmt, names)):
                    grew = True
                    downs.add(f)
                out.append((stmt, names, f))
    return out


def _shuffled_again(ctx, fn, call: Node, stmt: Node, downs: set[str]) -> bool:
    """The result of `call` is an argument of another shuffle or down helper in its statement: that
    one gathers lanes 1-31 of the first tree, which crossed into the next half at 64 (halflanes)."""
    p = call.parent
    while p is not None and p != stmt:
        if p.type == "call_expression" and ((b := _bound(ctx, p)) is not None and dialect.concept(b[0]).kind == "shuffle"
                                            or any(ctx.key(g) in downs for g in fnscopes.callees(ctx.module, fn, p))):
            return True
        p = p.parent
    return False


def _statement(n: Node, own: bool = False) -> Node:
    """The statement of a block `n` is in; `own`: the innermost statement, the `v = f(v);` of
    `if (warp == 0) v = f(v);`."""
    while n.parent is not None and n.parent.type != "compound_statement" and not (own and n.type in _STATEMENTS):
        n = n.parent
    return n


def _results(ctx, stmt: Node, call: Node, callee) -> set[str]:
    names = set()
    if stmt.type == "declaration":
        names |= {ident_name(d) for d in stmt.children_by_field_name("declarator")} - {None}
    elif stmt.type == "expression_statement" and stmt.named_children and stmt.named_children[0].type == "assignment_expression":
        lhs = stmt.named_children[0].child_by_field_name("left")
        if lhs is not None and lhs.type == "identifier":
            names.add(ctx.text(lhs))
    if callee is not None:  # reference parameters carry results out too
        for p, a in zip(callee.params, call_args(call)):
            if a.type == "identifier" and any(c.type == "reference_declarator" for c in walk(p.node)):
                names.add(ctx.text(a))
    return names


def _ladder(ctx, call: Node) -> tuple[Node, set[str], str]:
    """A `down` ladder: its loop (or the last statement of an unrolled run, halflanes.unrolled), the
    variables it folds into, and its function."""
    stmt, body = _statement(call), None
    p = call.parent
    while p is not None and p.type != "function_definition":
        if p.type == "for_statement":
            stmt, body = _statement(p), p.child_by_field_name("body")
            break
        p = p.parent
    names = {ctx.text(a.child_by_field_name("left")) for a in walk(body or stmt) if a.type == "assignment_expression"
             and a.child_by_field_name("left") is not None and a.child_by_field_name("left").type == "identifier"}
    f = ctx.function_at(call)
    return (stmt if body is not None else halflanes.unrolled(ctx, stmt, names)), names, ctx.key(f) or ""


def _leaders_read(ctx, stmt: Node, names: set[str], split, fn) -> bool:
    """Every later read of `names` is under a leader test or hands the result on to the function's
    callers (a down helper's: `_calls_of` checks them).  Another reduction of the result is a read
    like any other (halflanes.py: lanes 1-31 of each row hold sums that crossed into the next row
    at 64; a second tree gathers them); `stmt` is the tree's last statement, past its own folds."""
    if stmt.parent is None:
        return False
    if not names:  # the result is used where it is made: the statement must be a leader's
        return split is not None and _under_leader(ctx, stmt, split, stop=None)
    return all((split is not None and _under_leader(ctx, i, split, stop=stop)) or
               (fn is not None and not fn.is_kernel and _hands_on(ctx, i, fn))
               for i, stop in _reads(ctx, stmt, names))


def _reads(ctx, stmt: Node, names: set[str]):
    """(read, the block a leader test must be in) of each read of `names` the statement's result
    may reach: the later statements of its block, then of each block around it, and the whole of
    a loop around it (its next turn reads them too).  A plain reassignment ends a name's result for
    the statements after it, in nested blocks too (`_live_reads`): a loop's body that gives the
    name a new value before the tree does not fold the last turn's result.
    `if (c) { v = reduce(v); } out[i] = v;` reads it after the `if`."""
    live, node = set(names), stmt
    while node is not None and node.type != "function_definition" and live:
        p = node.parent
        if p is not None and p.type in _LOOPS:
            for i in _live_reads(ctx, p, set(live)):
                yield i, p
        if p is not None and p.type == "compound_statement":
            later = node.next_named_sibling
            while later is not None and live:
                for i in _live_reads(ctx, later, set(live)):
                    yield i, p
                live -= _assigned(ctx, later)
                later = later.next_named_sibling
        if p is not None:
            live -= _scoped(ctx, p)  # its own locals end with it: a later `float v` is another variable
        node = p


def _live_reads(ctx, n: Node, live: set[str]):
    """The reads of `live` names in `n`, in order: a statement of a block that gives a name a new
    value (`v = ...;`, `float v = ...;`) ends it for the block's later statements."""
    if n.type == "identifier":
        if ctx.text(n) in live and not _written(n):
            yield n
        return
    if n.type == "compound_statement":
        live = set(live)
        for c in n.named_children:
            if not live:
                return
            yield from _live_reads(ctx, c, live)
            live -= _assigned(ctx, c)
        return
    for c in n.children:
        yield from _live_reads(ctx, c, live)


def _scoped(ctx, p: Node) -> set[str]:
    """The names a block declares for itself (its own declarations; a loop's: its initializer's)."""
    decls = [c for c in p.named_children if c.type == "declaration"] if p.type == "compound_statement" else \
        [c for c in (p.child_by_field_name("initializer"),) if c is not None and c.type == "declaration"] \
        if p.type == "for_statement" else [p] if p.type == "for_range_loop" else []
    return {n for d in decls for n in (ident_name(x) for x in d.children_by_field_name("declarator")) if n}


def _hands_on(ctx, i: Node, fn) -> bool:
    """A read that gives the result to the function's callers: `return v;`, or `ref = v;` to a
    reference parameter, as a statement of its own (the callers' `_results` take both; not a store
    through a pointer, which they do not follow)."""
    p = i.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    if p is not None and p.type == "return_statement":
        return True
    if p is None or p.type != "assignment_expression" or _op(p) != "=" or p.child_by_field_name("right") != i or \
            p.parent is None or p.parent.type != "expression_statement":
        return False
    lhs = p.child_by_field_name("left")
    par = fn.param(ctx.text(lhs)) if lhs is not None and lhs.type == "identifier" else None
    return par is not None and any(c.type == "reference_declarator" for c in walk(par.node))


def _written(i: Node) -> bool:
    """Given a new value (`v = ...`) or declared (`float v = ...`): no read of the result."""
    p = i.parent
    if p is not None and p.type in ("init_declarator", "declaration") and p.child_by_field_name("declarator") == i:
        return True
    return p is not None and p.type == "assignment_expression" and p.child_by_field_name("left") == i and \
        _op(p) == "="


def _op(a: Node) -> str:
    op = a.child_by_field_name("operator")
    return op.text.decode() if op is not None else ""


def _assigned(ctx, stmt: Node) -> set[str]:
    """Names a statement gives a new value (`x = ...;`, `float x = ...;`) at its top level, or in
    both branches of an `if` with an `else` (ADEPT's `if (tid < n) v = s[tid]; else v = 0;`)."""
    if stmt.type == "compound_statement":  # (its own locals are other variables)
        return set().union(*(_assigned(ctx, c) for c in stmt.named_children)) - _scoped(ctx, stmt)
    if stmt.type == "else_clause":
        return set().union(*(_assigned(ctx, c) for c in stmt.named_children))
    if stmt.type == "if_statement":
        then, other = stmt.child_by_field_name("consequence"), stmt.child_by_field_name("alternative")
        return _assigned(ctx, then) & _assigned(ctx, other) if then is not None and other is not None else set()
    if stmt.type == "declaration":
        return {ident_name(d) for d in stmt.children_by_field_name("declarator")} - {None}
    e = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else None
    if e is not None and e.type == "assignment_expression" and _op(e) == "=":
        lhs = e.child_by_field_name("left")
        return {ctx.text(lhs)} if lhs is not None and lhs.type == "identifier" else set()
    return set()


def _under_leader(ctx, n: Node, split, stop: Node | None) -> bool:
    """Inside the consequence of `if (lane == 0)` (or `!lane`, `tid == 0`) below `stop`."""
    return _under(ctx, n, _leader_test(tuple(sorted(split.lanes | split.threads, key=len, reverse=True))), stop)


def _under(ctx, n: Node, test: re.Pattern, stop: Node | None) -> bool:
    """Inside the consequence of an `if` (below `stop`) whose condition passes `test` and has no `||`."""
    child, p = n, n.parent
    while p is not None and p != stop and p.type != "function_definition":
        if p.type == "if_statement" and p.child_by_field_name("consequence") == child:
            cond = " ".join(ctx.text(p.child_by_field_name("condition")).split())
            if "||" not in cond and test.search(cond):
                return True
        child, p = p, p.parent
    return False


@lru_cache(maxsize=256)
def _leader_test(lanes: tuple[str, ...]) -> re.Pattern:
    alt = "|".join(re.escape(x) for x in lanes)
    return re.compile(rf"(^|[^\w.])\(?\s*({alt})\s*\)?\s*==\s*0\b|\b0\s*==\s*\(?\s*({alt})\b|!\s*\(?\s*({alt})\b")


@lru_cache(maxsize=256)
def _row_guard(lanes: tuple[str, ...], d: str) -> re.Pattern:
    alt, d = "|".join(re.escape(x) for x in lanes), re.escape(d)
    return re.compile(rf"(^|[^\w.])\(?\s*({alt})\s*\)?\s*>=\s*{d}\b|(^|[^\w.]){d}\s*<=\s*\(?\s*({alt})\b")
