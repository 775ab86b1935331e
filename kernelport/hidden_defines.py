"""A name the run cannot resolve because its only definition sits under a macro the run does not define.

A user runs `kernelport translate FILE` without the build's `-D` (no compile_commands.json): gpuATTRACT's
macros.h defines `cudaVerifyKernel(...)` only under `#ifdef CUDA`, which its CMake build passes; without it
the call reads as an unknown CUDA API name (KP210).  The refusal then names the header line that defines it
and the macro that hides it, and how to pass it (stop 47: 5 of gpuATTRACT's 7 sources stop there).
"""
from __future__ import annotations

from pathlib import Path

from . import lazy_re

_DIRECTIVE = lazy_re.compile(r"^\s*#\s*(?P<kw>ifdef|ifndef|if|elif|else|endif|define)\b(?P<rest>.*)$")
_POSITIVE = lazy_re.compile(r"^\s*(?:defined\s*\(?\s*(?P<a>[A-Za-z_]\w*)\s*\)?|(?P<b>[A-Za-z_]\w*))\s*(?://.*|/\*.*)?$")


def where_hidden(tr, name: str) -> str:
    """'`path:line` defines it only where `X` is defined (`#ifdef X`, line N), which this run does not' for the
    first definition of macro `name` among the unit's file and its headers that sits in a branch taken only where
    an undefined macro X is defined; '' where there is none."""
    vis = getattr(tr.module, "visible", None)
    ew = getattr(vis, "elsewhere", None)
    paths = [Path(str(tr.src.path))] + [Path(p) for p in getattr(ew, "paths", ())]
    defined = set(tr.module.macros) | set(getattr(vis, "macros", {}) or {})
    for p in paths:
        try:
            text = p.read_text(errors="replace")
        except OSError:
            continue
        if name not in text:
            continue
        stack: list[tuple[str | None, int]] = []  # per open conditional: the macro its taken branch needs, line
        for i, line in enumerate(text.splitlines(), 1):
            m = _DIRECTIVE.match(line)
            if m is None:
                continue
            kw, rest = m.group("kw"), m.group("rest")
            if kw in ("ifdef", "if"):
                g = _POSITIVE.match(rest) if kw == "if" else _POSITIVE.match(rest.split("//")[0])
                x = (g.group("a") or g.group("b")) if g else None
                stack.append((x if x and not x.startswith("__") else None, i))  # (`__CUDA_ARCH__`: the compiler's)
            elif kw == "ifndef":
                stack.append((None, i))
            elif kw in ("elif", "else") and stack:
                stack[-1] = (None, stack[-1][1])  # another branch: not the macro's
            elif kw == "endif" and stack:
                stack.pop()
            elif kw == "define" and rest.split("(")[0].split()[:1] == [name]:
                hidden = next(((x, at) for x, at in reversed(stack) if x is not None and x not in defined), None)
                if hidden is not None:
                    x, at = hidden
                    return (f"{_shown(p)}:{i} defines it only where `{x}` is defined (line {at}), which this run does "
                            f"not: translate with `-D {x}` if the project's build passes it (or its compile_commands.json)")
    return ""


def unknown_name(tr, name: str) -> str:
    """Why a CUDA-looking name has no table entry: HIPIFY has none, and where it is the run's own macro hidden by
    an undefined build macro, where (KP210's message)."""
    hidden = where_hidden(tr, name)
    return "HIPIFY has no such name" + (f"; {hidden}" if hidden else "")


def _shown(p: Path) -> str:
    """The path as the user's run names it: relative to the working directory where it lies below it."""
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)
