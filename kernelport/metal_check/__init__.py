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

from ..cexpr import split_top_level
from ..diagnostics import Diagnostic
from ..errors import Location

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

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

HEADER_PATH = Path(__file__).with_name("metal_stdlib.h")
CLANG_TIMEOUT_S = 120


class MetalCheckUnavailable(RuntimeError):
    """No clang with C++-for-OpenCL support was found; the message carries an install hint."""


def diagnostic(path: str, line: int, column: int, message: str, severity: str = "error", source: str = "clang",
               notes: tuple[str, ...] = ()) -> Diagnostic:
    """A type-check diagnostic (no code: the messages are clang's and the attribute checks')."""
    return Diagnostic("", Location(path, line, column), message, severity=severity, source=source, notes=notes)


@dataclass
class MetalCheckReport:
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
# MSL attribute tables (MSL specification, section 5.2 "Attributes for kernel function inputs"
# and 5.1 "Function qualifiers / attributes")
# ---------------------------------------------------------------------------------------------
_GRID_TYPES = frozenset({"uint", "uint2", "uint3", "ushort", "ushort2", "ushort3"})
_SCALAR_TYPES = frozenset({"uint", "ushort"})

#: built-in kernel inputs and the parameter types Metal accepts for them
BUILTIN_ATTRIBUTES: dict[str, frozenset[str]] = {
    "thread_position_in_grid": _GRID_TYPES,
    "thread_position_in_threadgroup": _GRID_TYPES,
    "threadgroup_position_in_grid": _GRID_TYPES,
    "threads_per_grid": _GRID_TYPES,
    "threads_per_threadgroup": _GRID_TYPES,
    "threadgroups_per_grid": _GRID_TYPES,
    "dispatch_threads_per_threadgroup": _GRID_TYPES,
    "grid_origin": _GRID_TYPES,
    "grid_size": _GRID_TYPES,
    "thread_index_in_threadgroup": _SCALAR_TYPES,
    "thread_execution_width": _SCALAR_TYPES,
    "threads_per_simdgroup": _SCALAR_TYPES,
    "thread_index_in_simdgroup": _SCALAR_TYPES,
    "simdgroup_index_in_threadgroup": _SCALAR_TYPES,
    "simdgroups_per_threadgroup": _SCALAR_TYPES,
    "dispatch_simdgroups_per_threadgroup": _SCALAR_TYPES,
    "thread_index_in_quadgroup": _SCALAR_TYPES,
    "quadgroup_index_in_threadgroup": _SCALAR_TYPES,
    "quadgroups_per_threadgroup": _SCALAR_TYPES,
    "dispatch_quadgroups_per_threadgroup": _SCALAR_TYPES,
}

#: resource bindings: attribute -> highest index Metal allows
INDEXED_ATTRIBUTES: dict[str, int] = {
    "buffer": 30,
    "threadgroup": 30,
    "texture": 127,
    "sampler": 15,
}
#: other MSL attributes taking an index-like argument (argument buffers, function constants,
#: graphics stages); accepted, not checked further
_OTHER_INDEXED = frozenset({"id", "function_constant", "attribute", "color", "raster_order_group", "user"})
#: graphics-stage inputs/outputs: valid MSL, but not on a kernel parameter
_GRAPHICS_ATTRIBUTES = frozenset(
    {
        "stage_in", "vertex_id", "instance_id", "base_vertex", "base_instance", "position",
        "point_size", "clip_distance", "front_facing", "point_coord", "sample_id", "sample_mask",
        "render_target_array_index", "viewport_array_index", "primitive_id", "barycentric_coord",
        "center_perspective", "center_no_perspective", "centroid_perspective", "flat",
        "depth", "stencil", "patch_id", "invariant",
    }
)
_FUNCTION_ATTRIBUTES = frozenset(
    {
        "max_total_threads_per_threadgroup", "host_name", "kernel", "vertex", "fragment",
        "visible", "stitchable", "early_fragment_tests", "patch", "object", "mesh",
        "required_threads_per_threadgroup",
    }
)
#: standard C++ attributes: left in place for clang
_STANDARD_ATTRIBUTES = frozenset(
    {
        "maybe_unused", "nodiscard", "noreturn", "deprecated", "fallthrough", "likely",
        "unlikely", "carries_dependency", "no_unique_address",
    }
)
_ADDRESS_SPACES = ("device", "constant", "threadgroup", "thread", "threadgroup_imageblock", "ray_data", "object_data")
_TYPE_ALIASES = {
    "uint32_t": "uint", "uint16_t": "ushort", "unsigned int": "uint", "unsigned short": "ushort",
    "unsigned": "uint", "int32_t": "int", "int16_t": "short",
}

_INT_LITERAL = re.compile(r"^(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")
_IDENT = re.compile(r"[A-Za-z_]\w*")


# ---------------------------------------------------------------------------------------------
# Text helpers
# ---------------------------------------------------------------------------------------------
def _mask(text: str) -> str:
    """Same-length copy of ``text`` with comments blanked and literal contents neutralised.

    Newlines are kept; string and character literals keep their quotes, their contents become
    ``_`` so that no bracket, comma or quote inside them is mistaken for code."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":  # line splice
                    out[i] = " "
                    i += 2
                    continue
                out[i] = " "
                i += 1
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for k in range(i, end):
                if text[k] != "\n":
                    out[k] = " "
            i = end
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            quote = c
            k = i + 1
            while k < n and text[k] != quote and text[k] != "\n":
                out[k] = "_"
                if text[k] == "\\" and k + 1 < n:
                    out[k + 1] = "_"
                    k += 2
                    continue
                k += 1
            i = k + 1
        else:
            i += 1
    return "".join(out)


class _Lines:
    """Offset -> (line, column) conversion, 1-based, columns in characters."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0]
        for m in re.finditer("\n", text):
            self.starts.append(m.end())

    def pos(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo] + 1

    def line_text(self, line: int) -> str:
        if not 1 <= line <= len(self.starts):
            return ""
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[start:end]

    def char_column(self, line: int, byte_column: int) -> int:
        """clang counts columns in bytes; convert to characters."""
        raw = self.line_text(line).encode("utf-8")
        return len(raw[: max(byte_column - 1, 0)].decode("utf-8", errors="ignore")) + 1


def _blank(chars: list[str], text: str, start: int, end: int) -> None:
    """Replace text[start:end] by spaces, keeping newlines and UTF-8 byte widths (clang columns
    are byte columns)."""
    for k in range(start, end):
        ch = text[k]
        if ch == "\n":
            chars[k] = "\n"
        else:
            chars[k] = " " * len(ch.encode("utf-8"))


def _matching(masked: str, start: int, open_ch: str, close_ch: str) -> int:
    """Index of the bracket closing the one at ``start`` (or -1)."""
    depth = 0
    for k in range(start, len(masked)):
        c = masked[k]
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return k
    return -1


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------
@dataclass
class _Attr:
    name: str  # without namespace
    namespace: str  # "" or e.g. "clang"
    args: str | None  # raw argument text (original, not masked) or None
    start: int  # offset of the spec (name start)
    end: int  # offset after the spec
    bracket_start: int  # offset of the enclosing "[["
    bracket_end: int  # offset after the enclosing "]]"

    @property
    def spelling(self) -> str:
        return f"[[{self.name}({self.args})]]" if self.args is not None else f"[[{self.name}]]"


def _find_attributes(text: str, masked: str) -> list[tuple[int, int, list[_Attr]]]:
    """All ``[[ ... ]]`` groups: (start, end, specs)."""
    groups = []
    i = 0
    while True:
        i = masked.find("[[", i)
        if i < 0:
            break
        # find the closing "]]" at bracket depth 0 inside
        depth = 0
        k = i + 2
        end = -1
        while k < len(masked):
            c = masked[k]
            if c in "([{":
                depth += 1
            elif c in ")}":
                depth -= 1
            elif c == "]":
                if depth == 0 and masked.startswith("]]", k):
                    end = k + 2
                    break
                depth -= 1
            k += 1
        if end < 0:
            break
        specs: list[_Attr] = []
        body_start, body_end = i + 2, end - 2
        # split on top-level commas
        parts = []
        depth = 0
        seg = body_start
        for k in range(body_start, body_end):
            c = masked[k]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            elif c == "," and depth == 0:
                parts.append((seg, k))
                seg = k + 1
        parts.append((seg, body_end))
        for s, e in parts:
            chunk = masked[s:e]
            m = re.match(r"\s*(?:([A-Za-z_]\w*)\s*::\s*)?([A-Za-z_]\w*)\s*", chunk)
            if not m:
                continue
            ns, name = m.group(1) or "", m.group(2)
            args = None
            rest = m.end()
            if rest < len(chunk) and chunk[rest] == "(":
                close = _matching(masked, s + rest, "(", ")")
                if close > 0:
                    args = text[s + rest + 1 : close].strip()
            specs.append(_Attr(name, ns, args, s + m.start(2), e, i, end))
        groups.append((i, end, specs))
        i = end
    return groups


# ---------------------------------------------------------------------------------------------
# Kernels and parameters
# ---------------------------------------------------------------------------------------------
@dataclass
class _Param:
    start: int
    end: int
    text: str  # declaration with attributes blanked (masked text)
    attrs: list[_Attr]


@dataclass
class _Kernel:
    name: str
    name_offset: int
    params: list[_Param]
    param_start: int
    param_end: int


def _split_params(masked: str, open_idx: int, close_idx: int) -> list[tuple[int, int]]:
    out = []
    depth = 0
    seg = open_idx + 1
    k = open_idx + 1
    while k < close_idx:
        c = masked[k]
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        elif c == "," and depth == 0:
            out.append((seg, k))
            seg = k + 1
        k += 1
    out.append((seg, close_idx))
    return [(s, e) for s, e in out if masked[s:e].strip()]


def _find_kernels(masked: str, attr_groups) -> list[_Kernel]:
    kernels = []
    for m in re.finditer(r"\bkernel\b", masked):
        k = m.end()
        if masked[max(m.start() - 2, 0) : m.start()].endswith("[[") or re.compile(r"\s*\]\]").match(masked, k):
            closing = re.compile(r"\s*\]\]").match(masked, k)  # [[kernel]] void f(...)
            if closing:
                k = closing.end()
        mv = re.compile(r"\s*void\b").match(masked, k)
        if not mv:
            continue
        k = mv.end()
        # skip whitespace and attribute groups between return type and name
        while True:
            ws = re.compile(r"\s*").match(masked, k)
            k = ws.end()
            if masked.startswith("[[", k):
                grp = next((g for g in attr_groups if g[0] == k), None)
                if grp is None:
                    break
                k = grp[1]
                continue
            break
        mn = _IDENT.match(masked, k)
        if not mn:
            continue
        name = mn.group(0)
        k = mn.end()
        k = re.compile(r"\s*").match(masked, k).end()
        if k < len(masked) and masked[k] == "<":  # explicit instantiation f<float>(...)
            close = _matching(masked, k, "<", ">")
            if close < 0:
                continue
            k = re.compile(r"\s*").match(masked, close + 1).end()
        if k >= len(masked) or masked[k] != "(":
            continue
        close = _matching(masked, k, "(", ")")
        if close < 0:
            continue
        params = []
        for s, e in _split_params(masked, k, close):
            attrs = [a for g in attr_groups if s <= g[0] < e for a in g[2]]
            chars = list(masked[s:e])
            for g in attr_groups:
                if s <= g[0] < e:
                    for q in range(g[0], min(g[1], e)):
                        chars[q - s] = " "
            params.append(_Param(s, e, "".join(chars), attrs))
        kernels.append(_Kernel(name, mn.start(), params, k, close))
    return kernels


_TOKEN = re.compile(r"::|[A-Za-z_]\w*|\S")
_QUALIFIERS = frozenset({"const", "volatile", "restrict", "__restrict", "__restrict__"})


def _analyse_param(decl: str) -> tuple[str | None, str, str | None, bool]:
    """(name, normalised type, address space, is pointer or reference)."""
    tokens = _TOKEN.findall(decl)
    is_ptr = any(t in ("*", "&") for t in tokens)
    space = next((t for t in tokens if t in _ADDRESS_SPACES), None)
    # strip an array suffix: "float a[4]"
    if "[" in tokens:
        tokens = tokens[: tokens.index("[")]
    name = None
    if tokens and _IDENT.fullmatch(tokens[-1]):
        type_words = [t for t in tokens[:-1] if t not in _QUALIFIERS and t not in _ADDRESS_SPACES]
        if type_words and (type_words[-1] in ("*", "&") or _IDENT.fullmatch(type_words[-1]) or type_words[-1] == ">"):
            name = tokens[-1]
            tokens = tokens[:-1]
    type_tokens = [t for t in tokens if t not in _QUALIFIERS and t not in _ADDRESS_SPACES]
    type_text = " ".join(type_tokens)
    type_text = re.sub(r"\bmetal\s*::\s*", "", type_text)
    type_text = re.sub(r"\s*([<>,*&])\s*", r"\1", type_text).strip()
    mv = re.fullmatch(r"vec<(\w+),(\d)>", type_text)
    if mv:
        type_text = mv.group(1) + mv.group(2)
    type_text = _TYPE_ALIASES.get(type_text, type_text)
    return name, type_text, space, is_ptr


# ---------------------------------------------------------------------------------------------
# Preprocessing: Python checks + the text clang sees
# ---------------------------------------------------------------------------------------------
def preprocess(text: str, filename: str = "<metal>") -> tuple[str, list[Diagnostic]]:
    """Check MSL attributes and kernel signatures; return (text for clang, diagnostics).

    The returned text has the same lines and (byte) columns as ``text``, except around template
    kernels: clang's OpenCL mode rejects them, so each explicit instantiation
    ``template [[host_name("h")]] kernel void f<A>(...);`` is replaced by a specialised copy of
    ``f`` (a plain ``kernel void h``) under ``#line`` directives that point back into ``text``
    (see ``_specialise_templates``)."""
    masked = _mask(text)
    lines = _Lines(text)
    diags: list[Diagnostic] = []
    chars = list(text)

    def err(offset: int, message: str, severity: str = "error") -> None:
        line, col = lines.pos(offset)
        diags.append(diagnostic(filename, line, col, message, severity, "attributes"))

    # 1. #include <metal_*> lines: the header provides them
    for m in re.finditer(r"(?m)^[ \t]*#[ \t]*include[ \t]*<(metal_\w+|simd/\w+\.h)>[^\n]*", masked):
        _blank(chars, text, m.start(), m.end())

    # 2. attributes
    groups = _find_attributes(text, masked)
    kernels = _find_kernels(masked, groups)
    in_kernel_params = {}
    for kern in kernels:
        for p in kern.params:
            for a in p.attrs:
                in_kernel_params[id(a)] = kern

    for g_start, g_end, specs in groups:
        keep = []  # standard attributes left for clang
        for a in specs:
            if a.namespace in ("clang", "gnu") or (not a.namespace and a.name in _STANDARD_ATTRIBUTES):
                keep.append(a)
                continue
            if a.namespace:
                err(a.start, f"unknown attribute '{a.namespace}::{a.name}'")
                continue
            name, args = a.name, a.args
            in_params = id(a) in in_kernel_params
            if name in BUILTIN_ATTRIBUTES:
                if args is not None:
                    err(a.start, f"[[{name}]] takes no argument")
                if not in_params:
                    err(a.start, f"[[{name}]] is only valid on a kernel parameter")
            elif name in INDEXED_ATTRIBUTES:
                if args is None or not args:
                    err(a.start, f"[[{name}(index)]] needs an index")
                elif _INT_LITERAL.match(args):
                    idx = int(re.sub(r"[uUlL]+$", "", args), 0)
                    if idx > INDEXED_ATTRIBUTES[name]:
                        err(a.start, f"[[{name}({args})]]: index out of range (0..{INDEXED_ATTRIBUTES[name]})")
                elif not re.fullmatch(r"[\w\s+\-*/()]+", args):
                    err(a.start, f"[[{name}({args})]]: the index must be an integer constant")
            elif name in _OTHER_INDEXED:
                if args is None or not args:
                    err(a.start, f"[[{name}(...)]] needs an argument")
            elif name in _GRAPHICS_ATTRIBUTES:
                if in_params:
                    err(a.start, f"[[{name}]] is not an input of a kernel (compute) function")
            elif name in _FUNCTION_ATTRIBUTES:
                if in_params:
                    err(a.start, f"[[{name}]] is a function attribute, not a parameter attribute")
                if name == "max_total_threads_per_threadgroup":
                    if not args:
                        err(a.start, "[[max_total_threads_per_threadgroup(N)]] needs a thread count")
                    elif _INT_LITERAL.match(args):
                        n = int(re.sub(r"[uUlL]+$", "", args), 0)
                        if not 1 <= n <= 1024:
                            err(a.start, f"[[max_total_threads_per_threadgroup({args})]]: must be 1..1024")
                elif name == "host_name":
                    if not args or not re.fullmatch(r'"[A-Za-z_]\w*"', args):
                        err(a.start, '[[host_name("name")]] needs a string literal naming a valid identifier')
                elif name == "kernel" and args is not None:
                    err(a.start, "[[kernel]] takes no argument")
            else:
                err(a.start, f"unknown attribute [[{name}]]")
        # blank the MSL attributes; keep standard ones
        if not keep:
            _blank(chars, text, g_start, g_end)
            after = re.compile(r"\s*").match(masked, g_end).end()
            if (len(specs) == 1 and specs[0].name == "function_constant" and g_end - g_start >= 4
                    and masked.startswith(";", after)):
                # `constant T name [[function_constant(i)]];` has no initializer: give clang one
                chars[g_start : g_start + 4] = list("= {}")
            if len(specs) == 1 and specs[0].name == "kernel" and not specs[0].namespace and g_end - g_start >= 6:
                # [[kernel]] void f(...)  ->  kernel void f(...)
                chars[g_start : g_start + 6] = list("kernel")
        else:
            kept = {id(a) for a in keep}
            for idx, a in enumerate(specs):
                if id(a) in kept:
                    continue
                end = a.end
                if end < g_end - 2 and masked[end] == ",":
                    end += 1
                elif idx > 0:
                    prev_comma = masked.rfind(",", g_start, a.start)
                    if prev_comma >= 0:
                        _blank(chars, text, prev_comma, prev_comma + 1)
                _blank(chars, text, a.start, end)

    # 3. kernel signatures
    for kern in kernels:
        used: dict[tuple[str, int], str] = {}
        for p in kern.params:
            name, type_text, space, is_ptr = _analyse_param(p.text)
            label = f"'{name}'" if name else "(unnamed)"
            pstart = p.start + (len(p.text) - len(p.text.lstrip()))
            builtins = [a for a in p.attrs if a.name in BUILTIN_ATTRIBUTES]
            buffers = [a for a in p.attrs if a.name == "buffer"]
            tgroups = [a for a in p.attrs if a.name == "threadgroup"]
            textures = [a for a in p.attrs if a.name in ("texture", "sampler")]
            for a in p.attrs:
                if a.name in INDEXED_ATTRIBUTES and a.args and _INT_LITERAL.match(a.args):
                    key = (a.name, int(re.sub(r"[uUlL]+$", "", a.args), 0))
                    if key in used:
                        err(a.start, f"duplicate [[{a.name}({key[1]})]] in kernel '{kern.name}': "
                                     f"already used by parameter {used[key]}")
                    else:
                        used[key] = label
            if len(builtins) > 1:
                err(builtins[1].start, f"kernel parameter {label} has more than one built-in attribute")
            if builtins and (buffers or tgroups or textures):
                other = (buffers or tgroups or textures)[0]
                err(other.start, f"kernel parameter {label} cannot be both a built-in input "
                                 f"([[{builtins[0].name}]]) and a bound resource ([[{other.name}(...)]])")
            if is_ptr:
                if space is None:
                    err(pstart, f"kernel parameter {label} is a pointer or reference without an address "
                                f"space: declare it device, constant or threadgroup "
                                f"(e.g. `device float* {name or 'p'} [[buffer(i)]]`)")
                elif space == "thread":
                    err(pstart, f"kernel parameter {label} cannot point to thread memory: use device or constant")
                elif space in ("device", "constant"):
                    if tgroups:
                        err(tgroups[0].start, f"[[threadgroup(i)]] needs a threadgroup pointer, but {label} is {space}")
                    elif not buffers and not textures:
                        err(pstart, f"{space} kernel parameter {label} needs a [[buffer(i)]] attribute")
                elif space == "threadgroup":
                    if buffers:
                        err(buffers[0].start, f"[[buffer(i)]] needs a device or constant pointer, but {label} is threadgroup")
                    elif not tgroups:
                        err(pstart, f"threadgroup kernel parameter {label} needs a [[threadgroup(i)]] attribute")
                for a in builtins:
                    err(a.start, f"[[{a.name}]] needs a value parameter of type "
                                 f"{_fmt_types(BUILTIN_ATTRIBUTES[a.name])}, not a pointer or reference")
            else:
                for a in builtins:
                    allowed = BUILTIN_ATTRIBUTES[a.name]
                    if type_text not in allowed:
                        err(a.start, f"[[{a.name}]] requires type {_fmt_types(allowed)}, "
                                     f"not '{type_text or '?'}'")
                if tgroups:
                    err(tgroups[0].start, f"[[threadgroup(i)]] needs a `threadgroup T*` parameter, but {label} is a value")
                if space is not None and not is_ptr and space in ("device", "threadgroup", "thread"):
                    err(pstart, f"kernel parameter {label} in {space} memory must be a pointer or reference")
                if not p.attrs and not re.match(r"(texture|depth|sampler|array<|acceleration_structure|"
                                                r"visible_function_table|intersection_function_table)", type_text):
                    err(pstart, f"kernel parameter {label} has no attribute: pass scalars as "
                                f"`constant T& {name or 'x'} [[buffer(i)]]`, or mark a built-in input "
                                f"such as [[thread_position_in_grid]]")

    # 4. types Metal does not have that clang would accept
    for m in re.finditer(r"\blong\s+long\b", masked):
        err(m.start(), "Metal has no 'long long': use long (64-bit) or int")

    # 5. template kernels: one specialised copy per explicit instantiation
    _specialise_templates(text, masked, chars, groups, lines, err)

    return "".join(chars), diags


# ---------------------------------------------------------------------------------------------
# Template kernels
# ---------------------------------------------------------------------------------------------
#: presumed file name (``#line``) of the text around specialised template kernels, and the prefix
#: of each instantiation's copy (``<kp-source>@host_name``): both are the checked file
SELF_FILE = "<kp-source>"
_WS = re.compile(r"\s*")


@dataclass
class _TemplateKernel:
    name: str
    start: int  # offset of `template`
    kernel_at: int  # offset of `kernel` (or of `[[kernel]]`)
    name_at: int
    end: int  # offset after the closing brace of the body
    params: list[tuple[str, str | None]]  # (name, default text)


def _skip_attrs(masked: str, k: int, groups) -> int:
    while True:
        k = _WS.match(masked, k).end()
        grp = next((g for g in groups if g[0] == k), None) if masked.startswith("[[", k) else None
        if grp is None:
            return k
        k = grp[1]


def _kernel_head(masked: str, k: int, groups):
    """At offset k: `kernel void NAME` (attributes allowed around it) -> (kernel offset, name match)."""
    k = _skip_attrs(masked, k, groups)
    kernel_at = k
    mk = re.compile(r"kernel\b").match(masked, k)
    if mk is None:
        grp = next((g for g in groups if g[0] == k and any(a.name == "kernel" for a in g[2])), None)
        if grp is None:
            return None
        k = grp[1]
    else:
        k = mk.end()
    k = _skip_attrs(masked, k, groups)
    mv = re.compile(r"void\b").match(masked, k)
    if mv is None:
        return None
    k = _skip_attrs(masked, mv.end(), groups)
    mn = _IDENT.match(masked, k)
    return (kernel_at, mn) if mn else None


def _template_params(inner: str) -> list[tuple[str, str | None]]:
    out = []
    for part in _split_top(inner):
        part = part.strip()
        if not part:
            continue
        default = None
        if "=" in part:
            part, default = (x.strip() for x in part.split("=", 1))
        names = _IDENT.findall(part)
        if names:
            out.append((names[-1], default))
    return out


def _split_top(s: str) -> list[str]:
    return [p for p, _ in split_top_level(s, brackets="(<[{", strip=False)]


def _specialise_templates(text: str, masked: str, chars: list[str], groups, lines: _Lines, err) -> None:
    """Replace template kernels (which clang's OpenCL mode cannot check) by specialised copies.

    Each template kernel definition is blanked; each explicit instantiation
    ``template [[host_name("h")]] kernel void f<A, ...>(...);`` becomes a copy of ``f``'s
    definition with the template parameters replaced by the instantiation's arguments (defaults
    where it gives none), as ``kernel void h`` (``h`` the host name, else ``f__kp_<i>``).  The copy
    sits where the instantiation was (where C++ instantiates it), between ``#line`` directives:
    the copy's lines are the template's own lines, so clang's diagnostics land on them, under the
    presumed file ``<kp-source>@h``; the text after it goes back to the original lines.  The
    instantiation's attributes were checked like a kernel's (``_find_kernels`` sees it)."""
    templates: dict[str, _TemplateKernel] = {}
    for m in re.finditer(r"\btemplate\s*<", masked):
        lt = m.end() - 1
        gt = _matching(masked, lt, "<", ">")
        if gt < 0:
            continue
        head = _kernel_head(masked, gt + 1, groups)
        if head is None:
            continue
        kernel_at, mn = head
        k = _WS.match(masked, mn.end()).end()
        if not masked.startswith("(", k):
            continue  # an explicit specialisation f<...>(...) {...}: left to clang
        close = _matching(masked, k, "(", ")")
        if close < 0:
            continue
        k = _skip_attrs(masked, close + 1, groups)
        if not masked.startswith("{", k):
            continue  # a declaration
        body_end = _matching(masked, k, "{", "}")
        if body_end < 0:
            continue
        templates[mn.group(0)] = _TemplateKernel(mn.group(0), m.start(), kernel_at, mn.start(), body_end + 1,
                                                 _template_params(masked[lt + 1: gt]))
    if not templates:
        return

    instances = []  # (start, end, template, host name, args)
    rejected: list[tuple[int, int]] = []
    for m in re.finditer(r"\btemplate\b(?!\s*<)", masked):
        k = _skip_attrs(masked, m.end(), groups)
        host = None
        for g in groups:
            if m.end() <= g[0] < k:
                for a in g[2]:
                    if a.name == "host_name" and a.args and re.fullmatch(r'"[A-Za-z_]\w*"', a.args):
                        host = a.args.strip('"')
        head = _kernel_head(masked, m.end(), groups)
        if head is None:
            continue
        _, mn = head
        name = mn.group(0)
        k = _WS.match(masked, mn.end()).end()
        args: list[str] = []
        if masked.startswith("<", k):
            gt = _matching(masked, k, "<", ">")
            if gt < 0:
                continue
            args = [a.strip() for a in _split_top(text[k + 1: gt]) if a.strip()]
            k = _WS.match(masked, gt + 1).end()
        if not masked.startswith("(", k):
            continue
        close = _matching(masked, k, "(", ")")
        if close < 0:
            continue
        semi = _skip_attrs(masked, close + 1, groups)
        if not masked.startswith(";", semi):
            continue
        t = templates.get(name)
        statement = (m.start(), semi + 1)  # left out of clang's text where rejected here
        if t is None:
            err(mn.start(), f"explicit instantiation of '{name}', which is not a template kernel defined in this file")
            rejected.append(statement)
            continue
        nparams = len(_split_params(masked, k, close))
        tk = _WS.match(masked, t.name_at + len(t.name)).end()
        tparams = len(_split_params(masked, tk, _matching(masked, tk, "(", ")")))
        if nparams != tparams:
            err(mn.start(), f"explicit instantiation of '{name}' has {nparams} parameters, the template kernel "
                            f"{tparams}")
            rejected.append(statement)
            continue
        if len(args) > len(t.params):
            err(mn.start(), f"explicit instantiation of '{name}' gives {len(args)} template arguments, the template "
                            f"takes {len(t.params)}")
            rejected.append(statement)
            continue
        values = []
        for i, (pname, default) in enumerate(t.params):
            values.append(args[i] if i < len(args) else default)
        if any(v is None for v in values):
            missing = [p for (p, _), v in zip(t.params, values) if v is None]
            err(mn.start(), f"explicit instantiation of '{name}' does not give template argument(s) "
                            f"{', '.join(missing)}: kernelport's Metal checker does not deduce them "
                            f"(write {name}<...>)", "warning")
            rejected.append(statement)
            continue
        instances.append((m.start(), semi + 1, t, host, dict(zip((p for p, _ in t.params), values))))

    for s0, e0 in rejected:
        _blank(chars, text, s0, e0)
    before = list(chars)
    instantiated = {t.name for _, _, t, _, _ in instances}
    for t in templates.values():
        _blank(chars, text, t.start, t.end)
        if t.name not in instantiated:
            err(t.name_at, f"template kernel '{t.name}' has no explicit instantiation "
                           f"(template [[host_name(\"...\")]] kernel void {t.name}<...>(...);): not type-checked",
                "warning")

    for i, (s, e, t, host, mapping) in enumerate(instances):
        new_name = host or f"{t.name}__kp_{i}"
        line_start = text.rfind("\n", 0, t.kernel_at) + 1
        copy = [" " * len(ch.encode("utf-8")) if ch != "\n" else "\n" for ch in text[line_start: t.kernel_at]]
        # the definition as clang would have seen it (attributes blanked), then substituted
        pieces = before[t.kernel_at: t.end]
        body_masked = masked[t.kernel_at: t.end]
        name_off = t.name_at - t.kernel_at
        for mm in re.finditer(r"[A-Za-z_]\w*", body_masked):
            w = mm.group(0)
            if mm.start() == name_off:
                rep = new_name
            elif w in mapping and not re.search(r"(\.|->|::)\s*$", body_masked[max(mm.start() - 8, 0): mm.start()]):
                rep = mapping[w]
                rep = rep + " " * (len(w) - len(rep)) if len(rep) < len(w) else rep
            else:
                continue
            pieces[mm.start()] = rep
            for q in range(mm.start() + 1, mm.end()):
                pieces[q] = ""
        copy_text = _fold_constexpr_ifs("".join(copy) + "".join(pieces), text)
        head_line = lines.pos(line_start)[0]
        end_line, _ = lines.pos(e)
        end_col = len(text[text.rfind("\n", 0, e) + 1: e].encode("utf-8"))
        chars[s] = (f'\n#line {head_line} "{SELF_FILE}@{new_name}"\n{copy_text}\n'
                    f'#line {end_line} "{SELF_FILE}"\n' + " " * end_col)
        for q in range(s + 1, e):
            chars[q] = ""


_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]+?)[ \t]*$", re.M)


def _fold_constexpr_ifs(code: str, whole: str) -> str:
    """In a specialised copy, drop the discarded branch of `if constexpr (cond)` where cond is now a
    constant: a template would never instantiate it (a `static_assert` there must not fire)."""
    from ..cexpr import CExprError, evaluate
    macros = {m.group(1): m.group(2) for m in _DEFINE.finditer(whole)}

    def expand(t: str) -> str:
        for _ in range(8):
            new = re.sub(r"[A-Za-z_]\w*", lambda m: f"({macros[m.group(0)]})" if m.group(0) in macros else m.group(0), t)
            if new == t:
                break
            t = new
        return t

    def blank(s: str, i: int, j: int) -> str:  # keep the braces and the newlines
        return s[:i] + "".join(c if c == "\n" else " " for c in s[i:j]) + s[j:]

    def branch(s: str, k: int) -> tuple[int, int] | None:
        k = _WS.match(s, k).end()
        if s.startswith("{", k):
            e = _matching(s, k, "{", "}")
            return (k + 1, e) if e > 0 else None
        e = s.find(";", k)
        return (k, e) if e > 0 else None

    for m in reversed(list(re.finditer(r"\bif\s+constexpr\s*\(", code))):
        open_at = m.end() - 1
        close = _matching(code, open_at, "(", ")")
        if close < 0:
            continue
        try:
            value = evaluate(expand(code[open_at + 1: close]), {})
        except (CExprError, RecursionError):
            continue
        then = branch(code, close + 1)
        if then is None:
            continue
        after = _WS.match(code, then[1] + 1).end()
        if value:
            if code.startswith("else", after):
                other = branch(code, after + 4)
                if other is not None:
                    code = blank(code, *other)
        else:
            code = blank(code, *then)
    return code


def _fmt_types(types) -> str:
    order = ["uint", "ushort", "uint2", "ushort2", "uint3", "ushort3"]
    return "/".join(t for t in order if t in types)


# ---------------------------------------------------------------------------------------------
# clang
# ---------------------------------------------------------------------------------------------
def clang_command(clang: str, source: str, include_dirs=()) -> list[str]:
    cmd = [
        clang,
        "-target", "spir64",
        "-x", "clcpp",
        "-cl-std=clc++2021",
        "-cl-no-stdinc",
        # Metal has no double, and no program-scope or static variables outside `constant`
        "-Xclang", "-cl-ext=-cl_khr_fp64,-__opencl_c_fp64,-__opencl_c_program_scope_global_variables,"
                   "-__opencl_c_device_enqueue",
        "-fsyntax-only",
        "-ferror-limit=0",
        "-fno-color-diagnostics",
        "-fno-caret-diagnostics",
        "-fdiagnostics-show-option",
        "-include", str(HEADER_PATH),
    ]
    for d in include_dirs:
        cmd += ["-I", str(d)]
    cmd.append(source)
    return cmd


_DIAG_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")
_DROP_WARNINGS = ("double precision constant requires cl_khr_fp64",)


def _metalize(msg: str) -> str:
    """Rewrite clang/OpenCL spellings in a message into Metal's."""
    if "__kp_metal_has_no_double" in msg:
        return "Metal has no 'double' type: use float"
    if "non-kernel function variable cannot be declared in local address space" in msg:
        return ("threadgroup variables must be declared at kernel function scope: declare it in the "
                "kernel and pass a threadgroup pointer to the helper")
    if "program scope variable must reside in constant address space" in msg:
        return ("program-scope variables must be in the constant address space (Metal has no device or "
                "threadgroup globals: pass a buffer instead)")
    if "static local variable must reside in constant address space" in msg:
        return "static variables must be in the constant address space (`static constant T x = ...;`)"
    msg = re.sub(r"'(\w+)<[^']*>' is unavailable", r"'\1' is unavailable", msg)
    msg = re.sub(r"\bmetal::__kp_atomic_(\w+)", r"atomic_\1", msg)
    msg = re.sub(r"\b__kp_atomic_(\w+)", r"atomic_\1", msg)
    msg = re.sub(r"\b__kp_make_(\w+)", r"\1", msg)
    for ocl, metal in (("__global", "device"), ("__local", "threadgroup"), ("__constant", "constant"),
                       ("__private", "thread"), ("__kernel", "kernel")):
        msg = re.sub(r"\b" + ocl + r"\b", metal, msg)
    msg = msg.replace("'device', 'constant' or 'threadgroup' address space", "device, constant or threadgroup address space")
    if "kernel functions cannot be used in a template" in msg:
        msg += (" (kernelport's Metal checker cannot type-check templated kernels other than through their "
                "explicit instantiations: template [[host_name(\"...\")]] kernel void f<...>(...);)")
    msg = re.sub(r"\s*\[-W[\w\-=]+\]$", "", msg)
    return msg


def _parse_clang(output: str, tmp_path: str, filename: str, lines: _Lines) -> list[Diagnostic]:
    groups: list[dict] = []
    tmp_real = os.path.realpath(tmp_path)

    def is_user(path: str) -> bool:
        return (path == tmp_path or path == SELF_FILE or path.startswith(SELF_FILE + "@")
                or os.path.realpath(path) == tmp_real)

    def instance(path: str) -> str | None:
        return path[len(SELF_FILE) + 1:] if path.startswith(SELF_FILE + "@") else None

    for raw in output.splitlines():
        m = _DIAG_LINE.match(raw)
        if not m:
            if raw.startswith("note: ") and groups:
                groups[-1]["notes"].append((None, 0, 0, raw[6:]))
            continue
        path, line, col, sev, msg = m.group("path"), int(m.group("line")), int(m.group("col")), m.group("sev"), m.group("msg")
        if sev == "note":
            if groups:
                groups[-1]["notes"].append((path, line, col, msg))
            continue
        groups.append({"path": path, "line": line, "col": col, "sev": "error" if "error" in sev else "warning",
                       "msg": msg, "notes": []})

    out = []
    for g in groups:
        if g["sev"] == "warning" and any(s in g["msg"] for s in _DROP_WARNINGS):
            continue
        path, line, col = g["path"], g["line"], g["col"]
        notes = []
        for npath, nline, ncol, nmsg in g["notes"]:
            if npath is None:
                notes.append(_metalize(nmsg))
            elif is_user(npath):
                notes.append(f"{filename}:{nline}:{lines.char_column(nline, ncol)}: {_metalize(nmsg)}")
            else:
                notes.append(f"{os.path.basename(npath)}:{nline}:{ncol}: {_metalize(nmsg)}")
        message = _explain(_metalize(g["msg"]), [_metalize(n[3]) for n in g["notes"]])
        inst = instance(path) or next((instance(np) for np, _, _, _ in g["notes"] if np and instance(np)), None)
        if inst:
            notes.append(f"in the template kernel's instantiation {inst} (template parameters substituted)")
        if is_user(path):
            out.append(diagnostic(filename, line, lines.char_column(line, col), message, g["sev"], "clang", tuple(notes)))
            continue
        # reported inside metal_stdlib.h: attribute it to the user line that led there
        user = next(((nl, nc) for np, nl, nc, _ in g["notes"] if np is not None and is_user(np)), None)
        if user:
            out.append(diagnostic(filename, user[0], lines.char_column(*user), message, g["sev"], "clang", tuple(notes)))
        else:
            out.append(diagnostic(path, line, col, message, g["sev"], "clang", tuple(notes)))
    return out


def _explain(message: str, notes: list[str]) -> str:
    """Fold the one note that explains an error into its message."""
    if message.startswith("no matching function for call to"):
        why = next((n for n in notes if "address space" in n), None)
        if why:
            why = re.sub(r"^candidate function( template)? not viable: ", "", why)
            return f"{message}: {why}"
    if "no viable conversion from 'metal::simd_vote'" in message or (
        "simd_vote" in message and "cannot initialize" in message
    ):
        return message + " (simd_vote converts only explicitly: (simd_vote::vote_t)simd_ballot(...))"
    return message


def _find_clang() -> str:
    from kernelport.toolchains import find_clang, install_hint  # lazy: toolchains imports us lazily too

    tc = find_clang()
    if tc is None:
        raise MetalCheckUnavailable(install_hint("clang"))
    return tc.path


def run_check(text: str, filename: str = "<metal>", *, clang: str | None = None,
              include_warnings: bool = False) -> MetalCheckReport:
    """Check MSL source ``text``; diagnostics point into ``filename`` (lines/columns of ``text``).

    Raises MetalCheckUnavailable when no suitable clang exists."""
    clang = clang or _find_clang()
    clang_text, diags = preprocess(text, filename)
    lines = _Lines(text)
    include_dirs = []
    if filename and not filename.startswith("<"):
        parent = Path(filename).resolve().parent
        if parent.is_dir():
            include_dirs.append(parent)
    base = re.sub(r"[^\w.\-]", "_", Path(filename).name if filename and not filename.startswith("<") else "kernel.metal")
    with tempfile.TemporaryDirectory(prefix="kp-metal-") as tmp:
        src = os.path.join(tmp, base or "kernel.metal")
        with open(src, "w", encoding="utf-8") as fh:
            fh.write(clang_text)
        cmd = clang_command(clang, src, include_dirs)
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=CLANG_TIMEOUT_S,
                                  stdin=subprocess.DEVNULL)
            output, rc = proc.stdout + proc.stderr, proc.returncode
        except subprocess.TimeoutExpired as exc:
            output = f"clang timed out after {CLANG_TIMEOUT_S} s\n{exc.stdout or ''}{exc.stderr or ''}"
            rc = None
            diags.append(diagnostic(filename, 1, 1, f"clang timed out after {CLANG_TIMEOUT_S} s", "error", "clang"))
        clang_diags = _parse_clang(output, src, filename, lines)
    if rc not in (0, None) and not any(d.severity == "error" for d in clang_diags):
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
