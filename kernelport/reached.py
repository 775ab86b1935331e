"""The nodes of a few kinds that a pruned walk reaches, read from the node index instead of walked.

`walk(top, lambda n: n.type in ENTER)` filtered to a few kinds (the file-scope declarations in a tree
of namespaces and `#if` blocks, a class's static members) visits every node it enters, and
all of their children, for the handful it keeps.  The node index (source.NodeIndex) already groups
the nodes by kind in pre-order: here each node of the kinds asked for is kept where the walk would
have reached it, that is where every ancestor from its parent up to `top` is one the walk enters.
The answer, and its order, is the walk's; the nodes visited are those of the kinds asked for and
their ancestors up to the first one the walk would not enter (most often the first).
"""
from __future__ import annotations

from collections.abc import Callable, Container

from tree_sitter import Node


def reached(src, top: Node, kinds: tuple[str, ...], enter: Callable[[Node], bool] | Container[str]) -> list[Node]:
    """What `[n for n in walk(top, descend) if n.type in kinds]` gives, in the same order, where
    `enter` is that `descend` or the container of the types it enters (`lambda n: n.type in T`)."""
    entered = enter if callable(enter) else (lambda n, types=enter: n.type in types)
    out = []
    top_id = top.id
    for n in src.index.under_types(top, *kinds):
        p = n if n.id == top_id else n.parent
        while p is not None and entered(p):
            if p.id == top_id:
                break
            p = p.parent
        if n.id == top_id or (p is not None and p.id == top_id and entered(p)):
            out.append(n)
    return out
