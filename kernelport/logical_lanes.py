"""PTX's lane id in a group the port keeps as logical 32-lane groups: the 32-lane warp's lane, not the wave's.

`%laneid` (`asm("mov.u32 %0, %%laneid;" : "=r"(l))`, cub's `LaneId()` and GPUPrefixSums' `getLaneId()`) is
0..31 by the ISA; the port spells it `__lane_id()`, 0..63 on a 64-wide wave.  In a group that
kernelport/warpwidth.py keeps logical (CUDA's 32-lane semantics kept exactly: literals stay 32, every shuffle
runs within 32 lanes), the lane beside those shuffles is the lane of its 32-lane group: GPUPrefixSums'
`t = __shfl_up_sync(m, v, i, 32); if (getLaneId() >= i) v += t;` adds, on lane 32 of the wave, the lane's own
value (a group's first lane gets nothing from below), where CUDA adds nothing: a silently wrong scan at wave
64.  Each `%laneid` of a logical group's function (a helper that returns it is of its callers' group) is
spelled as the 32-lane warp's lane (`warp_lane`: `(__lane_id() & 31)`), as kernelport/laneoutputs.py spells a
lane id the kernel stores as data.  A native group's lane ids stay the wave's (its warp is the wave).  Only
where a wave of the backend can be wider than 32; Metal and gfx1030 keep the code as written."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import asm_templates, backends, dialect, fnscopes, ptx_idioms, ptx_specials

if TYPE_CHECKING:
    from .translate import Translator

# what a marked asm's writes mean: the 32-lane warp's lane, and its lane masks (PTX's `%lanemask_lt` is the
# mask of the lanes below this one in its 32-lane warp, whichever are active)
RENAMED = {"lane_id": "warp_lane", **{f"ptx_lanemask{w}_{c}": f"ptx_warp_lanemask_{c}" for c in ptx_specials.MASKS
                                     for w in ("", "64")}}  # (64: zero-extended, as the 32-bit expression assigned)


def rewrite(tr: "Translator") -> None:
    """Translator pass (with kernelport/laneoutputs.py's): mark each `%laneid` asm of a logical group's function
    for rewrite_asm_idiom, which then spells its lane id as `warp_lane`."""
    if not tr.module.asm or all(r.wave <= 32 for r in backends.get(tr.backend).runs):
        return
    if dialect.concept("warp_lane").spelling(tr.backend) is None:
        return
    owner = fnscopes.of(tr.module)
    for node, _fn in tr.module.asm:
        f = tr.module.function_at(node)
        if f is None or not f.is_device or not tr.widths.logical(owner.key(f)):
            continue
        m = ptx_idioms.match(asm_templates.text(tr.src, node), lambda key: dialect.concept(key).params)
        if m is not None and any(w.key in RENAMED for w in m.writes):
            tr.data_lanes.add(node.start_byte)
