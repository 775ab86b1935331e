"""Cooperative-groups names a port keeps, checked against what the target's library declares
(the backend's `cg_names_present`: ROCm 5.2's amd_hip_cooperative_groups.h for HIP).  A name it
lacks (`cg::block_tile_memory`, `cg::this_cluster()`), a factory's overload it lacks
(`this_thread_block(scratch)`) or a static tile wider than every arch of the runs takes
(`tiled_partition<64>`: CUDA's tile of two warps, past the static_assert of a wave-32 arch) is KP210
at its line, never a port that hipcc refuses or that tiles otherwise.

Names are read through `cooperative_groups::`, a namespace alias of it (`namespace cg = ...`), and,
under `using namespace cooperative_groups;`, unqualified in device code where they are CUDA's (the CUDA
backend's table) and not the file's own (a project's `block_tile_memory` is not the library's)."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends, lazy_re

_NAMESPACE = "cooperative_groups"
_HEAD = lazy_re.compile(r"\w+")  # compiled at first use: nothing at import (tests/test_startup.py)
_TILES = ("tiled_partition", "thread_block_tile")


def aliases(src) -> set[str]:
    """cooperative_groups and the names the file declares for it (`namespace cg = cooperative_groups;`)."""
    out = {_NAMESPACE}
    for n in src.index.of_types("namespace_alias_definition"):
        ids = [c for c in n.named_children if c.type == "namespace_identifier"]
        if len(ids) >= 2 and src.text_of(ids[-1]) == _NAMESPACE:
            out.add(src.text_of(ids[0]))
    return out


def _uses_namespace(tr, names: set[str]) -> bool:
    return any(re.fullmatch(rf"using\s+namespace\s+(?:::\s*)?(?:{'|'.join(map(re.escape, names))})\s*;",
                            tr.src.text_of(n).strip()) for n in tr.src.index.of_types("using_declaration"))


def _qualified(tr, names: set[str]):
    """(node, its name) for each `cg::name...` whose scope is the library's namespace."""
    for n in tr.src.index.of_types("qualified_identifier"):
        scope, name, up = n.child_by_field_name("scope"), n.child_by_field_name("name"), n.parent
        if scope is None or name is None or tr.src.text_of(scope) not in names:
            continue
        if up is not None and up.type == "qualified_identifier" and up.child_by_field_name("name") == n:
            continue  # `mylib::cg::x`: the scope is a project's namespace
        yield n, name


def _unqualified(tr, names: frozenset[str]):
    """(node, node) for each bare type or called/templated name of `names` (under `using namespace`)."""
    for n in tr.src.index.of_types("type_identifier", "identifier"):
        up = n.parent
        if up is None or up.type == "qualified_identifier" or tr.src.text_of(n) not in names or \
                up.type.startswith("template_") and up.parent is not None and up.parent.type == "qualified_identifier":
            continue  # a qualified name (the library's, read by `_qualified`, or a project's)
        f = tr.module.function_at(n)  # device code only: a host `wait(&status)` is POSIX's, not the library's
        if f is None or not f.is_device:
            continue
        if n.type == "type_identifier" or up.type in ("template_function", "template_type") or \
                up.type == "call_expression" and up.child_by_field_name("function") == n:
            yield (up, up) if up.type in ("template_function", "template_type") else (n, n)


def _call_args(node: Node) -> int | None:
    """The number of arguments where `node` (a function's name) is called, else None."""
    call = node
    while call.parent is not None and call.parent.type in ("qualified_identifier", "template_function"):
        call = call.parent
    if call.parent is None or call.parent.type != "call_expression" or call.parent.child_by_field_name("function") != call:
        return None
    args = call.parent.child_by_field_name("arguments")
    return len([a for a in args.named_children if a.type != "comment"]) if args is not None else 0


def _tile_size(tr, name: Node) -> int | None:
    """The largest value the tile's size takes (a name: what the file's constants or template calls give it,
    kernelport/tile_sizes.py), or None where it is not known."""
    m = re.fullmatch(r"\w+\s*<\s*([^<>,]+?)\s*(?:,[^<>]*)?>", " ".join(tr.src.text_of(name).split()))
    if m is None:
        return None
    from .tile_sizes import values
    got = values(tr.module, m.group(1), name)
    return max(got) if got else None


def check(tr, b) -> None:
    """KP210 at each cooperative-groups name, overload or tile the target's library lacks."""
    src = backends.get("cuda")
    if not b.cg_names_present or b is src or _NAMESPACE.encode() not in tr.src.data:
        return
    from .member_uses import own_types
    names = aliases(tr.src)
    where = f"{b.api_checked_with}'s {b.display_name}" if b.api_checked_with else b.display_name
    sites = list(_qualified(tr, names))
    if _uses_namespace(tr, names):
        own = own_types(tr.src) | tr.declared_names()
        sites += _unqualified(tr, src.cg_names_present - b.cg_names_present - own)
        sites += _unqualified(tr, (frozenset(b.cg_call_arity) | frozenset(_TILES)) - own)
    for node, name in sites:
        if tr.cuda_only_region(node):
            continue
        text, head = " ".join(tr.src.text_of(node).split()), _HEAD.match(tr.src.text_of(name)).group(0)
        arity, size = _call_args(node), _tile_size(tr, name)
        if head not in b.cg_names_present:
            tr.problem("KP210", node, f"`{text}`: cooperative groups' {head} is not in {where} cooperative groups",
                       f"write it with what {b.display_name}'s cooperative groups have (this_thread_block(), tiles "
                       "of a block), or guard it so that only the CUDA build compiles it")
        elif head in b.cg_call_arity and arity is not None and arity > b.cg_call_arity[head]:
            tr.problem("KP210", node, f"`{head}` with {arity} argument(s) is not in {where} cooperative groups "
                       f"(it has {head}() only; CUDA's this_thread_block(scratch) takes a block_tile_memory)",
                       f"call {head}() and keep tiles within {b.cg_tile_most or 32} threads, or guard it so that "
                       "only the CUDA build compiles it")
        elif head in _TILES and b.cg_tile_most and size is not None and size > b.cg_tile_most:
            named = "" if re.search(rf"<\s*{size}[uU]?\s*[,>]", text) else f" (what its size's name comes to here)"
            tr.problem("KP210", node, f"`{text}`: a tile of {size} threads{named}; {where}'s tiles are at most the wave, "
                       f"{b.cg_tile_most} on a wave-{b.cg_tile_most} arch (a static_assert), and CUDA's tile of more "
                       "than 32 threads spans warps (block_tile_memory before sm_80)",
                       f"partition into tiles of {b.cg_tile_most} or fewer threads and combine them through shared "
                       "memory, or guard it so that only the CUDA build compiles it")
