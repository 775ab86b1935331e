"""What kernelport reports at a place in a file: one shape for translate and the checkers.

    Diagnostic("KP201", Location("k.cu", 12, 5), "inline PTX assembly has no ...", "replace it ...")
    .format() == "k.cu:12:5: error: KP201 inline PTX assembly has no ... (hint: replace it ...)"

A check without a catalogue of codes (the Metal type check, whose messages are clang's) leaves
`code` empty: "port.metal:12:5: error: Metal has no 'double' type: use float".
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import Location


@dataclass
class Diagnostic:
    """A located message: its code, severity and hint."""
    code: str  # "KP201"; "" where the check has no codes
    location: Location
    message: str
    hint: str = ""
    severity: str = "error"  # "error" | "warning"
    source: str = ""  # which check found it, where several report together ("attributes", "clang")
    notes: tuple[str, ...] = ()  # related places and explanations (clang's notes)

    @property
    def path(self) -> str:
        return self.location.path

    @property
    def line(self) -> int:
        return self.location.line

    @property
    def column(self) -> int:
        return self.location.column

    def format(self) -> str:
        code = f"{self.code} " if self.code else ""
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{self.location}: {self.severity}: {code}{self.message}{hint}"

    __str__ = format

    def to_dict(self) -> dict:
        return {"code": self.code, "path": self.path, "line": self.line, "column": self.column,
                "severity": self.severity, "message": self.message, "hint": self.hint, "source": self.source,
                "notes": list(self.notes)}
