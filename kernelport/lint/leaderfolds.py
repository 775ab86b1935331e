"""A ladder from 16 over the first 32 threads whose lane-0 result alone is used: correct at wave 64 (WS004, WS012).

Bridge++'s block reductions (heldout90/91) leave exactly 32 partials, then fold them in the first warp:

    if (tid < WARP_LENGTH) {                                   // tid = threadIdx.x, WARP_LENGTH 32
        sum = sdata[tid];
        for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffff, sum, offset);
        if (tid == 0) red[blockIdx.x] = sum;
    }

On NVIDIA the guard is warp 0 exactly.  On a 64-wide wave it lets lanes 0-31 of wave 0 in; a down (or xor) step
of offset o <= 16 makes lane i read lane i + o (i ^ o), so lane 0's fold reads, step by step, lanes 0..2o-1 of
the step before: lanes 0-31 only, every one active and holding its value.  Lanes that read past lane 31 get a
stale value at wave 64 (their own on NVIDIA), which is harmless only where no such lane's result is used.
`leader_fold` accepts a shuffle (or a ladder loop) only when all of these hold, else the rules report as before:
- the ladder is a `for` loop whose variable starts at a constant in 1..16, halves (`>>= 1`, `/= 2`) and stops
  at 0; each shuffle in it is a down or xor step by that variable (any width: segments of 16 or more keep lane
  0's reads in lanes 0-31);
- the only control around the loop within its function is one `if` whose condition is `T < 32` (`T <= 31`,
  `32 > T`; 32 a literal or a macro hardcoding it), T the thread index: `threadIdx.x` (or a local initialised
  to it and never assigned) in a function that reads no `threadIdx.y`/`.z` (a 1D block: otherwise the x index
  below 32 is the whole block of a 16 x 16 launch), or the linear index `threadIdx.y * blockDim.x + threadIdx.x`;
  no return precedes the loop (which could leave lanes of 0-31 out); or no control around the loop and, as the
  only return before it, `if (T >= 32) return;` (`T > 31`) as a statement of the function's body: the same
  threads go on;
- the loop body holds no control (`if`, `?:`, a loop, a return or break): every active lane takes every step;
- the loop writes only plain locals of the function (no parameter, reference, pointer, array or member),
  including the locals it passes to calls; after the loop, each of them is read only under `T == 0` (`!T`), and
  none is reachable under another name (`float& r = v;`, `&v`, a lambda naming it: `_aliased`).
An unrolled ladder (`unrolled_fold`: consecutive statements, each one down or xor step by a literal 16 or less,
then each half of the one before down to 1) is read as the loop is, its statements the loop's body.
A guard `tid < 64`, a guard on threadIdx.y, a ladder from `warpSize / 2` (32 at wave 64: it reads lanes 32-63),
a result every lane reads (stores, a broadcast): not accepted.
"""
from __future__ import annotations


from tree_sitter import Node

from .. import lazy_re, rowmajor, warpsplits
from ..warpsites import int_value

_STEPS = ("shfl_down", "shfl_xor")
_YZ = lazy_re.compile(r"threadIdx\s*\.\s*[yz]\b")
_HALVE = lazy_re.compile(r"^(?P<v>\w+)\s*(>>=\s*1|/=\s*2|=\s*(?P=v)\s*(>>\s*1|/\s*2))$")


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type in ("condition_clause", "parenthesized_expression") and len(n.named_children) == 1:
        n = n.named_children[0]
    return n


def _const(ctx, n: Node | None) -> int | None:
    n = _strip(n)
    if n is None:
        return None
    t = ctx.text(n).strip()
    v = int_value(t)
    if v is None and n.type == "identifier":
        if t in ctx.hardcoded_macros:
            return 32  # an object-like macro or constant that hardcodes the warp size as 32
        vals = {int_value(ctx.text(d.child_by_field_name("value") or d)) for d in ctx.nodes("preproc_def")
                if ctx.text(d.child_by_field_name("name") or d) == t}  # every definition this file gives it
        if t in ctx._macro_values:
            vals.add(int_value(ctx._macro_values.get(t) or ""))  # the one the unit sees (an include's)
        else:
            vals |= _includer_values(ctx, t)
        v = vals.pop() if len(vals) == 1 else None
    return v


def _includer_values(ctx, name: str) -> set:
    """What every file at the top of a header's include chains defines `name` as, in its whole unit (Bridge++'s
    afield_cuda-inc.h reads WARP_LENGTH, that each includer's define_params.h defines first): {None} if unknown."""
    from pathlib import Path
    from .includervalues import roots
    from .units import project
    try:
        proj = project()
        rs = roots(proj, proj._real(Path(str(ctx.path))))
        out: set = set()
        for r in rs or ():
            sc = proj.scan(r, proj.options(r))
            defs = [m for p in sc.order for n, m in sc.local.get(p, {}).items() if n == name]
            out |= {int_value(getattr(m, "value", "") or "") for m in defs} if defs else {None}
        return out if rs else {None}
    except (OSError, ValueError, RecursionError, AttributeError):
        return {None}


def _function(n: Node) -> Node | None:
    while n is not None and n.type != "function_definition":
        n = n.parent
    return n


def _locals(ctx, fn: Node) -> dict[str, bool]:
    """name -> whether every declaration of it in fn's body declares a plain value (no pointer, reference, array)."""
    out: dict[str, bool] = {}
    body = fn.child_by_field_name("body")
    stack = [body] if body is not None else []
    while stack:
        n = stack.pop()
        if n.type == "declaration":
            for d in n.children_by_field_name("declarator"):
                inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                name = inner if inner is not None and inner.type == "identifier" else None
                if name is not None:
                    out[ctx.text(name)] = out.get(ctx.text(name), True)
                else:
                    for ident in _idents(inner):
                        out[ctx.text(ident)] = False
        stack.extend(n.named_children)
    return out


def _aliased(ctx, fn: Node, names: set[str], end: int, guard: str) -> bool:
    """Whether a local of `names` is reachable under another name in fn: its address taken (`&v`), a reference bound
    to it (`float& r = v;`, `auto& r = v;`), or named in a lambda (a capture by reference reads its value wherever
    the lambda runs).  Reading the alias after the ladder reads every lane's partial result; the leader's own use
    after the ladder (`if (tid == 0) memcpy(out, &v, 4);`) is no alias."""
    fbody = fn.child_by_field_name("body")
    for ident in _idents(fbody):
        if ctx.text(ident) not in names or ident.start_byte >= end and _leader_only(ctx, ident, fbody, guard):
            continue
        p = ident.parent
        while p is not None and p.type == "parenthesized_expression":
            p = p.parent
        if p is not None and p.type == "pointer_expression" and ctx.text(p).lstrip().startswith("&"):
            return True
        if p is not None and p.type == "init_declarator" and p.child_by_field_name("value") is not None and \
                p.child_by_field_name("value").start_byte <= ident.start_byte and \
                p.child_by_field_name("declarator").type == "reference_declarator":
            return True
        while p is not None and p != fn:
            if p.type == "lambda_expression":
                return True
            p = p.parent
    return False


def _idents(n: Node | None):
    if n is None:
        return
    stack = [n]
    while stack:
        x = stack.pop()
        if x.type == "identifier":
            yield x
        stack.extend(x.named_children)


def _thread_var(ctx, fn: Node, t: Node) -> str | None:
    """The guard's thread index text if it is one (module docstring), else None."""
    text = warpsplits.thread_text(ctx.text(t))
    ftext = ctx.text(fn)
    one_d = not _YZ.search(ftext)
    if text == "threadIdx.x":
        return text if one_d else None
    if rowmajor.width(text) == "blockDim.x":
        return text
    if t.type != "identifier":
        return None
    inits = []
    for d in _nodes(fn, ("init_declarator", "assignment_expression", "update_expression")):
        if d.type == "init_declarator":
            name = d.child_by_field_name("declarator")
            if name is not None and ctx.text(name) == text:
                inits.append(d.child_by_field_name("value"))
        elif d.type == "assignment_expression":
            left = d.child_by_field_name("left")
            if left is not None and ctx.text(left) == text:
                return None
        elif ctx.text(d.child_by_field_name("argument") or d).strip() == text:
            return None
    if len(inits) != 1 or inits[0] is None:
        return None
    init = warpsplits.thread_text(ctx.text(inits[0]))
    if (init == "threadIdx.x" and one_d) or rowmajor.width(init) == "blockDim.x":
        return text
    return None


def _nodes(root: Node, types: tuple):
    stack = [root]
    while stack:
        x = stack.pop()
        if x.type in types:
            yield x
        stack.extend(x.named_children)


def _guard(ctx, cond: Node, fn: Node, returns: bool = False) -> str | None:
    """T of `T < 32` / `T <= 31` / `32 > T` with T the thread index, else None; `returns`: of the test an early
    return takes, `T >= 32` / `T > 31` / `32 <= T` (the threads it keeps are those below 32)."""
    n = _strip(cond)
    if n is None or n.type != "binary_expression":
        return None
    op = ctx.text(n.child_by_field_name("operator"))
    left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
    if returns:  # `T >= 32` returns: `T < 32` stays (the same threads as the `if` guard's)
        op = {">=": "<", ">": "<=", "<=": ">", "<": ">="}.get(op, "")
    if op in (">", ">="):
        left, right, op = right, left, "<" if op == ">" else "<="
    if op not in ("<", "<=") or left is None:
        return None
    bound = _const(ctx, right)
    if bound != (32 if op == "<" else 31):
        return None
    return _thread_var(ctx, fn, _strip(left))


def _return_guard(ctx, fn: Node, ret: Node) -> str | None:
    """T of `if (T >= 32) return;` written as a statement of fn's body itself (no `else`, nothing but the return in
    its branch, no value returned), else None: the threads that go on are those of the `if (T < 32)` guard."""
    p = ret.parent
    if p is not None and p.type == "compound_statement" and len(p.named_children) == 1:
        p = p.parent
    if p is None or p.type != "if_statement" or p.child_by_field_name("alternative") is not None or \
            p.parent is None or p.parent != fn.child_by_field_name("body") or ret.named_children:
        return None
    return _guard(ctx, p.child_by_field_name("condition"), fn, returns=True)


def _is_leader_test(ctx, cond: Node, t: str) -> bool:
    n = _strip(cond)
    if n is None:
        return False
    if n.type == "unary_expression" and ctx.text(n.child_by_field_name("operator")) == "!":
        return warpsplits.thread_text(ctx.text(n.child_by_field_name("argument"))) == t
    if n.type != "binary_expression" or ctx.text(n.child_by_field_name("operator")) != "==":
        return False
    sides = [n.child_by_field_name(k) for k in ("left", "right")]
    texts = {warpsplits.thread_text(ctx.text(s)) for s in sides if s is not None}
    return t in texts and any(_const(ctx, s) == 0 for s in sides)


def _ladder_loop(ctx, loop: Node) -> str | None:
    """The loop variable of a `for` that starts at 1..16, halves and stops at 0, else None."""
    init, cond, upd = (loop.child_by_field_name(k) for k in ("initializer", "condition", "update"))
    if init is None or cond is None or upd is None:
        return None
    decl = init.child_by_field_name("declarator") if init.type == "declaration" else init
    if decl is None or decl.type not in ("init_declarator", "assignment_expression"):
        return None
    name = decl.child_by_field_name("declarator" if decl.type == "init_declarator" else "left")
    start = _const(ctx, decl.child_by_field_name("value" if decl.type == "init_declarator" else "right"))
    if name is None or name.type != "identifier" or start is None or not 1 <= start <= 16:
        return None
    v = ctx.text(name)
    m = _HALVE.match(" ".join(ctx.text(upd).split()))
    c = " ".join(ctx.text(cond).split())
    if m is None or m.group("v") != v or c not in (f"{v} > 0", f"{v} >= 1", f"{v} != 0", f"0 < {v}", v):
        return None
    return v


def leader_fold(ctx, loop: Node | None) -> bool:
    """Whether this `for` loop is a ladder from <= 16 over the first 32 threads whose lane-0 result alone is used."""
    cache = ctx.__dict__.setdefault("_leader_folds", {})
    key = (loop.start_byte, loop.end_byte) if loop is not None else None
    if key not in cache:
        cache[key] = loop is not None and loop.type == "for_statement" and _check(ctx, loop)
    return cache[key]


def loop_of_call(call: Node) -> Node | None:
    """The innermost `for` loop around a call within its function, where the call is in its body."""
    n = call.parent
    while n is not None and n.type not in ("for_statement", "function_definition"):
        n = n.parent
    body = n.child_by_field_name("body") if n is not None and n.type == "for_statement" else None
    return n if body is not None and body.start_byte <= call.start_byte < body.end_byte else None


def loop_of_start(node: Node) -> Node | None:
    """The `for` loop whose initializer holds `node` (a ladder's start constant)."""
    n = node.parent
    while n is not None and n.type not in ("for_statement", "function_definition", "compound_statement"):
        n = n.parent
    if n is None or n.type != "for_statement":
        return None
    init = n.child_by_field_name("initializer")
    return n if init is not None and init.start_byte <= node.start_byte < init.end_byte else None


def _check(ctx, loop: Node) -> bool:
    fn = _function(loop)
    var = _ladder_loop(ctx, loop)
    body = loop.child_by_field_name("body")
    if fn is None or var is None or body is None:
        return False
    return _region(ctx, fn, loop, loop.end_byte, [body], lambda off: ctx.text(off).strip() == var)


def unrolled_fold(ctx, step: Node) -> bool:
    """Whether the shuffle step `step` (a call, or a node inside it) starts an unrolled ladder that is a leader fold:
    consecutive statements of one block, each one shuffle down or xor by a literal, 16 (or less), then each half of
    the one before down to 1, every other condition of the module's doc holding for the statements as for a loop."""
    cache = ctx.__dict__.setdefault("_leader_unrolled", {})
    stmt = step
    while stmt is not None and stmt.type not in ("expression_statement", "function_definition"):
        stmt = stmt.parent
    if stmt is None or stmt.type != "expression_statement":
        return False
    off = _step_offset(ctx, stmt)
    while off is not None and (prev := stmt.prev_named_sibling) is not None and prev.type == "expression_statement" \
            and _step_offset(ctx, prev) == 2 * off:
        stmt, off = prev, 2 * off  # back to the ladder's first step
    key = (stmt.start_byte, stmt.end_byte)
    if key not in cache:
        cache[key] = _unrolled(ctx, stmt)
    return cache[key]


def _step_offset(ctx, stmt: Node) -> int | None:
    """The literal offset of the statement's one down/xor shuffle, else None."""
    calls = [c for c in _nodes(stmt, ("call_expression",)) if (f := ctx.concept_of_call(c)) is not None and f[0].warp_level]
    if len(calls) != 1:
        return None
    c, _, bound = ctx.concept_of_call(calls[0])
    off = bound.get("delta", bound.get("lanemask"))
    return int_value(ctx.text(off).strip()) if c.key in _STEPS and off is not None else None


def _unrolled(ctx, first: Node) -> bool:
    fn = _function(first)
    want = _step_offset(ctx, first)
    if fn is None or want is None or not 1 <= want <= 16 or first.parent is None:
        return False
    stmts, n = [], first
    while n is not None and want >= 1:
        if n.type == "comment":
            n = n.next_named_sibling
            continue
        if n.type != "expression_statement" or _step_offset(ctx, n) != want:
            return False
        stmts.append(n)
        want, n = want // 2, n.next_named_sibling
    if want != 0:
        return False
    offsets = {str(1 << k) for k in range(5)}
    return _region(ctx, fn, first, stmts[-1].end_byte, stmts, lambda off: ctx.text(off).strip() in offsets)


def _region(ctx, fn: Node, first: Node, end: int, bodies: list[Node], offset_ok) -> bool:
    """The module's conditions on the ladder whose steps `bodies` hold (a loop's body, or an unrolled ladder's
    statements), from `first` to byte `end`."""
    # the control around the loop: exactly one `if`, the guard, with the loop in its consequence
    guard, n = None, first.parent
    while n is not None and n is not fn:
        if n.type in ("for_statement", "while_statement", "do_statement", "switch_statement", "conditional_expression",
                      "case_statement", "lambda_expression"):
            return False
        if n.type == "if_statement":
            if guard is not None:
                return False
            cons = n.child_by_field_name("consequence")
            if cons is None or not cons.start_byte <= first.start_byte < cons.end_byte:
                return False
            guard = _guard(ctx, n.child_by_field_name("condition"), fn)
            if guard is None:
                return False
        n = n.parent
    early = [r for r in _nodes(fn, ("return_statement",)) if r.start_byte < first.start_byte]
    if guard is None and len(early) == 1:
        guard = _return_guard(ctx, fn, early[0])
        early = []
    if guard is None or early:
        return False
    controls = ("if_statement", "for_statement", "while_statement", "do_statement", "switch_statement",
                "conditional_expression", "return_statement", "break_statement", "goto_statement", "continue_statement")
    if any(True for body in bodies for _ in _nodes(body, controls)):
        return False  # a step taken by some lanes only: which lanes lane 0 reads is no longer the ladder's
    # the steps: down or xor by the loop variable (by the halving literals, unrolled)
    written: set[str] = set()
    steps = 0
    for call in (c for body in bodies for c in _nodes(body, ("call_expression",))):
        found = ctx.concept_of_call(call)
        if found is not None and found[0].warp_level:
            c, _, bound = found
            off = bound.get("delta", bound.get("lanemask"))
            if c.key not in _STEPS or off is None or not offset_ok(off):
                return False
            val = bound.get("value")
            if val is None or val.type != "identifier":
                return False
            written.add(ctx.text(val))
            steps += 1
            continue
        args = call.child_by_field_name("arguments")
        for a in args.named_children if args is not None else ():
            if a.type in ("number_literal", "comment"):
                continue
            if a.type != "identifier":
                return False
            written.add(ctx.text(a))  # a callee may write through a reference
    if not steps:
        return False
    for a in (x for body in bodies for x in _nodes(body, ("assignment_expression", "update_expression"))):
        left = a.child_by_field_name("left" if a.type == "assignment_expression" else "argument")
        if left is None or left.type != "identifier":
            return False
        written.add(ctx.text(left))
    plain = _locals(ctx, fn)
    if any(not plain.get(w, False) for w in written):
        return False  # a parameter, reference, pointer or array: the value leaves the function
    if _aliased(ctx, fn, written, end, guard):
        return False  # `float& r = v;`, `&v`, a lambda's capture: a read after the ladder that names no written local
    # after the loop, what it wrote is read only by the leader
    fbody = fn.child_by_field_name("body")
    for ident in _idents(fbody):
        if ident.start_byte < end or ctx.text(ident) not in written:
            continue
        if not _leader_only(ctx, ident, fbody, guard):
            return False
    return True


def _leader_only(ctx, ident: Node, fbody: Node, guard: str) -> bool:
    """Whether `ident` sits in the consequence of an `if (T == 0)` (T: `guard`) within fbody."""
    p = ident.parent
    while p is not None and p is not fbody:
        if p.type == "if_statement" and _is_leader_test(ctx, p.child_by_field_name("condition"), guard):
            cons = p.child_by_field_name("consequence")
            if cons is not None and cons.start_byte <= ident.start_byte < cons.end_byte:
                return True
        p = p.parent
    return False
