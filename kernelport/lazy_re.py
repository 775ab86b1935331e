"""Regular expressions compiled where they are first used, not when their module is imported.

A one-file lint imports some 80 of kernelport's modules, whose module-level patterns were all
compiled at import (~70 of them, ~20 ms of a ~0.2 s run), most for inputs the file does not have.
`compile(pattern, flags)` returns a stand-in that compiles on the first attribute asked of it, then
keeps the compiled pattern's methods and attributes in its own `__dict__`, so every later
`P.search(...)` is a plain attribute read, as fast as on the pattern itself.  `.pattern` is known
without compiling (modules build patterns from others' text).  The stand-in is not an `re.Pattern`:
hand `P.compiled` to code that checks the type or to `re.sub(P, ...)`.
"""
from __future__ import annotations

import re
from typing import AnyStr, cast

_COPIED = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
           "flags", "groups", "groupindex")


class LazyPattern:
    """`re.compile(pattern, flags)` made on first use (see the module's docstring)."""

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str):  # only for what is not in __dict__ yet: compile, then keep
        if name.startswith("__") or name == "_flags":  # copy/pickle probes, a half-built instance
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        self.__dict__.update({n: getattr(compiled, n) for n in _COPIED}, compiled=compiled)
        return self.__dict__[name] if name in self.__dict__ else getattr(compiled, name)

    def __reduce__(self):
        return (LazyPattern, (self.pattern, self._flags))

    def __repr__(self) -> str:
        return f"lazy_re.compile({self.pattern!r}{f', {self._flags}' if self._flags else ''})"


def compile(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:  # noqa: A001 - re.compile's name, on purpose
    """A pattern compiled on first use; typed as the `re.Pattern` it stands for."""
    return cast("re.Pattern[AnyStr]", LazyPattern(pattern, flags))
