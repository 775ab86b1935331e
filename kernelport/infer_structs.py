"""A struct passed by value to a kernel, inferred from the host code that fills it (issue 18).

    param_t p;  p.n = 1024;  cudaMalloc(&p.buf, p.n * sizeof(float));  for (...) p.w[i] = ...;
    kernel<<<g, b>>>(p);

gives the inputs the annotations would (`// @kp arg p.buf inout float[1024]`, `// @kp scalar
p.n = 1024`, `// @kp arg p.w in float[16] uniform(-1, 1)`): each field from the struct's
definition, in order; a pointer field sized from its allocation, an array field from its
declared length (its values generated, as a buffer's are), a number field from its assignment
(a floating one host code computes at run time is generated, seeded), a struct field through
its own fields.  What cannot be read stays Unknown (not run, naming the field).

A CUDA vector type passed by value (`uchar4 colors`) is given the same way, as fields `colors.x`,
...: from `make_uchar4(a, b, c, d)` or `{a, b, c, d}` at the launch or in the variable's
definition, or from host code's assignments `c.x = ...`; a component none of these gives is data
(a colour, an offset), generated seeded, never a size (vector_inputs).
"""
from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np

from . import cexpr, vector_types
from .annotations import Text, _parse_arg
from .errors import KernelportError
from .host_values import Scope, Unknown
from .infer_types import clean, resolve
from .inputs import DTYPES, c_bytes

NESTING = 4  # structs in structs: far beyond real kernel parameters
FLOAT_GEN, INT_GEN = "uniform(-1, 1)", "integers(0, 8)"


def fields(struct) -> list[tuple[str, str, str, str | None, bool]]:
    """(name, type text, kind, array length text, const) of each field: kind is 'value', 'pointer' or
    'array'; a bit-field, a method or a nameless member is left out (no input gives it)."""
    body = struct.child_by_field_name("body")
    out = []
    for fd in (body.named_children if body is not None else []):
        if fd.type != "field_declaration":
            continue
        t = fd.child_by_field_name("type")
        const = any(c.type == "type_qualifier" and c.text == b"const" for c in fd.children)
        if any(c.type == "storage_class_specifier" and c.text == b"static" for c in fd.children):
            continue  # a class's static member is not part of its objects
        for d in fd.children_by_field_name("declarator"):
            kind, length = "value", None
            while d is not None and d.type in ("pointer_declarator", "array_declarator", "reference_declarator"):
                if d.type == "pointer_declarator":
                    kind = "pointer"
                elif kind != "pointer":  # `double data[3][3]`: 9 numbers, the product of its lengths
                    size = d.child_by_field_name("size")
                    size = size.text.decode() if size is not None else None
                    length = size if kind == "value" else (f"({length}) * ({size})" if length and size else None)
                    kind = "array"
                d = d.child_by_field_name("declarator") or next(
                    (c for c in d.named_children if c.type in ("field_identifier", "identifier")), None)
            if d is not None and d.type in ("field_identifier", "identifier") and t is not None:
                out.append((d.text.decode(), t.text.decode(), kind, length, const))
    return out


def layout(struct, tmap, scope, depth: int = 0) -> np.dtype:
    """The C layout of `struct` (its definition's node) as a numpy structured dtype, as the
    emulator lays it out (kernelport.emulator.layout: numpy's align=True is the compiler's
    padding rule): number fields, CUDA vector types (x, y, z, w), arrays of numbers, nested
    structs; a pointer field is 8 zero bytes (metadata `pointer`: never generated).  What has no
    plain layout (a bit-field, a base class, a union, an array of structs) raises KernelportError."""
    name = struct.child_by_field_name("name")
    what = f"struct '{name.text.decode() if name is not None else 'anonymous'}'"
    body = struct.child_by_field_name("body")
    if depth > NESTING or body is None:
        raise KernelportError(f"{what} nests structs deeper than {NESTING} or has no definition kernelport reads")
    for c in struct.named_children:
        if c.type == "base_class_clause":
            raise KernelportError(f"{what} derives from another class: its layout is not one kernelport computes")
    for fd in body.named_children:
        if fd.type == "field_declaration" and any(c.type == "bitfield_clause" for c in fd.named_children):
            raise KernelportError(f"{what} has a bit-field: its layout is not one kernelport computes")
        if fd.type == "field_declaration" and any(c.type == "union_specifier" for c in fd.named_children):
            raise KernelportError(f"{what} has a union field: its layout is not one kernelport computes")
    out = []
    for f, ftype, kind, length, _ in fields(struct):
        if kind == "pointer":
            out.append((f, np.dtype(np.uint64, metadata={"pointer": True})))
            continue
        r = resolve(ftype, tmap, scope)
        if r.struct is not None:
            if r.struct.type == "union_specifier":
                raise KernelportError(f"{what}: field '{f}' is a union")
            dt = layout(r.struct, tmap, scope, depth + 1)
        elif r.name in vector_types.VECTORS:
            c, n = vector_types.VECTORS[r.name]
            dt = np.dtype([(x, DTYPES[c]) for x in "xyzw"[:n]], align=True)
        elif r.numeric:
            dt = np.dtype(DTYPES[r.name])
        else:
            raise KernelportError(f"{what}: field '{f}' holds '{clean(ftype)}', not numbers the emulator can generate")
        if kind == "array":
            try:
                n = int(scope.value(length).v) if length else 0
            except Unknown as e:
                raise KernelportError(f"{what}: the array field '{f}' has no length kernelport can read ('{length}': "
                                      f"{e.why})") from None
            if n < 1 or dt.names is not None:
                raise KernelportError(f"{what}: the array field '{f}' is " +
                                      ("an array of structs" if dt.names is not None else f"of length '{length}'"))
            dt = np.dtype((dt, (n,)))
        out.append((f, dt))
    if not out:
        raise KernelportError(f"{what} has no fields kernelport reads")
    return np.dtype(out, align=True)


_SIZES: dict[tuple[int, str], int | None] = {}


def struct_size(name: str, scope) -> int | None:
    """sizeof(name) for a struct or class the project defines (its C layout), else None."""
    key = (id(scope.module), name)
    if key not in _SIZES:
        if len(_SIZES) > 1024:
            _SIZES.clear()
        r = resolve(name, {}, scope)
        try:
            _SIZES[key] = layout(r.struct, {}, scope).itemsize if r.struct is not None else None
        except (KernelportError, Unknown, RecursionError):
            _SIZES[key] = None
    return _SIZES[key]


def struct_inputs(spec, param, arg_text: str, struct, scope, tmap, at, position: int, buffer, depth: int = 0
                  ) -> tuple[list[str], int]:
    """Fill `spec` with the fields of the struct parameter `param` (given `arg_text` at the launch):
    the notes saying where each came from, and the bytes of its buffers.  `buffer` is
    infer_inputs' own sizing of a pointer argument (its allocation before the launch)."""
    var = re.sub(r"\s+", "", arg_text)
    if not fields(struct):
        return [], 0  # a class of no data (a function object, `Add()`): nothing to give
    if not re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", var):
        raise Unknown(f"the struct argument '{arg_text.strip()[:40]}' of '{param.name}' is not a variable host code fills")
    if depth > NESTING:
        raise Unknown(f"'{param.name}' nests structs deeper than {NESTING}")
    notes, total = [], 0
    for k, (f, ftype, kind, length, const) in enumerate(fields(struct)):
        name, host = f"{param.name}.{f}", f"{var}.{f}"
        r = resolve(ftype, tmap, scope)
        if kind == "pointer":
            arg, note = buffer(SimpleNamespace(name=name, type=ftype, const=const), host, scope,
                               SimpleNamespace(args={}), tmap, at)
            spec.args[name] = arg
            total += int(arg.length.text) * c_bytes(arg)
            notes.append(note)
        elif r.struct is not None and kind == "value":
            more, b = struct_inputs(spec, SimpleNamespace(name=name), host, r.struct, scope, tmap, at, position,
                                    buffer, depth + 1)
            notes += more
            total += b
        elif not r.numeric:
            raise Unknown(f"field '{name}' holds '{clean(ftype)}', not numbers the emulator can generate")
        elif kind == "array":
            n = int(scope.value(length).v) if length else 0
            if n < 1:
                raise Unknown(f"the array field '{name}' has no length kernelport can read ('{length}')")
            gen = FLOAT_GEN if cexpr.ctype(r.name) is None or cexpr.ctype(r.name).kind == "float" else INT_GEN
            spec.args[name] = _parse_arg(Text(f"{name} in {r.name}[{n}] {gen}", at))
            total += n * cexpr.SIZEOF.get(r.name, 4)
            notes.append(f"{name}: in {r.name}[{n}] {gen} (an array field of {length} elements; its values generated)")
        else:
            v, note = _number(name, host, r.name, scope, (position, k))
            spec.scalars[name] = Text(v, at)
            notes.append(note)
    return notes, total


_MAKE = re.compile(r"(?:\(\s*(?:const\s+)?\w+\s*\)\s*)?make_(\w+)\s*\((.*)\)", re.S)  # (uchar4)make_uchar4(...)


def _vector_parts(text: str, scope, n: int, depth: int = 0) -> list[tuple[str, object]] | None:
    """(text, scope) of each component of a vector value host code builds: `make_T(a, b, ...)`,
    `{a, b, ...}`, a variable whose fields host code assigns (`c.x = ...`), or one whose definition
    is any of these (a parameter: the caller's argument); None where it is none of them."""
    text = " ".join(text.split())
    m = _MAKE.fullmatch(text)
    inner = m.group(2) if m else text[1:-1] if text.startswith("{") and text.endswith("}") else None
    if inner is not None:
        parts = [a.strip() for a, _ in cexpr.split_top_level(inner)]
        return [(p, scope) for p in parts] if len(parts) == n and all(parts) else None
    if not re.fullmatch(r"[A-Za-z_]\w*", text) or depth >= NESTING:
        return None
    fs = [scope.lookup(f"{text}.{f}") for f in "xyzw"[:n]]
    if all(fs):
        return [(d.text, d.scope or scope) for d in fs]
    d = scope.lookup(text)
    return None if d is None or not d.text.strip() else _vector_parts(d.text, d.scope or scope, n, depth + 1)


def by_value(spec, param, arg_text: str, scope, tmap, at, position: int, buffer) -> tuple[list[str], int] | None:
    """The inputs of a parameter passed by value that is a struct (struct_inputs) or a CUDA vector
    type (vector_inputs): (notes, bytes of its buffers); None for any other (a number)."""
    r = resolve(param.type, tmap, scope)
    if r.struct is not None:
        return struct_inputs(spec, param, arg_text, r.struct, scope, tmap, at, position, buffer)
    if r.name in vector_types.VECTORS:
        return vector_inputs(spec, param, arg_text, r.name, scope, at, position), 0
    return None


def vector_inputs(spec, param, arg_text: str, vector: str, scope, at, position: int) -> list[str]:
    """Fill `spec` with the components of the vector parameter `param` (type `vector`, uchar4 ...;
    `arg_text` at the launch) as fields `param.x`, ...: the notes saying where each came from.  A
    component host code does not give is data (a colour, an offset, never a size): generated, seeded."""
    comp, n = vector_types.VECTORS[vector]
    parts = _vector_parts(arg_text, scope, n)
    why = f"'{' '.join(arg_text.split())[:40]}' is no {vector} kernelport reads in the host code"
    if parts is None and re.fullmatch(r"\s*[A-Za-z_]\w*\s*", arg_text):
        try:
            scope.name(arg_text.strip())
        except Unknown as e:  # a parameter no call gives, a value only the run gives: its own words
            why = e.why
    notes = []
    for k, f in enumerate("xyzw"[:n]):
        name = f"{param.name}.{f}"
        try:
            if parts is None:
                raise Unknown(why)
            text, sc = parts[k]
            v = sc.value(text)
            lit, note = _literal(v), f"{name} = {v.v} (the launch's {vector} gives '{text}')"
        except Unknown as e:
            rng = np.random.default_rng([0, position, k])
            ct = cexpr.ctype(comp)
            g = round(float(rng.uniform(-1, 1)), 4) if ct is None or ct.kind == "float" else int(rng.integers(0, 8))
            lit, note = repr(g), f"{name} = {g!r} generated (a component of a {vector} is data: {e.why})"
        spec.scalars[name] = Text(lit, at)
        notes.append(note)
    return notes


def _number(name: str, host: str, t: str, scope, seed) -> tuple[str, str]:
    """A number field's value: its assignment in host code; a floating one host code computes at
    run time is data, generated (seeded); an integer one is a size: Unknown."""
    d = scope.lookup(host)
    try:
        if d is None:
            raise Unknown(f"host code gives '{host}' no value before the launch")
        v = (d.scope or scope).value(d.text)
    except Unknown as e:
        ct = cexpr.ctype(t)
        if ct is None or ct.kind != "float":
            e.name = e.name or host
            raise
        g = round(float(np.random.default_rng([0, *seed]).uniform(-1, 1)), 4)
        return f"{g!r}", f"{name} = {g!r} generated (host code computes it when it runs: {e.why})"
    return _literal(v), f"{name} = {v.v} from {d.loc}"


def _literal(v) -> str:
    return Scope._literal(v)
