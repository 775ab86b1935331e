"""A unit's warpflow plan shared across the projects of one process, keyed by what it reads (issue 15).

translate and verify make a project per file, and each analysed every header it reaches again: 302 of
1,297 analyses of a `translate` over tests/realcorpus, each file alone (stop 56).  A plan is warpflow's
analysis of the unit's model with its includes' view (Project.module), and it reads only that model:

- the unit's parse (the same object: parses are kept by content for the process), its functions, its
  macros active in this build, its concept uses, launches, shared arrays and inline assembly;
- the view of its includes (`Visible`): macros, warp-level functions, helpers, types, AMD-build macros,
  launch macros, ... compared by value; the project's warp-size decisions it sees (`confirmed`,
  compared whole, without marking them read: kernelport.decision_reads);
- the files before it (`Elsewhere.paths`, and the parse each is read from here);
- and, through `Elsewhere.project`, the run itself: the other files' calls and launches, a header's own
  plan (kernelport.header_widths).  Such a read is counted (`Elsewhere.run_reads`) from the model's
  build to the analysis' end, and a plan that made one is not shared: its key would be the whole run.

So a plan is made again only where one of those differs; a header whose includers give it different
facts (a define, a decision) keeps a plan per distinct view.  A shared plan is the first one's
`private` copy for this model (its own sites: a translator may clear their `confirmed`), and the
model's decision log takes the names the first analysis read (Project._decisions_stand then rebuilds
where they change, as it would have).
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, fields

_LIMIT = 512  # plans kept (least recently used first out): each holds its model's parse alive
_plans: OrderedDict = OrderedDict()  # (path, options) -> [_Plan, ...]
counts = {"made": 0, "shared": 0}  # (bench and tests: plans analysed, plans taken from another project)


@dataclass
class _Plan:
    """A plan and what its analysis read of its model (compared, not hashed: nodes compare by identity)."""
    read: tuple
    analysis: object
    asked: frozenset
    whole: bool


def _view_fields() -> tuple[str, ...]:
    from .model import Visible
    return tuple(f.name for f in fields(Visible) if f.name not in ("confirmed", "elsewhere"))


def _read(m) -> tuple | None:
    """What warpflow reads of `m` (see the module doc); None where it reads the run (not shared)."""
    vis = m.visible
    ew = vis.elsewhere if vis is not None else None
    if vis is None or ew is None or ew.run_reads:
        return None
    proj = ew._project
    befores = tuple((p, pf.src if (pf := proj.file(p)) is not None else None) for p in ew.paths)
    return (m.functions, m.source, dict(m.macros), tuple(m.uses), tuple(m.launches), tuple(m.shared), tuple(m.asm),
            befores, dict(dict.items(vis.confirmed)), tuple(_copied(getattr(vis, f)) for f in _view_fields()))


def _copied(v):
    return dict(v) if isinstance(v, dict) else v  # (a view's tables are read-only; kept as they were read)


def _same(a: tuple, b: tuple) -> bool:
    # parses and their models by identity (one parse, one tree), the rest by value
    if a[0] is not b[0] or a[1] is not b[1] or len(a[7]) != len(b[7]):
        return False
    if any(p != q or s is not t for (p, s), (q, t) in zip(a[7], b[7])):
        return False
    return a[2:7] == b[2:7] and a[8] == b[8] and a[9] == b[9]


def analysis(m, key: tuple):
    """warpflow's analysis of `m` (Project.analysis; `key`: the unit's path and options): another
    project's plan of the same read where there is one, else analysed (and kept where shareable)."""
    from . import lazy_widths, warpflow
    got = _plans.get(key)
    read = _read(m) if got is not None else None
    if got is not None and read is not None:
        for plan in list(got):
            if _same(plan.read, read):
                cell = lazy_widths.settled(plan.analysis)  # (a deferred decision: made now, where it was deferred)
                if cell is not None and cell.read_run:  # it read the first project's run: not this one's plan
                    got.remove(plan)
                    continue
                _plans.move_to_end(key)
                dec = m.visible.confirmed
                if hasattr(dec, "asked"):  # what the first analysis read of the decisions, read here too
                    dec.asked |= plan.asked | (cell.asked if cell is not None else frozenset())
                    dec.whole = dec.whole or plan.whole or (cell is not None and cell.whole)
                counts["shared"] += 1
                return plan.analysis.private(m)
    a = warpflow.analyze(m)
    counts["made"] += 1
    read = _read(m)  # (after the analysis: a read of the run during it leaves the plan unshared)
    if read is not None:
        dec = m.visible.confirmed
        plan = _Plan(read, a.private(m), frozenset(getattr(dec, "asked", ())), bool(getattr(dec, "whole", False)))
        _plans.setdefault(key, []).append(plan)
        _plans.move_to_end(key)
        while sum(len(v) for v in _plans.values()) > _LIMIT:
            _plans.popitem(last=False)
    return a
