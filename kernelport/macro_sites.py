"""Where a parse is in error, as the macro repair (kernelport/macro_repair.py) reads it: the byte spans
of the grammar's ERROR and MISSING nodes, the nested ones of a long error, and where the construct a
MISSING token ends began; and how much of the file is in error (the repair's measure of progress)."""
from __future__ import annotations

from tree_sitter import Tree


def error_sites(tree: Tree) -> list[tuple[int, int]]:
    """The byte spans of the ERROR and MISSING nodes, outermost only, in order."""
    out: list[tuple[int, int]] = []
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.is_missing or n.type == "ERROR":
            out.append((n.start_byte, n.end_byte))
            if n.type == "ERROR":
                continue
        if n.has_error:
            stack.extend(reversed(n.children))
    return out


def inner_sites(tree: Tree, sites: list[tuple[int, int]], limit: int = 32) -> list[tuple[int, int]]:
    """The ERROR and MISSING nodes nested in a site of more than a few lines, in order: where an
    error node spans a whole file (MGARD's namespace of `KERNELS(1, double)` lines), the
    candidates near its start are none; those near the errors inside it are the repair's."""
    out: list[tuple[int, int]] = []
    stack = [n for n in reversed(tree.root_node.children) if n.has_error or n.is_missing or n.type == "ERROR"]
    while stack and len(out) < limit:
        n = stack.pop()
        if (n.is_missing or n.type == "ERROR") and (n.start_byte, n.end_byte) not in sites:
            out.append((n.start_byte, n.end_byte))
        if n.has_error and n.end_point[0] - n.start_point[0] > 3:
            stack.extend(reversed(n.children))
    return out


def score(sites: list[tuple[int, int]]) -> int:
    """How much of the file is in error: its bytes, and a constant per site (a MISSING has none)."""
    return sum(e - s + 16 for s, e in sites)


_DECLARATIONS = frozenset({"field_declaration", "declaration"})  # (an ERROR in a function's body: no owner site)


def owner_sites(tree: Tree, sites: list[tuple[int, int]], limit: int = 32) -> list[tuple[int, int]]:
    """Where the construct that each MISSING token would end begins, when on an earlier line: the
    grammar reports a missing `;` after the `{ }` of a constructor whose member initialisers start a
    line below an attribute macro (warp's `CUDA_CALLABLE fixedarray_t(int dim0)` / `: Base(..)` /
    `, storage()`: a field declaration with a bitfield), so the macro in the way stands at the
    declaration's start, lines before the error, out of the error's own window.  The same for an ERROR
    a declaration ends: with three or more braced initialisers (SPH-EXA's box.hpp `HOST_DEVICE_FUN constexpr
    Box(T a, T b)` / `: limits{..}` / `, lengths_{..}` / `, boundaries{..}` / `{ }`) the body is an ERROR
    inside the field declaration, not a MISSING `;` after it."""
    out: list[tuple[int, int]] = []
    stack = [tree.root_node]
    while stack and len(out) < limit:
        n = stack.pop()
        p = n.parent if n.is_missing or n.type == "ERROR" and n.parent is not None and \
            n.parent.type in _DECLARATIONS else None
        if p is not None and p.start_point[0] < n.start_point[0]:
            span = (p.start_byte, p.start_byte + 1)
            if span not in sites and span not in out:
                out.append(span)
        if n.has_error:
            stack.extend(reversed(n.children))
    return out
