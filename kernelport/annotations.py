"""`// @kp KEY VALUE` annotations: what verify needs to run a kernel (docs/annotations.md).

A block of annotation comments applies to the next `__global__` function.  Every problem is a
KernelportError at the exact line and column of the offending text, with a hint.
"""
from __future__ import annotations

import difflib
import math
import os
import re
from dataclasses import dataclass, field

from . import backends, cexpr, vector_types
from .errors import KernelportError, Location
from .model import Function, Module
from . import lazy_re

KEYS = ("kernel", "grid", "block", "why", "shared", "arg", "scalar", "reference", "tolerance", "targets",
        "instantiate", "seed", "warp-width")
ROLES = ("in", "out", "inout")
GENERATORS = {"uniform": (2, 2), "normal": (2, 2), "integers": (2, 2), "constant": (1, 1), "arange": (0, 2),
              "monotone": (2, 2)}
ELEMENT_TYPES = ("float", "int", "unsigned", "unsigned int", "uint", "uint32_t", "int32_t", "half", "__half",
                 "double", "char", "unsigned char", "uint8_t", "int8_t", "short", "unsigned short",
                 "long long", "unsigned long long", "int64_t", "uint64_t", "size_t", "long", "unsigned long", "float2", "float4")


def _bfloat16(typ: str) -> bool:
    """A dialect's bfloat16 type (llm.c's floatX): its data is float32 (kernelport.inputs.DTYPES)."""
    from .inputs import DTYPES
    return typ in DTYPES and typ not in ELEMENT_TYPES


_LINE = lazy_re.compile(r"//\s*@kp\b[ \t]*(?P<key>[\w-]*)[ \t]*(?P<value>.*)$")
NAME = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"  # a parameter, or a field of a struct parameter: params.gmem_src


@dataclass
class Text:
    """An annotation value with where it starts, for errors that point into it."""
    text: str
    loc: Location

    def at(self, offset: int) -> Location:
        return Location(self.loc.path, self.loc.line, self.loc.column + offset)


@dataclass
class Generator:
    """An input buffer's generator from `@kp` annotations: its kind and parameters."""
    kind: str
    params: tuple[int | float, ...]
    loc: Location | None = None


@dataclass
class ArgSpec:
    """One kernel argument as a `@kp` annotation gives it: role, type, length and generator."""
    name: str
    role: str
    type: str
    length: Text
    generator: Generator | None
    loc: Location
    layout: object = None  # an array of structs: its numpy dtype in C layout (kernelport.infer_structs.layout)
    offset: int = 0  # elements into the buffer the kernel's pointer starts at (host code's `d_x++`: host_offsets)


@dataclass
class KernelSpec:
    """What a kernel's `@kp` annotations say: its arguments and its launch's grid and block."""
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

    scalar_types: dict[str, cexpr.CType] = field(default_factory=dict)  # the kernel parameters' C types

    # -- evaluation ------------------------------------------------------------------------
    def typed_scalars(self) -> dict[str, cexpr.Value]:
        """Each scalar's value in its parameter's C type; it must fit the type (no silent wrap).
        A floating value keeps its double value (the sidecar shows what was written; the
        kernel's arguments are rounded when they are made)."""
        vals: dict[str, cexpr.Value] = {}
        for name, t in self.scalars.items():
            v = _eval_typed(t, vals)
            ct = self.scalar_types.get(name)
            if ct is not None:
                try:
                    conv = cexpr.convert(v, ct, strict=True)
                except cexpr.CExprError as e:
                    raise KernelportError(f"scalar '{name}': {e}", t.loc, hint=e.hint) from None
                v = cexpr.Value(ct, v.v) if ct.kind == "float" else conv
            vals[name] = v
        return vals

    def scalar_values(self) -> dict[str, int | float]:
        return {k: v.v for k, v in self.typed_scalars().items()}

    def dims(self, which: str, wave: int | None = None) -> tuple[int, int, int]:
        """grid or block.  A grid may name `warpSize`, the wave width of the run (what HIP host
        code launches with); without a run it is 32, the width of CUDA and Metal."""
        vals = self.typed_scalars()
        if which == "grid":
            vals["warpSize"] = cexpr.Value(cexpr.INT, wave or 32)
        parts = [_integer(t, vals, f"{which} dimension") for t in getattr(self, which)]
        return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]

    def shared_bytes(self) -> int:
        return _integer(self.shared, self.typed_scalars(), "shared memory size") if self.shared else 0

    def length(self, arg: str) -> int:
        return _integer(self.args[arg].length, self.typed_scalars(), f"length of '{arg}'")


def _eval_typed(t: Text, names) -> cexpr.Value:
    try:
        return cexpr.evaluate_typed(t.text, names)
    except cexpr.CExprError as e:
        raise KernelportError(str(e), t.at(e.offset), hint=e.hint or cexpr._GRAMMAR) from None


def _eval(t: Text, names) -> int | float:
    return _eval_typed(t, names).v


def _integer(t: Text, names, what: str) -> int:
    v = _eval_typed(t, names)
    if v.type.kind != "int":
        raise KernelportError(f"{what} '{t.text}' is a {v.type.name} ({v.v!r}), not an integer", t.loc,
                              hint="sizes and launch dimensions are integer expressions; cast with (int) if meant")
    return int(v.v)


# Hardware limits of a launch (CUDA's; HIP and Metal allow no more threads per block).
GRID_MAX = (2 ** 31 - 1, 65535, 65535)
BLOCK_MAX = (1024, 1024, 64)
BLOCK_THREADS_MAX = 1024
SHARED_MAX = 227 * 1024  # dynamic shared memory per block: the most any target allows (sm_90, opt-in)
BUDGET_ENV = "KERNELPORT_MAX_BUFFER_BYTES"
DEFAULT_BUFFER_BUDGET = 256 << 20


def parse_size(text: str) -> int | None:
    """'268435456', '256M', '1GiB', '2G' -> bytes (binary units); None if it is not a size."""
    m = re.fullmatch(r"\s*(\d{1,20})\s*([kKmMgGtT]?)(?:i?[bB])?\s*", text)
    if not m:
        return None
    return int(m.group(1)) << (10 * " kmgt".index(m.group(2).lower() or " "))


def buffer_budget() -> int:
    """Bytes all buffers of one kernel may take: $KERNELPORT_MAX_BUFFER_BYTES (verify's
    --max-buffer-bytes sets it), default 256 MiB."""
    raw = os.environ.get(BUDGET_ENV)
    if raw is None or not raw.strip():
        return DEFAULT_BUFFER_BUDGET
    n = parse_size(raw)
    if n is None:
        raise KernelportError(f"{BUDGET_ENV}={raw!r} is not a size", hint="write bytes, or e.g. 512M, 4G")
    return n


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
            params.append(_eval(Text(p, t.at(m.start(2) + off)), {}))
    lo, hi = GENERATORS[kind]
    if not (lo <= len(params) <= hi):
        raise _err(f"{kind}() takes {lo if lo == hi else f'{lo} to {hi}'} argument{'' if hi == 1 else 's'}, "
                   f"got {len(params)}", t.loc)
    if kind in ("uniform", "integers", "monotone") and params[1] <= params[0]:
        raise _err(f"{kind}({inner}): the upper bound must be above the lower one", t.loc,
                   hint=f"write {kind}(lo, hi) with lo < hi")
    if kind == "uniform" and not math.isfinite(float(params[1]) - float(params[0])):
        raise _err(f"uniform({inner}): the range is too wide to sample", t.loc, hint="use bounds of moderate size")
    if kind == "normal" and not params[1] > 0:
        raise _err(f"normal({inner}): the standard deviation must be positive", t.loc,
                   hint="write normal(mean, std) with std > 0; constant(v) gives one value")
    if kind == "integers" and not all(float(p).is_integer() for p in params):
        raise _err(f"integers({inner}): the bounds must be integers", t.loc, hint="write e.g. integers(-8, 8)")
    if kind == "monotone" and not (all(float(p).is_integer() for p in params) and params[0] >= 0):
        raise _err(f"monotone({inner}): the steps must be integers from 0 up", t.loc,
                   hint="write e.g. monotone(0, 5): CSR row pointers with 0 to 4 entries a row")
    return Generator(kind, tuple(params), t.loc)


def _check_generator(a: ArgSpec, n: int) -> None:
    """The generator's values must be representable in the buffer's element type."""
    g = a.generator
    if g is None:
        return
    et = cexpr.FLOAT if a.type in ("float2", "float4") else cexpr.ctype(a.type)
    if et is None:
        return
    p = g.params
    if g.kind == "uniform":
        lo, hi = p
        extreme = [lo, hi] if et.kind == "float" else [math.floor(lo), math.ceil(hi) - 1]
    elif g.kind == "normal":
        extreme = [p[0] - 10 * p[1], p[0] + 10 * p[1]]  # beyond 10 sigma: never drawn
    elif g.kind == "integers":
        extreme = [p[0], p[1] - 1]
    elif g.kind == "constant":
        extreme = [p[0]]
    elif g.kind == "monotone":
        extreme = [0, (p[1] - 1) * max(n - 1, 0)]
    else:
        start = p[0] if p else 0
        step = p[1] if len(p) > 1 else 1
        extreme = [start, start + step * max(n - 1, 0)]
    for x in extreme:
        ok = cexpr.fits(et, x) if et.kind == "float" or g.kind in ("integers", "constant", "arange", "monotone") \
            else et.lo <= x <= et.hi
        if not ok:
            raise _err(f"{g.kind}{tuple(p)!r} gives {x!r}, which does not fit the element type {a.type} of "
                       f"'{a.name}'", g.loc or a.loc,
                       hint=f"{a.type} holds " + (f"{et.lo} to {et.hi}" if et.kind == "int" else
                                                   f"finite values up to {cexpr._float_max(et):.7g}"))


def _parse_arg(v: Text) -> ArgSpec:
    m = re.fullmatch(rf"(?P<name>{NAME})\s+(?P<role>\w+)\s+(?P<type>[A-Za-z_][\w ]*?)\s*\[(?P<len>[^\]]*)\]\s*(?P<gen>.*)",
                     v.text)
    if not m:
        raise _err(f"cannot read arg '{v.text}'", v.loc, hint="write: arg NAME in|out|inout TYPE[LENGTH] [GENERATOR]")
    role = m.group("role")
    if role not in ROLES:
        raise _err(f"unknown role '{role}'", v.at(m.start("role")), hint="roles: in, out, inout")
    typ = " ".join(m.group("type").split())
    if typ not in ELEMENT_TYPES and not _bfloat16(typ):
        raise _err(f"unknown element type '{typ}'", v.at(m.start("type")), hint="types: " + ", ".join(ELEMENT_TYPES))
    gen = _parse_generator(Text(m.group("gen").strip(), v.at(m.start("gen")))) if m.group("gen").strip() else None
    if gen is None and role != "out":
        raise _err(f"'{m.group('name')}' is an {role} buffer but has no generator", v.loc,
                   hint="add one, e.g. uniform(-1, 1) or integers(0, 10)")
    return ArgSpec(m.group("name"), role, typ, Text(m.group("len").strip(), v.at(m.start("len"))), gen, v.loc)


def parse(module: Module, *, reference: bool = False) -> dict[str, KernelSpec]:
    """Annotation blocks of a file, keyed by kernel name, validated against the kernel model.
    A block may leave out `reference`: verify's oracle is then the original at wave 32 (issue 18);
    `reference=True` requires one."""
    src = module.source
    kernels = sorted(module.kernels, key=lambda f: f.node.start_byte)
    specs: dict[str, KernelSpec] = {}
    pending: list[tuple[str, Text]] = []

    comments = src.index.of_type("comment")
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
                specs[obj.name] = _build(obj, pending, module, reference)
                pending = []
    if pending:
        key, t = pending[0]
        raise _err("annotations are not followed by a __global__ kernel", t.loc,
                   hint="put the // @kp lines directly above the kernel they describe")
    return specs


def _build(k: Function, lines: list[tuple[str, Text]], module: Module, reference: bool = True) -> KernelSpec:
    """`reference=False`: inputs only (a run compared with itself at two widths needs no reference)."""
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
            p = _param(k, a.name, v)
            if "." in a.name:
                if p.pointer:
                    raise _err(f"'{p.name}' is a pointer: fields are given for a struct passed by value", v.loc,
                               hint=f"write: arg {p.name} in|out|inout TYPE[LENGTH] GENERATOR")
            elif not p.pointer:
                raise _err(f"'{a.name}' is a scalar parameter", v.loc, hint=f"write: scalar {a.name} = VALUE")
            spec.args[a.name] = a
        elif key == "scalar":
            m = re.fullmatch(rf"({NAME})\s*=\s*(.+)", v.text)
            if not m:
                raise _err(f"cannot read scalar '{v.text}'", v.loc, hint="write: scalar NAME = VALUE")
            if "." in m.group(1) and _param(k, m.group(1), v).pointer:
                raise _err(f"'{m.group(1).split('.')[0]}' is a pointer: fields are given for a struct passed by "
                           "value", v.loc, hint="write: arg NAME in|out|inout TYPE[LENGTH] GENERATOR")
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
            if not re.fullmatch(r"\d{1,20}", v.text) or int(v.text) >= 2 ** 64:
                raise _err(f"seed must be an integer from 0 to 2^64 - 1, got '{v.text}'", v.loc)
            spec.seed = int(v.text)
    spec.why = " ".join(w for w in why if w).strip()
    _validate(k, spec, module, reference)
    return spec


def _param(k: Function, name: str, v: Text):
    """The kernel parameter an arg or scalar line names (`params.c`: the struct parameter `params`)."""
    p = k.param(name.split(".")[0])
    if p is None:
        raise _err(f"kernel '{k.name}' has no parameter '{name.split('.')[0]}'", v.loc,
                   hint="parameters: " + ", ".join(p.name for p in k.params))
    return p


def struct_fields(spec: KernelSpec, param: str) -> list[str]:
    """The arg and scalar names that give fields of the struct parameter `param` (`param.f`)."""
    return [n for n in (*spec.args, *spec.scalars) if n.startswith(param + ".")]


def _parse_tolerance(v: Text) -> tuple[str, dict[str, float]]:
    if v.text in ("auto", "exact"):
        return v.text, {}
    vals = {}
    for part in v.text.split():
        off = v.text.find(part)
        m = re.fullmatch(r"(abs|rel)=(.+)", part)
        if not m:
            raise _err(f"cannot read tolerance '{part}'", v.at(off), hint="write: auto, exact, or abs=X rel=Y")
        x = float(_eval(Text(m.group(2), v.at(off + m.start(2))), {}))
        if not (math.isfinite(x) and x >= 0):
            raise _err(f"tolerance {m.group(1)}={m.group(2)} must be a finite value >= 0", v.at(off + m.start(2)),
                       hint="e.g. abs=1e-6 rel=1e-5")
        vals[m.group(1)] = x
    return "explicit", vals


def build_inputs(k: Function, lines: list[tuple[str, Text]], module: Module) -> KernelSpec:
    """A kernel's inputs from annotation lines given outside its file (`--inputs`): no reference."""
    return _build(k, lines, module, reference=False)


def _validate(k: Function, spec: KernelSpec, module: Module, reference: bool = True) -> None:
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
        if not p.pointer and p.name not in spec.scalars and not struct_fields(spec, p.name):
            raise _err(f"scalar parameter '{p.name}' of '{k.name}' has no value", spec.loc,
                       hint=f"add: // @kp scalar {p.name} = VALUE (a struct's fields: scalar {p.name}.FIELD = "
                            f"VALUE, arg {p.name}.FIELD in|out|inout TYPE[LENGTH] GENERATOR)")
    if k.template_params and not spec.instantiate:
        raise _err(f"template kernel '{k.name}' needs 'instantiate'", spec.loc,
                   hint="add: // @kp instantiate <" + ", ".join(k.template_params) + " values>")
    for p in k.params:
        if not p.pointer and p.name in spec.scalars and cexpr.ctype(p.type) is not None:
            spec.scalar_types[p.name] = cexpr.ctype(p.type)
    # Evaluate everything once so that errors surface now, at their annotation.
    vals = spec.typed_scalars()
    for which, limits in (("grid", GRID_MAX), ("block", BLOCK_MAX)):
        for wave in ((32, 64) if which == "grid" else (None,)):
            names = vals if wave is None else {**vals, "warpSize": cexpr.Value(cexpr.INT, wave)}
            for axis, (t, most) in enumerate(zip(getattr(spec, which), limits)):
                v = _integer(t, names, f"{which} dimension")
                if not 1 <= v <= most:
                    at = f" at warpSize {wave}" if wave and "warpSize" in t.text else ""
                    raise _err(f"{which} dimension {'xyz'[axis]} '{t.text}' is {v}{at}", t.loc,
                               hint=f"{which}.{'xyz'[axis]} must be 1 to {most} (the hardware limit)")
    threads = math.prod(spec.dims("block"))
    if threads > BLOCK_THREADS_MAX:
        raise _err(f"block has {threads} threads", spec.block[0].loc,
                   hint=f"CUDA, HIP and Metal allow at most {BLOCK_THREADS_MAX} threads per block")
    if spec.shared:
        v = _integer(spec.shared, vals, "shared memory size")
        if not 0 <= v <= SHARED_MAX:
            raise _err(f"shared memory size '{spec.shared.text}' is {v} bytes", spec.shared.loc,
                       hint=f"dynamic shared memory is 0 to {SHARED_MAX} bytes per block")
    budget, total = buffer_budget(), 0
    for a in spec.args.values():
        n = _integer(a.length, vals, f"length of '{a.name}'")
        if n <= 0:
            raise _err(f"length of '{a.name}' evaluates to {n}", a.length.loc, hint="a buffer needs at least one element")
        total += n * (a.layout.itemsize if a.layout is not None else  # (a struct's, when inferred)
                      cexpr.SIZEOF.get(a.type) or vector_types.SIZES[a.type])  # uchar4: 4 bytes
        if total > budget:
            raise _err(f"the buffers up to '{a.name}' take {total} bytes, over the budget of {budget} bytes",
                       a.length.loc, hint=f"raise it with --max-buffer-bytes or {BUDGET_ENV} (e.g. 4G), or shrink "
                                          "the sizes")
        _check_generator(a, n * (4 if a.type == "float4" else 2 if a.type == "float2" else 1))
    if spec.reference is None and not reference:
        return
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
