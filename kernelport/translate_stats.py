"""`translate --statistics`: what each port changed and what it could not, per file and in total
(hipify-clang's statistics, with the warp-width rewrites beside the API names).

Counted from a Port alone: its notes (an API name or header the backend's table mapped carries
the category `api:<kind>`; every other note is a warp-width rewrite) and its diagnostics
(refusals and warnings by code; the name a refusal is about is the first `name` or <header> of
its message).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

_SUBJECT = re.compile(r"^(?:`([^`]+)`|<([^>]+)>)")


@dataclass
class Counts:
    """What translate changed and refused, counted for --statistics."""
    api: Counter = field(default_factory=Counter)  # kind -> API names mapped
    headers: Counter = field(default_factory=Counter)  # kind -> includes mapped
    warp: int = 0  # warp-width rewrites
    refused: Counter = field(default_factory=Counter)  # code -> errors
    warnings: Counter = field(default_factory=Counter)  # code -> warnings
    unmapped: Counter = field(default_factory=Counter)  # name -> refusals about it
    names: Counter = field(default_factory=Counter)  # "cuda -> hip" -> times mapped

    def add(self, other: "Counts") -> None:
        for a in ("api", "headers", "refused", "warnings", "unmapped", "names"):
            getattr(self, a).update(getattr(other, a))
        self.warp += other.warp


def count(port) -> Counts:
    c = Counts()
    for n in port.notes:
        kind = n.category.removeprefix("api:") if n.category.startswith("api:") else None
        if kind is None:
            c.warp += 1
        elif kind.startswith("header"):
            c.headers[kind] += 1
        else:
            c.api[kind] += 1
            c.names[f"{n.before} -> {n.after}"] += 1
    for d in port.diagnostics:
        (c.refused if d.severity == "error" else c.warnings)[d.code] += 1
        m = _SUBJECT.match(d.message)
        if d.severity == "error" and m is not None:
            c.unmapped[m.group(1) or m.group(2)] += 1
    return c


def _by(counter: Counter) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def render(title: str, c: Counts) -> list[str]:
    rows = [
        ("API names mapped", sum(c.api.values()), _by(c.api)),
        ("headers mapped", sum(c.headers.values()), _by(c.headers)),
        ("warp-width rewrites", c.warp, ""),
        ("refused", sum(c.refused.values()), _by(c.refused)),
        ("warnings", sum(c.warnings.values()), _by(c.warnings)),
        ("unmapped names", len(c.unmapped), ", ".join(sorted(c.unmapped))),
    ]
    return [f"statistics: {title}"] + [f"  {label:<20} {n:>5}" + (f"  ({detail})" if detail else "")
                                       for label, n, detail in rows]


class Statistics:
    """Per-port counts as translate makes them, and their total."""

    def __init__(self) -> None:
        self.total = Counts()
        self.ports = 0

    def add(self, source: str, backend: str, port) -> list[str]:
        """Count one port; the lines that report it."""
        c = count(port)
        self.total.add(c)
        self.ports += 1
        return render(f"{source} -> {backend}", c)

    def summary(self, searched: dict | None = None) -> list[str]:
        """The total; with `searched` (Project.searched), the includes no -I reached that a search of
        the tree answered (kernelport.include_search): found (one file each) and ambiguous."""
        out = render(f"total ({self.ports} port{'s' if self.ports != 1 else ''})", self.total)
        if searched:
            found = sum(f.header is not None for f in searched.values())
            out.append(f"  {'headers searched':<20} {len(searched):>5}  (found {found}, ambiguous "
                       f"{len(searched) - found}: no -I named their directories)")
        return out
