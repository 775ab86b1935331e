"""`kernelport plan`: the backend-agnostic plan of one kernel, written from the kernel itself.

Modules, one per part: `matrix` (1, backend matrix), `analysis` (2, operation analysis),
`strategy` (3), `risks` (4, risk register), `header` (5, portability header), `blocks` (6, block and
tile strategy), `ci` (7, CI matrix), `performance` (8); `review` (checklist, CPU fallback);
`facts` gathers what every part reads once; `hardware` is the one table of GPU and software facts
with their sources; `timing` the CUDA-events driver of `--device cuda`; `render` md and JSON.
"""
from __future__ import annotations

from pathlib import Path

from .. import __version__

PARTS = (("backend_matrix", "Backend matrix"), ("operation", "Operation analysis"),
         ("strategy", "Abstraction strategy"), ("risks", "Portability risk register"),
         ("header", "Portability header"), ("blocks", "Block and tile strategy per backend"),
         ("ci", "CI matrix"), ("performance", "Performance expectations"))


def build_plan(path: Path, kernel: str | None = None, *, timing: dict | None = None, facts=None,
               on_device=None) -> dict:
    """The plan as a JSON-able dict.  `timing`: a timing driver's result; `on_device(traffic)` ->
    (result, error): runs the driver once the traffic is counted (`--device cuda`)."""
    from . import analysis, blocks, ci, header, matrix, performance, review, risks, strategy
    from .facts import gather
    f = facts or gather(Path(path), kernel)
    parts: dict = {}
    parts["backend_matrix"] = matrix.build_part(f)
    parts["operation"] = analysis.build_part(f)
    parts["risks"] = risks.build_part(f)
    parts["strategy"] = strategy.build_part(f, parts["operation"], parts["risks"])
    parts["header"] = header.build_part(f)
    parts["blocks"] = blocks.build_part(f, parts["operation"])
    parts["ci"] = ci.build_part(f)
    error = None
    if on_device is not None:
        measured, error = on_device(parts["operation"].get("traffic"))
        timing = measured or timing
    parts["performance"] = performance.build_part(f, parts["operation"], timing, error)
    ordered = {key: parts[key] for key, _ in PARTS}
    return {"kernelport": __version__, "source": str(path), "kernel": f.name,
            "parts": ordered, "review": review.checklist(f, parts), "cpu_fallback": review.cpu_fallback(f, parts)}
