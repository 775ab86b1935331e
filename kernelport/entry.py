"""The `kernelport` executable: answers `--version` and a plain `lint` before the CLI framework loads.

typer (and the click it carries) costs a quarter of a one-file lint's start-up; a version query or a
pre-commit hook's `kernelport lint FILE...` should not pay it.  kernelport/lint/argv.py reads a lint
argv in its plain spellings; anything else (and any argv it declines) goes to `cli.run`.
"""
from __future__ import annotations

import errno
import os
import sys


class _Aborted(Exception):
    """typer's Abort, for a command run without typer (stdin ended: `aborted`, exit 130)."""


class _QuietFlush:
    """A stream whose flush ignores a closed pipe (`kernelport lint | head`), as typer leaves one."""

    def __init__(self, wrapped) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as e:
            if e.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str):
        return getattr(self.wrapped, name)


def guarded(call, err, exits: tuple = (), aborts: tuple = ()) -> None:
    """Run a command: user errors print one line on `err()` (exit 2); nothing ever prints a traceback.
    `exits` and `aborts`: the CLI framework's exit (carrying `exit_code`) and abort exceptions."""
    from .errors import KernelportError
    try:
        rc = call()
        sys.exit(rc if isinstance(rc, int) else 0)
    except KernelportError as e:
        err().print(e.format(), markup=False)
        sys.exit(e.exit_code)
    except exits as e:
        sys.exit(e.exit_code)
    except (_Aborted, *aborts, KeyboardInterrupt):
        err().print("aborted", markup=False)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as e:  # click usage errors and the unexpected
        if callable(getattr(e, "show", None)) and isinstance(getattr(e, "exit_code", None), int):
            e.show()  # a usage error from the CLI framework (typer vendors click)
            sys.exit(2)
        if os.environ.get("KERNELPORT_DEBUG"):
            raise
        err().print(f"kernelport: internal error: {type(e).__name__}: {e} "
                    "(please report it with the input file; KERNELPORT_DEBUG=1 shows the traceback)", markup=False)
        sys.exit(3)


def _as_typer_runs(command, keywords: dict):
    """Run `command` as typer's main runs a command: end of input aborts, an interrupt exits 130
    silently, a closed output pipe exits 1."""
    try:
        return command(**keywords)
    except EOFError:
        sys.stderr.write("\n")
        raise _Aborted from None
    except KeyboardInterrupt:
        return 130
    except OSError as e:
        if e.errno != errno.EPIPE:
            raise
        sys.stdout, sys.stderr = _QuietFlush(sys.stdout), _QuietFlush(sys.stderr)
        return 1


def _plain_lint(args: list[str]) -> bool:
    """Run `kernelport lint ARGS` without typer where kernelport/lint/argv.py reads ARGS; False if not."""
    if os.environ.get("_KERNELPORT_COMPLETE"):
        return False  # shell completion: typer's
    from .lint.argv import parse
    keywords = parse(args)
    if keywords is None:
        return False
    from .batchgc import imports
    with imports():  # what every lint imports (the engine, each rule's module), the collector paused
        from .color import consoles  # (`--color auto`, typer's default: no callback needed to set it)
        from .lint.command import lint
        from .lint import engine  # noqa: F401  (the command's first import)
        from .lint.rule import all_rules
        all_rules()
    guarded(lambda: _as_typer_runs(lint, keywords), lambda: consoles("auto")[1])
    return True


def main() -> None:
    argv = sys.argv[1:]
    if argv == ["--version"]:
        from . import __version__
        sys.stdout.write(f"kernelport {__version__}\n")
        sys.exit(0)
    from .batchgc import at_exit_unswept, imports  # (kernelport/batchgc.py says why)
    at_exit_unswept()
    from .dataclass_code import install
    install()  # the dataclass methods of the modules a command imports, compiled in an earlier run
    if argv[:1] == ["lint"] and _plain_lint(argv[1:]):
        return
    with imports():
        from .cli import run
    run()
