"""libcu++'s `cuda::atomic_ref` (<cuda/atomic>) as the target's atomic builtins, each access at its own line.

mcgs' device-side graph search publishes a node's expansion with libcu++:

    cuda::atomic_ref<int, cuda::thread_scope_device> publication(storage->node_expansion[node]);
    if (publication.compare_exchange_strong(expected, 1, cuda::memory_order_acq_rel, cuda::memory_order_acquire))
    ...
    publication.store(2, cuda::memory_order_release);

HIP has no <cuda/atomic>; ROCm's clang has the builtins every such access is (`__hip_atomic_load`, `_store`,
`_compare_exchange_strong`, `_fetch_add`, each with a C11 memory order and a HIP memory scope).  Not a class in
the port: the port writes each access as the builtin of that access's own order and scope (the backend's
`atomic_ref_members`, `atomic_ref_orders`, `atomic_ref_scopes`), so no order is lost in a class's default or a
run-time argument, and verify's emulator runs the builtins (`explicit_atomics`; its memory is sequentially
consistent, an order at least as strong as each).  The reference becomes a pointer to the object it binds:

    int* const publication = &(storage->node_expansion[node]);
    if (__hip_atomic_compare_exchange_strong(publication, &(expected), 1, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE,
                                             __HIP_MEMORY_SCOPE_AGENT))

Only where every use is so written: a declaration `cuda::atomic_ref<T[, S]> r(lvalue);` in a function, S a scope
the backend spells (none: libcu++'s thread_scope_system), `r` declared once in its function and used only as
`r.member(...)` with a member the backend spells and each order a literal `cuda::memory_order_*` it spells (an
omitted order is libcu++'s seq_cst; a compare-exchange with one order fails with it less its release part, as
C++ says).  Anything else is refused at its line (KP209), and the include with it; the include goes only where
the file names nothing else of <cuda/atomic>.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends

HEADER = "cuda/atomic"
_TYPE = re.compile(r"(?:::)?cuda\s*::\s*atomic_ref\s*<(?P<args>.*)>", re.S)
_FAIL = {"cuda::memory_order_acq_rel": "cuda::memory_order_acquire", "cuda::memory_order_release":
         "cuda::memory_order_relaxed"}  # a compare-exchange's one order: its failure order (C++ [atomics.ref])
_SEQ = "cuda::memory_order_seq_cst"
_ORDER_PARAMS = ("order", "success", "failure")


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    b = backends.get(tr.backend)
    if not b.atomic_ref_members or b"atomic_ref" not in tr.src.data:
        return
    refs = [d for d in tr.src.index.of_type("declaration") if _TYPE.fullmatch(_type_text(tr, d) or "")]
    plans, failed = [], False
    for decl in refs:
        got = _plan(tr, b, decl)
        if isinstance(got, tuple):
            tr.problem("KP209", got[0], f"`{' '.join(tr.src.text_of(got[0]).split())}`: {got[1]}",
                       "use the members the port spells (load, store, compare_exchange_strong, fetch_add) with a "
                       "literal cuda::memory_order_*, or keep the code under #ifdef so that only the CUDA build "
                       "compiles it")
            failed = True
        else:
            plans.append(got)
    for edits in plans:
        for node, text in edits:
            tr.rw.replace(node, text)
    if plans:
        tr.note(refs[0], "(builtins)", f"each cuda::atomic_ref access is {tr.backend.upper()}'s atomic builtin of its "
                "own memory order and scope, the reference a pointer to the object it binds")
    tr.__dict__["_kp_atomic_refs"] = bool(plans) and not failed


def include_ported(tr, node: Node, header: str) -> bool:
    """Whether the include `node` of <cuda/atomic> is removed: every atomic_ref of the file was written as
    builtins and the file names nothing else of the header (`cuda::atomic<T>`, `cuda::std::...`)."""
    if header != HEADER or not tr.__dict__.get("_kp_atomic_refs"):
        return False
    body = re.sub(r"//[^\n]*|/\*.*?\*/", "", tr.src.text, flags=re.S)
    if re.search(r"\bcuda\s*::\s*(?!atomic_ref\b|memory_order_\w+\b|thread_scope_\w+\b)\w+", body):
        return False
    from .translate import Note
    tr.rw.replace(node, "\n" if tr.src.text_of(node).endswith("\n") else "")  # (the lines stay the original's)
    tr.port.notes.append(Note(tr.src.loc(node), f"<{header}>", "(removed)", "its atomic_ref accesses are the "
                              "target's atomic builtins"))
    return True


def _type_text(tr, decl: Node) -> str | None:
    t = decl.child_by_field_name("type")
    return " ".join(tr.src.text_of(t).split()) if t is not None else None


def _split(args: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in args:
        depth += ch in "<(" and 1 or (ch in ">)" and -1 or 0)
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*out, cur.strip()] if cur.strip() else out


def _plan(tr, b, decl: Node):
    """[(node, replacement)] for the declaration and every use of its reference, or (node, why not)."""
    src = tr.src
    fn = tr.module.function_at(decl)
    args = _split(_TYPE.fullmatch(_type_text(tr, decl)).group("args"))
    inits = [c for c in decl.named_children if c.type in ("init_declarator", "function_declarator")]
    if fn is None or fn.body is None or len(inits) != 1 or len(args) not in (1, 2):
        return decl, "an atomic_ref the port spells only as one local of a function, `cuda::atomic_ref<T[, S]> r(x);`"
    scope = b.atomic_ref_scopes.get(re.sub(r"\s+|^::", "", args[1]) if len(args) == 2 else "cuda::thread_scope_system")
    if scope is None:
        return decl, f"the scope `{args[1]}` has no {tr.backend.upper()} spelling here"
    # `r(x)`, or `r(a[i])` that the grammar reads as a function's declarator (C++ declares the object)
    name_node = inits[0].child_by_field_name("declarator")
    bound = inits[0].child_by_field_name("value" if inits[0].type == "init_declarator" else "parameters")
    if name_node is None or name_node.type != "identifier" or bound is None or len(bound.named_children) != 1:
        return decl, "an atomic_ref bound otherwise than `r(x)` to one object"
    name = src.text_of(name_node)
    uses = [n for n in src.index.under(fn.body, "identifier") if src.text_of(n) == name and n.id != name_node.id]
    if sum(1 for d in src.index.under_types(fn.body, "init_declarator", "function_declarator")
           if src.text_of(d.child_by_field_name("declarator")) == name) != 1 or fn.param(name) is not None:
        return decl, f"`{name}` names more than one variable in `{fn.name}`"
    edits = [(decl, f"{args[0]}* const {name} = &({src.text_of(bound.named_children[0])});")]
    for n in uses:
        field, call = n.parent, n.parent.parent if n.parent is not None else None
        if field is None or field.type != "field_expression" or field.child_by_field_name("argument") != n or \
                call is None or call.type != "call_expression" or call.child_by_field_name("function") != field:
            return n, f"a use of the atomic_ref `{name}` other than a call of its members"
        member = src.text_of(field.child_by_field_name("field"))
        spelling = b.atomic_ref_members.get(member)
        if spelling is None:
            return call, f"`{member}` of cuda::atomic_ref has no {tr.backend.upper()} spelling here"
        if any(u.id != n.id and call.start_byte <= u.start_byte < call.end_byte for u in uses):
            return call, f"a call of `{name}`'s members inside another one's arguments"
        got = _bind(tr, b, spelling, member, _args(tr, call), {"ref": name, "scope": scope})
        if got.startswith("!"):
            return call, got[1:]
        edits.append((call, got))
    return edits


def _args(tr, call: Node) -> list[tuple[str, str]]:
    """(the line break and indentation before it, where one is, its text) of each argument: a port keeps the
    call's lines."""
    out = []
    for a in call.child_by_field_name("arguments").named_children:
        gap = tr.src.data[a.prev_sibling.end_byte:a.start_byte].decode() if a.prev_sibling is not None else ""
        out.append((gap[gap.index("\n"):] if "\n" in gap else "", tr.src.text_of(a)))
    return out


def _bind(tr, b, spelling: str, member: str, args: list[tuple[str, str]], given: dict[str, str]) -> str:
    """The member's spelling with its arguments, orders and `given` ({ref}, {scope}) filled in, or '!' and why not."""
    params = re.findall(r"\{(\w+)\}", spelling)
    values = [p for p in params if p not in (*_ORDER_PARAMS, *given)]
    given = {**given, **{p: text for p, (_, text) in zip(values, args)}}
    breaks = {p: gap for p, (gap, _) in zip(values, args) if gap}
    orders = [" ".join(a.split()).replace(" ", "") for _, a in args[len(values):]]
    breaks.update({k: gap for k, (gap, _) in zip(("success", "failure") if "success" in params else ("order",),
                                                   args[len(values):]) if gap})
    if len(args) < len(values) or len(orders) > (2 if "success" in params else 1):
        return f"!`{member}` with {len(args)} arguments, a form the port does not spell"
    if "success" in params:  # compare-exchange: (success, failure), one order, or none
        orders = orders if len(orders) == 2 else [orders[0], _FAIL.get(orders[0], orders[0])] if orders else [_SEQ, _SEQ]
        keys = ("success", "failure")
    else:
        orders, keys = orders or [_SEQ], ("order",)
    for k, o in zip(keys, orders):
        spelled = b.atomic_ref_orders.get(o.lstrip(":"))
        if spelled is None:
            return f"!the memory order `{o}` is not a literal one the port spells"
        given[k] = spelled
    def place(m):  # a line break the argument had goes after the comma before it (before a `&(` that wraps it)
        gap = m.group(1).rstrip(" ") + breaks[m.group(3)] if m.group(3) in breaks else m.group(1)
        return gap + m.group(2) + "\0" + m.group(3) + "\0"
    spelled = re.sub(r"(,?\s*)(&\(|)\{(\w+)\}", place, spelling)
    return re.sub(r"\x00(\w+)\x00", lambda m: given.get(m.group(1), m.group(0)), spelled)
