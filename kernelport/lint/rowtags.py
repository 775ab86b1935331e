"""The divergence tag of `threadIdx.y` / `threadIdx.z` in a wave-aware analysis (issue 11, heldout86's WS012 on
`warp_id = threadIdx.y` in a (32, 4) block).

A row of the block is blockDim.x threads: `threadIdx.y` is the same in every lane of a 32-lane warp only where
blockDim.x is a multiple of 32, and in every lane of a 64-lane wave only where it is a multiple of 64.  In a kernel
whose every launch the run shows (launchexits' conditions) and whose block argument's x extent constants decide
(blockdims.dims, a local stored to nowhere after its initialiser), the tag is: UNIFORM where every launch's extent
in that dimension is 1; WARP where every x extent is a multiple of 64; ROW where every one is a multiple of 32
(whole warps, half waves); THREAD otherwise.  A device helper takes its callers' tags, joined (`_helper`): where every
use of its name in the file is a call that resolves to it, from kernels (or helpers, followed) whose tags are decided
so, and the file is no header and no included header declares it (another unit may call it); a helper called from a
kernel launched `dim3(32, 4)` is then ROW as that kernel is, one called only from kernels of rows of 64 is WARP (no
WS012).  Anywhere else (an uncalled helper, a launch not in view, a run-time block): ROW.
WS012 reports a full-mask warp operation under a ROW condition with the geometry it needs.
"""
from __future__ import annotations

from .. import blockdims
from . import launchblocks
from .tags import ROW, THREAD, UNIFORM, WARP


def tag(div, dim: int) -> int:
    """The tag of threadIdx's `dim` (1 or 2) in div.fn (see the module's doc), once per function."""
    f = div.fn
    if f is None:
        return ROW
    cache = div.__dict__.setdefault("_kp_row_tags", {})
    key = (f.node.id, dim)
    if key not in cache:
        cache[key] = _tag(div, f, dim)
    return cache[key]


def _tag(div, f, dim: int, seen: frozenset = frozenset()) -> int:
    from .launchexits import _known, _launches
    if not f.is_kernel:
        return _helper(div, f, dim, seen | {f.node.id})
    launches = _launches(div.ctx, f)
    if not launches:
        return ROW
    m = div.m
    exts = []
    for la in launches:
        owner = m.function_at(la.node)
        ext = blockdims.dims(la.config[1], owner, m, _known(m))
        if ext is None or not launchblocks.holds(div.src, m, owner, la.config[1]):
            return ROW
        exts.append(ext)
    if all(e[dim] == 1 for e in exts):
        return UNIFORM
    if all(e[0] % 64 == 0 for e in exts):
        return WARP
    return ROW if all(e[0] % 32 == 0 for e in exts) else THREAD


_HEADERS = (".h", ".hpp", ".cuh", ".hh", ".inl")


def _helper(div, f, dim: int, seen: frozenset) -> int:
    """A device helper's tag: the join of its callers' (module doc), ROW where a caller is not known."""
    callers = _callers(div, f)
    if not callers:
        return ROW
    out = UNIFORM
    for g in callers:
        if g.node.id in seen:
            return ROW  # (recursion)
        out = max(out, _tag(div, g, dim, seen))
        if out >= ROW:
            return out
    return out


def _callers(div, f) -> list:
    """The functions of the file whose calls are every use of f's name, each resolved to f; [] where a use is none
    (an address taken, a macro's body here or in a header, a prototype's other unit) or other files may call it."""
    import re
    from .. import fnscopes
    ctx, m = div.ctx, div.m
    name = f.name.split("::")[-1]
    vis = m.visible
    if str(ctx.path).endswith(_HEADERS) or (vis is not None and name in vis.declared):
        return []
    word = re.compile(rf"\b{re.escape(name)}\b")
    if any(word.search(ctx.src.text_of(d)) for d in ctx.src.index.of_types("preproc_def", "preproc_function_def")):
        return []
    if vis is not None and (any(word.search(mac.value or "") for mac in vis.macros.values()) or any(
            word.search((d.child_by_field_name("value").text or b"").decode("utf-8", "replace"))
            for d, _ in vis.function_macros.values() if d.child_by_field_name("value") is not None)):
        return []  # a header's macro calls it (`#define HEAD(x) row_head(x)`): its uses are calls not seen here
    from .launchexits import name_uses
    out: dict = {}
    for ident, p in name_uses(ctx.src, f, name):
        call = p if p is not None and p.type == "call_expression" else None
        fn = call.child_by_field_name("function") if call is not None else None
        g = m.function_at(call) if call is not None else None
        if fn is None or g is None or not fn.start_byte <= ident.start_byte < fn.end_byte or \
                not any(c.node.id == f.node.id for c in fnscopes.callees(m, g, call)):
            return []  # a use that is no call of f (its address, another function of that name)
        out.setdefault(g.node.id, g)
    return list(out.values())
