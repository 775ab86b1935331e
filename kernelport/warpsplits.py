"""Blocks a kernel splits into 32-lane rows by its own arithmetic: `lane = tid & 31` with
`warp = tid >> 5` (or `% 32` with `/ 32`) of the same thread index; or whose x dimension is the
row (a loop stepping by 32 from `threadIdx.x`, which is right only where blockDim.x is 32, with
rows indexed by `threadIdx.y` / `.z`: a `dim3(32, 4, 4)` block).

Such a kernel means rows of 32 lanes whatever the hardware wave is: its per-warp slots, leaders
(`lane == 0`) and warp counts (`BLOCK / 32`) agree on 32.  Whether it also computes the same on a
64-lane wave (two rows to a wave) depends on its warp operations: lint decides that
(kernelport/lint/rowsplits.py).  Translate does not read this: it ports such a kernel to the
whole wave, which is correct too and uses every lane.

A function that names the hardware wave (`warpSize`, a `WARP_SIZE`-style name whose value is not
known to be 32, `__lane_id()` but masked to 32: `names_wave`) mixes the two widths and is reported apart (`wave_named`).  A local
constant of such a name (ADEPT's `int warpSize = 32;`, TransformerEngine's `constexpr int warp_size
= 32;`: `local32`) is the literal 32, not the wave: the built-in it shadows is never read.
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from . import cexpr, fnscopes, rowmajor
from .model import Module
from .source import ident_name
from .warpsites import WARP_SIZE_NAME, int_value
from . import lazy_re

_LANE = {"&": 31, "%": 32}
_WARP = {">>": 5, "/": 32}
_THREAD = lazy_re.compile(r"^threadIdx\.x$")
# a value-keeping integer cast of the thread index (< 1024 fits 16 bits): `(int)threadIdx.x`, `static_cast<unsigned>(...)`
_INT_CAST = lazy_re.compile(
    r"^\(\s*(?:(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:int|short|long(?:\s+long)?)(?:\s+int)?|unsigned|signed|"
    r"(?:std::)?u?int(?:16|32|64)_t|(?:std::)?size_t|ptrdiff_t)\s*\)\s*(.+)$")
_OPERAND = lazy_re.compile(r"^[\w.]+$")
_STATIC_CAST = lazy_re.compile(
    r"^static_cast\s*<\s*(?:(?:unsigned\s+|signed\s+)?(?:int|short|long(?:\s+long)?)(?:\s+int)?|unsigned|signed|"
    r"(?:std::)?u?int(?:16|32|64)_t|(?:std::)?size_t)\s*>\s*\((.+)\)$")
_HARDWARE_LANE = {"__lane_id", "__laneid", "laneid"}
_OTHER_ROWS = frozenset({"threadIdx.y", "threadIdx.z"})
_STARTS = lazy_re.compile(r"^(?:[\w:<>]+\s+)*(\w+)\s*=\s*\(?\s*([\w.]+)\s*\)?\s*;?$")  # `int c = thread`
_STEPS = lazy_re.compile(r"^(\w+)\s*\+=\s*\(?\s*(\w+)\s*\)?$")  # `c += WARP_SIZE`


@dataclass
class Split:
    """A warp index split into rows of 32 lanes."""
    warp: Node  # the warp index's expression (`tid >> 5`), or the row index (`threadIdx.y`) of an x-row block
    lanes: frozenset[str]  # locals holding the row's lane (`lane`), and the expression's text
    threads: frozenset[str]  # `threadIdx.x` and locals initialised from it (`tid`)
    stride: Node | None = None  # an x-row block's loop step of 32 from the lane (`c += WARP_SIZE`)
    source: str | None = None  # where the warp index comes from, when not the function's own arithmetic


def _flat(text: str) -> str:
    return " ".join(text.split())


def thread_text(text: str) -> str:
    """`text` flattened, less its outer parentheses and a value-keeping integer cast (`(int)threadIdx.x`,
    `static_cast<unsigned>(threadIdx.x)`: the thread index is below 1024, so any integer of 16 bits or
    more holds it); a narrowing cast (`(char)`, `(uint8_t)`) or a float is kept as written."""
    t = _flat(text)
    while True:
        while t.startswith("(") and t.endswith(")") and _balanced(t[1:-1]):
            t = t[1:-1].strip()
        m = _INT_CAST.match(t) or _STATIC_CAST.match(t)
        rest = m.group(1).strip() if m else ""
        if not (_OPERAND.match(rest) or rest.startswith("(") and rest.endswith(")") and _balanced(rest[1:-1])):
            return t  # no cast, or one of a primary's part only (`(int)threadIdx.x + 1` is a sum)
        t = rest


def _balanced(t: str) -> bool:
    depth = 0
    for c in t:
        depth += (c == "(") - (c == ")")
        if depth < 0:
            return False
    return depth == 0


def names_wave(src, body: Node, own32: frozenset[str]) -> bool:
    """The body names the hardware wave: a warp-size name not known to be 32, or the hardware lane
    (`__lane_id()`) but as a lane of 32 (`__lane_id() & 31`, `% 32`: a 32-lane row's lane at either wave
    width, as the HIP port's logical warps take it: hip_wmma.py's kp_wmma_lane)."""
    if any(WARP_SIZE_NAME.search(t) and t not in own32 for t in src.texts_under(body, "identifier")):
        return True
    return any(not _row_lane(src, n) for n in src.named_under(body, "identifier", _HARDWARE_LANE))


def _row_lane(src, ident: Node) -> bool:
    """`ident` (the hardware lane's name) is called and the call masked to 32 lanes: `(__lane_id() & 31u)`."""
    call = ident.parent
    if call is None or call.type != "call_expression" or call.child_by_field_name("function") != ident:
        return False
    n = call
    while n.parent is not None and n.parent.type in ("parenthesized_expression", "cast_expression"):  # low bits kept
        n = n.parent
    up = n.parent
    if up is None or up.type != "binary_expression" or up.child_by_field_name("left") != n:
        return False
    op, right = up.child_by_field_name("operator"), up.child_by_field_name("right")
    return op is not None and right is not None and _LANE.get(src.text_of(op)) == int_value(src.text_of(right))


def find(module: Module, known32: frozenset[str] = frozenset()) -> tuple[dict[str, Split], set[str]]:
    """(functions that split the block into 32-lane rows -> their Split, functions that name the
    hardware wave), by key (fnscopes: `a::reduce` is not `b::reduce`).  `known32`: warp-size names known to be the constant 32 (`#define WARP_SIZE 32`),
    which are the rows' width, not the wave's."""
    src = module.source
    splits: dict[str, Split] = {}
    wave_named: set[str] = set()
    macros32 = _macros32(module)
    for f in module.functions.values():
        if f.body is None:
            continue
        own32 = known32 | local32(src, f.body)
        if names_wave(src, f.body, own32):
            wave_named.add(fnscopes.of(module).key(f))
            continue
        values, threads, lanes, warp = _scan(src, f.body, own32 | macros32, module, f)
        if lanes and warp is not None:
            splits[fnscopes.of(module).key(f)] = Split(warp, _lane_names(src, values, lanes), frozenset(threads))
        elif (x_row := _x_rows(src, f.body, frozenset(threads), known32 | macros32)) is not None:
            splits[fnscopes.of(module).key(f)] = x_row
    return splits, wave_named


def _scan(src, body: Node, names32: frozenset[str], module: Module | None = None,
          f=None) -> tuple[dict[str, Node], set[str], set[str], Node | None]:
    """(locals -> initial value, the thread index and locals holding it, the lane expressions of 32
    (`tid & 31`), the first warp index expression of 32 (`tid >> 5`) or None) of a function body.  With the
    module and function, a row-major index of the block's rows is a thread index too (rowmajor.py)."""
    values: dict[str, Node] = {}
    for d in src.index.under(body, "init_declarator"):
        v, name = d.child_by_field_name("value"), ident_name(d.child_by_field_name("declarator"))
        if v is not None and name:
            values[name] = v
    threads = {"threadIdx.x"} | {k for k, v in values.items() if _THREAD.match(thread_text(src.text_of(v))) or (
        f is not None and "threadIdx" in (t := src.text_of(v)) and rowmajor.is_thread_index(module, f, t))}
    lanes: set[str] = set()
    warp: Node | None = None
    for n in src.index.under(body, "binary_expression"):
        op, left, right = (n.child_by_field_name(k) for k in ("operator", "left", "right"))
        if op is None or left is None or right is None:
            continue
        o, x = src.text_of(op), _flat(src.text_of(left))
        k = value32(src.text_of(right), names32) if x in threads or thread_text(x) in threads else None
        if k is None:
            continue  # `tid < n`, `tid % n`: no lane or warp of 32
        if _LANE.get(o) == k:
            lanes.add(_flat(src.text_of(n)))
        elif _WARP.get(o) == k and warp is None:
            warp = n
    return values, threads, lanes, warp


def _lane_names(src, values: dict[str, Node], lanes: set[str]) -> frozenset[str]:
    """The lane expressions and the locals initialised to one."""
    names = {k for k, v in values.items() if (t := _flat(src.text_of(v))) in lanes or t.strip("()") in lanes}
    return frozenset(names | lanes)


def lanes_only(module: Module, f, known32: frozenset[str] = frozenset()) -> tuple[frozenset[str], frozenset[str]] | None:
    """(lane names, thread names) of a function that takes a lane of 32 from its thread index
    (`threadIdx.x % 32`) but no warp index of its own, and does not name the hardware wave (None
    otherwise): its warp index, if any, comes from its callers (kernelport.lint.callersplits)."""
    src = module.source
    if f.body is None:
        return None
    own32 = known32 | local32(src, f.body)
    if names_wave(src, f.body, own32):
        return None
    values, threads, lanes, warp = _scan(src, f.body, own32 | _macros32(module))
    return (_lane_names(src, values, lanes), frozenset(threads)) if lanes and warp is None else None


def warp_index(src, expr: Node, threads: set[str], names32: frozenset[str]) -> bool:
    """`expr` is a warp index of 32 from the thread index: `tid / 32`, `tid >> 5` (parentheses aside)."""
    while expr is not None and expr.type == "parenthesized_expression" and expr.named_children:
        expr = expr.named_children[0]
    if expr is None or expr.type != "binary_expression":
        return False
    op, left, right = (expr.child_by_field_name(k) for k in ("operator", "left", "right"))
    if op is None or left is None or right is None or _flat(src.text_of(left)) not in threads:
        return False
    k = value32(src.text_of(right), names32)
    return k is not None and _WARP.get(src.text_of(op)) == k


def value32(text: str, names32: frozenset[str]) -> int | None:
    """A literal, or a constant expression of names known to be 32 (`WARP_SIZE - 1`, `warpSize / 2`)."""
    v = int_value(text)
    if v is not None or not any(n in text for n in names32):
        return v
    try:
        v = cexpr.evaluate(text, dict.fromkeys(names32, 32))
    except (cexpr.CExprError, ZeroDivisionError, TypeError, RecursionError):
        return None
    return int(v) if isinstance(v, (int, float)) and v == int(v) else None


def local32(src, body: Node) -> frozenset[str]:
    """Warp-size names a function body declares itself as the literal 32 (`int warpSize = 32;`,
    `constexpr int warp_size = 32;`): a statement of the body itself, the name's only declaration
    there and nothing of that name before it, never assigned, stepped, passed to a call or taken by
    address.  Every use then reads 32 (a constant of the code, as a `#define WARP_SIZE 32` is), not
    the hardware wave: the built-in `warpSize` it shadows is never read."""
    out = set()
    for d in src.index.under(body, "init_declarator"):
        name, v = ident_name(d.child_by_field_name("declarator")), d.child_by_field_name("value")
        decl = d.parent
        if not name or v is None or int_value(src.text_of(v)) != 32 or not WARP_SIZE_NAME.search(name) or \
                decl is None or decl.type != "declaration" or decl.parent != body or \
                d.child_by_field_name("declarator").type != "identifier":
            continue
        same = src.named_under(body, "identifier", {name})
        if any(i.start_byte < d.start_byte or (i.parent != d and _written(src, i)) for i in same) or \
                sum(ident_name(x.child_by_field_name("declarator")) == name
                    for x in src.index.under(body, "init_declarator")) != 1:
            continue
        out.add(name)
    return frozenset(out)


def _written(src, i: Node) -> bool:
    """An identifier a statement may change: assigned (`=`, `+=`), stepped, its address taken, passed
    to a call (a reference parameter may take it), or declared again (a declarator of its own)."""
    p = i.parent
    if p is None:
        return False
    if p.type == "argument_list":
        return True
    if p.type == "assignment_expression" and p.child_by_field_name("left") == i or p.type == "update_expression":
        return True
    if p.type == "pointer_expression" and src.text_of(p).lstrip().startswith("&"):
        return True
    return p.type in ("init_declarator", "declaration", "reference_declarator", "pointer_declarator",
                      "array_declarator") and p.child_by_field_name("declarator") == i


def _macros32(module: Module) -> frozenset[str]:
    """Object-like macros of the file and of its headers whose value is the literal 32."""
    macros = dict(module.visible.macros) if module.visible is not None else {}
    macros.update(module.macros)
    return frozenset(n for n, m in macros.items() if int_value(str(getattr(m, "value", ""))) == 32)


def _x_rows(src, body: Node, threads: frozenset[str], known32: frozenset[str]) -> Split | None:
    """A block whose x dimension is a 32-lane row: the kernel steps a loop by 32 from its x thread
    index (`for (c = threadIdx.x; c < C; c += 32)`, which is right only where blockDim.x is 32),
    never reads blockDim.x, and indexes its rows by another dimension (`threadIdx.y`, `.z`): a
    `dim3(32, 4, 4)` block, two rows to a 64-lane wave.  Returns its Split (the row's lane is
    `threadIdx.x` itself), or None."""
    dims = [n for n in src.index.under(body, "field_expression") if _flat(src.text_of(n)) in _OTHER_ROWS]
    if not dims or any(_flat(src.text_of(n)) == "blockDim.x" for n in src.index.under(body, "field_expression")):
        return None
    for loop in src.index.under(body, "for_statement"):
        init, upd = loop.child_by_field_name("initializer"), loop.child_by_field_name("update")
        if init is None or upd is None:
            continue
        start = _STARTS.match(_flat(src.text_of(init)))
        step = _STEPS.match(_flat(src.text_of(upd)))
        if start is None or step is None or start.group(1) != step.group(1) or start.group(2) not in threads:
            continue
        k = step.group(2)
        if int_value(k) == 32 or k in known32:
            return Split(dims[0], threads, threads, upd)
    return None
