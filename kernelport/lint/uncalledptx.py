"""Inline PTX in a walked header's functions that no code of the run calls: one PT002 per header (issue 11).

A tree that vendors an NVIDIA SDK (heldout77's bvh-collision keeps OptiX 9's headers under include/optix9) gives
`kernelport lint .` one PT002 per `asm` of the SDK's device wrappers: 266 of its 272 findings, most in functions
the project never calls.  Such a function is not compiled into any kernel of the project, and `kernelport
translate` ports the header by declaring it unavailable (KP201 warning: a call compiled later is an error).  So in
a header (`.h`, `.hpp`, `.cuh`, ...: not a `.cu` or `.cpp` translation unit) the directory walk found (not one named
on the command line, which is reported in full, as clang-tidy
always reports a main file and filters only headers), the PTX of device functions that no file of the run calls
is reported once: a PT002 at the first such statement that counts them and names the functions, every statement a
`site` of it (JSON `related`, SARIF `relatedLocations`), so nothing is hidden from tools.  A function the run
calls, a kernel, or any function where the run cannot show its callers keeps one finding per statement, and so
does a statement whose line carries a PT002 suppression (the suppression applies to it alone, as before).  The
summary is a PT002 of the rule's severity: the exit code stays what it was.
"""
from __future__ import annotations

from tree_sitter import Node


def uncalled(ctx, nodes: list[Node]) -> set[int]:
    """The start bytes of the asm statements of `nodes` to summarise (empty where the unit is no walked header)."""
    vis = ctx.unit.visible
    away = getattr(vis, "elsewhere", None)
    if not ctx.unit.walked_header or away is None or len(nodes) < 2:
        return set()
    suppressed = _suppressed_lines(ctx)
    memo: dict[tuple[str, int], bool] = {}
    own = away.project.module(away.root)
    out = set()
    for n in nodes:
        f = ctx.module.function_at(n)
        if f is None or ctx.position(n.start_byte)[0] in suppressed:
            continue
        if _uncalled(away, own, f, memo):
            out.add(n.start_byte)
    return out if len(out) >= 2 else set()


def _uncalled(away, own, f, memo) -> bool:
    """No file of the run calls f, or only this header's own functions that none calls (a wrapper of a wrapper);
    a kernel, a host function, a call from another file or from outside any function, or a cycle: called."""
    if f.is_kernel or not f.is_device or f.body is None:
        return False
    key = (f.name, f.node.start_byte)
    if key not in memo:
        memo[key] = False  # (a cycle proves nothing: called)
        calls, looked = away.calls(f.name.split("::")[-1], callee=f)
        memo[key] = bool(looked) and all(m is own and g is not None and _uncalled(away, own, g, memo)
                                         for m, _c, g in calls)
    return memo[key]


def _suppressed_lines(ctx) -> set[int]:
    from .suppress import parse
    lines = set()
    for s in parse(ctx):
        if s.covers("PT002"):
            lines.update(range(s.first, s.last + 1))
    return lines
