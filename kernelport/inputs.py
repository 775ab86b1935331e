"""Kernel arguments from annotations: seeded buffers and typed scalars, the same for every run.

Every backend and the reference see byte-identical inputs; a buffer's generator is seeded by
(seed, argument position) so adding an argument does not change the others' values.
"""
from __future__ import annotations

import numpy as np

from . import vector_types
from .annotations import ArgSpec, KernelSpec, struct_fields
from .errors import KernelportError
from .model import Function

DTYPES = {
    "float": np.float32, "half": np.float16, "__half": np.float16, "double": np.float64,
    "int": np.int32, "int32_t": np.int32, "unsigned": np.uint32, "unsigned int": np.uint32, "uint": np.uint32,
    "uint32_t": np.uint32, "char": np.int8, "int8_t": np.int8, "unsigned char": np.uint8, "uint8_t": np.uint8,
    "short": np.int16, "unsigned short": np.uint16, "long long": np.int64, "int64_t": np.int64,
    "unsigned long long": np.uint64, "uint64_t": np.uint64, "size_t": np.uint64, "long": np.int64,
    "unsigned long": np.uint64, "bool": np.bool_,
}
DTYPES.update({v: DTYPES[c] for v, (c, _) in vector_types.VECTORS.items()})  # uchar4: rows of 4 unsigned chars
LANES = {v: n for v, (_, n) in vector_types.VECTORS.items()}


def _bfloat16_spellings() -> None:
    """Each dialect's bfloat16 type holds float32 data: the emulator computes bfloat16 in float32
    (kernelport.emulator.ctype), so a bfloat16 buffer is given as one (llm.c's floatX)."""
    from . import backends, dialect
    for b in backends.names():
        name = dialect.concept("bfloat16").name(b)
        if name:
            DTYPES.setdefault(name, np.float32)


_bfloat16_spellings()


def generator_for(type_name: str) -> str:
    """The generator a buffer of this type gets when nothing says: floats in [-1, 1); integers
    small (indices, counts: 0..7); bools 0 or 1."""
    kind = np.dtype(DTYPES.get(" ".join(type_name.replace("const", "").split()), np.float32)).kind
    return "uniform(-1, 1)" if kind == "f" else "integers(0, 2)" if kind == "b" else "integers(0, 8)"


def dtype(type_name: str) -> np.dtype:
    t = " ".join(type_name.replace("const", "").split())
    if t not in DTYPES:
        raise KernelportError(f"no numeric type for '{type_name}'", hint="use float, int, unsigned int, half, ...")
    return np.dtype(DTYPES[t])


def make_buffer(spec: KernelSpec, a: ArgSpec, index: int | tuple[int, ...]) -> np.ndarray:
    n = spec.length(a.name) * LANES.get(a.type, 1)
    dt = dtype(a.type)
    g = a.generator
    if g is None:
        return np.zeros(n, dtype=dt)
    rng = np.random.default_rng([spec.seed, *(index if isinstance(index, tuple) else (index,))])
    p = g.params
    if g.kind == "uniform":
        v = rng.uniform(p[0], p[1], n)
    elif g.kind == "normal":
        v = rng.normal(p[0], p[1], n)
    elif g.kind == "integers":
        v = rng.integers(int(p[0]), int(p[1]), n)
    elif g.kind == "constant":
        v = np.full(n, p[0])
    elif g.kind == "monotone":  # 0, then a running sum of steps in [lo, hi): CSR row pointers
        v = np.concatenate(([0], np.cumsum(rng.integers(int(p[0]), int(p[1]), n - 1))))
    else:  # arange
        start = p[0] if p else 0
        step = p[1] if len(p) > 1 else 1
        v = start + step * np.arange(n)
    return v.astype(dt)


def make_args(kernel: Function, spec: KernelSpec) -> dict[str, np.ndarray | int | float]:
    """Fresh arguments for one run: buffers from generators, scalars converted to the C type."""
    values = spec.scalar_values()
    args: dict[str, np.ndarray | int | float] = {}
    for i, p in enumerate(kernel.params):
        if p.pointer:
            args[p.name] = make_buffer(spec, spec.args[p.name], i)
        elif p.name not in values:
            args[p.name] = _struct_arg(spec, p.name, i, values)
        else:
            args[p.name] = dtype(p.type).type(values[p.name]).item() if p.type.replace("const", "").strip() in \
                DTYPES else values[p.name]
    return args


def _struct_arg(spec: KernelSpec, param: str, index: int, values: dict) -> dict:
    """A struct parameter's fields (`param.f`, `param.a.b`) as the emulator's nested dict; field
    buffers are seeded by (seed, parameter position, field position)."""
    out: dict = {}
    for k, name in enumerate(struct_fields(spec, param)):
        keys = name.split(".")[1:]
        at = out
        for depth, f in enumerate(keys):
            last = depth == len(keys) - 1
            if f in at and (last or not isinstance(at[f], dict)):
                loc = (spec.args[name] if name in spec.args else spec.scalars[name]).loc
                raise KernelportError(f"'{name}': '{'.'.join([param, *keys[:depth + 1]])}' is given both a value and "
                                      "fields", loc, hint="give either the field or its own fields")
            if not last:
                at = at.setdefault(f, {})
        at[keys[-1]] = make_buffer(spec, spec.args[name], (index, k)) if name in spec.args else values[name]
    return out
