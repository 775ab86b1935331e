"""Helpers shared by the real-code corpus tests (tests/test_corpus*.py)."""
from __future__ import annotations

import re

import pytest


def xfail(reason: str):
    """A known kernelport bug: strict, so the test flips to XPASS (and fails) once it is fixed."""
    return pytest.mark.xfail(strict=True, reason=reason)


def body(text: str, name: str, nth: int = 0) -> str:
    """Text of the nth function definition called `name` (signature + braces)."""
    found = 0
    for m in re.finditer(rf"\b{re.escape(name)}\s*\(", text):
        close = _match(text, text.index("(", m.start()), "(", ")")
        rest = re.match(r"[^;{}]*\{", text[close + 1:])
        if not rest:
            continue  # a call or a declaration
        if found == nth:
            open_at = close + rest.end()
            return text[m.start():_match(text, open_at, "{", "}") + 1]
        found += 1
    raise AssertionError(f"no definition of {name}")


def _match(text: str, i: int, o: str, c: str) -> int:
    depth = 0
    for j in range(i, len(text)):
        if text[j] == o:
            depth += 1
        elif text[j] == c:
            depth -= 1
            if depth == 0:
                return j
    raise AssertionError("unbalanced")
