"""Errors a user sees: always a location, a message and what to do; never a traceback."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Location:
    """A place in a file: path, line and column."""
    path: str
    line: int  # 1-based
    column: int  # 1-based, in characters

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class KernelportError(Exception):
    """A problem with the user's input or request (exit code 2)."""

    exit_code = 2

    def __init__(self, message: str, location: Location | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint

    def format(self) -> str:
        where = f"{self.location}: " if self.location else ""
        text = f"{where}error: {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text
