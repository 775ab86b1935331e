"""A host value rounded up by a conditional step (hecbench mriQ's `QBlocks = numX / 256; if (numX % 256)
QBlocks++;`, the ceiling-division idiom): the value is its definition plus one where the condition holds,
`(numX / 256) + ((numX % 256) != 0)`, so it stays tied to the sizes it was computed from.  Before, the
step made the value one host code sets at run time, so verify chose it apart from numX (a grid of 256
blocks over a buffer of numX = 256 elements: the original read past it).

Only where the step is the whole body of an `if` without `else`, outside any loop (a loop runs it a count
of times), the value's definition is this function's own and not a dim3, and the condition is arithmetic
on names (no call, no subscript, no member through a pointer); else the value is unknown from the step,
as before (host_values._changed).
"""
from __future__ import annotations

import re

_ARITH = re.compile(r"[\w\s%+\-*/()<>=!&|^~.]+")


def conditional_step(src, node, scope) -> bool:
    """`if (cond) x++;` (or `--`) after `x = E;`: x is `(E) + ((cond) != 0)` from here; say so, else False."""
    from .host_values import Definition
    if node.type != "update_expression":
        return False
    target = node.child_by_field_name("argument")
    name = src.text_of(target).strip() if target is not None else ""
    stmt = node.parent
    if_ = stmt.parent if stmt is not None and stmt.type == "expression_statement" else None
    if not name.isidentifier() or if_ is None or if_.type != "if_statement" or \
            if_.child_by_field_name("consequence") != stmt or if_.child_by_field_name("alternative") is not None:
        return False
    p = if_.parent
    while p is not None and p.type not in ("function_definition", "lambda_expression"):
        if p.type in ("for_statement", "while_statement", "do_statement", "for_range_loop"):
            return False
        p = p.parent
    before = scope.defs.get(name)
    cond = src.text_of(if_.child_by_field_name("condition")).strip()
    cond = cond[1:-1] if cond.startswith("(") and cond.endswith(")") else cond
    if before is None or before.dim3 or before.scope not in (None, scope) or not _ARITH.fullmatch(cond) or \
            re.search(r"\b[A-Za-z_]\w*\s*\(|->", cond):
        return False
    sign = "+" if "++" in src.text_of(node) else "-"
    note = f"{before.note + '; ' if before.note else ''}stepped where {cond} at {src.loc(node)}"
    scope.defs[name] = Definition(f"({before.text}) {sign} (({cond}) != 0)", src.loc(node), scope=before.scope, note=note)
    return True
