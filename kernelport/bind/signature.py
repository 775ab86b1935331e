"""A kernel's host-facing signature: what crosses from host code into a launch.

Built from the kernel model (parameter order, C types, constness) and the `// @kp` annotations
(buffer roles and length expressions, the launch geometry, dynamic shared memory), plus the
Metal sidecar entry (buffer indices, dispatch) when a Swift snippet is asked for.  Every
generator (C launchers, Rust crate, Swift snippet) reads this one model.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .. import annotations
from ..annotations import KernelSpec, Text
from ..errors import KernelportError
from ..model import Function, Module
from . import expr as ex


@dataclass(frozen=True)
class HostType:
    """One C type as each host language spells it (layouts identical by construction)."""
    c: str  # in the C header (plain C: no CUDA headers)
    rust: str
    swift: str
    integer: bool
    struct: str | None = None  # a #[repr(C)] struct the crate defines for it


_INT = {"char": ("char", "i8", "Int8"), "signed char": ("signed char", "i8", "Int8"),
        "unsigned char": ("unsigned char", "u8", "UInt8"), "short": ("short", "i16", "Int16"),
        "unsigned short": ("unsigned short", "u16", "UInt16"), "int": ("int", "i32", "Int32"),
        "signed": ("int", "i32", "Int32"), "signed int": ("int", "i32", "Int32"),
        "unsigned": ("unsigned int", "u32", "UInt32"), "unsigned int": ("unsigned int", "u32", "UInt32"),
        "uint": ("unsigned int", "u32", "UInt32"), "long long": ("long long", "i64", "Int64"),
        "unsigned long long": ("unsigned long long", "u64", "UInt64"), "size_t": ("size_t", "usize", "Int"),
        "int8_t": ("int8_t", "i8", "Int8"), "uint8_t": ("uint8_t", "u8", "UInt8"),
        "int16_t": ("int16_t", "i16", "Int16"), "uint16_t": ("uint16_t", "u16", "UInt16"),
        "int32_t": ("int32_t", "i32", "Int32"), "uint32_t": ("uint32_t", "u32", "UInt32"),
        "int64_t": ("int64_t", "i64", "Int64"), "uint64_t": ("uint64_t", "u64", "UInt64")}
TYPES: dict[str, HostType] = {k: HostType(*v, integer=True) for k, v in _INT.items()}
TYPES.update({
    "float": HostType("float", "f32", "Float", False), "double": HostType("double", "f64", "Double", False),
    # CUDA's vector and half types, as layout-identical plain structs (alignment included).
    "float2": HostType("kp_float2", "Float2", "SIMD2<Float>", False, "Float2"),
    "float4": HostType("kp_float4", "Float4", "SIMD4<Float>", False, "Float4"),
    "half": HostType("kp_half", "Half", "Float16", False, "Half"),
    "__half": HostType("kp_half", "Half", "Float16", False, "Half"),
})


def host_type(name: str, where) -> HostType:
    t = TYPES.get(" ".join(name.split()))
    if t is None:
        raise KernelportError(f"bind cannot pass a '{name}' across the C ABI", where,
                              hint="host-facing parameters: " + ", ".join(sorted(TYPES)))
    return t


@dataclass
class Param:
    """One kernel parameter as the host binding sees it."""
    name: str
    type: HostType
    kernel_type: str  # the C type text of the kernel's parameter (pointee for buffers)
    const: bool
    role: str | None  # buffers: in | out | inout; scalars: None
    length: ex.Expr | None = None  # buffers: element count
    inferred_from: str | None = None  # scalars: the buffer whose length this scalar is

    @property
    def buffer(self) -> bool:
        return self.role is not None


@dataclass
class MetalEntry:
    """What a Metal host binding needs to dispatch one kernel."""
    host_name: str
    arguments: list[dict]
    dispatch: dict
    threadgroup: list[dict] = field(default_factory=list)


@dataclass
class Binding:
    """One launchable kernel (a template kernel: one instantiation)."""
    kernel: str
    symbol: str  # the C launcher's name; its default-geometry function is symbol + "_config"
    launch: str  # how C++ names it: `saxpy`, `template_reduce<256>`
    params: list[Param]
    grid: list[ex.Expr]
    block: list[ex.Expr]
    shared: ex.Expr | None
    spec: KernelSpec
    metal: MetalEntry | None = None

    @property
    def buffers(self) -> list[Param]:
        return [p for p in self.params if p.buffer]

    @property
    def scalars(self) -> list[Param]:
        return [p for p in self.params if not p.buffer]

    @property
    def explicit_scalars(self) -> list[Param]:
        return [p for p in self.scalars if p.inferred_from is None]

    def geometry_text(self) -> str:
        g = " x ".join(e.text for e in self.grid)
        b = " x ".join(e.text for e in self.block)
        s = f", {self.shared.text} bytes of dynamic shared memory" if self.shared else ""
        return f"grid {g}, block {b}{s}"


def c_identifier(text: str) -> str:
    s = re.sub(r"\W", "_", text)
    return "_" + s if s[:1].isdigit() else s


def _dims(ts: list[Text], ints: set[str], floats: set[str]) -> list[ex.Expr]:
    es = [ex.parse(t, ints, floats) for t in ts]
    return es + [ex.parse("1", set(), set())] * (3 - len(es))


def bindings(module: Module, specs: dict[str, KernelSpec] | None = None,
             sidecar: dict | None = None) -> list[Binding]:
    """The launchable kernels of `module`, in source order (only annotated kernels)."""
    specs = annotations.parse(module) if specs is None else specs
    metal = {k["name"]: [] for k in (sidecar or {}).get("kernels", [])}
    for k in (sidecar or {}).get("kernels", []):
        metal[k["name"]].append(k)
    out: list[Binding] = []
    for f in sorted(module.kernels, key=lambda f: f.node.start_byte):
        spec = specs.get(f.name)
        if spec is None:
            continue
        instances = [t.text for t in spec.instantiate] or [""]
        for i, targs in enumerate(instances):
            suffix = "" if len(instances) == 1 else "_" + c_identifier(re.sub(r"[<>\s]", "", targs).replace(",", "_"))
            b = _binding(f, spec, f"kp_{f.name}{suffix}", f.name + targs)
            entries = metal.get(f.name, [])
            if sidecar is not None and i < len(entries):
                b.metal = _metal_entry(entries[i])
            out.append(b)
    return out


def _binding(f: Function, spec: KernelSpec, symbol: str, launch: str) -> Binding:
    params: list[Param] = []
    for p in f.params:
        where = spec.args[p.name].loc if p.pointer else spec.scalars[p.name].loc
        if p.name.startswith("kp_"):
            raise KernelportError(f"parameter '{p.name}' of '{f.name}' uses the kp_ prefix the generated code reserves",
                                  where, hint="rename the parameter")
        t = host_type(p.type, where)
        role = spec.args[p.name].role if p.pointer else None
        params.append(Param(p.name, t, " ".join(p.type.split()), p.const, role))
    ints = {p.name for p in params if not p.buffer and p.type.integer}
    floats = {p.name for p in params if not p.buffer and not p.type.integer}
    for p in params:
        if p.buffer:
            p.length = ex.parse(spec.args[p.name].length, ints, floats)
    # A scalar that is exactly some buffer's length is taken from that buffer (`saxpy(&cfg, &x, &mut y, a)`).
    for p in params:
        if p.buffer and isinstance(p.length.tree, ast.Name) and p.length.tree.id in ints:
            s = next(q for q in params if q.name == p.length.tree.id)
            if s.inferred_from is None:
                s.inferred_from = p.name
    shared = ex.parse(spec.shared, ints, floats) if spec.shared else None
    return Binding(f.name, symbol, launch, params, _dims(spec.grid, ints, floats), _dims(spec.block, ints, floats),
                   shared, spec)


def _metal_entry(k: dict) -> MetalEntry:
    args = [a for a in k["arguments"] if a["kind"] in ("buffer", "bytes")]
    tg = [a for a in k["arguments"] if a["kind"] == "threadgroup"]
    return MetalEntry(k["host_name"], args, k["dispatch"], tg)
