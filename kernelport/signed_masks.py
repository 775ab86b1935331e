"""A ballot read as a signed 32-bit word, its sign the warp's last lane, where the port widens the word.

`(int)__ballot_sync(m, p) < 0` (or `int b = __ballot_sync(m, p); if (b < 0)`) tests bit 31: lane 31 of
the thread's own CUDA warp.  The port widens a ballot's 32-bit type to the lane-mask type (WS008's site,
`unsigned long long` on HIP), which is unsigned: `< 0` became always false (and a signed 64-bit word's
sign would be lane 63, no lane on gfx1030's 32-lane waves).  A wave's ballot holds each CUDA warp's word at
its 32 lanes (a 64-lane wave: warps 2w and 2w + 1), so the lane the test means is the last of the thread's
own 32: a sign test of the widened value (`< 0`, `>= 0`, `0 > x`, `0 <= x`) is written as a test of bit
`lane | 31` (`(((m) >> (__lane_id() | 31)) & 1) != 0` on HIP: bit 31 on a 32-lane wave, 31 or 63 on a
64-lane one, what CUDA's warps read).  Any other ordering of such a value (`b > 0`: non-zero with lane 31
clear; `b <= -1`, `b < x`) reads its sign among the other bits: refused at the comparison (KP251), not
guessed.
"""
from __future__ import annotations

from tree_sitter import Node

_SIGNED = frozenset({"int", "signed", "signed int", "int32_t", "std::int32_t", "long int32_t"})
_ORDER = {"<", "<=", ">", ">="}
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_ZERO = frozenset({"0", "0l", "0L", "(0)"})
_CARRY = {"+", "-", "*", "&", "|", "^", "<<"}  # (the value's bit 31 stays its result's sign bit, or may)
_SIGN_CALLS = frozenset({"min", "max", "abs", "labs", "llabs", "fminf", "fmaxf", "fmin", "fmax", "umin", "umax"})
_SIGNED_WIDE = ("long", "int64_t", "float", "double", "half", "__half")  # (a type the 32-bit sign extends to)


def _up(n: Node) -> Node:
    """`n` through the parentheses around it."""
    while n.parent is not None and n.parent.type == "parenthesized_expression":
        n = n.parent
    return n


def _values(tr, site) -> list[Node]:
    """The expressions whose value the site's widened type holds: the cast (`(int)ballot`,
    `static_cast<int>(ballot)`), the uses of the variables its declaration declares that hold the mask
    (in the function that declares them, after the declaration), a helper's parameter's uses in its body
    (`__device__ int last(int b) { return b < 0; }`) or a helper's calls where it is the return type."""
    t = site.node
    p = t.parent
    if p is None:
        return []
    if t.type == "type_descriptor":
        q = p
        if q is not None and q.type == "cast_expression":
            return [q]
        if q is not None and q.type == "template_argument_list" and q.parent is not None and \
                q.parent.parent is not None and q.parent.parent.type == "call_expression":
            return [q.parent.parent]  # static_cast<int>(ballot)
        return []
    if p.type == "parameter_declaration":  # a helper's `int b` the port widens: its uses in the body
        fn = p.parent.parent.parent if p.parent is not None and p.parent.parent is not None else None
        d = p.child_by_field_name("declarator")
        while d is not None and d.type not in ("identifier",) and d.child_by_field_name("declarator") is not None:
            d = d.child_by_field_name("declarator")
        body = fn.child_by_field_name("body") if fn is not None and fn.type == "function_definition" else None
        if body is None or d is None or d.type != "identifier":
            return []
        return list(tr.src.named_under(body, "identifier", [tr.src.text_of(d)]))
    if p.type == "function_definition" and p.child_by_field_name("type") == t:  # `int vote(...)`: its calls
        d = p.child_by_field_name("declarator")
        while d is not None and d.type == "function_declarator" or d is not None and d.type == "pointer_declarator":
            d = d.child_by_field_name("declarator")
        if d is None or d.type != "identifier":
            return []
        name = tr.src.text_of(d)
        return [c for c in tr.src.index.of_type("call_expression")
                if c.child_by_field_name("function") is not None and tr.src.text_of(c.child_by_field_name("function")) == name]
    if p.type != "declaration":
        return []
    held = tr.analysis.holders.get(site.id, set())
    fn = p.parent
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    if fn is None or not held:
        return []
    return [n for n in tr.src.named_under(fn, "identifier", sorted(held)) if n.start_byte >= p.end_byte]


def rewrite(tr, site) -> None:
    """Port or refuse the sign tests of the value `site` (a `type32` site the port widens) types, where the
    type as written is signed."""
    if site.node.type not in ("type_descriptor", "primitive_type", "type_identifier", "sized_type_specifier",
                              "qualified_identifier") or " ".join(tr.src.text_of(site.node).split()) not in _SIGNED:
        return
    for v in _values(tr, site):
        top = _up(v)
        reader = _sign_reader(tr, top)
        if reader is not None:
            tr.problem("KP251", reader, f"`{tr.src.text_of(reader)}` reads the sign of a ballot held as a signed "
                       "32-bit word (its lane 31) through other arithmetic: the port widens the mask to the "
                       "wave's lanes (unsigned), so the result differs on 64- and 32-lane waves",
                       "test the lanes it means with bit tests (`(mask >> lane) & 1`, `mask != 0`)")
            continue
        cmp = top.parent
        if cmp is None or cmp.type != "binary_expression":
            continue
        op = tr.src.text_of(cmp.child_by_field_name("operator"))
        if op not in _ORDER:
            continue
        left, right = cmp.child_by_field_name("left"), cmp.child_by_field_name("right")
        other = right if left == top else left
        if other != right:
            op = _MIRROR[op]
        if "".join(tr.src.text_of(other).split()) not in _ZERO or op not in ("<", ">="):
            tr.problem("KP251", cmp, f"`{tr.src.text_of(cmp)}` orders a ballot read as a signed 32-bit word: its "
                       "sign bit is CUDA's lane 31 among the others, and the port widens the mask to the wave's "
                       "lanes (unsigned), so no reading of the comparison is the same on 64- and 32-lane waves",
                       "test the lanes it means with bit tests (`(mask >> lane) & 1`, `mask != 0`)")
            continue
        _sign_test(tr, cmp, top, "!=" if op == "<" else "==")


def _sign_test(tr, cmp: Node, value: Node, eq: str) -> None:
    bit = f"{tr.spell('lane_id')} | 31"

    def render(rw, _n) -> str:
        return f"((({rw.text(value)}) >> ({bit})) & 1) {eq} 0"  # (the value as the port writes it)
    tr.rw.replace(cmp, render)
    tr.note(cmp, f"((mask >> ({bit})) & 1) {eq} 0", "the sign of a ballot's 32-bit word is lane 31 of the thread's "
            "CUDA warp; the port's mask is the wave's, which holds that warp's lanes at 32-lane offsets")


def _sign_reader(tr, top: Node) -> Node | None:
    """Where the value `top` (the widened signed word) reaches a reading of its sign other than a direct sign
    test `< 0` / `>= 0`: an ordering of arithmetic on it (`-b < 0`, `(b - 1) < 0`, `(b & INT_MIN) < 0`), a
    division, an arithmetic shift right (`b >> 31`; `(b >> k) & 1` reads one bit and is left alone), a
    conversion to a wider or floating type (`(long long)b`, `float f = b`), a min/max/abs, or an argument to
    the file's own function whose parameter is a signed 32-bit int.  None where the value meets none."""
    n, carried = top, False
    while n.parent is not None:
        p = n.parent
        if p.type == "parenthesized_expression":
            n = p
            continue
        if p.type == "unary_expression" and tr.src.text_of(p.child_by_field_name("operator")) in ("-", "+", "~"):
            n, carried = p, True
            continue
        if p.type == "binary_expression":
            op = tr.src.text_of(p.child_by_field_name("operator"))
            left = p.child_by_field_name("left") == n
            if op in _ORDER:
                return p if carried else None  # (a direct ordering: `rewrite` ports or refuses it)
            if op in ("/", "%"):
                return p
            if op == ">>" and left:
                up = _up(p).parent
                one = up is not None and up.type == "binary_expression" and \
                    tr.src.text_of(up.child_by_field_name("operator")) == "&" and \
                    any("".join(tr.src.text_of(c).split()) in ("1", "1u", "1U") for c in
                        (up.child_by_field_name("left"), up.child_by_field_name("right")))
                return None if one else p
            if op in _CARRY and (op != "<<" or left):
                n, carried = p, True
                continue
            return None
        if p.type == "cast_expression":
            t = " ".join(tr.src.text_of(p.child_by_field_name("type")).split())
            return p if any(w in t for w in _SIGNED_WIDE) and "unsigned" not in t else None
        if p.type == "init_declarator" or (p.type == "assignment_expression" and p.child_by_field_name("right") == n):
            decl = p.parent if p.type == "init_declarator" else None
            t = " ".join(tr.src.text_of(decl.child_by_field_name("type")).split()) if decl is not None and \
                decl.child_by_field_name("type") is not None else ""
            return p if any(w in t for w in _SIGNED_WIDE) and "unsigned" not in t else None
        if p.type == "argument_list" and p.parent is not None and p.parent.type == "call_expression":
            call = p.parent
            name = tr.src.text_of(call.child_by_field_name("function")).split("::")[-1].strip()
            if name in _SIGN_CALLS:
                return call
            fn = tr.module.functions.get(name)
            k = [c for c in p.named_children if c.type != "comment"].index(n) if n in p.named_children else -1
            if fn is not None and 0 <= k < len(fn.params) and not fn.params[k].pointer and \
                    " ".join(fn.params[k].type.split()) in _SIGNED:
                return call
            return None
        return None
    return None
