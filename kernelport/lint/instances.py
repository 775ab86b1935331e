"""A function template's value parameters, bounded by the instances the run shows (issue 11).

TransformerEngine's `warp_reduce_max<int num_elems>` runs a `down` ladder from `num_elems / 2`; its
rows stay in 32 lanes only where no instance has `num_elems` above 33.  Its instances are the calls
`warp_reduce_max<warp_size>(..)` (a local 32) and `warp_reduce_max<num_warps>(..)` in `reduce_max`,
whose own `num_warps` comes from `reduce_max<cast_transpose_num_threads / THREADS_PER_WARP>(..)` in
another file, a file-scope `constexpr` of that file.  `largest` evaluates an expression of the
template's value parameters at every instance and returns the largest value, or None:

- the run must show at least one call (kernelport.includers.Elsewhere.calls; no call is no evidence),
  every call must write the template's arguments (`f<8>(..)`; a deduced or defaulted one is unknown),
  and every argument must evaluate (cexpr) to an integer from literals, names known to be 32 (the
  file's warp-size constants, a caller's `constexpr int warp_size = 32;`), the caller file's
  unconditional file-scope integer constants, and the caller's own value parameters, bounded the
  same way at its instances (a few levels deep);
- anything else (a runtime value, a function call, a `sizeof`, a parameter of a function that is not a
  template) gives None: the site keeps its finding.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import cexpr, lazy_re, warpsplits
from . import callersplits
from ..source import ident_name

_DEPTH = 4  # templates instantiated through templates (utils.cuh: warp_reduce_max <- reduce_max <- a kernel)
_NAME = lazy_re.compile(r"[A-Za-z_]\w*")


def largest(ctx, node: Node, known32: frozenset[str]) -> int | None:
    """The largest value of `node`'s expression over every instance the run shows of the function
    template it is in (None where that is not known)."""
    f = ctx.function_at(node)
    if f is None or f.body is None:
        return None
    text = ctx.text(node)
    vals = _values(ctx, ctx.module, f, text, known32, 0)
    return max(vals) if vals else None


def _value_params(m, f) -> list[tuple[str | None, str | None]]:
    """The template's parameters in order: (name, default text) of a value parameter, (None, None) of a
    type or template parameter."""
    plist = f.template_node.child_by_field_name("parameters") if f.template_node is not None else None
    out: list[tuple[str | None, str | None]] = []
    for p in plist.named_children if plist is not None else ():
        if p.type in ("parameter_declaration", "optional_parameter_declaration"):
            d = p.child_by_field_name("declarator")
            dv = p.child_by_field_name("default_value")
            out.append((ident_name(d) if d is not None else None, m.source.text_of(dv) if dv is not None else None))
        elif p.type != "comment":
            out.append((None, None))
    return out


def _values(ctx, m, f, text: str, known32: frozenset[str], depth: int) -> set[int] | None:
    """Every value `text` takes in function `f` of module `m` (its template's value parameters at the
    instances the run shows), or None."""
    names = set(_NAME.findall(text))
    env: dict[str, int] = dict.fromkeys(known32 | warpsplits.local32(m.source, f.body) if f.body is not None else known32, 32)
    env.update({k: v for k, v in _file_constants(ctx, m, known32).items() if k not in env})
    params = [p for p, _ in _value_params(m, f)]
    used = [p for p in params if p and p in names]
    if not used:
        v = _eval(text, env)
        return None if v is None else {v}
    if depth >= _DEPTH:
        return None
    envs = _instances(ctx, m, f, known32, depth)
    if not envs:
        return None
    out: set[int] = set()
    for inst in envs:
        v = _eval(text, {**env, **inst})
        if v is None:
            return None
        out.add(v)
    return out


def _instances(ctx, m, f, known32: frozenset[str], depth: int) -> list[dict[str, int]] | None:
    """The value parameters' values at each call the run shows (at least one), or None."""
    vis = ctx.module.visible
    where = vis.elsewhere if vis is not None else None
    if where is None:
        return None
    calls, looked = where.calls(f.name.split("::")[-1], callee=f)  # (that overload's calls only)
    if not calls or not callersplits.only_called(where, f.name, looked):
        return None  # no instance shown, or one the calls do not show (`template void f<64>(..)`, `&f<64>`)
    params = _value_params(m, f)
    out: list[dict[str, int]] = []
    for cm, call, caller in calls:
        fn = call.child_by_field_name("function")
        args = fn.child_by_field_name("arguments") if fn is not None and fn.type == "template_function" else None
        if args is None or caller is None or caller.body is None:
            return None  # deduced arguments, or a call outside a function: not known
        texts = [cm.source.text_of(a) for a in args.named_children if a.type != "comment"]
        choices: list[dict[str, int]] = [{}]
        for i, (name, default) in enumerate(params):
            if name is None:
                continue
            t = texts[i] if i < len(texts) else None
            if t is None:
                return None  # a default argument: left unknown (it may read other parameters)
            vals = _values(ctx, cm, caller, t, known32, depth + 1)
            if not vals:
                return None
            choices = [{**c, name: v} for c in choices for v in sorted(vals)][:64]
        out += choices
    return out


def _eval(text: str, env: dict[str, int]) -> int | None:
    try:
        v = cexpr.evaluate(text, env)
    except (cexpr.CExprError, ZeroDivisionError, TypeError, RecursionError, ValueError, KeyError):
        return None
    return int(v) if isinstance(v, (int, float)) and v == int(v) else None


def _file_constants(ctx, m, known32: frozenset[str]) -> dict[str, int]:
    """A file's unconditional file-scope (or namespace-scope) integer constants with values
    (`constexpr unsigned int n_warps_per_tile = 4;`, `constexpr int t = n * THREADS_PER_WARP;`)."""
    cache = ctx.__dict__.setdefault("_kp_file_constants", {})
    key = id(m)
    if key in cache:
        return cache[key][1]
    from ..headerconsts import _unconditional
    src = m.source
    env: dict[str, int] = dict.fromkeys(known32, 32)
    pending: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for d in src.index.of_type("init_declarator"):
        decl = d.parent
        scope = decl.parent if decl is not None else None
        if decl is None or decl.type != "declaration" or scope is None or \
                scope.type not in ("translation_unit", "declaration_list") or not _unconditional(decl):
            continue
        head = src.text_of(decl)[:src.text_of(decl).find(src.text_of(d))] if src.text_of(d) in src.text_of(decl) else ""
        if not re.search(r"\b(constexpr|const)\b", head) or not re.search(r"\b(int|unsigned|long|short|size_t|u?int\d+_t)\b", head):
            continue
        name, v = ident_name(d.child_by_field_name("declarator")), d.child_by_field_name("value")
        if name and v is not None and d.child_by_field_name("declarator").type == "identifier":
            seen[name] = seen.get(name, 0) + 1
            pending.append((name, src.text_of(v)))
    pending = [(n, t) for n, t in pending if seen[n] == 1 and n not in env]  # one definition only
    got: dict[str, int] = {}
    for _ in range(len(pending)):
        grew = False
        for n, t in pending:
            if n not in got and (v := _eval(t, {**env, **got})) is not None:
                got[n] = v
                grew = True
        if not grew:
            break
    cache[key] = (m, got)
    return got
