"""What a rule reports.  The JSON form is the contract other tools rely on (DESIGN §6)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

SEVERITIES = ("info", "warning", "error")
ROLES = ("site", "context")  # a related place: the hazard is written there too, or it explains the finding
RANK = {s: i for i, s in enumerate(SEVERITIES)}


@dataclass(frozen=True)
class Edit:
    """Replace [start, end) (1-based line/column, end exclusive) with `content`."""
    line: int
    column: int
    end_line: int
    end_column: int
    content: str


@dataclass(frozen=True)
class Fix:
    """A finding's fix: its edits and how safe they are."""
    message: str
    edits: tuple[Edit, ...]
    applicability: str = "safe"  # safe: cannot change what the CUDA code computes on NVIDIA


@dataclass(frozen=True)
class Related:
    """A second place a finding names.  `role` says what the place is (SARIF's relatedLocations are
    context by definition; kernelport also lists there the other lines that carry the same hazard):
    `site`, part of the 32-lane assumption is written here and a fix the message offers changes this
    line (a hardcoded constant's uses, the 32-bit declaration of a mask, the condition that leaves
    part of the wave out, a launch of 32-thread rows); `context`, a line that explains the finding and
    that no fix changes (the `warpSize` read beside a `>> 5`, the block size that makes a count wrong)."""
    path: str
    line: int
    column: int
    message: str
    role: str = "context"  # ROLES


@dataclass(frozen=True)
class Finding:
    """One lint finding: where, which rule, what and how to fix it."""
    path: str
    line: int  # 1-based
    column: int  # 1-based, in characters
    end_line: int
    end_column: int  # exclusive
    code: str
    name: str
    severity: str  # info | warning | error
    message: str
    fix: Fix | None = None
    related: tuple[Related, ...] = field(default_factory=tuple)
    # Internal: the analysed byte span (for --fix to find the site again); not part of the JSON.
    span: tuple[int, int] | None = field(default=None, compare=False)
    # `lint --confirm`: the kernel run at both wave widths (lint/confirm.py); in the JSON only then.
    confirmation: dict | None = field(default=None, compare=False)
    # Internal: the name a header's warp-size definition stands for when its own file never uses it; the run
    # judges it with the includers' uses (lint/headeruses.py).  Not part of the JSON.
    subject: str | None = field(default=None, compare=False)

    def sort_key(self):
        return (self.path, self.line, self.column, self.code, self.message)

    def to_json(self) -> dict:
        d = {
            "path": self.path, "line": self.line, "column": self.column,
            "end_line": self.end_line, "end_column": self.end_column,
            "code": self.code, "name": self.name, "severity": self.severity, "message": self.message,
            "fix": None, "related": [asdict(r) for r in self.related],
        }
        if self.fix is not None:
            d["fix"] = {"applicability": self.fix.applicability, "message": self.fix.message,
                        "edits": [asdict(e) for e in self.fix.edits]}
        if self.confirmation is not None:
            d["confirmation"] = self.confirmation
        return d
