"""Translate type-checks its own Metal port: a port the Metal checker rejects is never written.

The translation refuses what it knows Metal lacks (KP21x, KP223) before writing anything; what
it does not know (a name from a header that is not in reach, a construct no pass handles yet)
would reach the port and stop the user's Metal build.  So, where the checker's clang is installed
(`kernelport.backends.metal.check`), the finished port is checked, and each error becomes KP224
at the line of the CUDA source the port's line comes from.  With `--allow-unported` the errors
are warnings and the port is written.  Without clang the port is written unchecked, with a
warning that says so.

Port lines are paired with source lines by the rewrites that made the port (portlines: the code
they do not touch keeps its lines); a line the translation added (a hoisted threadgroup array, a
parameter on a line of its own) is reported at the source line it is inserted at.
"""
from __future__ import annotations

import re

from ...diagnostics import Diagnostic
from ...errors import Location
from ...portlines import source_lines

CODE = "KP224"
# a checker note at a line of the port (clang's "in instantiation of ... requested here"): line, column, text
_NOTE = re.compile(r"^<metal port>:(\d+):(\d+): (.*)$")
_HINT = ("kernelport does not translate this to Metal: rewrite it in the CUDA source with what Metal has "
         "(or write the port with --allow-unported and fix it by hand)")


def check_port(translator, port, text: str) -> None:
    """Add KP224 diagnostics to `port` for every error the Metal checker finds in `text`."""
    from ... import toolchains
    if toolchains.find_clang() is None:
        port.diagnostics.append(Diagnostic(CODE, Location(translator.src.path, 1, 1), "the Metal port is written "
                                           "without its type check: no clang with C++ for OpenCL was found",
                                           toolchains.install_hint("clang"), "warning"))
        return
    from .check import MetalCheckUnavailable, run_check
    from .check.clang import NO_DOUBLE
    try:
        report = run_check(text, "<metal port>")
    except MetalCheckUnavailable:  # pragma: no cover - find_clang said yes
        return
    if report.ok:
        return
    offset = text[:len(text) - len(port.body)].count("\n") if text.endswith(port.body) else 0
    lines = source_lines(translator.src.text, port.body, translator.rw)
    old, new = translator.src.text.splitlines(), port.body.splitlines()
    seen: set[tuple] = set()
    lacked = _LackedDouble(translator, port)
    for d in report.errors:
        j, column, where = d.line - 1 - offset, d.column, ""
        if not 0 <= j < len(lines):  # in the prologue (a kp_ helper): the body's line whose call instantiated it
            j, column, where = -1, 1, " (in the port's prologue)"
            for n in d.notes:
                m = _NOTE.match(n)
                if m and 0 <= int(m.group(1)) - 1 - offset < len(lines):
                    j, column = int(m.group(1)) - 1 - offset, int(m.group(2))
                    where = f" (in the port's prologue, {m.group(3)})"
                    break
        line = lines[j] if 0 <= j < len(lines) else 1
        column = column if 0 <= j < len(lines) and new[j] == old[line - 1] else 1  # the line as written
        loc = translator.origin_location(Location(translator.src.path, line, column))
        message = f"the Metal port would not compile: {d.message}{where} (port line {d.line})"
        if (loc.path, loc.line, d.message) in seen or (loc.path, loc.line) in getattr(translator, "moot_lines", ()):
            continue  # (moot_lines: a `double` of an empty port's file-scope declarations, HostCode.nothing_to_port)
        seen.add((loc.path, loc.line, d.message))
        severity = "warning" if translator.allow_unported else "error"
        if d.message == NO_DOUBLE and lacked.type is not None:
            lacked.report(loc, d.line, severity)
            continue
        port.diagnostics.append(Diagnostic(CODE, loc, message, _HINT, severity))


class _LackedDouble:
    """The checker's `double` errors under the backend's one code and wording for the type (KP214): none
    where the translation refused a double already (the same cause and fix, at the source's own word);
    else the first at its line, each later one pointing at it."""

    def __init__(self, translator, port):
        from ... import backends
        self.port, self.first = port, None
        self.type = backends.get(translator.backend).lacked_types.get("double")
        self.folded = self.type is not None and any(d.code == self.type.code for d in port.diagnostics)

    def report(self, loc: Location, port_line: int, severity: str) -> None:
        if self.folded:
            return
        t = self.type
        if self.first is None:
            self.first = loc
            message = f"{t.message} (the port's line {port_line} has one: a type the translation did not see)"
        else:
            message = f"{t.message}: see {t.code} at {self.first.line}:{self.first.column} (the port's line {port_line})"
        self.port.diagnostics.append(Diagnostic(t.code, loc, message, t.hint, severity))
