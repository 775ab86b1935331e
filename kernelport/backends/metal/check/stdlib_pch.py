"""The Metal checker's header (metal_stdlib.h, ~46 KB) precompiled, so that clang loads it rather
than parsing it again on every check (~3,000 checks in the test suite, most of each run's CPU).

The PCH is built from the header in place with the check's own flags (clang_command's, its -D
defines included: they are read before the header), by kernelport.pch: kept in its directory
($KERNELPORT_PCH_DIR, `off` turns it off), keyed by clang's identity (path, size, mtime), the
flags, the header's bytes and path, so that an edited header or another clang gets its own.  The
check then reads `-include-pch` where it read `-include` the header: the same declarations in the
same place, diagnostics in the header still naming it.  A check clang cannot run against the PCH
(the header changed since: clang refuses a PCH whose source's date moved; a damaged file) is no
verdict: the PCH is dropped and the check runs with the header (`stands`).
"""
from __future__ import annotations

from pathlib import Path

from . import clang as tool
from .clang import CLANG_TIMEOUT_S, clang_command, reports_an_error


def header_pch(clang: str, defines=()) -> Path | None:
    """The PCH of the checker's header for `clang` and the port's `defines`; None when PCHs are off
    or clang cannot build one (the check reads the header itself)."""
    from .... import pch, toolchains
    try:
        text = tool.HEADER_PATH.read_text(encoding="utf-8")
    except OSError:
        return None
    flags = build_flags(clang, defines)
    return pch.build(clang, flags, text, toolchains.tool_env("clang"), CLANG_TIMEOUT_S, tool="clang",
                     header=tool.HEADER_PATH, build_flags=())


def build_flags(clang: str, defines=()) -> list[str]:
    """The check's command less its output mode, header and source: what the PCH is built with."""
    cmd = clang_command(clang, "", (), defines)[1:-1]
    i = cmd.index("-include")
    return [a for a in cmd[:i] + cmd[i + 2:] if a != "-fsyntax-only"]


def stands(output: str, rc: int | None, pch_path: Path) -> bool:
    """Whether a check run against `pch_path` gave a verdict: not when clang refused the PCH (its
    message names it) or failed without a diagnostic of the port's."""
    if rc in (0, None):
        return True
    return str(pch_path) not in output and reports_an_error(output)
