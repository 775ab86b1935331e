"""A file's opening local header as a precompiled prefix (kernelport.pch).

A portable port opens with `#include "kp_warp.h"`, which defines its platform-free macros and
then includes <hip/hip_runtime.h>: the first-system-include rule (pch.system_prefix) sees no
system header first, so every portable port was built by a plain hipcc (~6x the CPU of a build
against the PCH).  Precompiling hip_runtime.h under the port would change the order (the runtime
before the header's macros); precompiling the header's own text keeps it: the PCH then holds
exactly the tokens the port's first include gives, with the same flags, and the port's include
of the header is skipped by its guard.  The PCH's key holds the header's bytes (the prefix text),
so an edited header gets a PCH of its own.

That is exact only for a header whose meaning does not depend on where it is read from; refused
(the plain build stands) unless every condition holds:
  - the first line that is not blank or `//` is `#include "name"`, `name` a file beside the port
    (where a quoted include is looked up first);
  - the header is one include guard (`#ifndef G` / `#define G` first, its `#endif` last, only
    blank or `//` lines outside): the port's own include then reads nothing;
  - every include in it is `<...>` (a quoted one is looked up beside the header, which the PCH's
    copy is not), no #include_next / #import / #pragma once, no block comment or line splice
    (the guard is read line by line), and no macro that names the file or its depth
    (__FILE__, __INCLUDE_LEVEL__, ...).
"""
from __future__ import annotations

import re
from pathlib import Path

_BLANK = re.compile(r"[ \t]*(?://[^\n]*)?")
_LOCAL_INCLUDE = re.compile(r'[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"[ \t]*(?://[^\n]*)?')
_DIRECTIVE = re.compile(r"[ \t]*#[ \t]*(\w+)(.*)")
_WHERE_READ = re.compile(r"\b(?:__FILE__|__FILE_NAME__|__BASE_FILE__|__INCLUDE_LEVEL__|__COUNTER__|__TIMESTAMP__)\b")
_SYSTEM_ONLY = re.compile(r'[ \t]*<[^<>\n]+>[ \t]*(?://[^\n]*)?')
_OPENS = ("if", "ifdef", "ifndef")


def local_header_prefix(path: Path, text: str) -> str:
    """The text of the guarded local header `text` (the file at `path`) opens with, or "" when the
    file opens with anything else or the header fails a condition of this module's docstring."""
    for line in text.split("\n"):
        m = _LOCAL_INCLUDE.fullmatch(line)
        if m:
            header = Path(path).parent / m.group(1).strip()
            try:
                body = header.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return ""
            return body if self_contained(body) else ""
        if not _BLANK.fullmatch(line):
            return ""
    return ""


def self_contained(body: str) -> bool:
    """Whether header text `body` reads the same wherever it is: one include guard around it all,
    system includes only, nothing that names the file (this module's docstring)."""
    if "/*" in body or "\\\n" in body or "\r" in body or _WHERE_READ.search(body):
        return False
    lines = [ln for ln in body.split("\n") if not _BLANK.fullmatch(ln)]
    if len(lines) < 3:
        return False
    first, second = _DIRECTIVE.fullmatch(lines[0]), _DIRECTIVE.fullmatch(lines[1])
    if not (first and second and first.group(1) == "ifndef" and second.group(1) == "define"):
        return False
    guard = first.group(2).strip()
    if not re.fullmatch(r"\w+", guard) or second.group(2).split()[:1] != [guard]:
        return False
    depth = 0
    for i, line in enumerate(lines):
        d = _DIRECTIVE.fullmatch(line)
        if d is None:
            continue
        word, rest = d.group(1), d.group(2)
        if word in ("include_next", "import") or (word == "pragma" and rest.split()[:1] == ["once"]):
            return False
        if word == "include" and not _SYSTEM_ONLY.fullmatch(rest):
            return False
        depth += word in _OPENS
        depth -= word == "endif"
        if depth == 0 and i != len(lines) - 1:  # the guard closes before the end: text outside it
            return False
    return depth == 0 and _DIRECTIVE.fullmatch(lines[-1]).group(1) == "endif"
