"""Definitions a port carries for a header its target's checked toolchain lacks.

CUDA's <math_constants.h> maps to HIP's <hip/hip_math_constants.h> (CUDART_PI_F -> HIP_PI_F), which
ROCm has only from 5.3.  A backend lists such headers with the definitions they provide
(`absent_header_fallbacks`, data beside its API table); the port then includes the header where the
compiler has it and otherwise defines, itself, the names this file uses:

    #if __has_include(<hip/hip_math_constants.h>)
    #include <hip/hip_math_constants.h>
    #else  // ...
    #define HIP_PI_F 3.14159274F
    #endif

A redefinition with the same tokens is allowed, so a header's port and its includer may both carry one.
A file that uses such names through a local header (`#include "classes.cuh"`, which includes
<math_constants.h>) carries their definitions after that include line: the header's port defines
only what the header itself uses (`reached`).
"""
from __future__ import annotations

import re
from pathlib import Path

from . import lazy_re
from .includes import locate

_WORD = lazy_re.compile(r"[A-Za-z_]\w*")
_INCLUDE = lazy_re.compile(r"^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]", re.M)
_SPELLED = lazy_re.compile(r"^[ \t]*#[ \t]*include[ \t]*([<\"][^>\"]+[>\"])", re.M)  # (with its quotes)


def carried(src, backend) -> dict[str, dict[str, str]]:
    """Per target header this file includes that has a fallback: the definitions (target name ->
    C text) of the names the file uses, in name order.  Once per file and backend."""
    cache = src.__dict__.setdefault("_kp_fallbacks", {})
    if backend.name in cache:
        return cache[backend.name]
    out: dict[str, dict[str, str]] = {}
    table = backend.api()
    if table is not None and backend.absent_header_fallbacks:
        words = set(_WORD.findall(src.text))
        for inner in _INCLUDE.findall(src.text):
            e = table.get(inner)
            defs = backend.fallback_definitions(e.hip) if e is not None and e.is_header else None
            if defs is None:
                continue
            used = {table.spelling(w) for w in words}
            out[e.hip] = {n: defs[n] for n in sorted(used & defs.keys())}
    cache[backend.name] = out
    return out


def defines(src, backend, name: str, include_dirs: tuple[str, ...] = ()) -> bool:
    """Does the port of `src` carry a definition of the target name `name`?"""
    return any(name in defs for defs in carried(src, backend).values()) or \
        any(name in defs for found in reached(src, backend, include_dirs).values() for _, defs in found)


def reached(src, backend, include_dirs: tuple[str, ...] = ()) -> dict[int, list[tuple[str, dict[str, str]]]]:
    """Per quoted include of `src` (its node's start byte): the target headers with a fallback that
    the local header reaches (through its own local includes) and `src` does not include itself, each
    with the definitions of the names `src` uses from it; each header after the first include that
    reaches it.  Once per file, backend and include path."""
    cache = src.__dict__.setdefault("_kp_reached", {})
    key = (backend.name, tuple(include_dirs))
    if key in cache:
        return cache[key]
    out: dict[int, list[tuple[str, dict[str, str]]]] = {}
    table = backend.api()
    if table is not None and backend.absent_header_fallbacks and src.path != "<string>":
        done = set(carried(src, backend))
        used = {table.spelling(w) for w in set(_WORD.findall(src.text))}
        headers = _Headers(tuple(include_dirs))  # (each include's walk reaches the same headers: read once here)
        for n in src.index.of_type("preproc_include"):
            path = n.child_by_field_name("path")
            raw = src.text_of(path) if path is not None else ""
            if not raw.startswith('"'):
                continue
            for header, defs in _fallbacks_under(headers.locate(Path(src.path).parent, raw), table, backend, headers, set()):
                names = {k: defs[k] for k in sorted(used & defs.keys())}
                if header not in done and names:
                    done.add(header)
                    out.setdefault(n.start_byte, []).append((header, names))
    cache[key] = out
    return out


class _Headers:
    """The local headers one file's walks read (`reached`): each include located and each header's
    include lines read once, however many of the file's includes reach it."""

    def __init__(self, include_dirs: tuple[str, ...]):
        self.include_dirs = include_dirs
        self.located: dict[tuple[Path, str], Path | None] = {}
        self.spelled: dict[Path, list[str] | None] = {}

    def locate(self, here: Path, include: str) -> Path | None:
        key = (here, include)
        if key not in self.located:
            self.located[key] = locate(here, include, self.include_dirs)
        return self.located[key]

    def includes(self, path: Path) -> list[str] | None:
        """The includes `path` spells (with their quotes or brackets), in order; None where it cannot be read."""
        if path not in self.spelled:
            try:
                self.spelled[path] = _SPELLED.findall(path.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                self.spelled[path] = None
        return self.spelled[path]


def _fallbacks_under(path: Path | None, table, backend, headers: _Headers, seen: set[Path]):
    """(target header, its fallback definitions) for each header with one that `path` includes,
    directly or through the local headers it includes."""
    if path is None or path in seen:
        return
    seen.add(path)
    for spelled in headers.includes(path) or ():
        e = table.get(spelled[1:-1])
        defs = backend.fallback_definitions(e.hip) if e is not None and e.is_header else None
        if defs is not None:
            yield e.hip, defs
        elif e is None:
            yield from _fallbacks_under(headers.locate(path.parent, spelled), table, backend, headers, seen)


def reached_block(src, backend, node, include_dirs: tuple[str, ...] = ()) -> str:
    """What follows the include `node` in the port: the definitions of the names the file uses from
    the headers with a fallback that the local header reaches ("" if none)."""
    lines = []
    for header, defs in reached(src, backend, include_dirs).get(node.start_byte, []):
        lines.append(f"#if !__has_include(<{header}>)  // {backend.api_checked_with} and older lack it: what this file "
                     f"uses of it through the header above (kernelport)")
        lines += [f"#define {n} {v}" for n, v in defs.items()] + ["#endif"]
    return "".join("\n" + ln for ln in lines)


def include_block(src, backend, header: str, node_text: str) -> str | None:
    """The text that replaces `#include <cuda header>` where `header` has a fallback (None: none)."""
    defs = carried(src, backend).get(header)
    if defs is None:
        return None
    lines = [f"#if __has_include(<{header}>)", f"#include <{header}>"]
    if defs:
        lines.append(f"#else  // {backend.api_checked_with} and older lack it: what this file uses of it (kernelport)")
        lines += [f"#define {n} {v}" for n, v in defs.items()]
    lines.append("#endif")
    return "\n".join(lines) + ("\n" if node_text.endswith("\n") else "")
