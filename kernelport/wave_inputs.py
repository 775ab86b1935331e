"""`--inputs FILE` (lint --confirm, verify --wave-invariance): kernel inputs in the annotations' own
syntax, kept outside the kernel's file, for code one cannot annotate (vendored sources, a corpus of
real fixes).  Blocks of `@kp` lines, each opened by `@kp kernel NAME`, optionally narrowed to one
file by `@kp file PATH` (the end of the kernel file's path); the other keys are the annotations'
(grid, block, arg, scalar, shared, instantiate, seed, tolerance, why), checked as annotations are
against the kernel's parameters, with errors located in FILE.  No reference: the run at one wave
width is compared with the run at the other.

    # mpc: one block covers the one chunk, so no block waits on another
    @kp kernel  MPCcompress
    @kp file    src/mpc-hip/main.cu
    @kp grid    1
    @kp block   1024
    @kp arg     original  in  long[1024]  integers(0, 1000)
    ...
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .annotations import KEYS, Text
from .errors import KernelportError, Location

_LINE = re.compile(r"@kp\b[ \t]*(?P<key>[\w-]*)[ \t]*(?P<value>.*)$")
OWN_KEYS = ("kernel", "file")
NOT_HERE = ("reference", "targets", "warp-width")  # about verifying ports or the source: not inputs


@dataclass
class Block:
    """A kernel's block of input annotations."""
    kernel: str
    loc: Location
    file: str | None = None
    lines: list[tuple[str, Text]] = field(default_factory=list)

    def matches(self, path: str) -> bool:
        return self.file is None or Path(path).as_posix().endswith(self.file)


def read(path: Path) -> list[Block]:
    """The blocks of an inputs file; a line that is neither blank, `#` comment nor `@kp KEY VALUE`
    is an error at its line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise KernelportError(f"--inputs {path}: cannot read it ({e})", hint="name a UTF-8 text file") from None
    blocks: list[Block] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        col = raw.index(line[0]) + 1
        m = _LINE.match(line)
        if m is None:
            raise KernelportError("not an `@kp KEY VALUE` line", Location(str(path), n, col),
                                  hint="write the annotations' lines without `//`, each block opened by "
                                       "`@kp kernel NAME`; `#` starts a comment")
        key, value = m.group("key"), m.group("value").rstrip()
        vloc = Location(str(path), n, col + m.start("value"))
        if key not in KEYS + OWN_KEYS or key in NOT_HERE:
            raise KernelportError(f"'{key}' is not an input key" if key else "a line without a key",
                                  Location(str(path), n, col + m.start("key")),
                                  hint="keys: " + ", ".join(k for k in KEYS + OWN_KEYS if k not in NOT_HERE))
        if key == "kernel":
            if not re.fullmatch(r"[A-Za-z_]\w*", value):
                raise KernelportError(f"'{value}' is not a kernel name", vloc, hint="@kp kernel NAME")
            blocks.append(Block(value, vloc))
            blocks[-1].lines.append((key, Text(value, vloc)))
            continue
        if not blocks:
            raise KernelportError(f"'{key}' before any `@kp kernel NAME`", vloc, hint="open each block with "
                                  "`@kp kernel NAME`")
        if key == "file":
            blocks[-1].file = value.strip().removeprefix("./") or None
        else:
            blocks[-1].lines.append((key, Text(value, vloc)))
    return blocks


def for_file(blocks: list[Block], path: str) -> dict[str, Block]:
    """Kernel name -> its block for the file at `path` (the first that matches)."""
    out: dict[str, Block] = {}
    for b in blocks:
        if b.matches(path):
            out.setdefault(b.kernel, b)
    return out
