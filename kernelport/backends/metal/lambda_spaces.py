"""Lambdas' pointer parameters: the address space their calls pass.

A pointer (or array) parameter of a lambda in device code is unqualified, which Metal reads as `thread`:
atpqc's fips202_ws `auto store64 = [](std::uint8_t x[8], state_type s) {...}` called as
`store64(&out[8 * threadIdx.x], state)` with `out` a device buffer does not compile.  Where every call
of the named lambda in its function passes the parameter pointers of one address space (for each
address-space signature of the function), the parameter is written with it; where they differ or one
is not known, the port is refused (KP215) at the parameter: a lambda has one signature, not one per space.
"""
from __future__ import annotations

from tree_sitter import Node

from ...source import call_args, ident_name, walk


class LambdaSpaces:
    def lambda_pointers(self) -> None:
        for f in self.device.values():
            if f.body is None:
                continue
            sigs = [()] if f.is_kernel else (self.plan_of(f).sigs or [()])
            for lam in walk(f.body):
                if lam.type != "lambda_expression" or lam.parent is None or lam.parent.type != "init_declarator":
                    continue
                params = _pointer_params(lam)
                name = ident_name(lam.parent)
                if not params or not name:
                    continue
                calls = [c for c in walk(f.body) if c.type == "call_expression" and c.start_byte > lam.end_byte
                         and self.src.text_of(c.child_by_field_name("function")) == name]
                for i, p in params:
                    args = [a[i] for c in calls if len(a := call_args(c)) > i]
                    if not args:
                        continue  # never called with it: unqualified is as good as any space

                    def spaces(sig, f=f, args=args) -> set:
                        return {self._space_at(f, sig, a) for a in args}
                    if any(None in got or len(got) != 1 for got in map(spaces, sigs)):
                        pname = ident_name(p.child_by_field_name("declarator")) or "?"
                        self.problem("KP215", p, f"cannot tell which address space lambda parameter '{pname}' points "
                                     "into: its calls do not all pass pointers of one known space",
                                     "make the lambda a __device__ function (Metal gets one copy per address "
                                     "space), or pass it pointers of one space")
                        continue
                    self._dynamic_prefix(p.child_by_field_name("type"), lambda sig, spaces=spaces: next(iter(spaces(sig))))


def _pointer_params(lam: Node) -> list[tuple[int, Node]]:
    """(index, parameter) of the lambda's pointer and array parameters (`T* p`, `T x[8]`)."""
    decl = next((c for c in lam.children if c.type == "lambda_declarator"), None)
    plist = next((c for c in decl.children if c.type == "parameter_list"), None) if decl is not None else None
    if plist is None:
        return []
    params = [c for c in plist.named_children if c.type in ("parameter_declaration", "optional_parameter_declaration")]
    return [(i, p) for i, p in enumerate(params) if (d := p.child_by_field_name("declarator")) is not None
            and d.type in ("pointer_declarator", "array_declarator") and p.child_by_field_name("type") is not None]
