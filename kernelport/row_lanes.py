"""2-D blocks whose rows are warps: the lane is `threadIdx.x` alone (kernelport.warpwidth's evidence).

A kernel of a 2-D (or 3-D) block that takes its lane from `threadIdx.x` alone (`threadIdx.x & 31`,
`threadIdx.x % warpSize`), not from a linear thread index, and has no warp index within a row
(`threadIdx.x / 32`: rows of several warps), runs its block's rows as CUDA warps (`dim3(32, 8)`):
that is what it says where no launch is seen.  The lane may be taken in the kernel or in a device
helper of its warp-level group (a `warpReduce` that computes `threadIdx.x % warpSize` for the kernel
whose rows are `threadIdx.y`): the helper's lane is the row's.  At 64 such a wave holds two rows whose
`threadIdx.x` repeat 0-31: a wave-wide fold sums the two rows, and a lane read of `threadIdx.x & 63`
never reaches lanes 32-63.  32-lane groups are right for rows of 32 and for any x that is whole warps
(`dim3(64, 4)`): the lane is the hardware's there.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import dialect
from .blockdims import constant, names as _names
from .model import Function, Module
from .warpsites import WARP_SIZE_NAME, int_value


def thread_field(src, n: Node) -> str | None:
    """'x', 'y' or 'z' where `n` is `threadIdx.<f>` (as the input's dialect spells it)."""
    while n.type in ("parenthesized_expression", "cast_expression") and n.named_children:
        n = n.child_by_field_name("value") if n.type == "cast_expression" else n.named_children[0]
        if n is None:
            return None
    if n.type != "field_expression":
        return None
    base, fld = n.child_by_field_name("argument"), n.child_by_field_name("field")
    from . import backends
    c = dialect.lookup(backends.source().name, src.text_of(base)) if base is not None else None
    return src.text_of(fld) if c is not None and c.key == "thread_idx" and fld is not None else None


def warp_width_text(text: str, k: Function, module: Module, names, mask: bool) -> bool:
    """Whether `text` (read in `k`) is the warp width (`%`: 32, `warpSize`) or its lane mask (`&`: 31,
    `warpSize - 1`)."""
    t = " ".join(text.strip("() ").split())
    if mask:
        m = re.fullmatch(r"\(?\s*([A-Za-z_]\w*)\s*-\s*1\s*\)?", t)
        if int_value(t) == 31:
            return True
        if m is None:
            return False
        t = m.group(1)
    elif int_value(t) == 32:
        return True
    if not re.fullmatch(r"[A-Za-z_]\w*", t):
        return False
    value = constant(t, k, module, names)
    return value == 32 or (value is None and (t == "warpSize" or bool(WARP_SIZE_NAME.search(t))))


def header_helpers(module: Module, calls: list[Node]) -> list[tuple[Function, Module]]:
    """The definitions (each with its header's module) of the header warp helpers `calls` name, where the
    headers the unit reads hold exactly one device function with a body for the call."""
    from . import fnscopes
    vis = module.visible
    if vis is None or vis.elsewhere is None or vis.elsewhere.root is None:
        return []
    out = []
    for call in calls:
        got = vis.elsewhere.function(fnscopes.of(module).candidates(module.function_at(call),
                                                                     call.child_by_field_name("function")))
        if got is not None and got[1].is_device and not got[1].is_kernel and got[1].body is not None:
            out.append((got[1], got[0]))
    return out


def row_lane(k: Function, module: Module, names=None, helpers: list[tuple[Function, Module]] = ()) -> tuple[Node, Function] | None:
    """(the lane expression, the function it is in) where `k` runs 2-D rows as warps (the module's
    docstring), else None.  `helpers`: the device functions (each with its module: a header's helper is
    its header's) of k's warp-level group and the header warp helpers it calls, whose lanes are k's
    rows' too."""
    if k.body is None:
        return None
    names = _names(module) if names is None else names
    bodies = [(f, m) for f, m in [(k, module), *helpers] if f.body is not None]
    fields = {thread_field(m.source, n) for f, m in bodies for n in m.source.index.under(f.body, "field_expression")}
    if not fields & {"y", "z"}:
        return None
    lane = None
    for f, m in bodies:
        src, ns = m.source, names if m is module else _names(m)
        for n in src.index.under(f.body, "binary_expression"):
            op = n.child_by_field_name("operator")
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if op is None or left is None or right is None or thread_field(src, left) != "x" and \
                    thread_field(src, right) != "x":
                continue
            o = src.text_of(op)
            if o in ("/", ">>") and thread_field(src, left) == "x" and \
                    (int_value(src.text_of(right)) == 5 if o == ">>" else
                     warp_width_text(src.text_of(right), f, m, ns, False)):
                return None  # a warp index within the row (`threadIdx.x / 32`): rows of several warps
            for a, b in ((left, right), (right, left)):
                if lane is None and o in ("&", "%") and thread_field(src, a) == "x" and \
                        warp_width_text(src.text_of(b), f, m, ns, o == "&"):
                    lane = (n, f)
    return lane
