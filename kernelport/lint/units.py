"""What text of a file the rules analyse (`Unit`s), and where its bytes live in the file.

- A backend's source read as written (CUDA, HIP); a backend with a `lint_reader` (Metal) goes
  through it: Metal Shading Language becomes same-meaning CUDA-shaped text (`kernel` → `__global__`,
  `threadgroup` → `__shared__`, `simd_shuffle_down` → the mask-less shuffle, attributed thread-index
  parameters bound to `threadIdx`), so the warp-size dataflow reads it; positions map back.
- Python (an input kind, not a backend): CUDA source in string literals given to cupy
  `RawKernel`/`RawModule` or `torch.utils.cpp_extension.load_inline(cuda_sources=...)`, found with
  `ast`; positions map back into the Python file.
- What the headers a file includes define (`kernelport.project`): macros, warp-level helpers.
"""
from __future__ import annotations

import ast
import bisect
import re
from pathlib import Path

from .. import backends, dialect, headerconsts, includes, warpflow
from ..backends import Backend
from .context import Unit
from . import includervalues
from .discovery import DEVICE_MARKERS, shown
from .. import lazy_re


def unit(backend: Backend, path: str, text: str) -> Unit:
    """The text of a file in `backend`'s dialect as the rules read it."""
    if backend.lint_reader is not None:
        module, fn = backend.lint_reader.split(":")
        from importlib import import_module
        return getattr(import_module(module), fn)(backend, path, text)
    return Unit(path, backend.name, text)


# -- positions ----------------------------------------------------------------------------------
class LineIndex:
    """Byte offset -> (line, column in characters) of a text."""

    def __init__(self, text: str):
        self.data = text.encode("utf-8")
        self.starts = [0] + [i + 1 for i, b in enumerate(self.data) if b == 0x0A]

    def __call__(self, byte: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, byte) - 1
        s = self.starts[i]
        return i + 1, len(self.data[s:byte].decode("utf-8", errors="replace")) + 1


class Shim:
    """Edits on a text that keep a map from the edited text's bytes back to the original's."""

    def __init__(self, text: str):
        self.orig = text
        self.edits: list[tuple[int, int, str]] = []  # char offsets in orig

    def replace(self, start: int, end: int, new: str) -> None:
        self.edits.append((start, end, new))

    def build(self) -> tuple[str, list[tuple[int, int, int]]]:
        out, pos, segs = [], 0, []  # segs: (new_byte_start, orig_byte_start, length or -1 for replaced)
        nb = 0
        ob = 0
        for start, end, new in sorted(self.edits):
            if start < pos:
                continue
            keep = self.orig[pos:start]
            kb = len(keep.encode("utf-8"))
            segs.append((nb, ob, kb))
            out.append(keep)
            nb += kb
            ob += kb
            nbytes = len(new.encode("utf-8"))
            segs.append((nb, ob, -1))
            out.append(new)
            nb += nbytes
            ob += len(self.orig[start:end].encode("utf-8"))
            pos = end
        rest = self.orig[pos:]
        segs.append((nb, ob, len(rest.encode("utf-8"))))
        out.append(rest)
        return "".join(out), segs


def mapped(text: str, segs: list[tuple[int, int, int]], index: LineIndex):
    starts = [s[0] for s in segs]

    def locate(byte: int) -> tuple[int, int]:
        i = max(0, bisect.bisect_right(starts, byte) - 1)
        nb, ob, length = segs[i]
        return index(ob if length < 0 else ob + min(byte - nb, length))
    return locate


# -- Metal ---------------------------------------------------------------------------------------
# Metal attribute parameters -> the CUDA expression they stand for.  From the backend's attributed
# built-ins; the last two are common Metal spellings the table does not list yet.
def _metal_params(metal: Backend) -> dict[str, str]:
    m = {}
    for key, expr in (("thread_idx", "threadIdx.x"), ("block_idx", "blockIdx.x"), ("block_dim", "blockDim.x"),
                      ("grid_dim", "gridDim.x"), ("warp_size", "warpSize"),
                      ("lane_id", "(threadIdx.x % warpSize)"), ("warp_id", "(threadIdx.x / warpSize)")):
        attr = dialect.concept(key).attribute(metal.name)
        if attr:
            m[attr[1]] = expr
    m.setdefault("thread_index_in_threadgroup", "threadIdx.x")
    m.setdefault("thread_position_in_grid", "(blockIdx.x * blockDim.x + threadIdx.x)")
    return m


def _metal_calls(metal: Backend) -> dict[str, str]:
    """Metal warp intrinsic -> the mask-less legacy spelling the CUDA dialect also reads."""
    src = backends.source()
    out = {}
    for c in dialect.CONCEPTS:
        if not c.warp_level or c.kind not in ("shuffle", "vote"):
            continue
        mn = c.name(metal.name)
        legacy = next((a for a in src.aliases.get(c.key, ()) if dialect.lookup(src.name, a) is c), None)
        if mn and legacy and mn.startswith("simd_"):
            out[mn] = legacy
    return out


_PARAM = lazy_re.compile(r"\b(\w+)\s*\[\[\s*(\w+)\s*\]\]")


def metal_unit(metal: Backend, path: str, text: str) -> Unit:
    """Metal's `lint_reader`: its text as same-meaning CUDA-shaped text (not fixable: a shim)."""
    sh = Shim(text)
    for m in re.finditer(r"\bkernel(?=\s+void\b)", text):
        sh.replace(m.start(), m.end(), "__global__")
    for m in re.finditer(r"\bthreadgroup\b(?=\s+[A-Za-z_])", text):
        sh.replace(m.start(), m.end(), "__shared__")
    for m in re.finditer(r"\b(device|thread)\b(?=\s+(?:const\s+|volatile\s+)?(?:(?:unsigned|signed|long|short)\s+)*"
                         r"[A-Za-z_][\w:<>]*\s*(?:const\s*)?[*&])", text):
        sh.replace(m.start(), m.end(), "")
    for m in re.finditer(r"\bconstant\b(?=\s+[A-Za-z_])", text):
        sh.replace(m.start(), m.end(), "const")
    calls = _metal_calls(metal)
    if calls:
        for m in re.finditer(r"\b(" + "|".join(map(re.escape, sorted(calls, key=len, reverse=True))) + r")\b(?=\s*\()", text):
            sh.replace(m.start(), m.end(), calls[m.group(1)])
    params = _metal_params(metal)
    # Bind attributed parameters at the top of their function body.
    for fm in re.finditer(r"\b__global__\b|\bkernel\s+void\b|\[\[\s*kernel\s*\]\]", text):
        lp = text.find("(", fm.end())
        if lp < 0:
            continue
        depth, i = 0, lp
        while i < len(text):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        brace = text.find("{", i)
        if brace < 0:
            continue
        binds = [f" auto {name} = {params[attr]};" for name, attr in _PARAM.findall(text[lp:i]) if attr in params]
        if binds:
            sh.replace(brace + 1, brace + 1, "".join(binds))
    new, segs = sh.build()
    return Unit(path, metal.name, new, mapped(new, segs, LineIndex(text)), fixable=False)


# -- CUDA in Python strings ----------------------------------------------------------------------
_CALLS = {"RawKernel": ("code", 0), "RawModule": ("code", 0), "load_inline": ("cuda_sources", 2)}


def python_units(path: str, text: str) -> list[Unit]:
    """The CUDA source strings of a Python file (not fixable: edits would have to respect the quoting)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    assigns: dict[str, list[ast.AST]] = {}
    for n in ast.walk(tree):
        if isinstance(n, (ast.Assign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                if isinstance(t, ast.Name) and n.value is not None:
                    assigns.setdefault(t.id, []).append(n.value)
    found: list[ast.Constant] = []

    def strings(v: ast.AST, depth: int = 0) -> None:
        if depth > 4:
            return
        if isinstance(v, ast.Constant) and isinstance(v.value, str):
            found.append(v)
        elif isinstance(v, (ast.List, ast.Tuple)):
            for e in v.elts:
                strings(e, depth + 1)
        elif isinstance(v, ast.Name):
            for a in assigns.get(v.id, []):
                strings(a, depth + 1)
        elif isinstance(v, ast.Call) and v.args:  # textwrap.dedent("...") and friends
            strings(v.args[0], depth + 1)

    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        name = n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id if isinstance(n.func, ast.Name) else None
        if name not in _CALLS:
            continue
        kw, pos = _CALLS[name]
        arg = next((k.value for k in n.keywords if k.arg == kw), None)
        if arg is None and len(n.args) > pos:
            arg = n.args[pos]
        if arg is not None:
            strings(arg)
    lines = text.splitlines(keepends=True)
    units, seen = [], set()
    for c in found:
        if id(c) in seen or not DEVICE_MARKERS.search(c.value):
            continue
        seen.add(id(c))
        units.append(Unit(path, backends.source().name, c.value, _string_locator(c, lines, text), fixable=False))
    return units


def _string_locator(c: ast.Constant, lines: list[str], text: str):
    line_text = lines[c.lineno - 1] if c.lineno - 1 < len(lines) else ""
    col0 = len(line_text.encode("utf-8")[:c.col_offset].decode("utf-8", errors="replace"))
    seg = ast.get_source_segment(text, c) or ""
    m = re.match(r"([rRbBuUfF]*)('''|\"\"\"|'|\")", seg)
    open_len = len(m.group(0)) if m else 1
    start_line, start_col = c.lineno, col0 + open_len + 1
    index = LineIndex(c.value)

    def locate(byte: int) -> tuple[int, int]:
        line, col = index(byte)
        return (start_line, start_col + col - 1) if line == 1 else (start_line + line - 1, col)
    return locate


# -- what a file's includes define (the project model) ------------------------------------------
_PROJECT: list = []  # this process's Project: each header parsed once per run, also in -j workers


def reset_project(options=None) -> None:
    """A new run: files may have changed since the last one.  `options`: the run's options function
    (lint.config.options_for: a file's -I/-D, [tool.kernelport], compile_commands.json), which the
    project gives the files it reads for a unit (its includers, their includes, the run's callers)."""
    _PROJECT.clear()
    if options is not None:
        from ..project import Project
        _PROJECT.append(Project(options))


def project():
    from ..project import Project
    if not _PROJECT:
        _PROJECT.append(Project())
    return _PROJECT[0]


def with_includes(u: Unit, path: Path, options, part: int | None = None) -> Unit:
    """`u` with what the files it includes define (macros, warp-level helpers) and the hardcoded
    warp-size macros among them, for the rules; its own definitions ruled out by -D dropped."""
    from .. import guards
    import os
    proj = project()
    key = path if part is None else Path(f"{path}#{part}")  # a string of a Python file: a file of its own
    try:
        pf = proj.add_text(key, u.text)
        vis = proj.visible(key, options)
        u.macros = proj.macro_defs(key, options)
        u.inactive = proj.inactive(key, options)
        sc = proj.scan(key, options)
        u.active = dict(sc.local.get(pf.path, {}))  # `#ifdef` decided by -D or an includer
        u.reached_files = tuple(p for p in dict.fromkeys([*sc.order, *sc.context]) if p != pf.path)  # (lint.triggers)
        u.parsed = pf  # the lint context reuses this parse and its model
    except Exception as e:  # never the end of the run: this file is linted alone, and says why (KP006)
        if os.environ.get("KERNELPORT_DEBUG"):
            raise
        u.include_error = f"{type(e).__name__}: {e}"
        return u
    headerconsts.add_visible(proj, key, options, vis)  # lint reads a header's constants like its macros
    u.visible = vis
    for name, mac in vis.macros.items():
        if mac.value_node is None or warpflow.int_value(mac.value) != 32 or not warpflow.WARP_SIZE_NAME.search(name):
            continue
        where, line, col = vis.where[name]
        owner = proj.file(Path(where))
        if owner is None or guards.platform_guarded(mac.node, owner.src):
            continue
        u.header_macros[name] = (str(shown(Path(where))), line, col, mac.value)
    includervalues.add_visible(proj, key, u.text, vis, u.header_macros)  # a header's WS from every includer
    return u
