"""The `kernelport` executable: answers `--version` before the CLI framework loads.

typer (and the pydantic it validates options with) costs most of a command's start-up; a version
query from a script or a pre-commit hook should not pay it.  Everything else goes to `cli.run`.
"""
from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        from . import __version__
        sys.stdout.write(f"kernelport {__version__}\n")
        sys.exit(0)
    from .cli import run
    run()
