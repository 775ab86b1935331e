"""MSL `[[attributes]]`: the tables of what Metal accepts, finding each `[[...]]` group, and
checking it (names, argument forms, where it may appear) before it is blanked for clang."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .text import blank, matching

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

INT_LITERAL = re.compile(r"^(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------
@dataclass
class Attr:
    """One `[[...]]` attribute of a Metal declaration, with its offsets."""
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


def find_attributes(text: str, masked: str) -> list[tuple[int, int, list[Attr]]]:
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
        specs: list[Attr] = []
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
                close = matching(masked, s + rest, "(", ")")
                if close > 0:
                    args = text[s + rest + 1 : close].strip()
            specs.append(Attr(name, ns, args, s + m.start(2), e, i, end))
        groups.append((i, end, specs))
        i = end
    return groups


def check_attributes(text: str, masked: str, chars: list[str], groups, kernels, err) -> None:
    """Report misused attributes (`err(offset, message)`); blank the MSL ones in `chars`."""
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
                elif INT_LITERAL.match(args):
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
                    elif INT_LITERAL.match(args):
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
            blank(chars, text, g_start, g_end)
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
                        blank(chars, text, prev_comma, prev_comma + 1)
                blank(chars, text, a.start, end)
