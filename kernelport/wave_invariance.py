"""`kernelport verify PATH... --wave-invariance`: per kernel, is its output at wave 64 its output at 32?

Every kernel of every CUDA or HIP file under the paths runs at both widths (wave_compare.py):
*invariant* (same output under the error bounds of both runs), *depends on the wave width* (the
first differing element), or *not run* with the reason.  Exit 1 when some kernel depends on the
width (a CI gate for code that must run on both), 0 otherwise; a kernel not run is no failure.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from . import wave_compare
from .errors import KernelportError

WORDS = {"same": "invariant", "differs": "depends on the wave width", "not run": "not run"}


def files_under(paths: list[Path]) -> list[Path]:
    """The kernel files: those named, and under directories those whose dialect meets both widths."""
    from .lint.discovery import kind
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(q for q in p.rglob("*") if q.is_file() and _runs(kind(q)))
        elif p.exists():
            out.append(p)
        else:
            raise KernelportError(f"no such file or directory: {p}", hint="check the path")
    return out


def _runs(k) -> bool:
    from .backends import Backend
    return isinstance(k, Backend) and wave_compare.runs_both_widths(k)


def rows(paths: list[Path], given: list | None = None, timeout: float | None = None) -> list[dict]:
    """One row per kernel (a file without kernels: none; an unreadable one: a row for the file)."""
    from .wave_included import rows as included_rows
    out: list[dict] = []
    done: set = set()  # (file, kernel) of included kernels run already
    for f in files_under(paths):
        fm = wave_compare.read(f, given)
        if fm.module is None:
            o = wave_compare.not_run("*", fm.reason, fm.error or "")
            out.append({"path": str(f), "line": None, **o.to_json(), "verdict": WORDS[o.status]})
            continue
        for k in sorted(fm.module.kernels, key=lambda k: k.node.start_byte):
            o = wave_compare.outcome(fm, k.name, timeout=timeout or wave_compare.RUN_SECONDS)
            line = (k.template_node or k.node).start_point[0] + 1
            out.append({"path": str(f), "line": line, **o.to_json(), "verdict": WORDS[o.status]})
        out += included_rows(fm, f, given, timeout, done, WORDS)  # kernels of the files it #includes
    return out


def report(paths: list[Path], fmt: str, out: TextIO, inputs: Path | None = None, timeout: float | None = None) -> int:
    """Print the rows (table or json); the exit status.  `inputs`: the --inputs file; `timeout`:
    seconds of one run (verify --timeout)."""
    if fmt not in ("table", "json"):
        raise KernelportError(f"--wave-invariance prints a table or json, not {fmt}", hint="--format table | json")
    from .wave_inputs import read
    rs = rows(paths, read(inputs) if inputs is not None else None, timeout)
    if fmt == "json":
        out.write(json.dumps(rs, indent=2) + "\n")
    else:
        narrow, wide = wave_compare.widths()
        for r in rs:
            where = f"{r['path']}:{r['line']}" if r["line"] else r["path"]
            said = r["detail"] if r["status"] == "not run" else f"{r['verdict']}: {r['detail']}"
            out.write(f"{where}: {r['kernel']}: {said}"
                      f"{' (inputs ' + r['inputs'] + ')' if r['inputs'] else ''}\n")
        n = {s: sum(r["status"] == s for r in rs) for s in WORDS}
        out.write(f"{len(rs)} kernel(s) at wave {narrow} and {wide}: {n['same']} invariant, {n['differs']} depend on "
                  f"the wave width, {n['not run']} not run\n")
    if not rs:
        raise KernelportError(f"no kernels under {', '.join(map(str, paths))}",
                              hint="--wave-invariance runs the __global__ functions of .cu and .hip files")
    return 1 if any(r["status"] == "differs" for r in rs) else 0
