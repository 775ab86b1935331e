"""Barriers not spelled as the dialect's own call: through a macro, or as a cooperative group's member.

divergence.barrier_kind read a barrier as a call whose name a dialect maps to a barrier concept
(`__syncthreads()`), so an early return before any of these was no SY001:

    #define SYNC __syncthreads()                    SYNC;              (object-like: a statement of one name)
    #define BAR() __syncthreads()   /  -D 'BAR()=..' BAR();             (function-like, also from a header or -D)
    #define BARRIER __syncthreads                   BARRIER();         (an object-like name, called)
    cg::thread_block block = cg::this_thread_block();   block.sync();  cg::sync(block);
    cg::this_thread_block().sync();                 auto g = cg::this_grid();  g.sync();

A macro is a barrier when its replacement list is one call (`;` and an enclosing `do { } while (0)` aside) that is
one itself: a dialect barrier, or, in turn, such a macro (a few levels).  Its definitions are every one the unit
sees: its own file's `#define`s in every branch, its includes' and the run's -D (the macro-aware parse's), and its
headers' object-like constants; a name one of which is not the same barrier is none (a branch, a header or the
file may define it as something else).

A group's `sync` is the block's barrier (the dialect's `syncthreads` concept) for a thread block or a grid (which
waits for the grid, hence for the block too): a variable whose declaration in the enclosing function (or a
parameter) has the group's type (`[ns::]thread_block`, `[ns::]grid_group`, a reference to one) or is `auto`
initialised by `[ns::]this_thread_block()` / `this_grid()`, or such a call itself.  ns is the backend's
`Lowering.group_namespaces` or an alias the file declares (`namespace cg = cooperative_groups;`); unqualified names
count only under `using namespace` of one.  A name the function declares twice, once otherwise, is no group.
A tile's `sync` (a warp barrier) is not read here.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import backends, dialect, lazy_re

_CALL = lazy_re.compile(r"^\s*(?:::\s*)?(\w+)\s*\((.*)\)\s*;?\s*$", re.S)
_DO_WHILE = lazy_re.compile(r"^\s*do\s*\{(.*)\}\s*while\s*\(\s*(?:0|false)\s*\)\s*;?\s*$", re.S)
_NAME = lazy_re.compile(r"^\s*[A-Za-z_]\w*\s*$")
_BRACES = lazy_re.compile(r"^\s*\{(.*)\}\s*;?\s*$", re.S)
GROUP_TYPES = {"thread_block": "block", "grid_group": "block"}
GROUP_MAKERS = {"this_thread_block": "block", "this_grid": "block"}
_DEPTH = 4


def barrier_kind(ctx, call: Node) -> str | None:
    """'block' for __syncthreads (and the Metal threadgroup barrier), 'warp' for __syncwarp; also spelled
    through a macro (a call, or a statement of one object-like name) or a group's `sync` (above)."""
    if call.type == "identifier":  # `SYNC;` with `#define SYNC __syncthreads()`
        return macro_barrier(ctx, ctx.text(call), False)
    fn = call.child_by_field_name("function")
    if fn is None:
        return None
    if fn.type != "identifier":
        return group_sync(ctx, call) if fn.type in ("field_expression", "qualified_identifier") else None
    name = ctx.text(fn)
    kind = _name_kind(name)
    if kind is None and not _KNOWN[(tuple(backends.names()), name)]:  # a macro's, or `sync(g)` (`using namespace`)
        return macro_barrier(ctx, name, True) or (group_sync(ctx, call) if name == "sync" else None)
    return kind


def _name_kind(name: str) -> str | None:
    """The barrier kind of a call of `name` in any dialect (None: no barrier, or two concepts)."""
    names = tuple(backends.names())
    key = (names, name)
    if key not in _KINDS:  # (asked of every call of every file: each name's dialect look-ups made once)
        c = _lookup(name, names)  # a barrier in any dialect (no name means two concepts)
        _KINDS[key] = None if c is None else {"syncthreads": "block", "syncwarp": "warp"}.get(c.key)
        _KNOWN[key] = c is not None
    return _KINDS[key]


def _lookup(name: str, dialects) -> "dialect.Concept | None":
    """The concept `name` spells in the first of these dialects (backend names) that has it."""
    return next((c for b in dialects if (c := dialect.lookup(b, name)) is not None), None)


_KINDS: dict[tuple[tuple[str, ...], str], str | None] = {}  # (dialects, name) -> barrier_kind
_KNOWN: dict[tuple[tuple[str, ...], str], bool] = {}  # (dialects, name) -> whether a dialect names it


def _balanced(s: str) -> bool:
    depth = 0
    for ch in s:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def _body_call(body: str) -> str | None:
    """The called name of a replacement list that is one call, else None."""
    for pat in (_DO_WHILE, _BRACES):
        m = pat.match(body)
        if m:
            body = m.group(1)
    m = _CALL.match(body)
    if not m or not _balanced(m.group(2)) or ";" in m.group(2):
        return None
    return m.group(1)


def _definitions(ctx) -> dict[str, list[tuple[bool, str]]]:
    """Every definition the unit sees: name -> [(function-like, replacement list)]."""
    out: dict[str, list[tuple[bool, str]]] = {}
    unit = getattr(ctx, "unit", None)  # (translate's group-mask checks read the analysis without one)
    for name, d in (getattr(unit, "macros", None) or {}).items():
        out.setdefault(name, []).append((d.params is not None, d.body))
    for name, v in (getattr(unit, "header_macros", None) or {}).items():
        if name not in out:
            out.setdefault(name, []).append((False, v[3] or ""))
    for node in ctx.src.index.of_types("preproc_def", "preproc_function_def"):  # the file's own, every branch
        name_n, val = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name_n is not None:
            out.setdefault(ctx.text(name_n), []).append(
                (node.type == "preproc_function_def", ctx.text(val) if val is not None else ""))
    return out


def macro_barrier(ctx, name: str, fnlike: bool) -> str | None:
    """The barrier kind ('block' | 'warp') every definition the unit sees of the macro `name` is (a
    function-like one for a call, an object-like one for a statement of its name), else None."""
    memo = ctx.__dict__.setdefault("_kp_macro_barriers", {})
    key = (name, fnlike)
    if key not in memo:
        defs = ctx.__dict__.get("_kp_macro_defs")
        if defs is None:
            defs = ctx.__dict__["_kp_macro_defs"] = _definitions(ctx)
        memo[key] = _kind(defs, name, fnlike, 0)
    return memo[key]


def _kind(defs, name: str, fnlike: bool, depth: int) -> str | None:
    ds = defs.get(name)
    if not ds or depth > _DEPTH:
        return None
    kinds = set()
    for is_fn, body in ds:
        if fnlike and not is_fn and _NAME.match(body):  # `#define BARRIER __syncthreads` called `BARRIER()`
            kinds.add(_name_kind(body.strip()) or _kind(defs, body.strip(), True, depth + 1))
            continue
        if is_fn != fnlike:
            return None
        if not fnlike and _NAME.match(body):  # `#define SYNC BARRIER`: another object-like macro
            kinds.add(_kind(defs, body.strip(), False, depth + 1))
            continue
        callee = _body_call(body)
        if callee is None:
            return None
        kinds.add(_name_kind(callee) or _kind(defs, callee, True, depth + 1))
    return kinds.pop() if len(kinds) == 1 else None


def _namespaces(ctx) -> tuple[frozenset[str], bool]:
    """The group namespaces' names in this file (aliases included) and whether one is `using`."""
    cached = ctx.__dict__.get("_kp_group_ns")
    if cached is None:
        base = set(backends.source().lowering.group_namespaces)
        text = ctx.src.text
        names = set(base)
        for m in re.finditer(r"\bnamespace\s+(\w+)\s*=\s*(?:::\s*)?(\w+)\s*;", text):
            if m.group(2) in base:
                names.add(m.group(1))
        bare = any(re.search(rf"\busing\s+namespace\s+(?:::\s*)?{re.escape(n)}\s*;", text) for n in names)
        cached = ctx.__dict__["_kp_group_ns"] = (frozenset(names), bare)
    return cached


def _group_name(ctx, n: Node | None, table: dict[str, str]) -> str | None:
    """The kind in `table` of the (qualified) name n: `cg::thread_block`, `cooperative_groups::this_grid`."""
    if n is None:
        return None
    names, bare = _namespaces(ctx)
    parts = [p.strip() for p in re.sub(r"\s+", "", ctx.text(n)).lstrip(":").split("::")]
    if len(parts) == 1:
        return table.get(parts[0]) if bare else None
    if len(parts) == 2 and parts[0] in names:
        return table.get(parts[1])
    return None


def _made_group(ctx, n: Node | None) -> str | None:
    """`cg::this_thread_block()`: the group kind it makes."""
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    if n is None or n.type != "call_expression":
        return None
    args = n.child_by_field_name("arguments")
    if args is not None and args.named_children:
        return None
    return _group_name(ctx, n.child_by_field_name("function"), GROUP_MAKERS)


def _function_of(n: Node) -> Node | None:
    while n is not None and n.type not in ("function_definition", "lambda_expression"):
        n = n.parent
    return n


def _groups_in(ctx, fn: Node) -> dict[str, str]:
    """The names fn (its parameters and body) declares as block groups only."""
    cache = ctx.__dict__.setdefault("_kp_fn_groups", {})
    if fn.start_byte in cache:
        return cache[fn.start_byte]
    found: dict[str, str] = {}
    other: set[str] = set()
    ix = ctx.src.index
    for d in ix.under(fn, "parameter_declaration") + ix.under(fn, "declaration"):
        typ = d.child_by_field_name("type")
        tk = _group_name(ctx, typ, GROUP_TYPES)
        auto = typ is not None and ctx.text(typ) == "auto"
        for dec in d.children_by_field_name("declarator"):
            value = dec.child_by_field_name("value") if dec.type == "init_declarator" else None
            inner = dec.child_by_field_name("declarator") if dec.type == "init_declarator" else dec
            while inner is not None and inner.type in ("reference_declarator",) and inner.named_children:
                inner = inner.named_children[0]
            if inner is None or inner.type != "identifier":
                continue
            name = ctx.text(inner)
            k = tk or (_made_group(ctx, value) if auto else None)
            if k is None:
                other.add(name)
            else:
                found[name] = k
    out = {k: v for k, v in found.items() if k not in other}
    cache[fn.start_byte] = out
    return out


def _group_value(ctx, n: Node | None) -> str | None:
    """The block-group kind of an expression: a declared group variable or a maker's call."""
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    if n is None:
        return None
    if n.type == "identifier":
        fn = _function_of(n)
        return _groups_in(ctx, fn).get(ctx.text(n)) if fn is not None else None
    return _made_group(ctx, n)


def group_sync(ctx, call: Node) -> str | None:
    """'block' for `g.sync()` / `ns::sync(g)` of a thread block or grid group g, else None."""
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    argv = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    if fn is None:
        return None
    if fn.type == "field_expression":
        field = fn.child_by_field_name("field")
        if field is None or ctx.text(field) != "sync" or argv or ctx.text(fn.child_by_field_name("operator")) != ".":
            return None
        return _group_value(ctx, fn.child_by_field_name("argument"))
    if fn.type in ("qualified_identifier", "identifier") and len(argv) == 1 and ctx.text(fn).endswith("sync") and \
            _group_name(ctx, fn, {"sync": "sync"}) == "sync":
        return _group_value(ctx, argv[0])
    return None
