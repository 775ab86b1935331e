"""A type a backend lacks (Metal's double), as backend data: one code and one wording wherever it is met."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LackedType:
    """A type the backend lacks, refused under one code and one wording wherever it is met (a function, a
    macro body, a template instance, the checker's error): `demote_option` (a translate option) spells it
    `demoted` instead."""
    code: str
    message: str
    hint: str
    demote_option: str = ""
    demoted: str = ""
