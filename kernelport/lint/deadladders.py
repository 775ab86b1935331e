"""A shuffle ladder whose result nothing reads computes nothing: no wave-64 hazard (WS004).

fa-shrvan's legacy helpers (heldout95) fold a copy and return their argument:

    float reduced_val = val;
    for (int offset = 16; offset > 0; offset /= 2)
        reduced_val = max(reduced_val, __shfl_xor_sync(0xffffffff, reduced_val, offset));
    return val;                                  // the fold is discarded

At wave 64 the ladder still folds 32 lanes, but no lane's value of it is ever read, so what the function computes
is the same at any wave width.  `discarded` accepts a ladder (a `for` loop whose initializer holds the site, or an
unrolled ladder from 16 halving to 1) only when all of these hold, else WS004 reports as before:
- every value the steps write is a plain local of the function (no parameter, reference, pointer, array, member or
  element: an assignment to anything but a local name keeps the finding), the shuffles' own value operands and the
  names passed to calls in the steps included (a callee may write through a reference);
- no call in the steps is a statement of its own (`atomicAdd(out, v);`: its effect is the result's use), and the
  steps hold no `return`;
- each of those names is a local declared in the ladder or in a block that holds it (not a parameter, nor a name
  another block's local shadows), and the steps hand nothing out another way: no inline asm (an output operand, a
  store), no `break` or `goto` (a data-dependent exit), no call given an address or a pointer (`&sh[i]`, `out + i`), nor of a lambda or of a function of the file
  that writes anything but its own locals;
- none of those locals is reachable under another name (`float& r = v;`, `&v`, a lambda naming it);
- after the ladder no code of the function names any of them: after the loop (or the last unrolled step), in the
  loop's own condition and update, and, where the ladder sits in an enclosing loop, anywhere in that loop (its next
  turn runs after the ladder), nor a macro of the file or of its headers whose body names one of them and which is used there.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import leaderfolds as lf

_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")


def discarded(ctx, site: Node, role: str) -> bool:
    """Whether the ladder holding `site` (a WS004 site; `role` the site's) has a result that nothing reads."""
    fn = lf._function(site)
    if fn is None:
        return False
    if role == "ladder":
        stmts = _unrolled(ctx, site)
        if not stmts:
            return False
        span, header = (stmts[0].start_byte, stmts[-1].end_byte), []
        first = stmts[0]
    else:
        loop = lf.loop_of_start(site)
        body = loop.child_by_field_name("body") if loop is not None else None
        if body is None:
            return False
        stmts, span = [body], (loop.start_byte, loop.end_byte)
        header = [n for n in (loop.child_by_field_name(k) for k in ("condition", "update")) if n is not None]
        first = loop
    written = _written(ctx, stmts)
    if written is None:
        return False
    if role != "ladder":  # the loop's own counter, passed to the steps as their offset, carries no shuffled value
        var = lf._ladder_loop(ctx, loop)
        assigned = {ctx.text(x.child_by_field_name("left") or x.child_by_field_name("argument") or x)
                    for s in stmts for x in lf._nodes(s, ("assignment_expression", "update_expression"))}
        if var is None or var in assigned:
            return False
        written.discard(var)
    if not written:
        return False
    plain = lf._locals(ctx, fn)
    if any(not plain.get(w, False) for w in written) or written & _params(ctx, fn) or \
            any(not _scoped_around(ctx, fn, w, span) for w in written):
        return False
    if _reaches_out(ctx, stmts, plain, _params(ctx, fn, carriers=True)):
        return False
    if lf._aliased(ctx, fn, written, span[1], ""):
        return False
    start = span[1]
    n = first.parent
    while n is not None and n is not fn:
        if n.type in _LOOPS:
            start = min(start, n.start_byte)  # the enclosing loop's next turn runs after the ladder
        n = n.parent
    fbody = fn.child_by_field_name("body")
    after = [i for i in lf._idents(fbody) if i.start_byte >= start and not span[0] <= i.start_byte < span[1]]
    after += [i for h in header for i in lf._idents(h)]
    names = {ctx.text(i) for i in after}
    if names & written:
        return False
    return not any(names & {m} and re.search(rf"\b({'|'.join(map(re.escape, written))})\b", body_text)
                   for m, body_text in _macros(ctx))


def _written(ctx, stmts: list[Node], returns: bool = False) -> set[str] | None:
    """The names the steps write (or pass to a call), None where a value leaves another way (a `return` too,
    unless `returns`: a callee's own result)."""
    out: set[str] = set()
    for s in stmts:
        for n in lf._nodes(s, ("assignment_expression", "update_expression", "init_declarator", "call_expression",
                                "return_statement")):
            if n.type == "return_statement":
                if returns:
                    continue
                return None
            if n.type == "init_declarator":
                d = n.child_by_field_name("declarator")
                if d is None or d.type != "identifier":
                    return None
                out.add(ctx.text(d))
            elif n.type in ("assignment_expression", "update_expression"):
                left = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
                if left is None or left.type != "identifier":
                    return None
                out.add(ctx.text(left))
            else:
                p = n.parent
                while p is not None and p.type == "parenthesized_expression":
                    p = p.parent
                if p is not None and p.type == "expression_statement":
                    return None  # a call for its effect
                args = n.child_by_field_name("arguments")
                for a in args.named_children if args is not None else ():
                    while a.type in ("parenthesized_expression", "pointer_expression") and a.named_children:
                        a = a.named_children[-1]
                    if a.type == "identifier":
                        out.add(ctx.text(a))
    return out


def _unrolled(ctx, step: Node) -> list[Node]:
    """The statements of the unrolled ladder from 16 that `step` starts: 16, 8, 4, 2, 1, consecutive."""
    stmt = step
    while stmt is not None and stmt.type not in ("expression_statement", "function_definition"):
        stmt = stmt.parent
    if stmt is None or stmt.type != "expression_statement" or lf._step_offset(ctx, stmt) != 16:
        return []
    out, want, n = [], 16, stmt
    while n is not None and want >= 1:
        if n.type == "comment":
            n = n.next_named_sibling
            continue
        if n.type != "expression_statement" or lf._step_offset(ctx, n) != want:
            return []
        out.append(n)
        want, n = want // 2, n.next_named_sibling
    return out if want == 0 else []


def _macros(ctx) -> list[tuple[str, str]]:
    """(name, body) of every macro this file defines."""
    out = []
    for d in ctx.nodes("preproc_def", "preproc_function_def"):
        name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
        if name is not None and value is not None:
            out.append((ctx.text(name), ctx.text(value)))
    vis = getattr(getattr(ctx, "module", None), "visible", None)  # its headers' macros (`#define STORE out[i] = r`)
    out += [(name, m.value or "") for name, m in (vis.macros.items() if vis is not None else ())]
    return out


def _params(ctx, fn: Node, carriers: bool = False) -> set[str]:
    """The names of fn's parameters; with `carriers`, only those declared a pointer, a reference or an array (a
    write through one leaves the function; a value parameter, `int width`, is a local copy)."""
    decl = fn.child_by_field_name("declarator")
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    plist = decl.child_by_field_name("parameters") if decl is not None else None
    out: set[str] = set()
    for p in plist.named_children if plist is not None else ():
        d = p.child_by_field_name("declarator")
        if not carriers or d is not None and d.type != "identifier":
            out.update(ctx.text(i) for i in lf._idents(d))
    return out


def _scoped_around(ctx, fn: Node, name: str, span: tuple[int, int]) -> bool:
    """A declaration of `name` in the ladder, or before it in a block that holds it (a local of another block,
    `{ float r; }`, leaves the ladder's `r` naming a parameter, a member or a global)."""
    at = span[0]
    for d in lf._nodes(fn.child_by_field_name("body"), ("declaration",)):
        if d.start_byte >= span[1] or name not in {ctx.text(i) for x in d.children_by_field_name("declarator")
                                              for i in lf._idents(x.child_by_field_name("declarator")
                                                                  if x.type == "init_declarator" else x)}:
            continue
        block = d.parent
        if at <= d.start_byte or block is not None and block.start_byte <= at < block.end_byte:
            return True
    return False


def _reaches_out(ctx, stmts: list[Node], plain: dict, params: set[str]) -> bool:
    """Whether the steps hand a value out other than through a local they assign: inline asm (an output operand,
    a store), a jump out of the ladder (`break` leaves its counter at a data-dependent value, `goto`), or a call
    given an address or a pointer (`atomicAdd(&sh[i], v)`, `store(out + i, v)`) whose result is assigned, or a
    call of a lambda (its captures) or of a function of the file that writes anything but its own locals."""
    for s in stmts:
        if any(lf._nodes(s, ("gnu_asm_expression", "break_statement", "goto_statement"))):
            return True
        for call in lf._nodes(s, ("call_expression",)):
            callee = call.child_by_field_name("function")
            if callee is not None and callee.type == "identifier" and _writes_out(ctx, ctx.text(callee)):
                return True
            args = call.child_by_field_name("arguments")
            for a in args.named_children if args is not None else ():
                for p in lf._nodes(a, ("pointer_expression",)):
                    inner = p.named_children[-1] if p.named_children else None
                    while inner is not None and inner.type == "parenthesized_expression" and inner.named_children:
                        inner = inner.named_children[-1]
                    if ctx.text(p).lstrip().startswith("&") and (inner is None or inner.type != "identifier"):
                        return True
                if any(i.parent is not None and i.parent.type != "call_expression" and
                       (plain.get(ctx.text(i)) is False or ctx.text(i) in params) for i in lf._idents(a)):
                    return True
    return False


def _writes_out(ctx, name: str) -> bool:
    """Whether `name` is a lambda of the file (`auto add = [&](float x) { acc += x; ... }`: its captures are written
    where it runs) or a function the file defines whose body writes anything but its own locals and value
    parameters (`g_log[i] = v`, a call for its effect); a function defined elsewhere (a math function) is not."""
    for d in ctx.nodes("init_declarator"):
        decl, value = d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if decl is not None and ctx.text(decl) == name and value is not None and value.type == "lambda_expression":
            return True
    for f in ctx.nodes("function_definition"):
        decl = f.child_by_field_name("declarator")
        while decl is not None and decl.type != "function_declarator":
            decl = decl.child_by_field_name("declarator")
        head = decl.child_by_field_name("declarator") if decl is not None else None
        body = f.child_by_field_name("body")
        if head is None or body is None or ctx.text(head).split("::")[-1].strip() != name:
            continue
        written = _written(ctx, [body], returns=True)
        own = lf._locals(ctx, f)
        values = _params(ctx, f) - _params(ctx, f, carriers=True)
        if written is None or any(not own.get(w, False) and w not in values for w in written):
            return True
    return False
