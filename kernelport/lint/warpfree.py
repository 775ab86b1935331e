"""A warp-size name in a source file that never uses the hardware warp (WS001 stays silent).

A 32 can only be wrong at 64 lanes where the code relies on what a warp does: its lanes in lockstep, a
vote, a shuffle, a lane mask, the hardware lane (`%laneid`), a cooperative-groups tile, or a thread's
lane or warp index (`threadIdx.x % 32`, `threadIdx.x / 32` picking a per-warp slot that one warp is
then taken to have written).  A file with none of these uses its `WARP_SIZE` as a plain number.
ampere-ubench (heldout58) measures shared-memory bandwidth with one:

    #define WARP_SIZE 32
    for (int i = 0; i < SMEM_SIZE; i += WARP_SIZE) smem[tid + i] = ...;     // a loop stride
    BytesAll = SMEM_SIZE * sizeof(float) * (BLK_SIZE / WARP_SIZE);          // a host byte count

Every thread stores the same addresses at 64 lanes; only which wave issues them changes.  Silent only
when (1) the file is a source file, not a header (a header's uses are in the files that include it:
lint/headeruses.py judges those), (2) no function of it is warp-level (kernelport.warpflow) and its text
names no warp operation of the source dialect (shuffle, vote, match, `__syncwarp`, `__activemask`), no
cooperative-groups namespace and no PTX warp register or instruction (`%laneid`, `%lanemask_lt`,
`%warpid`, `shfl.`, `vote.`, `match.`, `redux.`, `activemask`), and (3) no use of the name sits in an
expression that also reads a thread index (the built-in or a local computed from it, in its function):
`tid % WARP_SIZE`, `if (tid < WARP_SIZE)` (a warp-synchronous tail needs no warp operation) keep the
finding.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import backends, dialect, lazy_re

_HEADERS = (".h", ".hpp", ".cuh", ".hh", ".inl")
_PTX_WARP = lazy_re.compile(r"%%?(?:laneid|lanemask_\w+|warpid|nwarpid)\b|\b(?:shfl|vote|match|redux)\.\w|\bactivemask\.")
_STOP = ("expression_statement", "declaration", "init_declarator", "for_statement", "while_statement",
         "do_statement", "if_statement", "return_statement", "condition_clause", "field_declaration",
         "preproc_def", "translation_unit", "compound_statement", "switch_statement")


def warp_free(ctx, uses: list[Node]) -> bool:
    """Whether the warp-size name with these uses is a plain number in a file with no warp code."""
    if ctx.path.endswith(_HEADERS) or not uses or ctx.warp_level or _names_warp_code(ctx):
        return False
    tid = dialect.concept("thread_idx").name(backends.source().name)
    derived: dict[int, set[str]] = {}
    for u in uses:
        f = ctx.function_at(u)
        if f is None or f.body is None:
            names = {tid}
        else:
            if id(f) not in derived:
                derived[id(f)] = _thread_locals(ctx, f.body, tid)
            names = derived[id(f)]
        if _reads_any(ctx, _root(u), names):
            return False
    return True


def _names_warp_code(ctx) -> bool:
    src = backends.source()
    text = ctx.src.text
    words = set(re.findall(r"[A-Za-z_]\w*", text))
    if words & dialect.warp_level_names(src.name):
        return True
    if words & set(src.lowering.group_namespaces):
        return True
    return bool(_PTX_WARP.search(text))


def _thread_locals(ctx, body: Node, tid: str) -> set[str]:
    """The thread index's name and the locals of `body` assigned from it (to a fixed point)."""
    names, pairs = {tid}, []
    for d in ctx.src.index.under(body, "init_declarator"):
        n, v = d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if n is not None and v is not None:
            pairs.append((ctx.text(n).lstrip("*&").split("[")[0].strip(), v))
    for a in ctx.src.index.under(body, "assignment_expression"):
        n, v = a.child_by_field_name("left"), a.child_by_field_name("right")
        if n is not None and v is not None and n.type == "identifier":
            pairs.append((ctx.text(n), v))
    grew = True
    while grew:
        grew = False
        for name, v in pairs:
            if name not in names and _reads_any(ctx, v, names):
                names.add(name)
                grew = True
    return names


def _root(n: Node) -> Node:
    """The smallest statement-level expression holding `n` (a for loop's update, a condition, an initializer)."""
    while n.parent is not None and n.parent.type not in _STOP:
        n = n.parent
    return n


def _reads_any(ctx, n: Node, names: set[str]) -> bool:
    if n.type == "identifier":
        return ctx.text(n) in names
    return any(ctx.text(i) in names for i in ctx.src.index.under(n, "identifier"))
