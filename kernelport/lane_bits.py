"""A lane's bit of a 32-bit word, by PTX's lane id: `w & (1u << laneid())`, `(w >> lane) & 1` (stop 65's note).

`%laneid` is 0..31 by the ISA; the port's `__lane_id()` counts 0..63 on a 64-lane wave, where `1u << lane` and
`w >> lane` of a 32-bit word shift by 32 or more for lanes 32-63 (undefined in C++, 0 on AMD's shifts).  CUDA's
thread t of a block of whole warps reads bit `t % 32`: the 32-lane warp's lane, `__lane_id() & 31`, which is
what the port spells where the lane id is nothing else (kernelport/laneoutputs.py's fix for a stored lane: the
asm statement, or the lane helper's call, as the 32-lane warp's lane).  Where the same lane id also meets the
wave (a warp operation's argument, a ballot word's bit, the wave's width), no one spelling serves both: KP244 at
the shift.  Shifts the port widens (a `1u` it makes `1ull` beside a ballot word, a ballot variable it makes 64
bits) are the wave's and not judged here.
"""
from __future__ import annotations

from tree_sitter import Node

from . import fnscopes, lazy_re
from .laneoutputs import RESULT, WIDTH
from .masksources import is_int32
from .source import ident_name
from .warpsites import type_aliases

CODE = "KP244"
_WAVE = (RESULT, WIDTH)
_LITERAL32 = lazy_re.compile(r"(0[xX][0-9a-fA-F]+|\d+)[uU]?")  # (no `l`: a 32-bit literal)


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


def _narrow_literal(k, n: Node, sites) -> bool:
    t = k.src.text_of(n)
    return n.type == "number_literal" and "l" not in t.lower() and (n.start_byte, n.end_byte) not in sites


def _narrow_variable(k, n: Node, holders: set[str], aliases) -> bool:
    """A local or parameter of the function declared with a 32-bit integer type (a typedef of one too), not a
    word the port widens."""
    name = k.src.text_of(n)
    if n.type != "identifier" or name in holders:
        return False
    for p in k.f.params:
        if p.name == name:
            return not p.pointer and is_int32(p.type.replace("const", ""), aliases)
    for d in k.src.index.under(k.f.body, "declaration"):
        t = d.child_by_field_name("type")
        for x in d.children_by_field_name("declarator"):
            x = x.child_by_field_name("declarator") if x.type == "init_declarator" else x
            if x is not None and x.type == "identifier" and k.src.text_of(x) == name:
                return t is not None and is_int32(k.src.text_of(t), aliases)
    return False


def _narrow_other(k, n: Node, aliases) -> bool:
    """A 32-bit value in the other spellings of a word (review66b): an object-like macro of a 32-bit literal
    (`#define ONE 1u`), a cast to a 32-bit type (`(unsigned)1`), an element of a 32-bit pointer parameter or
    local array (`in[i]`, `*in`)."""
    if n.type == "identifier":
        mac = k.src.macros.get(k.src.text_of(n))
        body = mac.body.strip().strip("()").strip() if mac is not None and mac.params is None else ""
        return bool(_LITERAL32.fullmatch(body))
    if n.type == "cast_expression":
        t = n.child_by_field_name("type")
        return t is not None and "*" not in k.src.text_of(t) and is_int32(k.src.text_of(t), aliases)
    if n.type == "subscript_expression" or n.type == "pointer_expression" and k.src.text_of(n).startswith("*"):
        base = _strip(n.child_by_field_name("argument"))
        if base is None or base.type != "identifier":
            return False
        name = k.src.text_of(base)
        for p in k.f.params:
            if p.name == name:
                return p.pointer and is_int32(p.type.replace("const", ""), aliases)
        for d in k.src.index.under(k.f.body, "declaration"):
            t = d.child_by_field_name("type")
            for x in d.children_by_field_name("declarator"):
                x = x.child_by_field_name("declarator") if x.type == "init_declarator" else x
                if x is not None and x.type == "array_declarator" and ident_name(x) == name:
                    return t is not None and is_int32(k.src.text_of(t), aliases)
    return False


def shifts(k, sites, holders: set[str]) -> list[tuple[Node, list]]:
    """(shift, the `%laneid` origins its amount carries) of each 32-bit shift by the lane id in `k`'s function
    (a laneoutputs._Kernel): `LIT << lane` with a 32-bit literal, `w >> lane` of a 32-bit variable, and either
    of a 32-bit macro literal, cast or element (`ONE << lane`, `(unsigned)1 << lane`, `in[i] >> lane`)."""
    out, aliases = [], type_aliases(k.src)
    for n in k.src.index.under(k.f.body, "binary_expression"):
        op = k.src.text_of(n.child_by_field_name("operator"))
        if op not in ("<<", ">>"):
            continue
        left, right = _strip(n.child_by_field_name("left")), n.child_by_field_name("right")
        if left is None or right is None:
            continue
        if not (_narrow_literal(k, left, sites) if op == "<<" else _narrow_variable(k, left, holders, aliases)) and (
                not _narrow_other(k, left, aliases) or any(o.kind in _WAVE for o in k.origins(left, True))):
            continue  # (a word the wave's values reach: a ballot's, the port's business)
        lanes = [o for o in k.origins(right) if o.fix is not None]
        if lanes:
            out.append((n, lanes))
    return out


def logical(tr, f, origins) -> bool:
    """Whether every lane id of `origins` is already the 32-lane warp's: its `%laneid` in a function the port
    keeps as logical 32-lane groups (kernelport/logical_lanes.py spells it so), directly or in the helper called."""
    owner = fnscopes.of(tr.module)

    def of(o) -> bool:
        if o.fix.type == "call_expression":
            gs = fnscopes.callees(tr.module, f, o.fix)
            return bool(gs) and all(tr.widths.logical(owner.key(g)) for g in gs)
        g = tr.module.function_at(o.fix)
        return g is not None and tr.widths.logical(owner.key(g))
    return all(of(o) for o in origins)


def problem(tr, shift: Node, origin, met) -> None:
    where, wave = met[0]
    what = (f"feeds `{tr.src.text_of(where.child_by_field_name('function'))}` at line {where.start_point[0] + 1}"
            if wave is None else f"is combined with {wave.kind} at line {where.start_point[0] + 1}")
    tr.problem(CODE, shift, f"`{tr.src.text_of(shift)}` takes a lane's bit of a 32-bit word by the lane id (`"
               f"{tr.src.text_of(origin.node)}`, line {origin.node.start_point[0] + 1}), which also {what}: there the "
               "port's lane must be the wave's (0..63 on a 64-lane wave, where a 32-bit shift by 32 or more is "
               "undefined), here CUDA's 32-lane warp's; no one spelling of the lane id is both",
               "take the bit by the lane within 32 (`1u << (lane & 31)`), or make the word the wave's "
               "(`unsigned long long`, `1ull << lane`)")
