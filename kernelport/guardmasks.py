"""A partial lane mask that names exactly the lanes the branch around its call lets in.

cuda-samples' shfl_scan scans the block's warp sums in the first warp:

    if (warp_id == 0 && lane_id < (blockDim.x / warpSize)) {
      int mask = (1 << (blockDim.x / warpSize)) - 1;
      for (...) n = __shfl_up_sync(mask, warp_sum, i, (blockDim.x / warpSize));

HIP on ROCm 5.2 and Metal have no masked shuffles or votes: theirs run on every active lane.  Dropping
the mask gives what CUDA gives, at wave 32 and at wave 64, where the lanes active at the call are the
mask's lanes, lanes 0 .. N-1 of each wave that enters:

1. the mask is `(1 << N) - 1` (through a local's one definition, the declaration its scope gives the
   name: declkeys), or a literal of that value (`0x0000FFFF`: N = 16);
2. a branch around the call is entered under `lane < N` (a conjunct of an `if` whose consequence holds
   the call), the same N (locals followed to their one definition), `lane` the lane id:
   `threadIdx.x % warpSize` or `& (warpSize - 1)`, or the same of the global id
   (`blockIdx.x * blockDim.x + threadIdx.x`) where no launch in the file may run a block that is not
   whole waves of the backend's widest run;
3. N is the same at every thread of the block and every other condition on the way to the call (the
   guard's other conjuncts, enclosing branches and loops, an earlier return, the calls of a caller
   that lead to it) is the same across the wave (lint's divergence tags), so no other lane leaves;
4. a shuffle's width is N: the lane it reads is in the section of lanes 0 .. N-1 in CUDA's warp and
   in the port's wave alike.  Or the port keeps the function's 32-lane groups (or every wave is 32), the
   shuffle's width is 32 or none and its step a literal or a ladder from one below N (warp32_guards:
   the wave-64 argument); the lane is then also `% 32` / `& 31` of threadIdx.x or the global id (a
   macro that is 32 only where the port keeps it 32 for the whole file), the global id's only where
   every launch of the file shows blocks of whole 32-lane warps.  Such a lane where the port makes the
   function the wave's is refused.

N holds no literal warp size (the port may rewrite a `32` at one place and keep it at another); a
vote is not ported in a function the port keeps as 32-lane groups (two share a 64-lane wave).  An N past the mask's width is a shift past
its type in CUDA: the original is undefined there, so no port owes it.  A vote is then the backend's
plain vote over the active lanes, a shuffle the mask-less one.  A mask whose lanes differ from the
guard's (`(1 << N) - 1` under `lane < M`, or with no such guard) stays KP203 (groupmasks.ported).
"""
from __future__ import annotations

from tree_sitter import Node

from . import backends, blocksizes, declkeys, dialect, fnscopes, warp32_guards
from .warpsites import int_value

_DEPTH = 6


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type in ("parenthesized_expression", "condition_clause") and n.named_children:
        n = n.named_children[-1]
    return n


def _builtin(tr, n: Node | None) -> str | None:
    """The dialect key of a built-in index (`threadIdx.x`: thread_idx, `warpSize`: warp_size)."""
    n = _strip(n)
    if n is None:
        return None
    if n.type == "field_expression":
        n = n.child_by_field_name("argument")
    c = dialect.lookup(backends.source().name, tr.src.text_of(n)) if n is not None else None
    return c.key if c is not None and c.kind == "index" else None


def definition(tr, fn, ident: Node) -> Node | None:
    """The value of the local `ident` names where `fn` gives it one value: its declaration's
    initializer (of the declaration its scope gives the name), never assigned, updated or passed on."""
    name, body = tr.src.text_of(ident), fn.body
    key = declkeys.of(tr.src, fn.node).get(ident.id, name)
    same = [n for n in tr.src.index.under(body, "identifier") if tr.src.text_of(n) == name and
            declkeys.of(tr.src, fn.node).get(n.id, name) == key]
    decls = [n.parent for n in same if n.parent is not None and n.parent.type == "init_declarator" and
             n.parent.child_by_field_name("declarator") == n]
    if len(decls) != 1 or fn.param(name) is not None:
        return None
    from .groupmasks import _Expander  # (its test of a use through which a callee may store)
    ex = _Expander(tr, fn)
    for n in same:
        p = n.parent
        if p is not None and (p.type == "update_expression" or (
                p.type == "assignment_expression" and p.child_by_field_name("left") == n) or ex.escapes(n, fn)):
            return None
    return decls[0].child_by_field_name("value")


def _canon(tr, fn, n: Node | None, depth: int = 0) -> str | None:
    """N as one text with its locals replaced by their one value; None where N is not such a value."""
    n = _strip(n)
    if n is None or depth > _DEPTH:
        return None
    t = n.type
    if t == "number_literal":
        v = int_value(tr.src.text_of(n))
        return None if v is None or v in (32, 64) else str(v)  # (a literal warp size: see the docstring)
    if t == "field_expression":
        return " ".join(tr.src.text_of(n).split()) if _builtin(tr, n) in ("block_dim", "grid_dim", "block_idx") else None
    if t == "identifier":
        name = tr.src.text_of(n)
        if _builtin(tr, n) == "warp_size":
            return "warpSize"
        if fn.param(name) is not None:
            assigned = any(tr.src.text_of(a.child_by_field_name("left" if a.type != "update_expression" else "argument"))
                           == name for a in tr.src.index.under_types(fn.body, "assignment_expression", "update_expression"))
            return None if assigned else name
        if any(tr.src.text_of(x) == name and x.parent is not None and (x.parent.type == "declaration" or (
                x.parent.type == "init_declarator" and x.parent.child_by_field_name("declarator") == x))
               for x in tr.src.index.under(fn.body, "identifier")):  # a local
            value = definition(tr, fn, n)
            got = _canon(tr, fn, value, depth + 1) if value is not None else None
            return f"({got})" if got is not None else None
        return name if _constant(tr, name) else None
    if t == "binary_expression":
        left, right = (_canon(tr, fn, n.child_by_field_name(s), depth) for s in ("left", "right"))
        op = tr.src.text_of(n.child_by_field_name("operator"))
        return f"({left} {op} {right})" if left is not None and right is not None else None
    if t == "cast_expression":
        inner = _canon(tr, fn, n.child_by_field_name("value"), depth)
        return f"(({' '.join(tr.src.text_of(n.child_by_field_name('type')).split())}){inner})" if inner else None
    return None


def _constant(tr, name: str) -> bool:
    """Whether `name` is a macro or a `const` / `constexpr` variable at file or namespace scope."""
    if name in tr.module.macros:
        return True
    for d in tr.src.index.of_type("init_declarator"):
        x, decl = d.child_by_field_name("declarator"), d.parent
        if x is not None and tr.src.text_of(x) == name and decl is not None and decl.type == "declaration" and \
                tr.module.function_at(d) is None and any(c.type == "type_qualifier" and tr.src.text_of(c) in (
                    "const", "constexpr") for c in decl.children):
            return True
    return False


def _value(tr, fn, n: Node | None, depth: int = 0) -> Node | None:
    """`n` with parentheses dropped and a local followed to its one value."""
    n = _strip(n)
    while n is not None and n.type == "identifier" and depth < _DEPTH and _builtin(tr, n) is None:
        n, depth = _strip(definition(tr, fn, n)), depth + 1
    return n


def _bound(tr, fn, mask: Node) -> Node | None:
    """N of a mask `(1 << N) - 1`."""
    m = _value(tr, fn, mask)
    while m is not None and m.type == "cast_expression":
        m = _strip(m.child_by_field_name("value"))
    if m is None or m.type != "binary_expression" or tr.src.text_of(m.child_by_field_name("operator")) != "-" or \
            int_value(tr.src.text_of(_strip(m.child_by_field_name("right")))) != 1:
        return None
    s = _strip(m.child_by_field_name("left"))
    while s is not None and s.type == "cast_expression":
        s = _strip(s.child_by_field_name("value"))
    if s is None or s.type != "binary_expression" or tr.src.text_of(s.child_by_field_name("operator")) != "<<":
        return None
    one = _strip(s.child_by_field_name("left"))
    while one is not None and one.type == "cast_expression":
        one = _strip(one.child_by_field_name("value"))
    return s.child_by_field_name("right") if one is not None and int_value(tr.src.text_of(one)) == 1 else None


def _is_wave(tr, n: Node | None, minus_one: bool) -> bool:
    n = _strip(n)
    if not minus_one:
        return _builtin(tr, n) == "warp_size"
    return n is not None and n.type == "binary_expression" and tr.src.text_of(n.child_by_field_name("operator")) == "-" \
        and _is_wave(tr, n.child_by_field_name("left"), False) and int_value(tr.src.text_of(n.child_by_field_name("right"))) == 1


def _lane(tr, fn, n: Node | None) -> str | None:
    """'tid' where `n` is threadIdx.x's lane, 'global' where it is the global id's (with '32' where the
    lane is CUDA's 32-lane warp's, `% 32`: warp32_guards); None otherwise."""
    n = _value(tr, fn, n)
    if n is None or n.type != "binary_expression":
        return None
    op = tr.src.text_of(n.child_by_field_name("operator"))
    warp32 = "32" if warp32_guards.modulus(tr.module, fn, n) is not None else ""  # CUDA's warp's lane (% 32)
    if not ((op == "%" and _is_wave(tr, n.child_by_field_name("right"), False)) or
            (op == "&" and _is_wave(tr, n.child_by_field_name("right"), True)) or warp32):
        return None
    x = _value(tr, fn, n.child_by_field_name("left"))
    if x is not None and x.type == "field_expression" and _builtin(tr, x) == "thread_idx" and \
            tr.src.text_of(x.child_by_field_name("field")) == "x":
        return "tid" + warp32
    if x is not None and x.type == "binary_expression" and tr.src.text_of(x.child_by_field_name("operator")) == "+":
        terms = sorted(" ".join(tr.src.text_of(_strip(x.child_by_field_name(s))).split()) for s in ("left", "right"))
        return "global" + warp32 if terms[1] == "threadIdx.x" and terms[0].replace(" ", "") in (
            "blockIdx.x*blockDim.x", "blockDim.x*blockIdx.x") else None
    return None


def _conjuncts(n: Node | None, out: list[Node]) -> list[Node]:
    n = _strip(n)
    if n is not None and n.type == "binary_expression" and n.child_by_field_name("operator").type == "&&":
        _conjuncts(n.child_by_field_name("left"), out)
        _conjuncts(n.child_by_field_name("right"), out)
    elif n is not None:
        out.append(n)
    return out


def _reach(tr, spans: set[tuple[int, int]]):
    """(the divergence analysis, call span -> [(thread-dependent frames, earlier exit)] at each walk
    of the call, function keys a thread-dependent branch of a caller reaches)."""
    from .groupmasks import _Ctx, close_reached
    from .lint.divergence import THREAD, Divergence
    seen: dict[tuple[int, int], list] = {}
    reached: set[str] = set()

    class _Reach(Divergence):
        def full_mask_op(self, call: Node) -> bool:
            return (call.start_byte, call.end_byte) in spans

        def _at_call(self, n: Node, frames) -> None:
            div = [fr for fr in frames if fr.tag >= THREAD]
            gone = (self._exit is not None and self._exit.tag >= THREAD and self._exit.node.start_byte < n.start_byte) \
                or (self._cut is not None and self._cut[0] < n.start_byte)
            if (n.start_byte, n.end_byte) in spans:
                seen.setdefault((n.start_byte, n.end_byte), []).append((div, gone))
            if div or gone:
                reached.update(self._called(n))

    d = _Reach(_Ctx(tr), ("partial_warp_ops",)).run()
    close_reached(tr, d, reached)
    return d, seen, reached


def mismatch(tr, concept, bound: dict[str, Node], call: Node) -> str | None:
    """None where the call's mask is `(1 << N) - 1` and exactly its lanes reach the call (the
    docstring's conditions); why not where the mask is of that form; '' where it is not."""
    fn = tr.module.function_at(call)
    n = _bound(tr, fn, bound["mask"]) if fn is not None and fn.body is not None else None
    want = _canon(tr, fn, n) if n is not None else None
    label = tr.src.text_of(n) if n is not None else ""
    lit = _value(tr, fn, bound["mask"]) if want is None and fn is not None and fn.body is not None else None
    if lit is not None and lit.type == "number_literal" and \
            (k := warp32_guards.lanes(int_value(tr.src.text_of(lit)))) is not None:
        want = label = str(k)  # a literal `(1 << N) - 1` (`0x0000FFFF`: N = 16)
    if want is None:
        return ""
    wide64 = any(r.wave != 32 for r in backends.get(tr.backend).runs)  # (every wave 32: the group is the wave)
    logical = tr.widths.logical(fnscopes.owner(tr.module, call))
    if logical and wide64 and concept.kind != "shuffle":
        return "the port keeps this function's 32-lane groups, two of which share a 64-lane wave: its vote would " \
               "see both"
    if logical and wide64 and not want.isdigit():  # (`blockDim.x / warpSize` lanes: 3 at 96 threads, no width)
        return f"the port keeps this function's 32-lane groups, and its count of lanes '{label}' is no literal"
    width = bound.get("width")
    if concept.kind == "shuffle" and _canon(tr, fn, width) != want:
        if wide64 and not logical or width is not None and int_value(tr.src.text_of(_strip(width))) != 32:
            return f"the shuffle's width is not the mask's count of lanes '{label}'"
        step = next((bound[p] for p in ("delta", "lanemask", "lane") if p in bound), None)
        top = warp32_guards.step_bound(tr, step, call)  # (width 32: CUDA's and the port's 32-lane warp)
        said = tr.src.text_of(step) if step is not None else ""
        if top is None or not want.isdigit():
            return f"the shuffle's step '{said}' is no literal or ladder from one below {label}, so its reads may " \
                   "all leave the mask's lanes (CUDA leaves such a read undefined)"
        if top >= int(want):
            return f"the shuffle's step '{said}' reaches {top}, so lanes read past the mask's {label} " \
                   "(CUDA leaves such a read undefined)"
    spans = {(m.parent.parent.start_byte, m.parent.parent.end_byte) for m, cls, _ in tr.analysis.shuffle_masks
             if cls == "partial" and m.parent is not None and m.parent.parent is not None}
    if "_kp_guard_reach" not in tr.__dict__:  # once per port: every call with such a mask
        tr.__dict__["_kp_guard_reach"] = _reach(tr, spans)
    d, seen, reached = tr.__dict__["_kp_guard_reach"]
    from .lint.divergence import THREAD, UNIFORM
    d.fn = fn
    if n is not None and d.expr(n) != UNIFORM:
        return f"its count of lanes '{label}' may differ between threads"
    if d._fkey(fn) in reached:
        return "a caller reaches the call under thread-dependent control flow"
    visits = seen.get((call.start_byte, call.end_byte))
    if not visits:
        return "no guard `lane < N` around the call lets in exactly its lanes"
    wide = max(r.wave for r in backends.get(tr.backend).runs)
    for frames, gone in visits:
        if gone:
            return "an earlier thread-dependent return decides which lanes reach the call"
        guarded = False
        for fr in frames:
            ifs = fr.node.parent if fr.kind == "if" else None
            while ifs is not None and ifs.type == "condition_clause":
                ifs = ifs.parent
            cons = ifs.child_by_field_name("consequence") if ifs is not None and ifs.type == "if_statement" else None
            if cons is None or not cons.start_byte <= call.start_byte < cons.end_byte:
                return f"thread-dependent control flow ('{tr.src.text_of(fr.node)}') reaches the call"
            for c in _conjuncts(fr.node, []):
                if d.expr(c) < THREAD:
                    continue
                op = tr.src.text_of(c.child_by_field_name("operator")) if c.type == "binary_expression" else ""
                lane, lim = {"<": ("left", "right"), ">": ("right", "left")}.get(op, (None, None))
                kind = _lane(tr, fn, c.child_by_field_name(lane)) if lane else None
                if kind is None or _canon(tr, fn, c.child_by_field_name(lim)) != want:
                    return f"the condition '{tr.src.text_of(c)}' lets in other lanes than the mask's " \
                           f"'{tr.src.text_of(bound['mask'])}' (lanes 0 .. {label} - 1)"
                if kind.endswith("32") and wide64 and not logical:
                    return f"'{tr.src.text_of(c.child_by_field_name(lane))}' is a lane of CUDA's 32-lane warp, which " \
                           "a port to the wave makes the wave's lane"
                if (kind.endswith("32") or logical and wide64) and \
                        (why := _whole_warps(tr, fn, _value(tr, fn, c.child_by_field_name(lane)), kind)):
                    return why
                if kind == "global" and not (logical and wide64) and any(blocksizes.partial_wave_block(tr.module, k, wide) for k in (
                        [fn] if fn.is_kernel else blocksizes.kernels_running(tr.module, fn))):
                    return f"'{tr.src.text_of(c.child_by_field_name(lane))}' is the lane only in blocks of whole " \
                           f"{wide}-lane waves, and a launch in the file may run another"
                guarded = True
        if not guarded:
            return "no guard `lane < N` around the call lets in exactly its lanes"
    return None


def _whole_warps(tr, fn, lane: Node | None, kind: str) -> str:
    """Why the lane of a function the port keeps as 32-lane groups may not be the group's ('' where it is):
    a warp-size name the port makes the wave's for other functions of the file (one definition cannot be
    both), or the global id's lane where a launch of the file may run a block that is not whole 32-lane
    warps, or no launch in the file gives the block (its lane is threadIdx.x's only in whole warps)."""
    size = warp32_guards.modulus(tr.module, fn, lane)
    if size is not None and size.type != "number_literal" and not tr.widths.logical(None):
        return f"'{tr.src.text_of(size)}' is the wave's width in the port of the file's other functions, so " \
               "the lane it computes is not the 32-lane group's"
    if not kind.startswith("global"):
        return ""
    kernels = [fn] if fn.is_kernel else blocksizes.kernels_running(tr.module, fn)
    sizes = [blocksizes.launch_block_sizes(tr.module, launch) for launch in tr.module.launches
             if any(g is k for g in fnscopes.launched(tr.module, launch) for k in kernels)]
    if not sizes or any(not s or any(v <= 0 or v % 32 for v, _ in s) for s in sizes):
        return f"'{tr.src.text_of(lane)}' is the lane of the global id only in blocks of whole 32-lane warps, and " \
               "no launch in the file shows every block so (launch it with a literal multiple of 32)"
    return ""
