"""A kernel's inputs without annotations: read from the host code that launches it, or given on
the command line (`verify --arg x=float[4096]:uniform(-1,1) --arg n=4096 --grid 16 --block 256`).

    from kernelport.infer_inputs import infer, NotRun
    got = infer(module, "saxpy", others=[...], given=CommandLine.parse([...]))
    if isinstance(got, NotRun): print(got.format())          # "not run: needs sizes (hint: ...)"
    else: args = inputs.make_args(module.functions["saxpy"], got.spec); print(got.inferred)

`infer` returns an Inferred whose `spec` is the KernelSpec annotations produce (grid, block,
shared, buffers with lengths and generators, typed scalars, template instantiation; no reference:
the oracle is the original at wave 32), with `inferred`, one line per value saying where it came
from, or a NotRun(reason, hint) saying what is missing.  Never a guess: a value host code computes
at run time (argv, a file) is a NotRun naming it.

Sizes stay small so the emulator runs every port in seconds: a launch over MAX_THREADS threads
or MAX_BYTES of buffers is scaled down only through host-only sizes (integer literals that device
code never reads: every buffer length, scalar and grid dimension is re-derived from them, as if
the program were built with a smaller size; the block never changes), else refused with a hint.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from . import cexpr
from .annotations import ArgSpec, Generator, KernelSpec, Text, _parse_arg
from .errors import KernelportError, Location
from .host_values import Scope, Unknown, pointer_name, scope_at
from .infer_structs import struct_inputs
from .infer_types import resolve as resolve_type
from .inputs import DTYPES
from .model import Function, Launch, Module, device_references

# Host-only sizes are scaled down to TARGET_*; a launch that cannot be scaled runs at its own size
# up to MAX_* (the emulator runs a 1000 x 1000 five-point stencil, 1M threads, in 0.6 s).
TARGET_THREADS, TARGET_BYTES = 1 << 16, 16 << 20
MAX_THREADS, MAX_BYTES = 1 << 20, 64 << 20
SCALE_STEPS = 12  # host-only sizes are divided by 2, 4, ... 2**12 at most
FLOAT_GEN, INT_GEN = "uniform(-1, 1)", "integers(0, 8)"


@dataclass
class NotRun:
    """Why a kernel is not run (neither a pass nor a failure) and what would make it run."""
    reason: str
    hint: str
    loc: Location | None = None

    def format(self) -> str:
        where = f"{self.loc}: " if self.loc is not None else ""
        return f"{where}not run: {self.reason} (hint: {self.hint})"


@dataclass
class Inferred:
    spec: KernelSpec
    inferred: list[str]  # one line per value: what it is and where it came from
    source: str  # "host code" | "command line"
    launch: Location | None = None


@dataclass
class CommandLine:
    """verify's --arg / --grid / --block / --shared, in the annotations' own syntax."""
    args: dict[str, ArgSpec] = field(default_factory=dict)
    scalars: dict[str, Text] = field(default_factory=dict)  # a kernel scalar, or a host name (a size)
    grid: list[Text] = field(default_factory=list)
    block: list[Text] = field(default_factory=list)
    shared: Text | None = None

    @classmethod
    def parse(cls, args: list[str] = (), grid: str | None = None, block: str | None = None,
              shared: str | None = None) -> "CommandLine":
        here = Location("<command line>", 1, 1)
        out = cls()
        for a in args:
            m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*=\s*(.+?)\s*", a)
            if not m:
                raise KernelportError(f"cannot read --arg '{a}'", here,
                                      hint="write --arg NAME=TYPE[LENGTH]:GENERATOR or --arg NAME=VALUE")
            name, value = m.groups()
            b = re.fullmatch(r"([A-Za-z_][\w ]*?)\s*\[([^\]]+)\]\s*(?::\s*(.*))?", value)
            if b:
                gen = b.group(3) or FLOAT_GEN
                out.args[name] = _parse_arg(Text(f"{name} inout {b.group(1)}[{b.group(2)}] {gen}", here))
            else:
                out.scalars[name] = Text(value, here)
        for which, text in (("grid", grid), ("block", block)):
            if text:
                setattr(out, which, [Text(p, here) for p, _ in cexpr.split_top_level(text)])
        out.shared = Text(shared, here) if shared else None
        return out

    def complete_for(self, k: Function) -> bool:
        return bool(self.grid and self.block) and all(
            p.name in (self.args if p.pointer else self.scalars) for p in k.params)


def infer(module: Module, kernel: str, others: list[Module] = (), given: CommandLine | None = None
          ) -> Inferred | NotRun:
    """The inputs of `kernel` (a name in module.functions): the command line's where given, else
    the first launch of the kernel in `module`, then in `others` (the rest of the project)."""
    given = given or CommandLine()
    k = module.functions.get(kernel)
    if k is None or not k.is_kernel:
        return NotRun(f"no kernel '{kernel}' in {module.source.path}", "name a __global__ function")
    kloc = module.source.loc(k.node)
    if given.complete_for(k) and not k.template_params:
        try:
            return _from_command_line(k, kloc, given)
        except KernelportError as e:
            return NotRun(e.message, e.hint or "fix the --arg values", kloc)
    site = next(((m, l) for m in [module, *others] for l in m.launches if l.kernel == k.name), None)
    if site is None:
        return NotRun(f"needs sizes: no launch of '{k.name}' in the file or project",
                      f"pass them: --arg NAME=TYPE[LENGTH]:uniform(-1,1) for each buffer, --arg NAME=VALUE for "
                      f"each scalar, --grid G --block B", kloc)
    m, launch = site
    try:
        scope = scope_at(m, launch.node, others=[o for o in [module, *others] if o is not m])
    except RecursionError:
        return NotRun("the host code is nested too deeply to read", "pass --arg, --grid and --block", kloc)
    for name, t in given.scalars.items():
        try:
            scope.overrides[name] = cexpr.evaluate_typed(t.text, {})
        except cexpr.CExprError as e:
            return NotRun(f"--arg {name}={t.text}: {e}", "write a C constant, e.g. --arg n=4096", None)
    first = _attempt(m, k, launch, scope, given, {})
    if isinstance(first, NotRun):
        return first
    if _fits(first):
        return _done(first)
    return _scaled(m, k, launch, scope, given, first, device_references(module))


# -- one evaluation of a launch ---------------------------------------------------------------
@dataclass
class _Try:
    spec: KernelSpec
    notes: list[str]
    threads: int
    bytes: int
    block: tuple[int, int, int]
    launch: Location
    fixed: set[str]


def _fits(t: _Try, hard: bool = False) -> bool:
    return t.threads <= (MAX_THREADS if hard else TARGET_THREADS) and t.bytes <= (MAX_BYTES if hard else TARGET_BYTES)


def _attempt(m: Module, k: Function, launch: Launch, scope: Scope, given: CommandLine,
             scaled: dict[str, tuple[int, int]]) -> _Try | NotRun:
    src = m.source
    at = src.loc(launch.node)
    notes: list[str] = []
    spec = KernelSpec(k.name, at, why="inferred from the host code")
    call_args = launch.node.child_by_field_name("arguments")
    argn = [a for a in (call_args.named_children if call_args else []) if a.type != "comment"]
    if len(argn) != len(k.params):
        return NotRun(f"the launch at {at} passes {len(argn)} arguments to {len(k.params)} parameters",
                      "pass every argument with --arg", at)
    tmap: dict[str, str] = {}
    try:
        if k.template_params:
            targs = _template_args(m, launch, scope) or _deduced(k, argn, m, scope)
            if targs is None or len(targs) != len(k.template_params):
                return NotRun(f"needs template arguments: the launch at {at} leaves them to deduction",
                              "write the launch as kernel<T, N><<<...>>>, or annotate: // @kp instantiate <...>",
                              at)
            tmap = dict(zip(k.template_params, targs))
            spec.instantiate = [Text("<" + ", ".join(targs) + ">", at)]
            notes.append(f"template arguments <{', '.join(targs)}> from the launch at {at}")
        config = [src.text_of(c) for c in launch.config]
        block = _dims(given.block, scope, config[1])
        shared = int(scope.value(given.shared.text if given.shared else config[2]).v) if \
            given.shared or len(config) > 2 else 0
        fixed = set(scope.used)  # what the block, shared memory and template arguments read: never scaled
        grid = _dims(given.grid, scope, config[0])
        if shared < 0:
            raise Unknown(f"dynamic shared memory is {shared} bytes")
        where = "the command line" if given.grid else f"the launch at {at}"
        notes.append(f"grid {grid}, block {block}" + (f", {shared} bytes of dynamic shared memory" if shared else "")
                     + f" from {where}")
        spec.grid = [Text(str(v), at) for v in grid]
        spec.block = [Text(str(v), at) for v in block]
        spec.shared = Text(str(shared), at) if shared else None
        total = 0
        for position, (p, a) in enumerate(zip(k.params, argn)):
            text = src.text_of(a)
            if p.pointer:
                arg, note = _buffer(p, text, scope, given, tmap, at)
                spec.args[p.name] = arg
                total += int(arg.length.text) * cexpr.SIZEOF[arg.type]
                notes.append(note)
            elif p.name not in given.scalars and (r := resolve_type(p.type, tmap, scope)).struct is not None:
                more, nbytes = struct_inputs(spec, p, text, r.struct, scope, tmap, at, position, _buffer)
                notes += more  # a struct by value: its fields (kernelport.infer_structs)
                total += nbytes
            else:
                v, note = _scalar(p, text, scope, given, tmap, position)
                if isinstance(v, NotRun):
                    return v
                spec.scalars[p.name] = Text(v, at)
                ct = cexpr.ctype(_elem(p.type, tmap, scope))
                if ct is not None:
                    spec.scalar_types[p.name] = ct
                notes.append(note)
    except Unknown as e:
        return NotRun(f"needs sizes: {e.why}" + (f" ({e.loc})" if e.loc else ""),
                      f"pass it: --arg {e.name}=VALUE" if e.name else
                      "pass the value: --arg NAME=VALUE (a kernel scalar or a host size), or --arg "
                      "NAME=TYPE[LENGTH]:uniform(-1,1) for a buffer", at)
    except KernelportError as e:
        return NotRun(e.message, e.hint or "pass the inputs with --arg", at)
    if any(v < 1 for v in grid + block):
        return NotRun(f"the launch at {at} has an empty grid {grid} or block {block}", "pass --grid and --block", at)
    if math.prod(block) > 1024:
        return NotRun(f"the block {block} has over 1024 threads", "pass --block", at)
    for name, (old, new) in sorted(scaled.items()):
        notes.append(f"{name} = {old} scaled down to {new} (a host-only size device code never reads; "
                     f"pass --arg {name}=VALUE to choose)")
    for n, (v, d) in sorted(scope.used.items()):
        if d is not None and n not in scaled and "#" not in n:
            notes.append(f"{n} = {v.v} from {d.note or d.loc}" if d.note else f"{n} = {v.v} from {d.loc}")
    return _Try(spec, notes, math.prod(grid) * math.prod(block), total, block, at, fixed)


def _dims(given: list[Text], scope: Scope, text: str) -> tuple[int, int, int]:
    if given:
        vals = [int(cexpr.evaluate_typed(t.text, {}).v) for t in given]
        return tuple(vals + [1] * (3 - len(vals)))  # type: ignore[return-value]
    return scope.dims(text)


def _elem(p_type: str, tmap: dict[str, str], scope: Scope) -> str:
    return resolve_type(p_type, tmap, scope).name  # through macros, typedefs, aliases (kernelport.infer_types)


def _buffer(p, text: str, scope: Scope, given: CommandLine, tmap, at) -> tuple[ArgSpec, str]:
    if p.name in given.args:
        a = given.args[p.name]
        return a, f"{p.name}: {a.type}[{a.length.text}] {_gen_text(a.generator)} from the command line"
    t = _elem(p.type, tmap, scope)
    if t not in DTYPES and resolve_type(p.type, tmap, scope).struct is not None:
        raise KernelportError(f"buffer '{p.name}' holds struct '{t}': an array of structs is not an input the "
                              "emulator can hold yet", hint="annotate the kernel with buffers of numbers, or pass "
                              f"--arg {p.name}=float[LENGTH]:uniform(-1,1) if the struct is plain floats")
    if t not in DTYPES or t not in cexpr.SIZEOF:
        raise KernelportError(f"buffer '{p.name}' holds '{p.type}', not numbers the emulator can generate",
                              hint=f"pass --arg {p.name}=float[LENGTH]:uniform(-1,1) if it is plain data")
    ptr, sc, d = pointer_name(text), scope, None
    for _ in range(4):  # a pointer parameter of the launching function: its allocation at the caller
        d = sc.lookup(f"{ptr}#bytes") if ptr else None
        bound = sc.lookup(ptr) if ptr and d is None else None
        if bound is None or bound.scope is None:
            break
        ptr, sc = pointer_name(bound.text), bound.scope
    if d is None:
        raise Unknown(f"the length of buffer '{p.name}' (given '{' '.join(text.split())[:40]}'): no allocation "
                      f"of it before the launch")
    nbytes = int((d.scope or sc).value(d.text).v)
    n = nbytes // cexpr.SIZEOF[t]  # a float4 is one element of 16 bytes
    if n < 1:
        raise Unknown(f"buffer '{p.name}' has {nbytes} bytes, under one {t}", d.loc)
    init = sc.lookup(f"{ptr}#init")
    role = "in" if p.const else "inout" if init is not None else "out"
    gen = None
    if role != "out":
        zero = init is not None and init.text and _is_zero(init.text, sc)
        gen = "constant(0)" if zero else FLOAT_GEN if cexpr.ctype(t) is None or cexpr.ctype(t).kind == "float" \
            else INT_GEN
    a = _parse_arg(Text(f"{p.name} {role} {t}[{n}] {gen or ''}".strip(), at))
    return a, f"{p.name}: {role} {t}[{n}] {gen or 'zeros'} ({nbytes} bytes allocated at {d.loc})"


def _is_zero(text: str, scope: Scope) -> bool:
    try:
        return scope.value(text).v == 0
    except Unknown:
        return False


def _gen_text(g: Generator | None) -> str:
    return f"{g.kind}{g.params}" if g else "zeros"


def _scalar(p, text: str, scope: Scope, given: CommandLine, tmap, position: int) -> tuple[str | NotRun, str]:
    if p.name in given.scalars:
        return given.scalars[p.name].text, f"{p.name} = {given.scalars[p.name].text} from the command line"
    t = _elem(p.type, tmap, scope)
    if cexpr.ctype(t) is None:
        return NotRun(f"scalar '{p.name}' is a '{p.type}', which the emulator's inputs cannot hold",
                      f"pass --arg {p.name}=VALUE if it is a number"), ""
    try:
        v = scope.value(text)
    except Unknown as e:
        if cexpr.ctype(t).kind != "float":
            raise
        # A floating scalar is data, never a size: a seeded value stands for what host code computes.
        g = round(float(np.random.default_rng([0, position]).uniform(-1, 1)), 4)
        return f"{g!r}", f"{p.name} = {g!r} generated (host code computes it when it runs: {e.why})"
    lit = Scope._literal(v)
    return lit, f"{p.name} = {v.v} (the launch passes '{' '.join(text.split())[:40]}')"


def _template_args(m: Module, launch: Launch, scope: Scope) -> list[str] | None:
    fn = launch.node.child_by_field_name("function")
    if fn is None or fn.type != "template_function":
        return None
    al = fn.child_by_field_name("arguments")
    out = []
    for a in (al.named_children if al else []):
        text = m.source.text_of(a).strip()
        d = scope.lookup(text) if re.fullmatch(r"[A-Za-z_]\w*", text) else None
        if d is not None and d.text.strip() in DTYPES:
            out.append(d.text.strip())  # a type macro or alias
        elif a.type == "type_descriptor" and d is None:
            out.append(text)
        else:
            try:
                out.append(str(int(scope.value(text).v)))
            except Unknown:
                out.append(text)
    return out


def _deduced(k: Function, argn, m: Module, scope: Scope) -> list[str] | None:
    """Type template arguments deduced as C++ does from the declared types of the arguments
    (`T* x` given `float* d_x`); None where one cannot be (a non-type parameter)."""
    out = []
    for tp in k.template_params:
        found = None
        for p, a in zip(k.params, argn):
            if " ".join(p.type.replace("const", "").split()) != tp:
                continue
            name = pointer_name(m.source.text_of(a)) if p.pointer else m.source.text_of(a).strip()
            d = scope.lookup(f"{name}#type") if name and re.fullmatch(r"[A-Za-z_]\w*", name) else None
            if d is not None and d.text:
                found = _elem(d.text, {}, scope)
                break
        if found is None:
            return None
        out.append(found)
    return out


# -- scaling down -----------------------------------------------------------------------------
def _scaled(m: Module, k: Function, launch: Launch, scope: Scope, given: CommandLine, first: _Try,
            kernel_side: set[str]) -> Inferred | NotRun:
    device = device_references(m) | kernel_side
    roots = {}
    for n, (v, d) in scope.used.items():
        shared_with_device = n in device and d.note in ("macro", "file scope")  # a host local is never
        if d is None or shared_with_device or n in first.fixed or n in given.scalars or "#" in n or "." in n:
            continue
        if re.fullmatch(r"\(?\s*\d+[uUlL]*\s*\)?", d.text.strip()) and v.type.kind == "int" and v.v >= 2:
            roots[n] = v
    for step in range(1, SCALE_STEPS + 1) if roots else ():
        for n, v in roots.items():
            scope.overrides[n] = cexpr.Value(v.type, max(1, v.v >> step))
        scope.used.clear()
        t = _attempt(m, k, launch, scope, given, {n: (v.v, max(1, v.v >> step)) for n, v in roots.items()})
        if isinstance(t, NotRun) or t.block != first.block:
            break
        if _fits(t):
            return _done(t)
    if _fits(first, hard=True):
        return _done(first)
    return NotRun(f"needs smaller sizes: the launch has {first.threads} threads and {first.bytes} bytes of buffers "
                  f"(the emulator runs up to {MAX_THREADS} threads and {MAX_BYTES >> 20} MiB)",
                  "pass smaller host sizes: --arg NAME=VALUE for the size the launch is computed from, or every "
                  "input with --arg, --grid and --block", first.launch)


def _done(t: _Try) -> Inferred:
    return Inferred(t.spec, t.notes, "host code", t.launch)


def _from_command_line(k: Function, kloc: Location, given: CommandLine) -> Inferred:
    spec = KernelSpec(k.name, kloc, grid=list(given.grid), block=list(given.block), shared=given.shared,
                      why="given on the command line")
    notes = []
    for p in k.params:
        if p.pointer:
            spec.args[p.name] = given.args[p.name]
            notes.append(f"{p.name}: {given.args[p.name].type}[{given.args[p.name].length.text}] "
                         f"{_gen_text(given.args[p.name].generator)} from the command line")
        else:
            spec.scalars[p.name] = given.scalars[p.name]
            ct = cexpr.ctype(" ".join(p.type.replace("const", "").split()))
            if ct is not None:
                spec.scalar_types[p.name] = ct
            notes.append(f"{p.name} = {given.scalars[p.name].text} from the command line")
    spec.dims("grid"), spec.dims("block"), spec.shared_bytes()  # errors now, located
    return Inferred(spec, notes, "command line", None)
