"""The names that size an array device code declares (mixbench's `float tmps[granularity];`, a
`__shared__ float tile[TILE][TILE]`): a constant of the kernel's own text, its register or shared tile,
not a problem size.  verify's scaling (infer_inputs._scaled) leaves such a macro as written: halved, the
kernel's loops over the tile (`for (j = 0; j < granularity; j += 2) sum += tmps[j] * tmps[j + 1];`)
read past it at 1, a fault of the scaling, never of the original.
"""
from __future__ import annotations

import re

from .model import Module


def array_extent_names(module: Module) -> set[str]:
    """Every identifier inside the brackets of an array declarator in a device function's body."""
    src = module.source
    out: set[str] = set()
    for f in module.functions.values():
        if not f.is_device:
            continue
        stack = [f.node]
        while stack:
            n = stack.pop()
            if n.type == "array_declarator" and (size := n.child_by_field_name("size")) is not None:
                out.update(re.findall(r"[A-Za-z_]\w*", src.text_of(size)))
            stack.extend(n.children)
    return out
