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

from . import array_extents, cexpr, project_callers
from .annotations import ArgSpec, KernelSpec, Text, _parse_arg
from .device_props import device_property
from .errors import KernelportError, Location
from .host_offsets import pointer_offset
from .host_values import Scope, Unknown, pointer_name, scope_at
from .index_buffers import index_contents
from .infer_templates import deduced, element_name, launch_template_args, template_notes
from .infer_structs import fields, layout as struct_layout, by_value
from .infer_types import resolve as resolve_type
from .inputs import DTYPES, buffer_arg as _arg, c_bytes, c_size, generator_for, generator_name as _gen_name, \
    generator_text as _gen_text
from .model import Function, Launch, Module, device_references

# Host-only sizes are scaled down to TARGET_*; a launch that cannot be scaled runs at its own size
# up to MAX_* (the emulator runs a 1000 x 1000 five-point stencil, 1M threads, in 0.6 s).
TARGET_THREADS, TARGET_BYTES = 1 << 16, 16 << 20
MAX_THREADS, MAX_BYTES = 1 << 20, 64 << 20
SCALE_STEPS = 12  # host-only sizes are divided by 2, 4, ... 2**12 at most
FLOAT_GEN = "uniform(-1, 1)"


@dataclass
class NotRun:
    """Why a kernel is not run (neither a pass nor a failure) and what would make it run."""
    reason: str
    hint: str
    loc: Location | None = None
    free: tuple[Unknown, str] | None = None  # a host value only the run gives, and where it was read
    big_block: bool = False
    overflow: bool = False  # host code's int arithmetic overflows on these values
    empty: bool = False  # the launch's grid or block is empty on these values
    chosen: dict[str, str] = field(default_factory=dict)  # values chosen before this: name -> why
    seconds: float = 0.0  # the inference that ended here (verify's skip reports it: verify_oracle.inputs_for)

    def format(self) -> str:
        where = f"{self.loc}: " if self.loc is not None else ""
        return f"{where}not run: {self.reason} (hint: {self.hint})"


@dataclass
class Inferred:
    """A kernel's inputs read from host code or the command line, with how each was found."""
    spec: KernelSpec
    inferred: list[str]  # one line per value: what it is and where it came from
    source: str  # "host code" | "command line"
    launch: Location | None = None
    chosen: dict[str, str] = field(default_factory=dict)  # host values chosen, not read: name -> why
    redefine: dict[str, str] = field(default_factory=dict)  # macros device code reads, scaled: name -> value
    values: dict[str, int] = field(default_factory=dict)  # host values chosen or scaled: name -> value
    unscaled: dict[str, int] = field(default_factory=dict)  # buffer -> its length before a re-run's scaling


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
            m = re.fullmatch(r"\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\s*=\s*(.+?)\s*", a)  # a name, dims.x, a field
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


def infer(module: Module, kernel: str, others: list[Module] = (), given: CommandLine | None = None,
          shrink: int = 0) -> Inferred | NotRun:
    """The inputs of `kernel` (a name in module.functions): the command line's where given, else
    the first launch of the kernel in `module`, then in `others` (the rest of the project).
    shrink: scale sizes down to targets 2**shrink times smaller (an original too slow at the first)."""
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
    # another file's launch of that name runs this kernel only where its declarations say so (project_callers)
    sites = [(m, l) for m in [module, *others] for l in m.launches if l.kernel == k.name and
             (m is module or project_callers.binds(module, k, m, l))]
    if not sites:
        return NotRun(f"needs sizes: no launch of '{k.name}' in the file or project",
                      f"pass them: --arg NAME=TYPE[LENGTH]:uniform(-1,1) for each buffer, --arg NAME=VALUE for "
                      f"each scalar, --grid G --block B", kloc)
    first = None
    for m, launch in sites:  # the first launch host code's known values do not rule out
        try:
            scope = scope_at(m, launch.node, others=[o for o in [module, *others] if o is not m])
        except RecursionError:
            return NotRun("the host code is nested too deeply to read", "pass --arg, --grid and --block", kloc)
        for name, t in given.scalars.items():
            try:
                scope.overrides[name] = cexpr.evaluate_typed(t.text, {})
            except cexpr.CExprError as e:
                return NotRun(f"--arg {name}={t.text}: {e}", "write a C constant, e.g. --arg n=4096", None)
        first = first or (m, launch, scope)
        if not _ruled_out(m, launch, scope):
            break
    else:
        m, launch, scope = first  # every launch ruled out: the first, as the program text gives it
    chosen: dict[str, str] = {}
    first = _choose(m, k, launch, scope, given, chosen)
    if isinstance(first, NotRun):
        got: Inferred | NotRun = first
    else:
        got = _done(first) if _fits(first, shrink=shrink) else \
            _scaled(m, k, launch, scope, given, first, device_references(module), chosen, shrink)
    got.chosen.update(chosen)
    return got


def _ruled_out(m: Module, launch: Launch, scope: Scope) -> bool:
    """A launch under an `if` whose condition host code's known values decide against it
    (`if (block_size == 16) k<16><<<...>>>` where block_size is 32): not the launch the program
    makes.  A condition kernelport cannot evaluate rules nothing out."""
    node, used = launch.node, dict(scope.used)
    try:
        while node.parent is not None and node.type not in ("function_definition", "translation_unit"):
            p = node.parent
            cond = p.child_by_field_name("condition") if p.type == "if_statement" else None
            if cond is not None and cond.type == "condition_clause":
                cond = cond.child_by_field_name("value")
            branch = "then" if node == p.child_by_field_name("consequence") else \
                "else" if node == p.child_by_field_name("alternative") else None
            if cond is not None and branch is not None:
                try:
                    v = scope.value(m.source.text_of(cond))
                except (Unknown, RecursionError):
                    v = None
                if v is not None and bool(v.v) != (branch == "then"):
                    return True
            node = p
        return False
    finally:
        scope.used.clear()
        scope.used.update(used)


# -- free values: what only a run gives (argv, a file, an option), chosen ----------------------
SIZE_CHOICE, BLOCK_CHOICE = 1024, 128  # then halved until the launch fits (a block to 1024 threads)
MAX_FREE = 8
HALVED = "; halved until host code's arithmetic no longer overflows"


def _choose(m: Module, k: Function, launch: Launch, scope: Scope, given: CommandLine,
            chosen: dict[str, str]) -> _Try | NotRun:
    """Evaluate the launch, choosing a value for each integer host variable only the run gives (`n =
    atoi(argv[1])`, a file's value, a parameter no call gives, a device property): its value before the run
    changed it (an option's default), a reference device's (device_props), else SIZE_CHOICE, BLOCK_CHOICE
    for one the block reads, false for a bool (a flag, never a size).  One override per name, so every
    buffer length, scalar and grid dimension computed from it agrees; `chosen` records why each was chosen."""
    block_side: set[str] = set()
    for _ in range(4 * MAX_FREE):
        t = _attempt(m, k, launch, scope, given, {}, chosen)
        if isinstance(t, NotRun) and t.big_block and any(scope.overrides[n].v > 1 for n in block_side):
            for n in block_side:
                scope.overrides[n] = cexpr.Value(scope.overrides[n].type, max(1, scope.overrides[n].v // 2))
            scope.used.clear()
            continue
        if isinstance(t, NotRun) and t.overflow and any(scope.overrides[n].v > 1 for n in chosen):
            for n in chosen:  # chosen sizes multiplied past int in host code: the program takes smaller ones
                scope.overrides[n] = cexpr.Value(scope.overrides[n].type, max(1, scope.overrides[n].v // 2))
                if not chosen[n].endswith(HALVED):
                    chosen[n] += HALVED
            scope.used.clear()
            continue
        if isinstance(t, NotRun) and t.empty and _zero_one(m, k, launch, scope, given, chosen):
            continue
        if not isinstance(t, NotRun) or t.free is None or len(chosen) >= MAX_FREE:
            return t
        e, phase = t.free
        ct = (prop := device_property(e.scope or scope, e.name) or (_int_type(e.scope or scope, e.name),))[0]
        if ct is None or e.name in chosen or e.name in scope.overrides:
            return t
        v, why = prop[1:] if len(prop) > 1 else _before(e.scope or scope, e, ct)
        if v is None:  # a size; a flag (bool) is false, its first value
            v, why = (0, f"{e.why}; false, a flag") if ct.name == "bool" else \
                (BLOCK_CHOICE if phase == "block" else SIZE_CHOICE, e.why)
        chosen[e.name] = why
        scope.overrides[e.name] = cexpr.Value(ct, v)
        if phase == "block":
            block_side.add(e.name)
        scope.used.clear()
    return t


def _zero_one(m, k, launch, scope: Scope, given, chosen: dict[str, str]) -> bool:
    """Two chosen sizes equal make a range between them empty (`(aux1 - aux0 + R - 1) / R` blocks):
    the last chosen of them whose 0 makes the launch non-empty is 0, a range's start (as `aux0 = 0`)."""
    for n in reversed([n for n in chosen if scope.overrides[n].v > 0 and "its value before" not in chosen[n]]):
        was = scope.overrides[n]
        scope.overrides[n] = cexpr.Value(was.type, 0)
        scope.used.clear()
        t = _attempt(m, k, launch, scope, given, {}, chosen)
        if not (isinstance(t, NotRun) and t.empty):
            chosen[n] += "; 0, since with every chosen size equal the launch's grid is empty"
            return True
        scope.overrides[n] = was
    scope.used.clear()
    return False


def _int_type(scope: Scope, name: str | None):
    """The integer C type host code declares `name` with; None for a type, a struct, an object.
    A name declared nowhere kernelport reads (a class member, a header's constant) is taken as an
    int unless the file uses it as a type (`sizeof(T)`, `T::size`, `T<...>`, `typedef ... T;`)."""
    if name and re.fullmatch(r"[A-Za-z_]\w*\.[xyz]", name) and (d := scope.lookup(name.split(".")[0])) is not None \
            and d.dim3:
        return cexpr.ctype("unsigned int")  # a dim3's component
    if name and re.fullmatch(r"[A-Za-z_]\w*\.[A-Za-z_]\w*", name):  # a struct's field: its declared type
        base, member = name.split(".")
        d = scope.lookup(f"{base}#type") or scope.lookup(f"{base}#pointee")
        r = resolve_type(d.text.replace("&", " "), {}, scope) if d is not None else None
        ftype = next((f[1] for f in fields(r.struct) if f[0] == member and f[2] == "value"), None) \
            if r is not None and r.struct is not None else None
        ct = cexpr.ctype(resolve_type(ftype, {}, scope).name) if ftype is not None else None
        return ct if ct is not None and ct.kind == "int" and ct.bits >= 16 else None
    if not name or not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None
    d = scope.lookup(f"{name}#type")
    if d is None and scope.lookup(name) is None:
        n = re.escape(name)
        as_type = rf"sizeof\s*\(\s*{n}\s*\)|\b{n}\s*(?:::|<)|\b(?:typedef|struct|class|union|enum)\b[^;{{]*\b{n}\b"
        return None if re.search(as_type, scope.module.source.text) else cexpr.INT
    ct = cexpr.ctype(d.text) if d is not None else None  # (a bool: a flag, chosen false by _choose)
    return ct if ct is not None and ct.kind == "int" and (ct.bits >= 16 or ct.name == "bool") else None


def _before(scope: Scope, e: Unknown, ct) -> tuple[int | None, str]:
    """The value a name had before the run changed it (`int n = 1024; parse(argc, argv, &n)`)."""
    if e.before is None:
        return None, ""
    try:
        v = int((e.before.scope or scope).value(e.before.text).v)
    except Unknown:
        return None, ""
    if not 1 <= v <= min(ct.hi, 1 << 30):
        return None, ""
    return v, f"{e.why}: its value before, from {e.before.loc}"


# -- one evaluation of a launch ---------------------------------------------------------------
@dataclass
class _Try:
    """One evaluation of a launch's sizes."""
    spec: KernelSpec
    notes: list[str]
    threads: int
    bytes: int
    block: tuple[int, int, int]
    launch: Location
    fixed: set[str]
    lengths: dict[str, str] = field(default_factory=dict)  # buffers whose length was chosen ("x[]") -> why
    values: dict[str, int] = field(default_factory=dict)  # host values chosen or scaled -> the value


def _fits(t: _Try, hard: bool = False, shrink: int = 0) -> bool:
    return t.threads <= (MAX_THREADS if hard else TARGET_THREADS >> shrink) and \
        t.bytes <= (MAX_BYTES if hard else TARGET_BYTES >> shrink)


def _attempt(m: Module, k: Function, launch: Launch, scope: Scope, given: CommandLine,
             scaled: dict[str, tuple[int, int]], chosen: dict[str, str] | None = None,
             redefined: frozenset[str] = frozenset()) -> _Try | NotRun:
    src = m.source
    at = src.loc(launch.node)
    notes: list[str] = []
    spec = KernelSpec(k.name, at, why="inferred from the host code")
    argn = launch.args  # the kernel's arguments, whatever the launch's form
    if len(argn) != len(k.params):
        return NotRun(f"the launch at {at} passes {len(argn)} arguments to {len(k.params)} parameters",
                      "pass every argument with --arg", at)
    tmap: dict[str, str] = {}
    chosen = chosen or {}
    phase = "template"  # what is being read: a free value the block reads is chosen small
    try:
        if k.template_params:
            targs = launch_template_args(m, launch, scope) or deduced(k, argn, m, scope)
            if targs is None or len(targs) != len(k.template_params):
                return NotRun(f"needs template arguments: the launch at {at} leaves them to deduction",
                              "write the launch as kernel<T, N><<<...>>>, or annotate: // @kp instantiate <...>",
                              at)
            tmap = dict(zip(k.template_params, targs))
            spec.instantiate = [Text("<" + ", ".join(targs) + ">", at)]
            notes.append(f"template arguments <{', '.join(targs)}> from the launch at {at}")
            notes += template_notes(m, launch, scope)
        config = [src.text_of(c) for c in launch.config]
        if len(config) < 2 and not (given.grid and given.block):  # a launch macro's own geometry
            return NotRun(f"needs sizes: the launch at {at} ({launch.form}) gives no grid and block of its own",
                          "pass --grid G --block B", at)
        config += [""] * (2 - len(config))  # (the command line's grid and block)
        phase = "block"
        block = _dims(given.block, scope, config[1])
        phase = "grid"
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
        total, unsized = 0, []
        for position, (p, a) in enumerate(zip(k.params, argn)):
            text = src.text_of(a)
            if p.pointer:
                try:
                    arg, note = _buffer(p, text, scope, given, tmap, at)
                except _NoAllocation as e:
                    unsized.append((p, e))
                    continue
                spec.args[p.name] = arg
                total += int(arg.length.text) * c_bytes(arg)
                notes.append(note)
            elif p.name not in given.scalars and (got := by_value(spec, p, text, scope, tmap, at, position, _buffer)):
                notes += got[0]  # a struct or a vector (uchar4) by value: its fields (kernelport.infer_structs)
                total += got[1]
            else:
                v, note = _scalar(p, text, scope, given, tmap, position, chosen)
                if isinstance(v, NotRun):
                    return v
                spec.scalars[p.name] = Text(v, at)
                ct = cexpr.ctype(element_name(p.type, tmap, scope))
                if ct is not None:
                    spec.scalar_types[p.name] = ct
                notes.append(note)
    except Unknown as e:
        return NotRun(f"needs sizes: {e.why}" + (f" ({e.loc})" if e.loc else ""),
                      f"pass it: --arg {e.name}=VALUE" if e.name else
                      "pass the value: --arg NAME=VALUE (a kernel scalar or a host size), or --arg "
                      "NAME=TYPE[LENGTH]:uniform(-1,1) for a buffer", at, free=(e, phase) if e.free else None,
                      overflow=e.overflow)
    except KernelportError as e:
        return NotRun(e.message, e.hint or "pass the inputs with --arg", at)
    if any(v < 1 for v in grid + block):
        return NotRun(f"the launch at {at} has an empty grid {grid} or block {block}", "pass --grid and --block", at,
                      empty=True)
    if math.prod(block) > 1024:
        return NotRun(f"the block {block} has over 1024 threads", "pass --block", at, big_block=True)
    lengths = _chosen_lengths(spec, unsized, math.prod(grid) * math.prod(block), total, at)
    total += sum(spec.length(p.name) * e.bytes for p, e in unsized)
    notes += [f"{p.name}: {spec.args[p.name].role} {e.type}[{spec.length(p.name)}] "
              f"{_gen_text(spec.args[p.name].generator)} (length chosen: {e.why}{e.stepped}; {lengths}; pass --arg "
              f"{p.name}={e.type}[LENGTH] to change)" for p, e in unsized]
    order = {p.name: i for i, p in enumerate(k.params)}  # the parameters' order; a struct's fields (`p.src`) at its place
    spec.args = dict(sorted(spec.args.items(), key=lambda a: order.get(a[0].split(".")[0], len(order))))
    notes += index_contents(k, src, spec)
    for name, why in chosen.items():
        was = f"chose {scaled[name][0]}, scaled down to fit the emulator; " if name in scaled else ""
        notes.append(f"{name} = {scope.overrides[name].v} chosen ({why}; {was}pass --arg {name}=VALUE to change)")
    for name, (old, new) in sorted(scaled.items()):
        if name in chosen:
            continue
        notes.append(f"{name} = {old} scaled down to {new} (" + ("a macro device code reads too, redefined for the "
                     "original and every port" if name in redefined else "a host-only size device code never reads")
                     + f"; pass --arg {name}=VALUE to choose)")
    for n, (v, d) in sorted(scope.used.items()):
        if d is not None and n not in scaled and "#" not in n:
            notes.append(f"{n} = {v.v} from {d.note or d.loc}" if d.note else f"{n} = {v.v} from {d.loc}")
    return _Try(spec, notes, math.prod(grid) * math.prod(block), total, block, at, fixed,
                {p.name + "[]": e.why for p, e in unsized}, {**{n: int(scope.overrides[n].v) for n in chosen},
                                                             **{n: new for n, (_, new) in scaled.items()}})


class _NoAllocation(Unknown):
    """A buffer whose allocation host code does not show (another function, a class, a library):
    its length is chosen once the launch's other sizes are known."""
    offset, stepped = 0, ""  # host code stepped the pointer (host_offsets): elements before it, said how

    def __init__(self, why: str, type_: str, layout=None):
        super().__init__(why, free=True)
        self.type = type_
        self.layout = layout  # an array of structs' numpy dtype

    @property
    def bytes(self) -> int:
        return self.layout.itemsize if self.layout is not None else c_size(self.type)


def _chosen_lengths(spec: KernelSpec, unsized, threads: int, total: int, at: Location) -> str:
    """Give each buffer of unknown length one length: the largest of the launch's threads, its
    known buffers and integer scalars (a kernel indexes up to its `n`), at least SIZE_CHOICE
    elements, within the emulator's byte cap (chosen sizes then scale it down with the rest); what
    it is, said.  Too short a choice makes the original fault: not run, never a failed port."""
    if not unsized:
        return ""
    known = [spec.length(n) for n in spec.args]
    ints = [int(v) for n, v in spec.scalar_values().items()
            if isinstance(v, int) and spec.scalar_types.get(n, cexpr.INT).kind == "int"]
    n = max([threads, SIZE_CHOICE, *known, *ints])
    per = sum(e.bytes for _, e in unsized)
    n = max(1, min(n, (MAX_BYTES - min(total, MAX_BYTES // 2)) // per))
    for p, e in unsized:  # (a stepped pointer: its offset's elements before the length chosen)
        a = spec.args[p.name] = _arg(p.name, "in" if p.const else "inout", e.type, n + e.offset,
                                     generator_for(e.type), e.layout, at)
        a.offset = e.offset
    return f"the largest of the launch's {threads} threads, its known buffers, its integer scalars and {SIZE_CHOICE}"


def _dims(given: list[Text], scope: Scope, text: str) -> tuple[int, int, int]:
    if given:
        vals = [int(cexpr.evaluate_typed(t.text, {}).v) for t in given]
        return tuple(vals + [1] * (3 - len(vals)))  # type: ignore[return-value]
    return scope.dims(text)


def _buffer(p, text: str, scope: Scope, given: CommandLine, tmap, at) -> tuple[ArgSpec, str]:
    if p.name in given.args:
        a = given.args[p.name]
        return a, f"{p.name}: {a.type}[{a.length.text}] {_gen_text(a.generator)} from the command line"
    t = element_name(p.type, tmap, scope)
    lay = None
    if t not in DTYPES and (r := resolve_type(p.type, tmap, scope)).struct is not None:
        try:  # an array of structs: bytes in the struct's C layout, each number field generated
            lay = struct_layout(r.struct, tmap, scope)
        except KernelportError as e:
            raise KernelportError(f"buffer '{p.name}' holds struct '{t}': {e.message}", hint="annotate the kernel "
                                  "with buffers of numbers") from None
    elif t not in DTYPES or not c_size(t):
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
        u = sc.unknown.get(ptr) if ptr else None
        e = _NoAllocation(f"no allocation of '{' '.join(text.split())[:40]}' before the launch" +
                          (f"; {u.why}" if u is not None else ""), t, lay)
        e.offset, e.stepped = pointer_offset(sc, ptr, None, p.name, at)  # (`d_x++`: the chosen length after it)
        raise e
    nbytes = int((d.scope or sc).value(d.text).v)
    n = nbytes // (lay.itemsize if lay is not None else c_size(t))  # a float4 is one element of 16 bytes
    if n < 1 and any(v in scope.overrides for v in re.findall(r"[A-Za-z_]\w*", d.text)):
        # a byte count chosen (a size only the run gives) under one element of a large struct:
        # the length is chosen instead, as for a buffer whose allocation host code does not show
        raise _NoAllocation(f"its allocation '{d.text.strip()[:40]}' is a chosen {nbytes} bytes, under one {t}",
                            t, lay)
    if n < 1:
        raise Unknown(f"buffer '{p.name}' has {nbytes} bytes, under one {t}", d.loc)
    init = sc.lookup(f"{ptr}#init")
    role = "in" if p.const else "inout" if init is not None else "out"
    gen = None
    if role != "out":
        zero = init is not None and init.text and sc.is_zero(init.text)
        gen = "constant(0)" if zero else generator_for(t)
    a = _arg(p.name, role, t, n, gen, lay, at)
    a.offset, stepped = pointer_offset(sc, ptr, n, p.name, at)
    what = f"struct {t} ({lay.itemsize} bytes)" if lay is not None else t
    return a, f"{p.name}: {role} {what}[{n}] {_gen_name(gen, lay)} ({nbytes} bytes allocated at {d.loc}{stepped})"


def _scalar(p, text: str, scope: Scope, given: CommandLine, tmap, position: int,
            chosen: dict[str, str] | None = None) -> tuple[str | NotRun, str]:
    if p.name in given.scalars:
        return given.scalars[p.name].text, f"{p.name} = {given.scalars[p.name].text} from the command line"
    t = element_name(p.type, tmap, scope)
    if t in ("cudaTextureObject_t", "cudaSurfaceObject_t"):  # (a handle host code fills: no value stands for it)
        return NotRun(f"'{p.name}' is a {t}: the emulator has no texture or surface fetches yet",
                      "none: tex1Dfetch/tex2D and the host's cudaCreateTextureObject descriptors are not emulated"), ""
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
    name = text.strip().strip("()").strip()
    if (ct := cexpr.ctype(t)).kind == "int" and not ct.lo <= v.v <= ct.hi and name in (chosen or {}):
        w = min(max(int(v.v), ct.lo), ct.hi)  # a chosen 1024 passed to `unsigned char r`: the nearest it holds
        return str(w), f"{p.name} = {w} chosen ('{name}' was chosen {v.v}: the nearest value {ct.name} holds)"
    lit = Scope._literal(v)
    return lit, f"{p.name} = {v.v} (the launch passes '{' '.join(text.split())[:40]}')"


# -- scaling down -----------------------------------------------------------------------------
def _scaled(m: Module, k: Function, launch: Launch, scope: Scope, given: CommandLine, first: _Try,
            kernel_side: set[str], chosen: dict[str, str], shrink: int = 0) -> Inferred | NotRun:
    device = device_references(m) | kernel_side
    roots = {n: scope.overrides[n] for n in chosen if n not in first.fixed and scope.overrides[n].v >= 2}
    macros, extents = {}, array_extents.array_extent_names(m)
    for n, (v, d) in scope.used.items():
        if d is None or n in first.fixed or n in given.scalars or "#" in n or "." in n:
            continue
        shared_with_device = n in device and d.note in ("macro", "file scope")  # a host local is never
        if not shared_with_device and _constant(d.text) and v.type.kind == "int" and v.v >= 2:
            roots[n] = v
        elif d.note == "macro" and _constant(d.text) and v.type.kind == "int" and v.v >= 2 and n not in extents:
            macros[n] = v  # (not one sizing a device array: the kernel's own tile, array_extents)
    got = _halved(m, k, launch, scope, given, first, roots, {}, chosen, shrink)
    if got is None and not shrink and _fits(first, hard=True):
        return _done(first)
    # Last, the sizes device code reads too (polybench's `#define N 4096`): the original and every
    # port are run with the file's definition of each replaced (Inferred.redefine), as if built so.
    for extra in ([macros] if macros else []) + ([{}] if shrink else []):  # with shrink: short of the target
        got = got or _halved(m, k, launch, scope, given, first, roots, extra, chosen, shrink, bool(shrink))
    if got is not None:
        return got
    return NotRun(f"needs smaller sizes: the launch has {first.threads} threads and {first.bytes} bytes of buffers "
                  f"(the emulator runs up to {MAX_THREADS} threads and {MAX_BYTES >> 20} MiB)",
                  "pass smaller host sizes: --arg NAME=VALUE for the size the launch is computed from, or every "
                  "input with --arg, --grid and --block", first.launch)


def _halved(m: Module, k: Function, launch: Launch, scope: Scope, given: CommandLine, first: _Try,
            roots: dict, macros: dict, chosen: dict[str, str], shrink: int = 0, best: bool = False
            ) -> Inferred | None:
    """The launch with `roots` and `macros` divided by 2, 4, ... until it fits the emulator's target
    (with `best`, short of it: the smallest launch the sizes give)."""
    roots = {**roots, **macros}
    last = None
    for step in range(1, SCALE_STEPS + 1) if roots else ():
        for n, v in roots.items():
            scope.overrides[n] = cexpr.Value(v.type, max(1, v.v >> step))
        scope.used.clear()
        t = _attempt(m, k, launch, scope, given, {n: (v.v, max(1, v.v >> step)) for n, v in roots.items()},
                     chosen, frozenset(macros))
        if isinstance(t, NotRun) or t.block != first.block or t.threads == 0:
            break
        last = _done(t)
        last.unscaled = {b: first.spec.length(b) for b in first.spec.args if b in t.spec.args}
        last.redefine = {n: str(max(1, v.v >> step)) for n, v in macros.items()}
        if _fits(t, shrink=shrink):
            return last
    return last if best else None


def _constant(text: str) -> bool:
    """An integer constant expression, a free size: `4096`, `(1 << 24)`, `1024 * 1024`."""
    rest = re.sub(r"\b(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", " ", text)
    return rest != text and re.fullmatch(r"[\s()+\-*/<>%|&^~]*", rest) is not None


def _done(t: _Try) -> Inferred:
    return Inferred(t.spec, t.notes, "host code", t.launch, dict(t.lengths), values=dict(t.values))


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
