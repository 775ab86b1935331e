"""Each translate diagnostic code means one thing: README's table of what stops a translation has
one row per code, and every code the translator emits has its row.  (Stop 41: two branches each
took KP233, for a partial-wave warp count and for an include inside a body; caught in review.)"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _table_codes() -> list[str]:
    codes = []
    for line in (ROOT / "README.md").read_text().splitlines():
        m = re.match(r"\s*\|\s*(KP2\d\d)(?:\s*[–-]\s*(KP2\d\d))?\s*\|", line)
        if m:
            lo = int(m.group(1)[2:])
            hi = int(m.group(2)[2:]) if m.group(2) else lo
            codes += [f"KP{n}" for n in range(lo, hi + 1)]
    return codes


def test_each_translate_code_has_one_row():
    codes = _table_codes()
    assert len(codes) > 20
    dup = sorted({c for c in codes if codes.count(c) > 1})
    assert dup == [], f"codes with two rows in README's table: {dup}"


def test_every_emitted_translate_code_is_in_the_table():
    emitted = set()
    for p in (ROOT / "kernelport").rglob("*.py"):
        emitted |= set(re.findall(r"""["'](KP2\d\d)["']""", p.read_text()))
    missing = sorted(emitted - set(_table_codes()))
    assert missing == [], f"emitted but not in README's table: {missing}"
