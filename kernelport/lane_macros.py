"""An object-like macro whose value is an expression of the thread index (`#define LANE_ID (threadIdx.x % 32)`),
read by warpflow where it is written.

tree-sitter keeps a `#define`'s value as raw text, so a use (`__shfl_sync(m, v, LANE_ID + 1)`) was a name with no
value: its lane from a hardcoded 32 never reached the shuffle (lint said nothing but WS007; translate kept the
shuffle at 32-lane width, right, but not the wave-wide port the same code written as a local gets).  The value is
parsed on its own, in a text of the file's length where every other byte is a space and `int _ =` stands just
before it, so its nodes have the file's byte offsets: a site on its `32` is a site in the `#define` line (lint
reports it there; translate rewrites it there, once, for every use).  Only a value that names `threadIdx` and is one
expression; each use reads the same value (the definition is the file's own and takes no arguments).
"""
from __future__ import annotations

from tree_sitter import Node

_PREFIX = "int _ ="


def expression(src, mac) -> Node | None:
    """The expression node of `mac`'s value in its own padded parse (cached on src), or None."""
    v = mac.value_node
    if v is None or "threadIdx" not in mac.value or "#" in mac.value or "\\" in mac.value:
        return None
    cache = src.__dict__.setdefault("_lane_macros", {})
    key = v.start_byte
    if key not in cache:
        cache[key] = _parse(src, v)
    return cache[key][0] if cache[key] is not None else None


def _parse(src, v: Node):
    from .source import SourceFile
    start, end = v.start_byte, v.end_byte
    if start < len(_PREFIX) + 1:
        return None
    data = src.data
    body = data[start:end].decode("utf-8", errors="replace")
    if "\n" in body or "//" in body or "/*" in body:
        return None
    text = " " * (start - len(_PREFIX)) + _PREFIX + body + ";"
    if len(text.encode("utf-8")) != end + 1:  # (a multi-byte character before it: offsets would not agree)
        return None
    try:
        parsed = SourceFile.from_text(text, "<macro>")
    except Exception:  # noqa: BLE001 - a value that does not parse is no expression
        return None
    root = parsed.root if hasattr(parsed, "root") else parsed.tree.root_node
    if root.has_error:
        return None
    decl = root.named_children[0] if root.named_children else None
    init = decl.child_by_field_name("declarator") if decl is not None else None
    value = init.child_by_field_name("value") if init is not None and init.type == "init_declarator" else None
    if value is None or value.start_byte != start or value.end_byte != end:
        return None
    return value, parsed  # (the parse kept alive with its nodes)


def host(src, node: Node) -> tuple[Node, Node] | None:
    """(the file's `preproc_arg`, the value's expression) where `node` is a node of a value parsed here: a rewrite of
    it is written into the `#define` line (kernelport.rewrite.Rewriter.replace)."""
    for got in src.__dict__.get("_lane_macros", {}).values():
        if got is not None and got[0].start_byte <= node.start_byte and node.end_byte <= got[0].end_byte and \
                node.type != "preproc_arg":
            arg = src.root.descendant_for_byte_range(node.start_byte, node.end_byte)
            while arg is not None and arg.type != "preproc_arg":
                arg = arg.parent
            return (arg, got[0]) if arg is not None else None
    return None


def rewritten(tr) -> set[str]:
    """The names of the file's object-like macros whose value the port rewrote here (a lane site in the #define)."""
    hosts = getattr(tr.rw, "lane_hosts", ())
    if not hosts:
        return set()
    from .rewrite import key
    return {tr.src.text_of(n.child_by_field_name("name")) for n in tr.src.index.of_types("preproc_def")
            if (v := n.child_by_field_name("value")) is not None and key(v) in hosts}


def warp_work(tr, fn: str, warp_ops) -> bool:
    """Whether function `fn` (a fnscopes key), a function it calls or one that calls it (each transitively) runs a
    shuffle, vote or warp reduction: where none does, a lane macro ported to the wave for another function's
    shuffle counts 64 lanes where CUDA's counts 32 (`atomicAdd(&bins[LANE_ID], v)`)."""
    calls = tr.analysis.calls
    callers: dict[str, set] = {}
    for g, called in calls.items():
        for h in called:
            callers.setdefault(h, set()).add(g)
    seen = {fn}
    for edges in (calls, callers):  # its callees' callees, its callers' callers: never a sibling through a shared helper
        todo = [fn]
        while todo:
            for h in edges.get(todo.pop(), ()):
                if h not in seen:
                    seen.add(h)
                    todo.append(h)
    from . import fnscopes
    scopes = fnscopes.of(tr.module)
    return any(f.body is not None and scopes.key(f) in seen and next(iter(warp_ops(tr.src.text_of(f.body))), None)
               for f in tr.module.functions.values())
