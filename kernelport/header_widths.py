"""A header's warp helper whose own plan keeps 32-lane groups: evidence for the groups that call it.

GPUPrefixSums' CSDL (ChainedScanDecoupledLookback.cuh) calls Utils.cuh's `InclusiveWarpScan` and
`WarpReduceSum`, whose shuffles give the width `LANE_COUNT` (32): Utils.cuh's port keeps them a logical
32-lane group (kernelport/warpwidth.py: an explicit width 32).  Planned with only the calls of "a header's
warp helper, ported on its own at the wave width" and its launches of 256 threads, CSDL's group was native,
and its 32-lane `WARP_INDEX` refused (KP219).  Had the helpers been in CSDL's file, their width-32 shuffles
would have made its group logical; a helper in a header whose own plan (the project's analysis of that
header, with what it includes) makes its group 32 lanes is ported as one, so its callers' group is decided
as if that evidence were its own: geometry and votes are still judged (a vote that may see another 32-lane
group of the wave stays KP219), and the helper is no longer "ported at the wave width" for the checks that
assume it (warpwidth's wmma and row checks, halfvotes).

Conditions: the call names exactly one definition with a body in the headers the unit reads
(Elsewhere.function), a device function (not a kernel, nor host code: a host launcher's width is its
kernels', kernelport/launchgroups.py), and that header's analysis can be made (not a header being planned already: a
cycle of headers that call each other, nor one that does not parse).  Anything else stays as before.
"""
from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from . import fnscopes

_LOGICAL = "32"


def split(module, calls: list[Node]) -> tuple[list[tuple[Node, str]], list[Node]]:
    """(the calls of helpers whose header ports them as 32-lane groups, each with why; the other calls)."""
    kept, other = [], []
    for n in calls:
        why = _kept_32(module, n)
        if why:
            kept.append((n, why))
        else:
            other.append(n)
    return kept, other


def _kept_32(module, call: Node) -> str:
    """Why the header's port of the helper `call` runs keeps 32-lane groups ('' where it does not, or unknown)."""
    vis = module.visible
    if vis is None or vis.elsewhere is None or vis.elsewhere.root is None:
        return ""
    fn = call.child_by_field_name("function")
    caller = module.function_at(call)
    got = vis.elsewhere.function(fnscopes.of(module).candidates(caller, fn))
    if got is None:
        return ""
    hm, helper = got
    if not helper.is_device or helper.is_kernel:
        return ""  # (a host launcher's width is its kernels', not its callers' evidence: launchgroups)
    path = Path(hm.source.path)
    proj = vis.elsewhere.project
    busy = proj.__dict__.setdefault("_kp_header_widths_busy", set())
    if path in busy:
        return ""  # (a header whose plan is under way: an include cycle)
    busy.add(path)
    try:
        widths = proj.analysis(path).widths
    except Exception:  # noqa: BLE001 - a header that cannot be analysed says nothing here; its port reports it
        widths = None
    finally:
        busy.discard(path)
    g = widths.by_function.get(fnscopes.of(hm).key(helper)) if widths is not None else None
    if g is None or g.width != _LOGICAL:
        return ""
    loc = hm.source.loc(helper.node)
    return f"`{helper.name}` ({path.name}:{loc.line}) is ported as a 32-lane group: {g.why}"
