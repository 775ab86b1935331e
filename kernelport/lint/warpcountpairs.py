"""Macros that count warps beside a warp-size macro: `#define NUM_THREADS (NUM_WARPS * WARP_SIZE)` with
`NUM_WARPS 32` makes 2048 threads at 64 lanes, past a block's 1024 (WS001 names the pair)."""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import warpflow


def warp_counts(ctx, warp: str) -> list[tuple[str, Node, int]]:
    """Macros that count warps of `warp` lanes in a block: a literal N multiplied by the warp-size
    macro in another definition (`#define NUM_THREADS (NUM_WARPS * WARP_SIZE)`) whose product at 64
    lanes passes the 1024 threads a block may have, so it must shrink when the warp size grows."""
    product = re.compile(rf"\b(\w+)\s*\*\s*\(?\s*{re.escape(warp)}\b|\b{re.escape(warp)}\s*\)?\s*\*\s*(\w+)\b")
    out, seen = [], set()
    for d in ctx.nodes("preproc_def"):
        v = d.child_by_field_name("value")
        for m in product.finditer(ctx.text(v) if v is not None else ""):
            name = m.group(1) or m.group(2)
            mac = ctx.module.macros.get(name)
            n = warpflow.int_value(mac.value) if mac is not None and mac.value_node is not None else None
            if n is not None and n * 64 > 1024 and name not in seen and not ctx.guarded(mac.node):
                seen.add(name)
                out.append((name, mac.value_node, n))
    return out
