"""Host code that launches kernels, apart from the kernels' warp-level groups (warpwidth).

A launch joins no lanes: each kernel's group is decided from its own launches' geometry, so a
`reset<<<1, 1>>>()` launched beside a voting `encode<<<blocks, 512>>>` (the LC framework's codes)
says nothing about the encoder's votes, and a one-thread kernel with no warp-level code never makes
another kernel's group a 32-lane one.  Host code has no lanes; its warp sizes (`WARP_SIZE` in a
block, a grid, a file-scope macro) size the kernels it launches:

- inherit: a group of host code alone takes the width of the warp-level groups it launches, where
  they agree (a 32-thread block's `WARP_SIZE` rows stay 32 in the host too);
- disagreeing: where they do not (a rows-of-32 kernel and a whole-wave one launched by one
  function), the launcher and those kernels are one group again, decided from all their launches
  (as before the cut: 32-lane groups are right for every geometry where no vote is in them).
"""
from __future__ import annotations

from .model import Function


def _targets(g, by_function, launched: dict[str, set[str]], warp_level: set[str]) -> list:
    """The warp-level groups a host group's functions launch (all launched groups where none is)."""
    runs = sorted({k for m in g.functions for k in launched.get(m, ())})
    targets = list({id(t): t for k in runs if (t := by_function.get(k)) is not None and t is not g}.values())
    return [t for t in targets if t.functions & warp_level] or targets


def _host_only(g, fns: dict[str, list[Function]]) -> bool:
    return not g.annotated and not g.votes and not any(f.is_device for m in g.functions for f in fns[m])


def disagreeing(groups: list, by_function: dict, launched: dict[str, set[str]], warp_level: set[str],
                fns: dict[str, list[Function]]) -> list[tuple[str, str]]:
    """(launcher, kernel) launches to join again: a host group whose warp-level kernels got different
    widths each from its own launches."""
    out = []
    for g in groups:
        if not _host_only(g, fns):
            continue
        wl = _targets(g, by_function, launched, warp_level)
        if len({t.width for t in wl}) > 1:
            kernels = set().union(*(t.functions for t in wl))
            out += [(m, k) for m in sorted(g.functions) for k in sorted(launched.get(m, ())) if k in kernels]
    return out


def inherit(groups: list, by_function: dict, launched: dict[str, set[str]], warp_level: set[str],
            fns: dict[str, list[Function]]) -> None:
    """A host group (no device code, no annotation) that launches kernels of one width takes it."""
    for g in groups:
        if not _host_only(g, fns):
            continue
        wl = _targets(g, by_function, launched, warp_level)
        if wl and len({t.width for t in wl}) == 1:
            t = wl[0]
            g.width, g.node, g.host, g.launches = t.width, t.node, True, wl
            g.why = f"it launches {_names_of(t)}: {t.why}"


def _names_of(g) -> str:
    """The kernels of a group, for a message (`k`, `a`, `b` and 2 more)."""
    ks = sorted(g.functions)
    return "`" + "`, `".join(ks[:3]) + "`" + (f" and {len(ks) - 3} more" if len(ks) > 3 else "")
