"""Kernel launches whose `<<<` and `>>>` come from a macro's expansion.

- A macro whose replacement list is a launch configuration alone: Visual Studio's CUDA template
  `#define KERNEL_ARGS2(grid, block) <<< grid, block >>>` (KERNEL_ARGS3/4 likewise), or
  `#define CUDA_KERNEL(...) <<<__VA_ARGS__>>>`, used as `k KERNEL_ARGS2(g, b)(args)`.  As written the
  grammar reads a declaration of a function `KERNEL_ARGS2` returning a `k` (and masks arguments such
  as `n / 128`).  The parsed copy blanks the macro's name there (a Mask, reason "launch": bytes become
  spaces, no offset moves), so the grammar sees `k             (g, b)(args)`: a call of a call at the
  user's offsets, which `parts` reads as the launch of `k` with the geometry `g, b` and the arguments.
  Only where a kernel expression (a name, `ns::k`, `k<T>`) stands before the name, in code (not a
  comment or a directive).
- A macro whose replacement list is a kernel parameter then the configuration, `#define LAUNCH(k, g, b)
  k<<<g, b>>>`, used as `LAUNCH(k, g, b)(args)`: a call of a call as written; the kernel and the
  geometry are the call's arguments at the parameters' positions.

A macro of the same name whose body is anything else (a call, a shift `<<`, nothing) is no launch.
"""
from __future__ import annotations

import bisect
import re
from typing import Callable, Mapping

from tree_sitter import Node, Tree

from . import lazy_re
from .macros import MacroDef, Mask

REASON = "launch"  # a Mask's reason: the name of a launch-configuration macro
_CONFIG = lazy_re.compile(r"<<<(?:(?!<<<|>>>).)*>>>", re.S)
_WRAPPED = lazy_re.compile(r"([A-Za-z_]\w*)\s*(<<<(?:(?!<<<|>>>).)*>>>)", re.S)
_KERNELS = ("identifier", "qualified_identifier", "template_function")
_NOT_KERNEL = frozenset({"define", "undef", "ifdef", "ifndef", "defined", "return", "else", "do", "case",
                         "goto", "throw", "new", "delete", "sizeof", "co_return", "co_yield"})
_OWN = lazy_re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(", re.M)


def config_macros(macros: Mapping[str, MacroDef]) -> dict[str, MacroDef]:
    """The function-like macros whose replacement list is `<<< ... >>>` alone."""
    return {n: m for n, m in macros.items()
            if m.params is not None and "<<<" in m.body and _CONFIG.fullmatch(m.body.strip())}


def seen(data: bytes, seen_: bytes, tree: Tree, macros: Mapping[str, MacroDef] | None, path: str,
         parse: Callable[[bytes], Tree]) -> tuple[bytes, Tree, tuple[Mask, ...]]:
    """The parsed copy with the names of launch-configuration macros blanked where a kernel expression
    stands before them, its parse, and their masks (none: the copy and parse as given)."""
    if not macros and b"<<<" not in data:
        return seen_, tree, ()
    cfg = config_macros(macros) if macros else {}
    if b"<<<" in data and _OWN.search(data.decode("utf-8", "replace")):
        from .macros import definitions
        cfg.update(config_macros(definitions(data.decode("utf-8", "replace"), path)))
    names = [n for n in cfg if n.encode() in data]
    if not names:
        return seen_, tree, ()
    use = re.compile(rb"(\w+|>)[ \t]+(" + b"|".join(re.escape(n.encode()) for n in names) + rb")(?=\s*\()")
    out, masks = bytearray(seen_), []
    root = tree.root_node
    for m in use.finditer(seen_):
        if m.group(1) in (n.encode() for n in _NOT_KERNEL) or m.group(1)[:1].isdigit():
            continue
        s, e = m.span(2)
        at, up = root.descendant_for_byte_range(s, e), None
        up = at
        while up is not None and not up.type.startswith("preproc_") and up.type != "comment":
            up = up.parent
        if at is None or at.type == "comment" or up is not None:
            continue
        out[s:e] = b" " * (e - s)
        name = m.group(2).decode()
        masks.append(Mask(s, e, name, REASON, cfg[name].body.strip()))
    if not masks:
        return seen_, tree, ()
    return bytes(out), parse(bytes(out)), tuple(masks)


def parts(src, node: Node) -> tuple[Node, Node, list[Node], list[Node], str] | None:
    """(the kernel's name node, its expression, the geometry, the kernel's arguments, the macro) of a
    call of a call `node` that is a launch through a macro; None where it is not one."""
    inner = node.child_by_field_name("function")
    target = inner.child_by_field_name("function") if inner is not None else None
    iargs = inner.child_by_field_name("arguments") if inner is not None else None
    if target is None or iargs is None or target.type not in _KERNELS:
        return None
    masks = src.masks
    i = bisect.bisect_left(masks, target.end_byte, key=lambda k: k.start) if masks else 0
    if i < len(masks) and masks[i].reason == REASON and masks[i].end <= iargs.start_byte:
        d = src.macros.get(masks[i].name)
        if d is None or d.params is None:
            return None
        config, form = _config(d, d.body.strip(), _args(inner)), d.name
    elif target.type == "identifier" and (d := src.macros.get(src.text_of(target))) is not None and d.params \
            and (w := _WRAPPED.fullmatch(d.body.strip())) is not None and w.group(1) in d.params:
        got = _args(inner)
        at = {p: k for k, p in enumerate(d.params)}
        if at[w.group(1)] >= len(got):
            return None
        config = _config(d, w.group(2), got)
        form, target = d.name, got[at[w.group(1)]]
        if target.type not in _KERNELS:
            return None
    else:
        return None
    name = target.child_by_field_name("name") if target.type == "template_function" else target
    return name, target, config, _args(node), form


def _config(d: MacroDef, body: str, got: list[Node]) -> list[Node]:
    """The call's argument nodes that the configuration `<<<...>>>` of the macro's body names, in order;
    positional: it stops at the first value that is no parameter or that the call does not give."""
    at = {p: k for k, p in enumerate(d.params or ())}
    out: list[Node] = []
    for c in body.strip()[3:-3].split(","):
        c = c.strip()
        while c.startswith("(") and c.endswith(")"):
            c = c[1:-1].strip()
        if c in ("__VA_ARGS__", "##__VA_ARGS__") and "..." in at:
            out += got[at["..."]:]
            continue
        k = at.get(c)
        if k is None or k >= len(got):
            break
        out.append(got[k])
    return out[:4]


def _args(call: Node) -> list[Node]:
    """The argument expressions of a call (source.call_args: source imports this module)."""
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []
