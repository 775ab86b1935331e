"""Metal's pass over a project's operators on CUDA vector types (the shapes and the reasons:
kernelport/vector_operators.py), on the device functions left once the host code is split off;
and over a project's own overloads of CUDA's vector makers.

CUDA's `make_float3(x, y, z)` is Metal's constructor `float3(x, y, z)`, and the port spells it so.  A
project that defines overloads of its own (helper_math.h's `make_float3(float s)`,
`make_float3(float2 a)` = (a.x, a.y, 0), `make_float3(float4 a)` = its xyz) cannot have them renamed
too: a function named `float3` is no C++ (the checker: "non-constexpr declaration of 'float3' follows
constexpr declaration"), and some have no constructor of the same meaning (Metal has no `float3(float2)`
that fills z with 0).  So where the port's device code defines a function named `make_V`, that name
stays everywhere in the port (definitions and calls), and the prologue defines CUDA's own
`make_V(x, y, ...)` as Metal's constructor: each call is resolved among the project's overloads and
CUDA's by C++'s overload resolution, as nvcc resolves it.
"""
from __future__ import annotations

import re

from ... import backends, dialect
from ...dialect import VECTOR_MAKERS
from ...overload_ranks import _ARITHMETIC
from ...vector_operators import Reader
from . import VECTOR_BASES

# CUDA's maker -> (Metal's vector, its element, lanes): make_longlong2 makes a long2 of long
MAKERS = {f"make_{t}{n}": (f"{VECTOR_BASES.get(t, t)}{n}", VECTOR_BASES.get(t, t), n) for t, n in VECTOR_MAKERS}
_CALLED = re.compile(r"\b(make_(?:%s))\s*\(" % "|".join(m[len("make_"):] for m in MAKERS))


def _overload(reader: Reader, f):
    """(f, operator, parameter types) where f is an operator overload taking a vector type; else None."""
    fdecl = f.node.child_by_field_name("declarator")
    if fdecl is not None and fdecl.type == "reference_declarator" and fdecl.named_children:
        fdecl = fdecl.named_children[0]
    oname = fdecl.child_by_field_name("declarator") if fdecl is not None and fdecl.type == "function_declarator" else None
    if oname is None or oname.type != "operator_name":
        return None
    params = reader.params(fdecl)
    if not params or not any(reader.targets(t) for t, _, _ in params) or \
            not all(reader.targets(t) or t in _ARITHMETIC for t, _, _ in params):
        return None  # (one of another type, `operator*(uint3, dim3)`: an operand is no Metal vector; kept as written)
    return f, reader.text(oname)[len("operator"):].strip(), [t for t, _, _ in params]


class VectorOperators:
    """Mixin of MetalTranslator: the `builtin_vector_operators` pass."""

    def builtin_vector_operators(self) -> None:
        self._project_vector_makers()
        reader = Reader(self.src, backends.get(self.backend))
        kept, dropped = [], []  # (function, operator, parameter types) of the overloads on vector types
        for key, f in list(self.device.items()):
            if f.is_kernel or f.template_node is not None:
                continue
            sig = reader.meaning(f.node)
            over = _overload(reader, f)
            if over is not None:
                (kept if sig is None else dropped).append(over)
            if sig is None:
                continue
            self.rw.replace(f.node, f"// {sig}: Metal's vector types define it (component-wise), left out")
            self._drop_leading_macros(f.node)
            self.note(f.node, "(left out)", f"{sig} is component-wise, as Metal's built-in operator is")
            self._forget(key, f.node)
        self.named_vector_operators(kept, dropped)  # vector_op_calls.py: the rest as named helpers

    def _project_vector_makers(self) -> None:
        """`make_V` that the port's device code defines overloads of: the name stays (see above)."""
        own = {f.name for f in self.device.values()} & MAKERS.keys()
        for use in self.module.uses if own else ():
            if use.concept.key in own and not self.rw.has(use.node):
                if use.node.type == "call_expression":  # the arguments are still rewritten
                    self.rw.replace(use.node, lambda rw, n: rw.stitch(n))
                else:
                    self.rw.replace(use.node, self.src.text_of(use.node))
        for name in sorted(own):
            f = next(f for f in self.device.values() if f.name == name)
            self.note(f.node, name, f"the file defines overloads of {name}: the name stays, and CUDA's own "
                      f"{name}(...) is Metal's constructor (the prologue)")

    def vector_makers(self, body: str) -> list[tuple[str, str]]:
        """CUDA's own vector makers the port calls by name (with the project's overloads), each as the
        prologue defines it: (parameter list, Metal's spelling)."""
        out = self._float_math(body)
        for name in sorted(set(_CALLED.findall(body))):
            v, t, n = MAKERS[name]
            names = "xyzw"[:n]
            spelled = dialect.render(dialect.concept(name), self.backend, {c: c for c in names})
            out.append((f"inline {v} {name}({', '.join(f'{t} {c}' for c in names)})", spelled))
        return out

    def _float_math(self, body: str) -> list[tuple[str, str]]:
        """CUDA's float math functions the port calls by CUDA's name (the Metal backend's float_math),
        each defined with CUDA's signature over Metal's function (or its expression of `{x}`); not where the port's device code
        defines that very signature itself."""
        table = backends.get(self.backend).float_math
        called = set(re.findall(r"\b(%s)\s*\(" % "|".join(map(re.escape, table)), body)) if table else set()
        out = []
        for name in sorted(called):
            ret, params, metal = table[name]
            if any(f.name == name and [p.type for p in f.params] == list(params) and not any(p.pointer for p in f.params)
                   for f in self.device.values()):
                continue
            names = "xyzw"[:len(params)]
            out.append((f"inline {ret} {name}({', '.join(f'{t} {c}' for t, c in zip(params, names))})",
                        metal.format(**{c: c for c in names}) if "{" in metal else f"{metal}({', '.join(names)})"))
        return out
