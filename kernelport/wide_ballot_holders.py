"""A 32-bit ballot assigned to a variable already declared 64 bits wide, read as the warp's 32-bit word.

`long long b; ... b = __ballot_sync(FULL, p); if (b < 0 || (b & 1)) ...`: CUDA's ballot is 32 bits, so `b`
holds the thread's warp's word zero-extended (never negative; bit 0 is lane 0 of the thread's warp).  The
port's ballot is the wave's 64-bit mask and the variable needs no widening (no WS008 site), so main kept it
as written: `b < 0` read lane 63, `b & 1` lane 0 of the wave at every lane.  Where such a variable is read as
that word (an ordering `b < 0`, `b > 5`, or a literal lane test `b & 1`, `(b >> 5) & 1`, `b == 0xffffffff`),
every ballot assigned to it is written as the original's value, the thread's warp's 32 bits at bit 0
(`((unsigned)((__ballot(p)) >> (__lane_id() & 32)))`, zero-extended as CUDA's), and every read must read that value alone: a
comparison or bit test with a literal, `__popc`, a truth test.  A read that meets anything else (a lane mask
of the port's wave lanes, `__ffs` compared with a lane, another variable, an update of it) could read the
wave's lane positions: KP251 there, and at another value assigned to it.  A variable read only as a mask
(`__popcll(b)`, `b & lanebit`) keeps the port's wave reading.  Backends whose waves are all 32 lanes keep it.
"""
from __future__ import annotations

from tree_sitter import Node

from . import backends, dialect, literal_lanes, reversed_words, signed_masks

_WIDE = frozenset({"long long", "long long int", "signed long long", "signed long long int", "unsigned long long",
                   "unsigned long long int", "long", "long int", "unsigned long", "unsigned long int", "int64_t",
                   "uint64_t", "std::int64_t", "std::uint64_t", "size_t", "std::size_t"})
_COMPARE = frozenset({"<", "<=", ">", ">=", "==", "!="})
_ORDER = frozenset({"<", "<=", ">", ">="})
_COUNT = frozenset({"__popc", "__popcll"})


def _ballot(tr, n: Node) -> Node | None:
    """The ballot call `n` is (through parentheses and casts), None where it is none."""
    while n is not None and n.type in ("parenthesized_expression", "cast_expression"):
        n = n.named_children[-1] if n.named_children else None
    if n is None or n.type != "call_expression":
        return None
    f = n.child_by_field_name("function")
    c = dialect.lookup("cuda", tr.src.text_of(f)) if f is not None else None
    return n if c is not None and c.key == "ballot" else None


def _declared(tr, fn: Node, name: str, before: int) -> Node | None:
    """The declaration (or parameter) of `name` in `fn` before byte `before`: the last one."""
    got = None
    for d in tr.src.named_under(fn, "identifier", [name]):
        p = d.parent
        if d.start_byte >= before:
            break
        if p is not None and p.type == "init_declarator" and p.child_by_field_name("declarator") == d:
            p = p.parent
        if p is not None and p.type in ("declaration", "parameter_declaration") and p.child_by_field_name("declarator") is not None \
                and any(c == d or c.type == "init_declarator" and c.child_by_field_name("declarator") == d for c in p.named_children):
            got = p
    return got


def _exact(tr, top: Node) -> bool:
    """Whether the read `top` reads the value alone: a comparison or bit test with a literal, a count, a truth test."""
    p = top.parent
    if literal_lanes._tested(tr, top):
        return True
    if p is None:
        return False
    if p.type == "binary_expression":
        op = literal_lanes._op(tr, p)
        other = p.child_by_field_name("right") if p.child_by_field_name("left") == top else p.child_by_field_name("left")
        if op in _COMPARE:
            return literal_lanes._literal(tr, other) is not None
        return op in ("&&", "||")
    if p.type == "unary_expression" and literal_lanes._op(tr, p) == "!":
        return True
    if p.type == "condition_clause" or p.type == "conditional_expression" and p.child_by_field_name("condition") == top:
        return True
    if p.type == "argument_list" and p.parent is not None and p.parent.type == "call_expression" and \
            len(p.named_children) == 1:
        return tr.src.text_of(p.parent.child_by_field_name("function")) in _COUNT
    return False


def _word_reading(tr, top: Node) -> bool:
    """Whether the read `top` reads the 32-bit word as such: an ordering, or a literal lane test."""
    p = top.parent
    if literal_lanes._tested(tr, top):
        return True
    return p is not None and p.type == "binary_expression" and literal_lanes._op(tr, p) in _ORDER


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    if b"ballot" not in tr.src.data or all(r.wave <= 32 for r in backends.get(tr.backend).runs):
        return
    holders: dict[tuple[int, str], list[Node]] = {}  # (declaration, name) -> the ballots assigned to it
    decls: dict[tuple[int, str], tuple[Node, Node]] = {}
    for call in tr.src.index.of_type("call_expression"):
        if _ballot(tr, call) is None:
            continue
        n = signed_masks._up(call)
        while n.parent is not None and n.parent.type == "cast_expression":
            n = signed_masks._up(n.parent)
        p = n.parent
        if p is not None and p.type == "assignment_expression" and p.child_by_field_name("right") == n and \
                literal_lanes._op(tr, p) == "=":
            var = p.child_by_field_name("left")
        elif p is not None and p.type == "init_declarator" and p.child_by_field_name("value") == n:
            var = p.child_by_field_name("declarator")
        else:
            continue
        fn = p
        while fn is not None and fn.type != "function_definition":
            fn = fn.parent
        if var is None or var.type != "identifier" or fn is None:
            continue
        name = tr.src.text_of(var)
        d = p.parent if p.type == "init_declarator" else _declared(tr, fn, name, p.start_byte)
        t = d.child_by_field_name("type") if d is not None else None
        if t is None or d.type != "declaration" or " ".join(tr.src.text_of(t).split()) not in _WIDE:
            continue
        k = (d.start_byte, name)
        holders.setdefault(k, []).append(n)
        decls[k] = (d, fn)
    for k, values in holders.items():
        d, fn = decls[k]
        _judge(tr, d, fn, k[1], values)


def _judge(tr, d: Node, fn: Node, name: str, values: list[Node]) -> None:
    uses = [u for u in tr.src.named_under(fn, "identifier", [name]) if u.start_byte >= d.end_byte]
    reads, writes = [], []
    for u in uses:
        top = signed_masks._up(u)
        w = literal_lanes._written(tr, top)
        (reads if w is None else writes).append((top, w))
    if not any(_word_reading(tr, top) for top, _ in reads):
        return  # (read as a mask only: the port's wave reading)
    why = next(top.parent for top, _ in reads if _word_reading(tr, top))
    bad = [top.parent for top, w in writes if w != "plain" or signed_masks._up(top.parent.child_by_field_name("right"))
           not in values and literal_lanes._literal(tr, top.parent.child_by_field_name("right")) is None]
    bad += [top.parent if top.parent is not None else top for top, _ in reads if not _exact(tr, top)]
    for at in bad:
        tr.problem("KP251", at, f"`{tr.src.text_of(at)}` meets a ballot held in the 64-bit `{name}`, which "
                   f"`{tr.src.text_of(why)}` reads as CUDA's 32-bit word of the thread's warp: the port's ballot is the "
                   "wave's mask, whose lane positions this use could read, so no one reading is the original's on 64- and "
                   "32-lane waves", "hold the ballot in a 32-bit `unsigned` (the port widens it and reads each lane test "
                   "as the thread's warp's), or test the lanes it means with bit tests")
    if bad:
        return
    try:
        shift = f"{tr.spell('lane_id')} & 32"
    except LookupError:
        return
    for v in values:
        def render(rw, n, shift=shift) -> str:
            return f"((unsigned)(({rw.text(n)}) >> ({shift})))"  # (lint reads the form as the warp's word)
        _wrap(tr, v, render)
        tr.note(v, f"(unsigned)(ballot >> ({shift}))", "a 32-bit ballot held in a 64-bit variable read as the "
                "word (an ordering, a literal lane test) is the thread's CUDA warp's 32 bits, not the wave's mask")
    for top, _ in reads:  # (a literal the port makes the wave's, `b == 0xffffffff`, `(b >> 31) & 1`: CUDA's 32 lanes)
        p = top.parent
        while p is not None and p.type == "binary_expression":
            for c in (p.child_by_field_name("left"), p.child_by_field_name("right")):
                if c != top and tr.rw.has(c) and literal_lanes._literal(tr, c) is not None:
                    tr.rw.replace(c, lambda rw, n: tr.src.text_of(n))  # (compared with the warp's word it now is)
            if literal_lanes._op(tr, p) != ">>":
                break
            top, p = signed_masks._up(p), signed_masks._up(p).parent


def _wrap(tr, v: Node, render) -> None:
    """Replace the value `v` by `render` of its port (whatever another pass writes for it, now or later)."""
    holder = v.parent
    field = "right" if holder.type == "assignment_expression" else "value"

    def outer(rw, n, field=field) -> str:
        left = n.child_by_field_name("left" if field == "right" else "declarator")
        return f"{rw.text(left)} = {render(rw, n.child_by_field_name(field))}"
    tr.rw.replace(holder, outer)


def _wave_words(tr) -> bool:
    """Whether the backend's lane masks are 64-bit words of waves of 64 or 32 lanes (HIP)."""
    runs = backends.get(tr.backend).runs
    return any(r.wave > 32 for r in runs) and not any(r.reads_as for r in runs)  # (Metal's 32-lane words; a text
    # read as two dialects spells its own mask functions)


def wave_complements(tr, arg: Node) -> None:
    """`~x` in the argument of a bit count the port widens (`__popc(~m)`, `__ffs(~m)`, `__clz(~m)`): the complement
    kept to the wave's lanes, `(~x & (~0ull >> (64 - warpSize)))`; `~` of the 64-bit word sets bits 32-63 too,
    which no lane of gfx1030's 32-lane waves holds (main: `__popcll(~m)` counted 32 non-voters more there,
    `__ffsll(~m)` of a warp all voting was 33, CUDA's 0)."""
    if not _wave_words(tr):
        return
    width = tr.spell("warp_size")
    for n in _unaries(arg):
        o, x = n.child_by_field_name("operator"), n.child_by_field_name("argument")
        if o is not None and x is not None and tr.src.text_of(o) == "~":
            tr.rw.replace(n, lambda rw, node, x=x: f"(~{rw.text(x)} & (~0ull >> (64 - {width})))")


def _unaries(n: Node) -> list:
    out, todo = [], [n]
    while todo:
        c = todo.pop()
        if c.type == "unary_expression":
            out.append(c)
        todo.extend(c.named_children)
    return out


def clz_lanes(tr, call: Node, arg: Node, wide) -> None:
    """`__clz(m)` of a lane mask the port widens: the lanes above the highest set one, of the wave's
    (`warpSize - 1 - highest`), `(__clzll(m) - (64 - warpSize))`: `__clzll` alone counts from bit 63, 32 more than
    CUDA's `__clz` of the same word on gfx1030's 32-lane waves (and than the wave's reading on CDNA's 64: none).
    A reversed mask (`__clz(__brev(m))`, the lowest set lane) is in the wave's width too (`brev_lanes`)."""
    if not _wave_words(tr):
        return
    width = tr.spell("warp_size")
    tr.rw.replace(call, lambda rw, node: f"({dialect.render(wide, tr.backend, {'x': rw.text(arg)})} - (64 - {width}))")


def brev_lanes(tr, call: Node, arg: Node, wide) -> None:
    """`__brev(m)` of a lane mask the port widens: the wave's lanes reversed in the wave's width, lane 0 at bit
    `warpSize - 1` as CUDA's at bit 31: `(__brevll(m) >> (64 - warpSize))` (`__brevll` alone put lane 0 at bit 63:
    32 bits above CUDA's word on gfx1030, and `__clz` of it, the lowest voter, read against `clz_lanes`'s width)."""
    if not _wave_words(tr) or reversed_words.refuse(tr, call):  # (`__brev(m) >> 28`: a number, KP244)
        return
    width = tr.spell("warp_size")
    tr.rw.replace(call, lambda rw, node: f"({dialect.render(wide, tr.backend, {'x': rw.text(arg)})} >> (64 - {width}))")
