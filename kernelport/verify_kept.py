"""verify's lint gate on a port: the original's name-only findings that the port keeps as written are the user's.

Translate keeps a file's own `#define warpSize 32` (or `WARP_SIZE 32`) where its uses are no wave width
(kernelport/own_macros.py, warpflow): the 32 is the file's, on purpose, and the uses that compute wrong are
their own rules' findings, which fail the gate as before.  WS001 judges the definition itself
(kept_hazards.NAME_ONLY: translate does not refuse on it either), so the port's lint repeats the original's
finding at the same definition.  The port introduced nothing there: the gate fails only on the port's own
errors and names the kept ones in its detail (`kernelport lint ORIGINAL` reports them to the user).

Kept means: the original's lint, the same rule alone, reports an error on a line whose text is the port's
flagged line, as many times as the port does (the definition unchanged, `#define warpSize 32` in both).  A
port line the original does not have (a rewritten definition) or does not flag stays the port's error.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from .kept_hazards import NAME_ONLY

_ERROR = re.compile(r"^(?P<path>.*):(?P<line>\d+):\d+: (?P<code>\w+) ")


def gate(verifier, original: Path, path: Path, ov) -> tuple[list[str], str]:
    """(the errors that fail the gate, its detail) of linting `path` under `ov` (the original or a port)."""
    errors, kept = split(verifier, verifier._lint_errors(path, ov), original, path)
    if errors:
        return errors, "; ".join(errors[:3])
    return [], f"no lint errors ({'SY/PT' if ov.select else 'all'} rules) in {path}" + note(kept, original)


def split(verifier, errors: list[str], original: Path, port: Path) -> tuple[list[str], list[str]]:
    """(the port's own errors, the original's kept as written) of `errors`, the lint errors of `port`
    (verifier._lint_errors' strings); the original is linted for the name-only rules only when asked."""
    named = [e for e in errors if (m := _ERROR.match(e)) is not None and m["code"] in NAME_ONLY]
    if not named or port == original:
        return errors, []
    from .lint.config import Overrides
    ran = verifier.ran  # (the port's run is what the gate's row reports as cached or run)
    before = verifier._lint_errors(original, Overrides(select=tuple(sorted(NAME_ONLY))))
    verifier.ran = ran
    have = Counter(k for e in before if (k := _key(e)) is not None)
    kept = []
    for e in named:
        k = _key(e)
        if k is not None and have[k] > 0:
            have[k] -= 1
            kept.append(e)
    return [e for e in errors if e not in kept], kept


def note(kept: list[str], original: Path) -> str:
    """The gate's words for the kept findings (empty when none)."""
    if not kept:
        return ""
    return (f"; kept as written from {original.name} (the original's, not the port's: `kernelport lint "
            f"{original}` reports {'it' if len(kept) == 1 else 'them'}): " + "; ".join(kept[:3]))


def _key(error: str) -> tuple[str, str] | None:
    """(rule, the flagged line's text, blanks removed) of one error string."""
    m = _ERROR.match(error)
    if m is None:
        return None
    try:
        lines = Path(m["path"]).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    i = int(m["line"]) - 1
    return (m["code"], re.sub(r"\s+", "", lines[i])) if 0 <= i < len(lines) else None
