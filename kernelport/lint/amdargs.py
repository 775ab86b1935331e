"""Code the AMD build never compiles because it is an argument its definition of a macro drops.

A dual-built project may select per platform with a function-like macro: `#ifdef __HIP_PLATFORM_AMD__` /
`#define SEL(c, h) h` / `#else` / `#define SEL(c, h) c`, used as `v += SEL(__shfl_down_sync(0xffffffff, v, o),
__shfl_down(v, o));`.  The parse reads the use as a call, both arguments as code; the AMD build expands SEL to its
second argument alone, so the first, NVIDIA's spelling, is never compiled there and no wave-64 hazard.  The AMD
build's definition is the one kernelport.hipbuild reads (the project's HIP branches, a header included only there),
as the mask-dropping intrinsic macros (`#define __shfl_xor_sync(mask, v, l) __shfl_xor(v, l)`) are read
(ws_fullmask._dropped_on_amd).  parse54's kernelport/selector_macros.py is the parse's side of such a macro (a
statement argument kept where the run's definition selects it); this is lint's: which argument AMD drops.
"""
from __future__ import annotations

import re
from pathlib import Path

from tree_sitter import Node

from .. import guards, hipbuild


def dropped_on_amd(ctx, node: Node) -> bool:
    """`node` lies in an argument of a function-like macro whose AMD-build definition never names that parameter
    (nor `__VA_ARGS__` for it): the AMD build does not compile it."""
    child, n = node, node.parent
    while n is not None and n.type not in ("function_definition", "translation_unit"):
        if n.type == "argument_list" and n.parent is not None and n.parent.type == "call_expression":
            fn = n.parent.child_by_field_name("function")
            mac = _amd_macro(ctx, ctx.text(fn)) if fn is not None and fn.type == "identifier" else None
            if mac is not None and _drops(mac, [a for a in n.named_children if a.type != "comment"], child):
                return True
        child, n = n, n.parent
    return False


def _amd_macro(ctx, name: str):
    """The AMD build's definition of `name` where a platform (or the project's HIP configuration) selects it for
    that build: a definition both builds compile (one a feature switch picks, the walk's last) decides nothing."""
    vis = ctx.module.visible
    mac = vis.hip_macros.get(name) if vis is not None else None
    mac = mac if mac is not None else hipbuild.file_macros(ctx.src).get(name)
    return mac if mac is not None and mac.params and _selected_for_amd(ctx, mac) else None


def _selected_for_amd(ctx, mac) -> bool:
    src = ctx.src if str(ctx.src.path) == mac.path else _header(ctx, mac.path)
    if src is None:
        return False
    d = next((d for d in src.index.of_type("preproc_function_def") if src.loc(d).line == mac.line), None)
    if d is None:
        return False
    names = hipbuild.configuration_names(src)
    return guards.amd_only(d, src) or any(not b.in_else and hipbuild._tested(b.test, src) & names  # noqa: SLF001
                                          and not guards.names_platform(b.test, src) for b in guards.branches(d, src))


def _header(ctx, path: str):
    away = getattr(ctx.module.visible, "elsewhere", None)
    pf = away.project.file(Path(path)) if away is not None else None
    return pf.src if pf is not None else None


def _drops(mac, args: list[Node], arg: Node) -> bool:
    ps = mac.params
    if not ps or "..." in ps or len(args) != len(ps):
        return False
    i = next((k for k, a in enumerate(args) if a.id == arg.id), None)
    return i is not None and re.search(rf"\b{re.escape(ps[i])}\b", mac.body) is None
