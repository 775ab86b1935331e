"""Halo copies of a padded 2-D tile: every write on the border, every read inside it (SY002).

A stencil's shared tile of (blockDim.y + 2) x (blockDim.x + 2) slots fills its halo from the adjacent interior
(heldout76's shallow-water solver, through `#define SH_ID(i, j) ((i) * (blockDim.x + 2) + (j))`):

    if (threadIdx.x == 0)              s[SH_ID(li, 0)]              = s[SH_ID(li, 1)];
    if (threadIdx.x == blockDim.x - 1) s[SH_ID(li, blockDim.x + 1)] = s[SH_ID(li, blockDim.x)];
    if (threadIdx.y == 0)              s[SH_ID(0, lj)]              = s[SH_ID(1, lj)];

with li = threadIdx.y + 1 and lj = threadIdx.x + 1 passed by the kernel.  Each statement reads a slot other than the
one it writes, but every written slot (row 0 or blockDim.y + 1, or column 0 or blockDim.x + 1) is on the border and
every read one inside it: no thread reads a slot another writes, so the steps need no lockstep.

The steps are apart when every index of the array (a function-like macro of the file expanded) is `R * (blockDim.x
+ P) + C` for one literal P >= 1 and C's range lies in [0, blockDim.x + P - 1], so that (R, C) is the slot's row and
column; and every written (row, column) box is disjoint from every read one for all blockDim.x, blockDim.y >= 1.
Ranges are linear in blockDim.x and blockDim.y: a literal, `blockDim.x`/`.y`, `threadIdx.x` (0 .. blockDim.x - 1)
and `.y`, sums and differences of these, a local declared once from such an expression and never assigned, and a
device function's parameter the range of whose argument at every call of the file (one at least) is known.  A
`threadIdx.z` anywhere, another product, a division, or any name whose range is unknown: not apart.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import lazy_re
from .loneguards import _declared, _stored
from .privateslots import _squash
from .rowslots import _expanded, _strip

_UNDEF = lazy_re.compile(r"^\s*#\s*undef\s+(\w+)", re.M)

Form = tuple[int, int, int]  # c0 + cx * blockDim.x + cy * blockDim.y


def apart(ctx, steps: list[Node], array: str) -> bool:
    f = ctx.module.function_at(steps[0]) if steps else None
    if f is None or f.body is None or "threadIdx.z" in ctx.text(f.node).replace(" ", ""):
        return False
    writes, reads = [], []
    for st in steps:
        for sub in ctx.src.index.under(st, "subscript_expression"):
            base = sub.child_by_field_name("argument")
            if base is None or base.type != "identifier" or ctx.text(base) != array:
                continue
            idx = sub.child_by_field_name("indices")
            if idx is None or idx.named_child_count != 1:
                return False
            box = _box(ctx, f, idx.named_children[0])
            if box is None:
                return False
            p = sub.parent
            (writes if p.type == "assignment_expression" and p.child_by_field_name("left") == sub else reads).append(box)
    return bool(writes) and all(_disjoint(w, r) for w in writes for r in reads)


def _box(ctx, f, e: Node):
    text = _expand_at(ctx, e)
    if text is None:
        return None
    terms = _terms(re.sub(r"\s+", "", _strip(re.sub(r"\s+", "", text))))
    if terms is None:
        return None
    row, cols, pad = None, [], None
    for sign, t in terms:
        factors = _factors(t)
        if factors is not None and len(factors) == 2:
            for r, w in (factors, factors[::-1]):
                m = re.fullmatch(r"blockDim\.x\+(\d+)", _strip(w))
                if m and sign == 1 and row is None:
                    row, pad = r, int(m.group(1))
                    break
            else:
                return None
            continue
        cols.append((sign, t))
    if row is None or pad < 1:
        return None
    r = _range(ctx, f, row, 0)
    c = _sum_range(ctx, f, cols, 0)
    if r is None or c is None:
        return None
    if not (_le((0, 0, 0), c[0]) and _le(c[1], (pad - 1, 1, 0))):  # the column within the row
        return None
    return r, c


def _disjoint(a, b) -> bool:
    (ar, ac), (br, bc) = a, b
    return _lt(ar[1], br[0]) or _lt(br[1], ar[0]) or _lt(ac[1], bc[0]) or _lt(bc[1], ac[0])


def _lt(x: Form, y: Form) -> bool:
    """x < y for every blockDim.x, blockDim.y >= 1."""
    d = tuple(b - a for a, b in zip(x, y))
    return d[1] >= 0 and d[2] >= 0 and d[0] + d[1] + d[2] > 0


def _le(x: Form, y: Form) -> bool:
    d = tuple(b - a for a, b in zip(x, y))
    return d[1] >= 0 and d[2] >= 0 and d[0] + d[1] + d[2] >= 0


def _terms(s: str):
    """The top-level (sign, text) terms of a sum, None where another operator than + - * stands at the top."""
    out, depth, start, sign = [], 0, 0, 1
    for i, ch in enumerate(s):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and ch in "+-" and i > start:
            out.append((sign, s[start:i]))
            sign, start = (1 if ch == "+" else -1), i + 1
        elif depth == 0 and ch in "/%&|^<>?:=!~,":
            return None
    out.append((sign, s[start:]))
    return out if all(t for _, t in out) else None


def _factors(t: str):
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(t):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch == "*":
            parts.append(t[start:i])
            start = i + 1
    parts.append(t[start:])
    return parts if len(parts) > 1 else None


def _sum_range(ctx, f, terms, depth):
    lo, hi = (0, 0, 0), (0, 0, 0)
    for sign, t in terms:
        got = _range(ctx, f, t, depth)
        if got is None:
            return None
        a, b = got if sign == 1 else (_neg(got[1]), _neg(got[0]))
        lo, hi = _add(lo, a), _add(hi, b)
    return lo, hi


def _range(ctx, f, text: str, depth: int):
    """(lo, hi) linear forms of a term's value, or None."""
    t = _strip(text)
    if depth > 8:
        return None
    terms = _terms(t)
    if terms is None or any(_factors(x) for _, x in terms):
        return None
    if len(terms) > 1 or terms[0][0] == -1:
        return _sum_range(ctx, f, terms, depth + 1)
    if re.fullmatch(r"\d+[uUlL]*", t):
        v = int(re.sub(r"[uUlL]", "", t))
        return (v, 0, 0), (v, 0, 0)
    if t == "blockDim.x":
        return (0, 1, 0), (0, 1, 0)
    if t == "blockDim.y":
        return (0, 0, 1), (0, 0, 1)
    if t == "threadIdx.x":
        return (0, 0, 0), (-1, 1, 0)
    if t == "threadIdx.y":
        return (0, 0, 0), (-1, 0, 1)
    if not re.fullmatch(r"[A-Za-z_]\w*", t):
        return None
    decls = _declared(ctx, f, t)
    if decls:
        if len(decls) != 1 or decls[0][1] is None or _stored(ctx, f, t):
            return None
        return _range(ctx, f, _squash(ctx.text(decls[0][1])), depth + 1)
    p = next((i for i, q in enumerate(f.params) if q.name == t), None)
    if p is None or f.is_kernel:
        return None
    return _argument_range(ctx, f, p, depth)


def _argument_range(ctx, f, p: int, depth: int):
    """The union of the ranges of argument p at every call of f in the file (None: no call, or one unknown)."""
    lo = hi = None
    seen = False
    for c in ctx.src.index.of_type("call_expression"):
        fn = c.child_by_field_name("function")
        if fn is None or ctx.text(fn) != f.name.split("::")[-1]:
            continue
        caller = ctx.module.function_at(c)
        args = [a for a in c.child_by_field_name("arguments").named_children if a.type != "comment"]
        if caller is None or caller is f or len(args) != len(f.params):
            return None
        got = _range(ctx, caller, _squash(ctx.text(args[p])), depth + 1)
        if got is None:
            return None
        seen = True
        lo = got[0] if lo is None else _min(lo, got[0])
        hi = got[1] if hi is None else _max(hi, got[1])
        if lo is None or hi is None:
            return None
    return (lo, hi) if seen else None


def _min(a: Form, b: Form):
    return a if _le(a, b) else b if _le(b, a) else None


def _max(a: Form, b: Form):
    return b if _le(a, b) else a if _le(b, a) else None


def _add(a: Form, b: Form) -> Form:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _neg(a: Form) -> Form:
    return (-a[0], -a[1], -a[2])


def _expand_at(ctx, e: Node) -> str | None:
    """e's text, a call of a function-like macro replaced by its body with the arguments put in: the file's table,
    else the last `#define` of that name before e with no `#undef` of it between (a file that defines `SH_ID` in
    each function and undefines it after)."""
    got = _expanded(ctx, e)
    while e.type == "parenthesized_expression" and e.named_child_count == 1:
        e = e.named_children[0]
    if got != ctx.text(e) or e.type != "call_expression":
        return got
    fn, args = e.child_by_field_name("function"), e.child_by_field_name("arguments")
    if fn is None or fn.type != "identifier" or args is None:
        return got
    name = ctx.text(fn)
    defs = [d for d in ctx.nodes("preproc_function_def") if d.start_byte < e.start_byte and
            (n := d.child_by_field_name("name")) is not None and ctx.text(n) == name]
    if not defs:
        return got
    d = defs[-1]
    between = ctx.src.data[d.end_byte:e.start_byte].decode("utf-8", errors="replace")
    if any(m.group(1) == name for m in _UNDEF.finditer(between)):
        return None
    params = [ctx.text(p) for p in d.child_by_field_name("parameters").named_children]
    value = d.child_by_field_name("value")
    values = [ctx.text(a) for a in args.named_children if a.type != "comment"]
    if value is None or "#" in ctx.text(value) or len(values) != len(params) or "..." in params:
        return None
    table = dict(zip(params, values))
    return re.sub(r"\b[A-Za-z_]\w*\b", lambda w: f"({table[w.group()]})" if w.group() in table else w.group(),
                  ctx.text(value))
