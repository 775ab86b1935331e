"""`verify --wave-invariance` of the kernels a file takes in by `#include`: a kernel file spliced into
the one given (gpuSteiner's CUDAMST.cu includes CUDAMST.h, which includes CUDAMST_kernel.cu, whose
kernels use the `struct Node` CUDAMST.h declares first).  Such a kernel runs as the compiler sees it:
in the including file's text (the emulator follows its includes), its inputs from its own annotations,
else --inputs, else the launches of the including file (the project model, as translate reads it).
Headers that hold no __global__ function add nothing; each included kernel runs once per run, in the
first file that includes it.
"""
from __future__ import annotations

from pathlib import Path

from . import wave_compare


def included_files(path: Path):
    """The local files `path` includes (at any depth, as the project model walks them), and the model of
    `path` in that project (its launches bind the included kernels: project_callers)."""
    from .errors import KernelportError
    from .project_ports import configured_project
    pr = configured_project()
    root = path.resolve()
    try:
        order = pr.scan(root, pr.options(root)).order
        return [f for f in order[1:] if f != root], (pr.module(root) if len(order) > 1 else None)
    except (OSError, RecursionError, KernelportError):
        return [], None


def rows(root: wave_compare.FileModel, path: Path, given, timeout, done: set, words: dict) -> list[dict]:
    """One row per kernel of the files `path` includes (not run yet in this run): where it is defined,
    run in the including file."""
    out: list[dict] = []
    if root.module is None or root.specs is None:
        return out
    files, launcher = included_files(path)
    for f in files:
        inc = wave_compare.read(f, given)
        if inc.module is None or not inc.module.kernels:
            continue
        for k in sorted(inc.module.kernels, key=lambda k: k.node.start_byte):
            if (f, k.name) in done:
                continue
            done.add((f, k.name))
            o = _outcome(root, launcher, inc, k, timeout)
            line = (k.template_node or k.node).start_point[0] + 1
            row = {"path": str(f), "line": line, **o.to_json(), "verdict": words[o.status]}
            row["detail"] = f"{row['detail']} (run in {path}, which #includes it)"
            out.append(row)
    return out


def _outcome(root: wave_compare.FileModel, launcher, inc: wave_compare.FileModel, k, timeout) -> wave_compare.Outcome:
    if inc.specs is None:  # a bad annotation in the included file: said as for a file given
        return wave_compare.not_run(k.name, inc.reason, inc.error or "")
    if k.name in inc.specs or (inc.given and k.name in inc.given):
        inp = wave_compare.inputs_for(inc.module, k.name, inc.specs, inc.given)
    else:  # the launches are the including file's
        inp = wave_compare.infer(inc.module, k.name, others=[launcher])
    if isinstance(inp, wave_compare.Outcome):
        return inp
    return wave_compare.run_both(root.text, root.path, root.dialect, k, inp, timeout)
