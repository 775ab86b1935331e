"""When to colour: `--color auto|always|never`, NO_COLOR (https://no-color.org) and FORCE_COLOR."""
from __future__ import annotations

import os
import sys

from .errors import KernelportError

WHEN = ("auto", "always", "never")
_chosen = ["auto"]


def resolve(when: str | None = None, stream=None) -> bool:
    """Whether output to `stream` (default stdout) is coloured.  `auto`: a terminal, unless NO_COLOR
    is set (and not empty); FORCE_COLOR (not empty) colours even a pipe."""
    when = when or _chosen[0]
    if when not in WHEN:
        raise KernelportError(f"unknown --color value '{when}'", hint="--color auto, always or never")
    if when != "auto":
        return when == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


def consoles(when: str):
    """The (stdout, stderr) rich consoles for this choice."""
    _chosen[0] = when
    return tuple(lazy_console(stderr=e, force_terminal=resolve(when, s), no_color=not resolve(when, s))
                 for e, s in ((False, sys.stdout), (True, sys.stderr)))


class lazy_console:
    """A plain rich Console made on first use: a command that prints nothing through it never imports rich.
    emoji=False: rich would print `k.cu:100:16` as `k.cu💯16` (its `:100:` emoji code)."""

    def __init__(self, stderr: bool, **options) -> None:
        self._options = dict(stderr=stderr, highlight=False, soft_wrap=True, emoji=False, **options)
        self._console = None

    def real(self):
        """The Console itself, for rich objects that draw on one (a progress bar, a table)."""
        if self._console is None:
            from rich.console import Console
            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str):
        return getattr(self.real(), name)
