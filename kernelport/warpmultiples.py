"""Template parameters that count whole warps of lanes (lint's WS015 reads them).

faiss's `WarpSelect<K, V, Dir, Comp, NumWarpQ, NumThreadQ, ThreadsPerBlock>` keeps its queue in
`NumWarpQ / kWarpSize` registers per lane: NumWarpQ must be a multiple of the warp width.  A
kernel template that passes its own parameter there (`binaryDistanceAnySize<NumWarpQ, ...>`
declares `WarpSelect<..., NumWarpQ, ...>`) inherits the requirement, and a host dispatch
`else if (k <= 32) binaryDistanceAnySize<32, 2, T><<<...>>>` picks a queue of one 32-lane warp:
on a 64-lane wave it holds 32 / 64 = 0 registers.  A cub block collective with a warp algorithm
(`cub::BlockLoad<T, kNThreads, N, BLOCK_LOAD_WARP_TRANSPOSE>`) needs its thread count in whole
warps the same way.  The facts are followed through template arguments (and constants that only
rename a parameter) across the file and the headers it includes (a fixpoint over the edges).
"""
from __future__ import annotations

from tree_sitter import Node

from . import backends, dialect
from .warpsites import WARP_SIZE_NAME

# One template's facts: its name, the positions divided by the warp width, and its edges
# (own parameter position, the template it instantiates, that template's argument position).
Item = tuple[str, frozenset[int], tuple[tuple[int, str, int], ...]]
_PARAMS = ("parameter_declaration", "optional_parameter_declaration", "type_parameter_declaration",
           "optional_type_parameter_declaration", "variadic_parameter_declaration",
           "variadic_type_parameter_declaration", "template_template_parameter_declaration")


def _is_width(text: str) -> bool:
    text = text.strip()
    return bool(WARP_SIZE_NAME.search(text)) or text == dialect.concept("warp_size").spelling(backends.source().name)


def _param_name(src, p: Node) -> str | None:
    d = p.child_by_field_name("declarator")
    if d is not None:
        return src.text_of(d) if d.type == "identifier" else None
    ids = [c for c in p.named_children if c.type in ("type_identifier", "identifier")]
    return src.text_of(ids[-1]) if ids else None


def _entity(src, t: Node) -> tuple[str | None, Node | None]:
    """The name a template declaration defines and its node (a function or a struct/class body)."""
    for c in reversed(t.named_children):
        if c.type == "function_definition":
            d = c.child_by_field_name("declarator")
            while d is not None and d.type not in ("identifier", "field_identifier", "qualified_identifier"):
                d = d.child_by_field_name("declarator")
            if d is not None and d.type == "qualified_identifier":
                d = d.child_by_field_name("name")
            return (src.text_of(d) if d is not None else None), c
        if c.type in ("struct_specifier", "class_specifier"):
            name = c.child_by_field_name("name")
            if name is None or name.type != "type_identifier" or c.child_by_field_name("body") is None:
                return None, None  # a partial specialization (`struct S<1, T>`) or a declaration
            return src.text_of(name), c
    return None, None


def instantiated(src, args: Node) -> str | None:
    p = args.parent
    name = p.child_by_field_name("name") if p is not None and p.type in ("template_type", "template_function",
                                                                         "template_method") else None
    if name is not None and name.type == "qualified_identifier":
        name = name.child_by_field_name("name")
    return src.text_of(name) if name is not None else None


def items(src) -> list[Item]:
    """What each template of `src` says on its own: parameters divided by the warp width, and the
    template arguments it passes its parameters as."""
    out = []
    for t in src.index.of_type("template_declaration"):
        plist = t.child_by_field_name("parameters")
        name, node = _entity(src, t)
        if plist is None or name is None or node is None:
            continue
        params = [_param_name(src, p) for p in plist.named_children if p.type in _PARAMS]
        pos = {p: i for i, p in enumerate(params) if p}
        pos.update(_aliases(src, node, pos))
        direct = set(_block_collectives(src, node, pos))
        for b in src.index.under(node, "binary_expression"):
            left, right = b.child_by_field_name("left"), b.child_by_field_name("right")
            if left is None or right is None:
                continue
            if src.text_of(b.child_by_field_name("operator")) == "/" and left.type == "identifier" and \
                    src.text_of(left) in pos and _is_width(src.text_of(right)):
                direct.add(pos[src.text_of(left)])
        edges = []
        for a in src.index.under(node, "template_argument_list"):
            callee = instantiated(src, a)
            for j, arg in enumerate(c for c in a.named_children if c.type != "comment"):
                if callee is not None and src.text_of(arg).strip() in pos:
                    edges.append((pos[src.text_of(arg).strip()], callee, j))
        out.append((name, frozenset(direct), tuple(edges)))
    return out


# cub/hipCUB block collectives whose algorithm works warp by warp: BLOCK_THREADS (argument 1) must
# be whole warps (CUB static_asserts it for WARP_TRANSPOSE; hipCUB/rocPRIM refuse part of a wave),
# so a block of 32 threads is half a 64-lane wave (mamba's selective_scan<32, 4> tiers).
_WARP_ALGORITHMS = {"BlockLoad": "BLOCK_LOAD_WARP_TRANSPOSE", "BlockStore": "BLOCK_STORE_WARP_TRANSPOSE",
                    "BlockScan": "BLOCK_SCAN_WARP_SCANS"}


def _aliases(src, node: Node, pos: dict[str, int]) -> dict[str, int]:
    """`static constexpr int kNThreads = kNThreads_;`: a constant that only renames a parameter."""
    out = {}
    for d in src.index.under(node, "init_declarator") + src.index.under(node, "field_declaration"):
        name = d.child_by_field_name("declarator")
        v = d.child_by_field_name("value") or d.child_by_field_name("default_value")
        if name is not None and v is not None and name.type in ("identifier", "field_identifier") and \
                src.text_of(v).strip() in pos:
            out[src.text_of(name)] = pos[src.text_of(v).strip()]
    return out


def _block_collectives(src, node: Node, pos: dict[str, int]):
    """Parameter positions that size a block collective with a warp algorithm."""
    for a in src.index.under(node, "template_argument_list"):
        algorithm = _WARP_ALGORITHMS.get(instantiated(src, a) or "")
        args = [src.text_of(c).strip() for c in a.named_children if c.type != "comment"]
        if algorithm and len(args) > 1 and args[1] in pos and any(x.endswith(algorithm) for x in args[2:]):
            yield pos[args[1]]


def solve(found: list[Item], seeds: dict[str, frozenset[int]] | None = None) -> dict[str, frozenset[int]]:
    """Template name -> its parameter positions that count whole warps, to a fixpoint."""
    facts: dict[str, set[int]] = {n: set(p) for n, p in (seeds or {}).items()}
    for name, direct, _ in found:
        facts.setdefault(name, set()).update(direct)
    changed = True
    while changed:
        changed = False
        for name, _, edges in found:
            for own, callee, j in edges:
                if j in facts.get(callee, ()) and own not in facts[name]:
                    facts[name].add(own)
                    changed = True
    return {n: frozenset(p) for n, p in facts.items() if p}
