"""Type-check Metal Shading Language (MSL) compute kernels on Linux.

No Metal compiler exists for Linux, but OpenCL's address spaces match Metal's one for one, so
clang in C++-for-OpenCL mode (``-x clcpp``) plus a header that models the Metal standard library
(``metal_stdlib.h``, next to this file) turns the mistakes that matter into real compile errors:
a pointer without an address space, a ``device`` pointer passed where a ``threadgroup`` one is
expected, ``double``, a float atomic on threadgroup memory, a SIMD-group reduction on a 64-bit
type, an implicit ``simd_vote`` to integer conversion.

MSL's ``[[attributes]]`` mean nothing to clang, so they are checked here in Python (known names,
argument forms, unique ``[[buffer(i)]]`` indices per kernel, built-in input types, every
pointer/reference kernel parameter with an address space and an index) and then blanked out.
``#include <metal_*>`` lines are blanked too.  Blanking keeps every line and column, so clang's
positions are the original file's positions.

    diags = check_metal_source(text, "ports/reduce.metal")
    # -> [Diagnostic("", Location("ports/reduce.metal", 12, 5), "Metal has no 'double' type: use float"), ...]
    #    str(d) == "ports/reduce.metal:12:5: error: Metal has no 'double' type: use float"

Template kernels (``template <...> kernel void f``), which clang's OpenCL mode rejects, are
checked once per explicit instantiation ``template [[host_name("h")]] kernel void f<A>(...);``:
a specialised copy of ``f`` (parameters substituted, a plain ``kernel void h``) replaces the
instantiation, under ``#line`` directives so that diagnostics point at the template's lines.

Limits: this is a type check, not a compiler.  Explicit specialisations of template kernels
(``template <> kernel ...``) and instantiations whose template arguments must be deduced,
textures/samplers, simdgroup matrices and graphics stages are not modelled; ``boolN`` vectors
are int vectors; ``float3`` sizes follow clang, not Metal's layout rules.
"""
from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .... import compile_cache
from ....diagnostics import Diagnostic
from .attributes import check_attributes, find_attributes
from .dead_branches import blank_dead_branches
from .clang import (CLANG_TIMEOUT_S, HEADER_PATH, MetalCheckUnavailable, clang_command, clang_path, parse_clang,
                    reports_an_error)
from .instances import specialise_templates
from .signatures import check_signatures, find_kernels
from .text import Lines, blank, diagnostic, mask
from .thread_aliases import thread_aliases
from .thread_arguments import MAX_ROUNDS, unshift_column, unwrap_output, wrap_temporaries
from .thread_constructors import thread_constructors
from .thread_declarations import thread_declarations
from .thread_locals import thread_locals
from .thread_members import thread_members
from .thread_params import INSERT, thread_params

__all__ = [
    "Diagnostic",
    "MetalCheckReport",
    "MetalCheckUnavailable",
    "HEADER_PATH",
    "check_metal_source",
    "check_metal_file",
    "run_check",
    "preprocess",
    "clang_command",
]


@dataclass
class MetalCheckReport:
    """The Metal checker's verdict on a port: its diagnostics and the clang run."""
    diagnostics: list[Diagnostic]
    command: list[str]
    clang_output: str
    returncode: int | None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors


# ---------------------------------------------------------------------------------------------
# Preprocessing: Python checks + the text clang sees
# ---------------------------------------------------------------------------------------------
def preprocess(text: str, filename: str = "<metal>") -> tuple[str, list[Diagnostic]]:
    """Check MSL attributes and kernel signatures; return (text for clang, diagnostics)
    (see _preprocess)."""
    clang_text, diags, _ = _preprocess(text, filename)
    return clang_text, diags


def _preprocess(text: str, filename: str = "<metal>") -> tuple[str, list[Diagnostic], list[tuple[int, int]]]:
    """Check MSL attributes and kernel signatures; return (text for clang, diagnostics, the
    (line, column) of each `thread ` written before a parameter: clang's columns after it move).

    The returned text has the same lines and (byte) columns as ``text``, except around template
    kernels: clang's OpenCL mode rejects them, so each explicit instantiation
    ``template [[host_name("h")]] kernel void f<A>(...);`` is replaced by a specialised copy of
    ``f`` (a plain ``kernel void h``) under ``#line`` directives that point back into ``text``
    (see ``instances.specialise_templates``)."""
    masked = blank_dead_branches(mask(text))  # (clang drops those branches itself)
    lines = Lines(text)
    diags: list[Diagnostic] = []
    chars = list(text)

    def err(offset: int, message: str, severity: str = "error") -> None:
        line, col = lines.pos(offset)
        diags.append(diagnostic(filename, line, col, message, severity, "attributes"))

    # 1. #include <metal_*> lines: the header provides them
    for m in re.finditer(r"(?m)^[ \t]*#[ \t]*include[ \t]*<(metal_\w+|simd/\w+\.h)>[^\n]*", masked):
        blank(chars, text, m.start(), m.end())

    # 2. attributes: checked, then blanked (standard C++ attributes are left for clang)
    groups = find_attributes(text, masked)
    kernels = find_kernels(masked, groups)
    check_attributes(text, masked, chars, groups, kernels, err)

    # 3. kernel signatures
    check_signatures(kernels, err)

    # 4. types Metal does not have that clang would accept
    for m in re.finditer(r"\blong\s+long\b", masked):
        err(m.start(), "Metal has no 'long long': use long (64-bit) or int")

    # 5. an ordinary function's pointer or reference parameter with no address space is `thread`
    # in MSL (C++ for OpenCL would make it generic, which accepts device and threadgroup memory)
    inserted = [lines.pos(at) for at in thread_params(masked, chars, [(k.param_start, k.param_end) for k in kernels])]
    # a member function with no space after its parameters has a `thread` object (generic in C++ for OpenCL)
    inserted += [lines.pos(at) for at in thread_members(masked, chars)]
    inserted += [lines.pos(at) for at in thread_constructors(masked, chars)]  # a constructor's, as a function's
    inserted += [lines.pos(at) for at in thread_declarations(masked, chars, [(k.param_start, k.param_end) for k in kernels])]
    inserted += [lines.pos(at) for at in thread_locals(masked, chars)]  # a local `int *q = p;` / `int &r = a[0];`
    inserted += [lines.pos(at) for at in thread_aliases(masked, chars)]  # `typedef float* fptr;`: a thread pointer

    # 6. template kernels: one specialised copy per explicit instantiation
    specialise_templates(text, masked, chars, groups, lines, err)

    return "".join(chars), diags, inserted


# what makes clang read a file other than the port and the checker's header (which includes nothing):
# the port's include directory matters to a port that has one of these only
_READS_FILES = re.compile(r"#\s*(?:include|import|include_next|embed)\b|__has_include|__has_embed")


def run_check(text: str, filename: str = "<metal>", *, clang: str | None = None,
              include_warnings: bool = False, defines=(), include_dirs=()) -> MetalCheckReport:
    """Check MSL source ``text``; diagnostics point into ``filename`` (lines/columns of ``text``);
    ``defines`` ((name, value) pairs) and ``include_dirs``: the port's configured -D and -I.

    Raises MetalCheckUnavailable when no suitable clang exists."""
    clang = clang or clang_path()
    clang_text, diags, inserted = _preprocess(text, filename)
    lines = Lines(text)
    configured, include_dirs = [Path(d) for d in include_dirs], []
    if filename and not filename.startswith("<") and _READS_FILES.search(clang_text):  # -I only steers those
        parent = Path(filename).resolve().parent
        if parent.is_dir():
            include_dirs.append(parent)
        include_dirs += [d for d in configured if d not in include_dirs]  # after the port's own, as a compiler
    base = re.sub(r"[^\w.\-]", "_", Path(filename).name if filename and not filename.startswith("<") else "kernel.metal")
    with tempfile.TemporaryDirectory(prefix="kp-metal-") as tmp:
        src = os.path.join(tmp, base or "kernel.metal")
        rounds: list[list[tuple[int, int, int]]] = []  # each round's wraps of temporaries (thread_arguments)
        pending = None  # a temporary still let through when the rounds ran out: what follows it is unchecked
        for r in range(MAX_ROUNDS):
            with open(src, "w", encoding="utf-8") as fh:
                fh.write(clang_text)
            try:
                cmd, output, rc = _run_clang(clang, src, include_dirs, defines)
            except subprocess.TimeoutExpired as exc:
                cmd = clang_command(clang, src, include_dirs, defines)
                output = f"clang timed out after {CLANG_TIMEOUT_S} s\n{exc.stdout or ''}{exc.stderr or ''}"
                rc = None
                diags.append(diagnostic(filename, 1, 1, f"clang timed out after {CLANG_TIMEOUT_S} s", "error", "clang"))
                break
            let_through: list = []
            parse_clang(output, src, filename, lines, let_through)
            wrapped, shifts = wrap_temporaries(clang_text, let_through)
            if not shifts:
                break
            if r == MAX_ROUNDS - 1:
                pending = let_through[0]
                break
            clang_text = wrapped
            rounds.append(shifts)
        output = unwrap_output(output, src, rounds)
        clang_diags = [_unshift(d, inserted, filename) for d in parse_clang(output, src, filename, lines)]
        if pending is not None:  # never a pass the checker did not finish (thread_arguments.py)
            clang_diags.append(_unshift(diagnostic(
                filename, pending[1], unshift_column(pending[1], pending[2], rounds),
                f"{pending[3]}; the arguments after this temporary were not checked ({MAX_ROUNDS} rounds): "
                f"copy them into thread locals", "error", "clang"), inserted, filename))
    if rc not in (0, None) and not reports_an_error(output):
        # clang failed without a parsable diagnostic: never report success
        clang_diags.append(diagnostic(filename, 1, 1, f"clang failed (exit {rc}): {output.strip()[:500]}", "error", "clang"))
    # the Python check already explains pointer parameters without an address space
    flagged = {d.line for d in diags if "without an address space" in d.message}
    clang_diags = [d for d in clang_diags
                   if not (d.line in flagged and "pointer arguments to kernel functions must reside" in d.message)]
    all_diags = sorted(diags + clang_diags, key=lambda d: (d.path != filename, d.line, d.column))
    # one error in a template kernel is reported once, whatever the number of instantiations
    merged: dict[tuple, Diagnostic] = {}
    for d in all_diags:
        k = (d.path, d.line, d.column, d.message, d.severity, d.source)
        prev = merged.get(k)
        if prev is None:
            merged[k] = d
        else:
            prev.notes += tuple(n for n in d.notes if n not in prev.notes)
    all_diags = list(merged.values())
    if not include_warnings:
        all_diags = [d for d in all_diags if d.severity == "error"]
    return MetalCheckReport(all_diags, cmd, output, rc)


def _run_clang(clang: str, src: str, include_dirs, defines) -> tuple[list[str], str, int]:
    """(the command, its output, its exit status) of clang checking `src`: against the header's PCH
    (stdlib_pch) where one can be had and clang takes it, else with the header itself."""
    from . import stdlib_pch
    pch_path = stdlib_pch.header_pch(clang, defines)
    if pch_path is not None:
        cmd, output, rc = _clang_once(clang, src, include_dirs, defines, pch_path)
        if stdlib_pch.stands(output, rc, pch_path):
            return cmd, output, rc
        from .... import pch
        pch.forget(pch_path)  # refused (the header changed since, or a damaged file): built again next time
    return _clang_once(clang, src, include_dirs, defines, None)


def _clang_once(clang: str, src: str, include_dirs, defines, pch_path) -> tuple[list[str], str, int]:
    from . import clang as tool  # its HEADER_PATH read now: a test points it at a copy
    cmd = clang_command(clang, src, include_dirs, defines, pch=pch_path)
    inputs = (tool.HEADER_PATH,) if pch_path is None else (tool.HEADER_PATH, pch_path)  # a rebuilt PCH: another key
    proc = compile_cache.run(cmd, src, search_dirs=include_dirs, inputs=inputs,
                             timeout=CLANG_TIMEOUT_S, memo=True)  # translate's self-check, then verify's
    return cmd, proc.stdout + proc.stderr, proc.returncode


def _unshift(d: Diagnostic, inserted: list[tuple[int, int]], filename: str) -> Diagnostic:
    """A clang diagnostic's column on a line where `thread ` was written before it, as in the file."""
    moved = sum(len(INSERT) for line, col in inserted if d.path == filename and line == d.line and col < d.column)
    return dataclasses.replace(d, location=dataclasses.replace(d.location, column=d.column - moved)) if moved else d


def check_metal_source(text: str, filename: str = "<metal>", *, clang: str | None = None,
                       include_warnings: bool = False) -> list[Diagnostic]:
    """Diagnostics (errors; warnings too with include_warnings) for MSL source ``text``.

    An empty list means the source type-checks.  Raises MetalCheckUnavailable without clang."""
    return run_check(text, filename, clang=clang, include_warnings=include_warnings).diagnostics


def check_metal_file(path, *, clang: str | None = None, include_warnings: bool = False) -> list[Diagnostic]:
    """check_metal_source on the contents of ``path``."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    return check_metal_source(text, str(path), clang=clang, include_warnings=include_warnings)
