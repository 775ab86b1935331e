"""A header's function-like macro whose shuffles name no width, judged by the expansions the run shows.

dgSPARSE-Lib's util/cuda_util.cuh defines `SEG_SHFL_SCAN(v, tmpv, segid, tmps)`, a segmented scan of
`__shfl_down_sync(FULLMASK, v, d)` steps guarded by `lane_id < 32 - d` (`lane_id` is the expanding
kernel's `tid & (32 - 1)`), and `SHFL_DOWN_REDUCE(v)`.  The header's text is ported once, in the header,
while the functions that expand it are in other files: ported at the wave, the scan's ladder gains a step
at 32 it cannot copy (KP205) and each kernel's 32-based lanes disagree with it (KP219).

CUDA's shuffle with no width runs over `warpSize`, which is 32 in CUDA: the same shuffle with an explicit
width of 32 gives every lane what CUDA gives it.  So where every expansion the run shows (the run's files
that include the header, kernelport.includers) is in device code whose lane and warp indices are 32-based
(`tid & 31`, `tid % 32`, `tid >> 5`, `tid / 32`, a macro of such a value; none written with `warpSize`),
the header's port writes each such shuffle with width 32: the expanding code keeps 32-lane groups, a
64-lane wave holds two, and the macro's shuffles stay inside each.  Where one expansion is not so (wave
indices, no lane index at all, host code), or the body votes or reduces (which has no width), the body is
ported as before.  An expanding file whose port makes a function's warp the wave (a `WARP_SIZE` it
rewrites) refuses that use (KP219, kernelport.macro_warp_math), since one header text serves every use.
"""
from __future__ import annotations

import re
from pathlib import Path

from . import dialect, lazy_re
from .macros import arguments
from .warpsites import int_value

_WORD = lazy_re.compile(r"[A-Za-z_]\w*")
# `X >> 5`, `X / 32`, `X % 32`, `X & 31`, `X & (32 - 1)`: the right operand of a lane or warp index
_OP = lazy_re.compile(r"(>>|/|%|&)(?!=)\s*\(*\s*([A-Za-z_]\w*|0[xX][0-9a-fA-F]+|\d+)[uUlL]*(\s*-\s*1\b)?")
_WANTS = {">>": 5, "/": 32, "%": 32, "&": 31}
_WAVE = frozenset({"warpSize"})


def _calls(text: str):
    """(concept, start of the arguments, index of the closing `)`, arguments) of each warp operation of
    CUDA source `text`."""
    from .translate import SOURCE
    for w in _WORD.finditer(text):
        c = dialect.lookup(SOURCE, w.group(0))
        if c is None or c.kind not in ("shuffle", "vote", "warp_reduce", "reduction"):
            continue
        m = re.match(r"\s*\(", text[w.end():])
        if m is None:
            continue
        j, level, k = w.end() + m.end(), 1, w.end() + m.end()
        while k < len(text) and level:
            level += text[k] == "("
            level -= text[k] == ")"
            k += 1
        yield w.group(0), c, j, k - 1, arguments(text[j:k - 1])


def widened(body: str) -> str | None:
    """`body` with `, 32` as the width of each shuffle that names none; None where it has no such shuffle
    or runs an operation with no width to give (a vote, a warp reduction)."""
    from .translate import SOURCE
    edits = []
    for name, c, _, close, args in _calls(body):
        if c.kind != "shuffle":
            return None
        found = dialect.spelled_by(SOURCE, name)
        params = dialect.call_params(found[0], found[1])[0] if found is not None else []
        if "width" not in params:
            return None
        if len(args) <= params.index("width"):
            if len(args) != params.index("width"):
                return None  # (an argument missing before the width: not a call this reads)
            edits.append(close)
    if not edits:
        return None
    for at in reversed(edits):
        body = body[:at] + ", 32" + body[at:]
    return body


def _index_width(op: str, word: str, minus_one: bool, values: dict) -> str | None:
    if word in _WAVE:
        return "wave"
    v = int_value(word)
    if v is None and word in values:
        v = int_value(values[word].strip().strip("()"))
    return "32" if v is not None and v - minus_one == _WANTS[op] else None


def _thirty_two_based(m, fn, values: dict) -> bool:
    """Whether device function `fn` (of module `m`) computes a lane or warp index from 32 (an operator
    whose left operand reads a thread index, or a local initialised from one: macro_warp_math's reading)
    and none from the wave."""
    from .macro_warp_math import _left_operand, _reads_index
    text = m.source.text_of(fn.body)
    if any(w in _WAVE for w in _WORD.findall(text)):
        return False
    locals_: dict[str, str] = {}
    for d in m.source.index.under(fn.body, "init_declarator"):
        n, v = d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if n is not None and v is not None and n.type == "identifier":
            locals_.setdefault(m.source.text_of(n), m.source.text_of(v))
    found = False
    for op in _OP.finditer(text):
        left = _left_operand(text, op.start())
        if not left or not _reads_index(left, locals_):
            continue
        width = _index_width(op.group(1), op.group(2), op.group(3) is not None, values)
        if width == "wave":
            return False
        found = found or width == "32"
    return found


def _expansions(project, header: Path, name: str) -> list[tuple[str, bool]]:
    """('file:line', whether its function keeps 32-based lanes) of each expansion of `name` in a file of
    the run that sees `header` (the header itself too)."""
    from .includers import _run_files
    out = []
    for f in _run_files(project):
        if f != header and header not in project.scan(f).order:
            continue
        try:
            m = project.module(f)
        except Exception:  # noqa: BLE001 - a file that does not parse: its expansions are unknown
            return [(str(f), False)]
        values = {k: d.body for k, d in project.macro_defs(f).items() if d.params is None}
        values.update({k: mac.value for k, mac in m.macros.items()})
        for n in m.source.index.of_type("identifier"):
            if m.source.text_of(n) != name or n.parent is None or n.parent.type != "call_expression" or \
                    n.parent.child_by_field_name("function") != n:
                continue
            fn = m.function_at(n)
            ok = fn is not None and fn.is_device and not fn.is_host and fn.body is not None and \
                _thirty_two_based(m, fn, values)
            # (an expansion in the header itself: macro_contexts ports the body in that function's context)
            out.append((f"{Path(m.source.path).name}:{m.source.loc(n).line}", ok and f != header))
    return out


def in_run(project, header, name: str, body: str) -> tuple[str, str] | None:
    """(the body with width 32 on its shuffles, the expansions seen) where every expansion of the header's
    macro `name` that the run shows keeps 32-lane groups; None otherwise (once per run and macro)."""
    if project is None or header is None:
        return None
    header = project._real(Path(header))
    key = (str(header), name, body)
    memo = project.__dict__.setdefault("_kp_macro_run_widths", {})
    if key not in memo:
        wide = widened(body)
        seen = _expansions(project, header, name) if wide is not None else []
        memo[key] = (wide, ", ".join(at for at, _ in seen[:8]) + (f" and {len(seen) - 8} more" if len(seen) > 8
                                                                   else "")) \
            if seen and all(ok for _, ok in seen) else None
    return memo[key]


def of_unit(tr):
    """(the run's project, this unit's path) of a translator in a run (None, None alone)."""
    where = getattr(getattr(tr.module, "visible", None), "elsewhere", None)
    return (where.project, where.root) if where is not None and where.root is not None else (None, None)
