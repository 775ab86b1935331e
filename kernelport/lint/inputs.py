"""Which files to lint, and what text of each the rules analyse.

- `.cu`, `.cuh`, `.hip`: CUDA / HIP C++.  Headers (`.h`, `.hpp`, `.hh`, `.hxx`, `.inl`) are linted
  when they hold device code (or are named on the command line).
- `.metal`: Metal Shading Language goes through a same-meaning shim (`kernel` → `__global__`,
  `threadgroup` → `__shared__`, `simd_shuffle_down` → the mask-less shuffle, attributed thread-index
  parameters bound to `threadIdx`), so the warp-size dataflow reads it; positions map back.
- `.py`: CUDA source in string literals given to cupy `RawKernel`/`RawModule` or
  `torch.utils.cpp_extension.load_inline(cuda_sources=...)`, found with `ast`; positions map back
  into the Python file.
- Directories are walked recursively; `.gitignore` files (from the repository root down) and
  `exclude` patterns are honoured; VCS and virtual-environment directories are skipped.
"""
from __future__ import annotations

import ast
import bisect
import os
import re
from functools import lru_cache
from pathlib import Path

import pathspec

from .. import dialect, warpflow
from .context import Unit

CUDA_EXT = {".cu": "cuda", ".cuh": "cuda", ".hip": "hip", ".metal": "metal", ".py": "python"}
HEADER_EXT = {".h", ".hpp", ".hh", ".hxx", ".inl", ".cuh"}
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", ".tox", ".mypy_cache",
             ".pytest_cache", ".ruff_cache", "build", "dist", ".eggs"}
DEVICE_MARKERS = re.compile(r"__global__|__device__|__shared__|threadIdx|__syncthreads|__shfl|warpSize|__ballot")
PY_MARKERS = re.compile(r"RawKernel|RawModule|load_inline")


def language(path: Path) -> str | None:
    ext = path.suffix.lower()
    if ext in CUDA_EXT:
        return CUDA_EXT[ext]
    if ext in HEADER_EXT:
        return "header"
    return None


# -- discovery --------------------------------------------------------------------------------
def _repo_root(d: Path) -> Path | None:
    for p in (d, *d.parents):
        if (p / ".git").exists():
            return p
    return None


@lru_cache(maxsize=None)
def _ignore_spec(d: Path) -> pathspec.PathSpec | None:
    f = d / ".gitignore"
    if not f.is_file():
        return None
    try:
        return pathspec.GitIgnoreSpec.from_lines(f.read_text(encoding="utf-8", errors="replace").splitlines())
    except Exception:  # a malformed .gitignore line: ignore the file rather than fail
        return None


def _ignored(path: Path, is_dir: bool, specs: list[tuple[Path, pathspec.PathSpec]]) -> bool:
    for base, spec in specs:
        try:
            rel = path.relative_to(base).as_posix()
        except ValueError:
            continue
        if spec.match_file(rel + ("/" if is_dir else "")):
            return True
    return False


def discover(paths: list[Path], exclude_for=lambda p: ()) -> list[tuple[Path, bool]]:
    """Files to lint as (path, named explicitly), in a deterministic order."""
    out: list[tuple[Path, bool]] = []
    seen: set[Path] = set()
    for root in paths:
        if root.is_file() or not root.exists():
            if root not in seen:
                seen.add(root)
                out.append((root, True))
            continue
        top = root.resolve()
        repo = _repo_root(top)
        specs: list[tuple[Path, pathspec.PathSpec]] = []
        if repo is not None:
            chain = [top, *top.parents]
            for d in reversed(chain[:chain.index(repo) + 1] if repo in chain else [top]):
                if d != top:
                    s = _ignore_spec(d)
                    if s is not None:
                        specs.append((d, s))
        found: list[Path] = []

        def walk(d: Path, specs: list) -> None:
            s = _ignore_spec(d)
            local = specs + [(d, s)] if s is not None else specs
            ex = exclude_for(d)
            try:
                entries = sorted(os.scandir(d), key=lambda e: e.name)
            except OSError:
                return
            for e in entries:
                p = Path(e.path)
                is_dir = e.is_dir(follow_symlinks=False)
                if is_dir and (e.name in SKIP_DIRS or e.name.startswith(".")):
                    continue
                if _ignored(p, is_dir, local) or (ex and _excluded(p, is_dir, ex)):
                    continue
                if is_dir:
                    walk(p, local)
                elif e.is_file() and language(p) is not None:
                    found.append(p)

        walk(top, specs)
        for p in found:
            shown = Path(os.path.relpath(p, Path.cwd())) if _under(p, Path.cwd()) else p
            if shown not in seen:
                seen.add(shown)
                out.append((shown, False))
    return out


def _under(p: Path, d: Path) -> bool:
    try:
        p.resolve().relative_to(d.resolve())
        return True
    except ValueError:
        return False


def _excluded(p: Path, is_dir: bool, ex: tuple[Path, pathspec.PathSpec]) -> bool:
    base, spec = ex
    try:
        rel = p.resolve().relative_to(base).as_posix()
    except ValueError:
        return False
    return spec.match_file(rel + ("/" if is_dir else ""))


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
# Metal attribute parameters -> the CUDA expression they stand for.  From the dialect table's
# metal_attr column; the last two are common Metal spellings the table does not list yet.
def _metal_params() -> dict[str, str]:
    m = {}
    for key, expr in (("thread_idx", "threadIdx.x"), ("block_idx", "blockIdx.x"), ("block_dim", "blockDim.x"),
                      ("grid_dim", "gridDim.x"), ("warp_size", "warpSize"),
                      ("lane_id", "(threadIdx.x % warpSize)"), ("warp_id", "(threadIdx.x / warpSize)")):
        attr = dialect.concept(key).attribute("metal")
        if attr:
            m[attr[1]] = expr
    m.setdefault("thread_index_in_threadgroup", "threadIdx.x")
    m.setdefault("thread_position_in_grid", "(blockIdx.x * blockDim.x + threadIdx.x)")
    return m


def _metal_calls() -> dict[str, str]:
    """Metal warp intrinsic -> the mask-less legacy spelling the CUDA column also reads."""
    out = {}
    for c in dialect.CONCEPTS:
        if not c.warp_level or c.kind not in ("shuffle", "vote"):
            continue
        mn, hn = c.name("metal"), c.name("hip")
        if mn and hn and mn.startswith("simd_") and dialect.lookup("cuda", hn) is c:
            out[mn] = hn
    return out


_PARAM = re.compile(r"\b(\w+)\s*\[\[\s*(\w+)\s*\]\]")


def metal_unit(path: str, text: str) -> Unit:
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
    calls = _metal_calls()
    if calls:
        for m in re.finditer(r"\b(" + "|".join(map(re.escape, sorted(calls, key=len, reverse=True))) + r")\b(?=\s*\()", text):
            sh.replace(m.start(), m.end(), calls[m.group(1)])
    params = _metal_params()
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
    return Unit(path, "metal", new, mapped(new, segs, LineIndex(text)), fixable=False)


# -- CUDA in Python strings ----------------------------------------------------------------------
_CALLS = {"RawKernel": ("code", 0), "RawModule": ("code", 0), "load_inline": ("cuda_sources", 2)}


def python_units(path: str, text: str) -> list[Unit]:
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
        units.append(Unit(path, "cuda", c.value, _string_locator(c, lines, text), fixable=False))
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


# -- headers ------------------------------------------------------------------------------------
_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


@lru_cache(maxsize=256)
def header_macros(header: Path, depth: int = 0) -> tuple[tuple[str, tuple[str, int, int, str]], ...]:
    """Hardcoded warp-size macros a quoted header (and what it includes) defines."""
    from ..model import build
    from ..source import SourceFile
    from . import guards
    try:
        text = header.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ()
    out: dict[str, tuple[str, int, int, str]] = {}
    if depth < 3:
        for inc in _INCLUDE.findall(text):
            p = (header.parent / inc)
            if p.is_file():
                out.update(dict(header_macros(p.resolve(), depth + 1)))
    if "define" not in text:
        return tuple(out.items())
    src = SourceFile.from_text(text, str(header))
    for name, mac in build(src).macros.items():
        if mac.value_node is None or warpflow.int_value(mac.value) != 32 or not warpflow.WARP_SIZE_NAME.search(name):
            continue
        if guards.platform_guarded(mac.node, src):
            continue
        loc = src.loc(mac.value_node)
        out[name] = (str(header), loc.line, loc.column, mac.value)
    return tuple(out.items())


def included_macros(path: Path, text: str) -> dict[str, tuple[str, int, int, str]]:
    out: dict[str, tuple[str, int, int, str]] = {}
    for inc in _INCLUDE.findall(text):
        p = path.parent / inc
        if p.is_file():
            shown = Path(os.path.relpath(p, Path.cwd())) if _under(p, Path.cwd()) else p
            for name, (where, line, col, value) in header_macros(p.resolve()):
                out[name] = (str(shown) if Path(where) == p.resolve() else where, line, col, value)
    return out
