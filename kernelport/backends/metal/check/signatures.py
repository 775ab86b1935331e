"""Kernel signatures: finding each `kernel void f(...)` and checking its parameters (an address
space and a binding for every pointer, built-in inputs of the types Metal accepts, unique indices)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .attributes import BUILTIN_ATTRIBUTES, INDEXED_ATTRIBUTES, INT_LITERAL, Attr
from .text import IDENT, matching

_ADDRESS_SPACES = ("device", "constant", "threadgroup", "thread", "threadgroup_imageblock", "ray_data", "object_data")
_TYPE_ALIASES = {
    "uint32_t": "uint", "uint16_t": "ushort", "unsigned int": "uint", "unsigned short": "ushort",
    "unsigned": "uint", "int32_t": "int", "int16_t": "short",
}


@dataclass
class Param:
    """One parameter of a Metal kernel's signature, its attributes read."""
    start: int
    end: int
    text: str  # declaration with attributes blanked (masked text)
    attrs: list[Attr]


@dataclass
class Kernel:
    """A Metal kernel's signature: its name and parameters, by offsets."""
    name: str
    name_offset: int
    params: list[Param]
    param_start: int
    param_end: int


def split_params(masked: str, open_idx: int, close_idx: int) -> list[tuple[int, int]]:
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


_DIRECTIVE = re.compile(r"(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*")


def _without_directives(masked: str) -> str:
    """`masked` with its preprocessor lines blanked (same length, newlines kept): a parameter under
    `#if DW_NDIM >= 2` is still a parameter, and the directive's `>=` is no bracket nor its text a declaration."""
    return _DIRECTIVE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), masked)


def find_kernels(masked: str, attr_groups) -> list[Kernel]:
    kernels = []
    masked = _without_directives(masked)
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
        mn = IDENT.match(masked, k)
        if not mn:
            continue
        name = mn.group(0)
        k = mn.end()
        k = re.compile(r"\s*").match(masked, k).end()
        if k < len(masked) and masked[k] == "<":  # explicit instantiation f<float>(...)
            close = matching(masked, k, "<", ">")
            if close < 0:
                continue
            k = re.compile(r"\s*").match(masked, close + 1).end()
        if k >= len(masked) or masked[k] != "(":
            continue
        close = matching(masked, k, "(", ")")
        if close < 0:
            continue
        params = []
        for s, e in split_params(masked, k, close):
            attrs = [a for g in attr_groups if s <= g[0] < e for a in g[2]]
            chars = list(masked[s:e])
            for g in attr_groups:
                if s <= g[0] < e:
                    for q in range(g[0], min(g[1], e)):
                        chars[q - s] = " "
            params.append(Param(s, e, "".join(chars), attrs))
        kernels.append(Kernel(name, mn.start(), params, k, close))
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
    if tokens and IDENT.fullmatch(tokens[-1]):
        type_words = [t for t in tokens[:-1] if t not in _QUALIFIERS and t not in _ADDRESS_SPACES]
        if type_words and (type_words[-1] in ("*", "&") or IDENT.fullmatch(type_words[-1]) or type_words[-1] == ">"):
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


def _fmt_types(types) -> str:
    order = ["uint", "ushort", "uint2", "ushort2", "uint3", "ushort3"]
    return "/".join(t for t in order if t in types)


def check_signatures(kernels: list[Kernel], err) -> None:
    """Report kernel parameters Metal rejects (`err(offset, message)`)."""
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
                if a.name in INDEXED_ATTRIBUTES and a.args and INT_LITERAL.match(a.args):
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
