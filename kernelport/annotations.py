"""`// @kp KEY VALUE` annotations: what verify needs to run a kernel (docs/annotations.md).

A block of annotation comments applies to the next `__global__` function.  Every problem is a
KernelportError at the exact line and column of the offending text, with a hint.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from . import backends, cexpr
from .errors import KernelportError, Location
from .model import Function, Module
from .source import walk

KEYS = ("kernel", "grid", "block", "why", "shared", "arg", "scalar", "reference", "tolerance", "targets",
        "instantiate", "seed", "warp-width")
ROLES = ("in", "out", "inout")
GENERATORS = {"uniform": (2, 2), "normal": (2, 2), "integers": (2, 2), "constant": (1, 1), "arange": (0, 2)}
ELEMENT_TYPES = ("float", "int", "unsigned", "unsigned int", "uint", "uint32_t", "int32_t", "half", "__half",
                 "double", "char", "unsigned char", "uint8_t", "int8_t", "short", "unsigned short",
                 "long long", "unsigned long long", "int64_t", "uint64_t", "float2", "float4")

_LINE = re.compile(r"//\s*@kp\b[ \t]*(?P<key>[\w-]*)[ \t]*(?P<value>.*)$")


@dataclass
class Text:
    """An annotation value with where it starts, for errors that point into it."""
    text: str
    loc: Location

    def at(self, offset: int) -> Location:
        return Location(self.loc.path, self.loc.line, self.loc.column + offset)


@dataclass
class Generator:
    kind: str
    params: tuple[float, ...]


@dataclass
class ArgSpec:
    name: str
    role: str
    type: str
    length: Text
    generator: Generator | None
    loc: Location


@dataclass
class KernelSpec:
    kernel: str
    loc: Location
    grid: list[Text] = field(default_factory=list)
    block: list[Text] = field(default_factory=list)
    why: str = ""
    shared: Text | None = None
    args: dict[str, ArgSpec] = field(default_factory=dict)
    scalars: dict[str, Text] = field(default_factory=dict)
    reference: tuple[str, list[Text]] | None = None
    reference_loc: Location | None = None
    tolerance: str = "auto"
    tolerance_values: dict[str, float] = field(default_factory=dict)
    targets: tuple[str, ...] = field(default_factory=backends.port_names)  # default: every port
    instantiate: list[Text] = field(default_factory=list)
    seed: int = 0
    warnings: list[tuple[Location, str]] = field(default_factory=list)

    # -- evaluation ------------------------------------------------------------------------
    def scalar_values(self) -> dict[str, int | float]:
        vals: dict[str, int | float] = {}
        for name, t in self.scalars.items():
            vals[name] = _eval(t, vals)
        return vals

    def dims(self, which: str) -> tuple[int, int, int]:
        vals = self.scalar_values()
        parts = [int(_eval(t, vals)) for t in getattr(self, which)]
        return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]

    def shared_bytes(self) -> int:
        return int(_eval(self.shared, self.scalar_values())) if self.shared else 0

    def length(self, arg: str) -> int:
        return int(_eval(self.args[arg].length, self.scalar_values()))


def _eval(t: Text, names):
    try:
        return cexpr.evaluate(t.text, names)
    except cexpr.CExprError as e:
        raise KernelportError(str(e), t.at(e.offset),
                              hint="annotation expressions use numbers, earlier scalars and + - * / % << >> sizeof ceil_div")


def _err(msg: str, loc: Location, hint: str | None = None) -> KernelportError:
    return KernelportError(msg, loc, hint)


def _parse_generator(t: Text) -> Generator:
    m = re.fullmatch(r"(\w+)\s*\((.*)\)", t.text)
    if not m:
        raise _err(f"cannot read generator '{t.text}'", t.loc,
                   hint="write one of: " + ", ".join(f"{g}(...)" for g in GENERATORS))
    kind = m.group(1)
    if kind not in GENERATORS:
        close = difflib.get_close_matches(kind, GENERATORS, 1)
        raise _err(f"unknown generator '{kind}'", t.loc,
                   hint=(f"did you mean '{close[0]}'? " if close else "") + "generators: " + ", ".join(GENERATORS))
    inner = m.group(2).strip()
    params = []
    if inner:
        for p, off in cexpr.split_top_level(inner):
            params.append(float(_eval(Text(p, t.at(m.start(2) + off)), {})))
    lo, hi = GENERATORS[kind]
    if not (lo <= len(params) <= hi):
        raise _err(f"{kind}() takes {lo if lo == hi else f'{lo} to {hi}'} arguments, got {len(params)}", t.loc)
    if kind in ("uniform", "integers") and params[1] <= params[0]:
        raise _err(f"{kind}({inner}): the upper bound must be above the lower one", t.loc)
    return Generator(kind, tuple(params))


def _parse_arg(v: Text) -> ArgSpec:
    m = re.fullmatch(r"(?P<name>[A-Za-z_]\w*)\s+(?P<role>\w+)\s+(?P<type>[A-Za-z_][\w ]*?)\s*\[(?P<len>[^\]]*)\]\s*(?P<gen>.*)",
                     v.text)
    if not m:
        raise _err(f"cannot read arg '{v.text}'", v.loc, hint="write: arg NAME in|out|inout TYPE[LENGTH] [GENERATOR]")
    role = m.group("role")
    if role not in ROLES:
        raise _err(f"unknown role '{role}'", v.at(m.start("role")), hint="roles: in, out, inout")
    typ = " ".join(m.group("type").split())
    if typ not in ELEMENT_TYPES:
        raise _err(f"unknown element type '{typ}'", v.at(m.start("type")), hint="types: " + ", ".join(ELEMENT_TYPES))
    gen = _parse_generator(Text(m.group("gen").strip(), v.at(m.start("gen")))) if m.group("gen").strip() else None
    if gen is None and role != "out":
        raise _err(f"'{m.group('name')}' is an {role} buffer but has no generator", v.loc,
                   hint="add one, e.g. uniform(-1, 1) or integers(0, 10)")
    return ArgSpec(m.group("name"), role, typ, Text(m.group("len").strip(), v.at(m.start("len"))), gen, v.loc)


def parse(module: Module) -> dict[str, KernelSpec]:
    """Annotation blocks of a file, keyed by kernel name, validated against the kernel model."""
    src = module.source
    kernels = sorted(module.kernels, key=lambda f: f.node.start_byte)
    specs: dict[str, KernelSpec] = {}
    pending: list[tuple[str, Text]] = []

    comments = [n for n in walk(src.root) if n.type == "comment"]
    items: list[tuple[int, str, object]] = [(c.start_byte, "c", c) for c in comments]
    items += [((f.template_node or f.node).start_byte, "k", f) for f in kernels]
    items.sort(key=lambda x: x[0])
    for _, kind, obj in items:
        if kind == "c":
            text = src.text_of(obj)
            m = _LINE.match(text)
            if not m:
                continue
            loc = src.loc(obj)
            key = m.group("key")
            if key not in KEYS:
                close = difflib.get_close_matches(key, KEYS, 1)
                raise _err(f"unknown annotation key '{key}'" if key else "annotation without a key",
                           Location(loc.path, loc.line, loc.column + m.start("key")),
                           hint=(f"did you mean '{close[0]}'? " if close else "") + "keys: " + ", ".join(KEYS))
            vloc = Location(loc.path, loc.line, loc.column + m.start("value"))
            if key == "warp-width":
                continue  # about the next function, kernel or helper: read by warpwidth.annotated()
            pending.append((key, Text(m.group("value").rstrip(), vloc)))
        else:
            if pending:
                specs[obj.name] = _build(obj, pending, module)
                pending = []
    if pending:
        key, t = pending[0]
        raise _err("annotations are not followed by a __global__ kernel", t.loc,
                   hint="put the // @kp lines directly above the kernel they describe")
    return specs


def _build(k: Function, lines: list[tuple[str, Text]], module: Module) -> KernelSpec:
    spec = KernelSpec(k.name, lines[0][1].loc)
    why: list[str] = []
    for key, v in lines:
        if key != "why" and not v.text:
            raise _err(f"'{key}' needs a value", v.loc, hint="see docs/annotations.md")
        if key == "kernel":
            if v.text and v.text != k.name:
                raise _err(f"annotations name kernel '{v.text}' but the next kernel is '{k.name}'", v.loc,
                           hint="fix the name or move the annotations above their kernel")
        elif key in ("grid", "block"):
            parts = [Text(p, v.at(off)) for p, off in cexpr.split_top_level(v.text)]
            if not 1 <= len(parts) <= 3 or any(not p.text for p in parts):
                raise _err(f"'{key}' takes 1 to 3 comma-separated expressions", v.loc)
            setattr(spec, key, parts)
        elif key == "why":
            why.append(v.text)
        elif key == "shared":
            spec.shared = v
        elif key == "arg":
            a = _parse_arg(v)
            p = k.param(a.name)
            if p is None:
                raise _err(f"kernel '{k.name}' has no parameter '{a.name}'", v.loc,
                           hint="parameters: " + ", ".join(p.name for p in k.params))
            if not p.pointer:
                raise _err(f"'{a.name}' is a scalar parameter", v.loc, hint=f"write: scalar {a.name} = VALUE")
            spec.args[a.name] = a
        elif key == "scalar":
            m = re.fullmatch(r"([A-Za-z_]\w*)\s*=\s*(.+)", v.text)
            if not m:
                raise _err(f"cannot read scalar '{v.text}'", v.loc, hint="write: scalar NAME = VALUE")
            spec.scalars[m.group(1)] = Text(m.group(2).strip(), v.at(m.start(2)))
        elif key == "reference":
            m = re.fullmatch(r"([A-Za-z_]\w*)\s*\((.*)\)", v.text)
            if not m:
                raise _err(f"cannot read reference '{v.text}'", v.loc, hint="write: reference FUNC(arg, ...)")
            args = [Text(a, v.at(m.start(2) + off)) for a, off in cexpr.split_top_level(m.group(2))] \
                if m.group(2).strip() else []
            spec.reference = (m.group(1), args)
            spec.reference_loc = v.loc
        elif key == "tolerance":
            spec.tolerance, spec.tolerance_values = _parse_tolerance(v)
        elif key == "targets":
            ts = tuple(t.strip() for t in v.text.split(",") if t.strip())
            for t in ts:
                if t not in backends.port_names():
                    raise _err(f"unknown target '{t}'", v.loc, hint="targets: " + ", ".join(backends.port_names()))
            spec.targets = ts
        elif key == "instantiate":
            if not re.fullmatch(r"<.*>", v.text):
                raise _err(f"cannot read instantiate '{v.text}'", v.loc, hint="write: instantiate <256, float>")
            spec.instantiate.append(v)
        elif key == "seed":
            if not re.fullmatch(r"\d+", v.text):
                raise _err(f"seed must be a non-negative integer, got '{v.text}'", v.loc)
            spec.seed = int(v.text)
    spec.why = " ".join(w for w in why if w).strip()
    _validate(k, spec, module)
    return spec


def _parse_tolerance(v: Text) -> tuple[str, dict[str, float]]:
    if v.text in ("auto", "exact"):
        return v.text, {}
    vals = {}
    for part in v.text.split():
        m = re.fullmatch(r"(abs|rel)=([-+0-9.eE]+)", part)
        if not m:
            raise _err(f"cannot read tolerance '{part}'", v.at(v.text.find(part)),
                       hint="write: auto, exact, or abs=X rel=Y")
        vals[m.group(1)] = float(m.group(2))
    return "explicit", vals


def _validate(k: Function, spec: KernelSpec, module: Module) -> None:
    if not spec.block:
        raise _err(f"kernel '{k.name}' has annotations but no block size", spec.loc, hint="add: // @kp block 256")
    if not spec.grid:
        raise _err(f"kernel '{k.name}' has annotations but no grid", spec.loc, hint="add: // @kp grid ceil_div(n, 256)")
    if not spec.why:
        spec.warnings.append((spec.block[0].loc, "the block size has no reason: add '// @kp why ...' (a block "
                              "size is a decision: say what it trades off)"))
    for p in k.params:
        if p.pointer and p.name not in spec.args:
            raise _err(f"pointer parameter '{p.name}' of '{k.name}' has no 'arg' annotation", spec.loc,
                       hint=f"add: // @kp arg {p.name} in|out|inout {p.type}[LENGTH] GENERATOR")
        if not p.pointer and p.name not in spec.scalars:
            raise _err(f"scalar parameter '{p.name}' of '{k.name}' has no value", spec.loc,
                       hint=f"add: // @kp scalar {p.name} = VALUE")
    if k.template_params and not spec.instantiate:
        raise _err(f"template kernel '{k.name}' needs 'instantiate'", spec.loc,
                   hint="add: // @kp instantiate <" + ", ".join(k.template_params) + " values>")
    # Evaluate everything once so that errors surface now, at their annotation.
    vals = spec.scalar_values()
    for t in spec.grid + spec.block + ([spec.shared] if spec.shared else []):
        v = _eval(t, vals)
        if int(v) <= 0 and t is not spec.shared:
            raise _err(f"launch dimension '{t.text}' evaluates to {v}", t.loc, hint="grid and block must be positive")
    if spec.block and int(_eval(spec.block[0], vals)) * (spec.dims("block")[1]) * spec.dims("block")[2] > 1024:
        raise _err("block has more than 1024 threads", spec.block[0].loc, hint="CUDA, HIP and Metal allow at most 1024")
    for a in spec.args.values():
        if int(_eval(a.length, vals)) <= 0:
            raise _err(f"length of '{a.name}' evaluates to {int(_eval(a.length, vals))}", a.length.loc)
    if spec.reference is None:
        raise _err(f"kernel '{k.name}' has no reference", spec.loc,
                   hint=f"add: // @kp reference {k.name}_ref(...) naming a plain C function in this file")
    fname, args = spec.reference
    ref = module.functions.get(fname)
    if ref is None:
        raise _err(f"reference function '{fname}' is not defined in this file", spec.reference_loc,
                   hint="write the scalar CPU reference as a plain C function next to the kernel")
    if ref.is_device:
        raise _err(f"reference '{fname}' is a device function", spec.reference_loc,
                   hint="the reference must be plain host C")
    if len(args) != len(ref.params):
        raise _err(f"reference '{fname}' takes {len(ref.params)} arguments, the annotation passes {len(args)}",
                   spec.reference_loc)
    names = {**vals}
    for a in args:
        if a.text in spec.args:
            continue
        _eval(a, names)
