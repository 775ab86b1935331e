"""Host code that steps a device pointer after allocating it (prna's `cudaMalloc(&w5, ...); w5++;`,
so that the kernels may read `w5[-1]`): the pointer a launch passes is `k` elements into its
allocation.  Input inference gives the kernel the whole allocation with the pointer at element k
(emulator.run_kernel's `offsets`), so `w5[-1]` reads the element before it, as on the GPU.

Steps by a value host code shows (`p++`, `--p`, `p += 2`, `p -= K`), recorded for any name (whether
it is a pointer is known only where a launch passes it as one); the offset is in elements of the
pointer's type at the launch, the unit C steps it in.  A new allocation or assignment of the
pointer forgets the steps before it (host_values).  A buffer whose length is chosen (no allocation
shown) gets the offset's elements before the length chosen.
"""
from __future__ import annotations

from .errors import Location


def pointer_step(src, node, scope) -> bool:
    """`node` (an update or compound assignment) steps a pointer that has an allocation in
    `scope`: record its offset (`NAME#offset`, in elements) and say so; else False."""
    from .host_values import Definition
    if node.type == "update_expression":
        target, step = node.child_by_field_name("argument"), "1"
        sign = "+" if "++" in src.text_of(node) else "-"
    elif node.type == "assignment_expression" and node.child_by_field_name("operator") is not None and \
            src.text_of(node.child_by_field_name("operator")) in ("+=", "-="):
        target, step = node.child_by_field_name("left"), src.text_of(node.child_by_field_name("right"))
        sign = src.text_of(node.child_by_field_name("operator"))[0]
    else:  # `p = q`: p points where q does, its steps forgotten
        left = node.child_by_field_name("left") if node.type == "assignment_expression" else None
        name = src.text_of(left).strip() if left is not None else ""
        if name.isidentifier() and scope.lookup(f"{name}#offset") is not None:
            scope.defs[f"{name}#offset"] = Definition("0", src.loc(node))
        return False
    name = src.text_of(target).strip() if target is not None else ""
    if not name.isidentifier():
        return False
    prev = scope.lookup(f"{name}#offset")
    text = f"({prev.text}) {sign} ({step})" if prev is not None else f"{sign}({step})"
    scope.defs[f"{name}#offset"] = Definition(text, src.loc(node), scope=scope)  # (the step's names: here)
    return scope.lookup(f"{name}#bytes") is not None  # (an int's `n++`: its value's own handling goes on)


def pointer_offset(scope, ptr: str, n: int | None, param: str, loc: Location | None) -> tuple[int, str]:
    """The elements host code stepped `ptr` by before the launch (0 if none) and the inferred
    line's words for it; a step outside the allocation of n elements (before it, where n is not
    known) is an Unknown, located."""
    from .host_values import Unknown
    d = scope.lookup(f"{ptr}#offset") if ptr else None
    if d is None:
        return 0, ""
    k = int((d.scope or scope).value(d.text).v)
    if k == 0:  # (stepped back, or re-assigned)
        return 0, ""
    if k < 0 or n is not None and k >= n:
        raise Unknown(f"'{param}' is stepped {k} elements from its allocation of {n} (at {d.loc})", d.loc or loc)
    return k, f"; the launch's pointer at element {k} of it (host code steps it at {d.loc})"
