"""Literal lane tests of a ballot word the port widens: the bit of the thread's own CUDA warp.

`unsigned m = __ballot_sync(FULL, p); if (m & 1) ...`, `(m & 0x80000000)`, `((m >> 5) & 1)`, and the same
inside a helper taking the word (`__device__ int top(unsigned b) { return (b & 0x80000000u) != 0; }`) name
lanes of the thread's 32-lane CUDA warp.  The port widens the word to the wave's lane mask (WS008's site),
which holds warp 2w at bits 0-31 and warp 2w + 1 at bits 32-63 of a 64-lane wave: read as written, lanes
32-63 test lane 0 / lane 31 of the other warp.  The word such a test reads is written as the thread's
warp's 32 bits, `(((m) >> (__lane_id() & 32)) & 0xffffffffu)` on HIP (the shift is 0 on gfx1030's 32-lane
waves and for a 64-lane wave's lower half), exactly the original's word in the widened type (an overload the
port widens still takes it); compared for equality, `(unsigned)((m) >> (__lane_id() & 32))`, so that a
literal's 32-bit reading stays (`m == -1`: all 32 lanes).  Only a test whose other operand is an
integer literal (`& LIT`, `>> K` then `& LIT` with K < 32, `== LIT` / `!= LIT` with LIT non-zero, the literal
as CUDA wrote it: the full mask's port would be the wave's) is rewritten here; sign tests are
kernelport/signed_masks.py's, and `__popc` / `__ffs` keep their port.  `m == 0` / `m != 0` keep main's port,
which asks whether any lane of the WAVE voted (the original: of the thread's warp): not yet changed here.
"""
from __future__ import annotations

from tree_sitter import Node

from . import backends, signed_masks
from .source import ident_name


def _literal(tr, n: Node | None) -> int | None:
    """The value of the integer literal `n` (through parentheses), None where it is not one."""
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    if n is None or n.type != "number_literal":
        return None
    t = tr.src.text_of(n).rstrip("uUlL")
    try:
        return int(t, 0) if not (len(t) > 1 and t[0] == "0" and t[1:].isdigit()) else int(t, 8)
    except ValueError:
        return None


def _constant(tr, n: Node | None) -> int | None:
    """The value of `n` where it is an integer literal or a name whose value is one (a macro, a `const` or
    `constexpr` of the file: `#define FULL 0xffffffffu`, `m == FULL` is as literal a lane test as
    `m == 0xffffffffu`), None otherwise."""
    v = _literal(tr, n)
    while v is None and n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    if v is not None or n is None or n.type not in ("identifier", "qualified_identifier"):
        return v
    from . import fullmask
    got = fullmask.mask_value(tr.src.text_of(n), fullmask.resolver(tr.module))
    return got if got is not None else _local_constant(tr, n)


def _local_constant(tr, n: Node) -> int | None:
    """The literal value of the function's own `const` / `constexpr` local `n` names (every such declaration
    of the name in the function agreeing, none other), None otherwise."""
    fn = n.parent
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    values = set()
    for d in tr.src.named_under(fn, "identifier", [tr.src.text_of(n)]) if fn is not None else ():
        init, decl = d.parent, d.parent.parent if d.parent is not None else None
        if init is None or init.type != "init_declarator" or init.child_by_field_name("declarator") != d:
            continue
        if decl is None or decl.type != "declaration" or not any(
                c.type == "type_qualifier" and tr.src.text_of(c) in ("const", "constexpr") for c in decl.children):
            return None
        values.add(_literal(tr, init.child_by_field_name("value")))
    return values.pop() if len(values) == 1 else None


def _op(tr, n: Node) -> str:
    o = n.child_by_field_name("operator")
    return tr.src.text_of(o) if o is not None else ""


def _tested(tr, top: Node) -> bool:
    """Whether the value `top` is read by a literal bit test: `top & LIT`, `LIT & top`, `(top >> K) & LIT`."""
    p = top.parent
    if p is None or p.type != "binary_expression":
        return False
    left, right = p.child_by_field_name("left"), p.child_by_field_name("right")
    other = right if left == top else left
    if _op(tr, p) == "&":
        return _constant(tr, other) is not None
    if _op(tr, p) in ("==", "!="):  # (`m == 0xffffffff`: the thread's warp all voted; `m != 0`: see the docstring)
        return bool(_constant(tr, other))
    if _op(tr, p) == ">>" and left == top:
        k = _literal(tr, right)
        up = signed_masks._up(p).parent
        if k is None or not 0 <= k < 32 or up is None or up.type != "binary_expression" or _op(tr, up) != "&":
            return False
        a, b = up.child_by_field_name("left"), up.child_by_field_name("right")
        return _constant(tr, b if signed_masks._up(p) == a else a) is not None
    return False


_WAVE_ROLES = frozenset({"ws", "ws_m1", "half", "five", "ws_macro", "ws_m1_macro", "ws_macro_use"})
_CARRIED = frozenset({"parenthesized_expression", "binary_expression", "unary_expression", "conditional_expression"})
_BIT_CALLS = frozenset({"__popc", "__popcll", "__ffs", "__ffsll", "__clz", "__clzll", "__brev", "__brevll"})
_KEPT_COMPOUND = frozenset({"&=", "|=", "^="})  # (a bitwise update keeps each lane's bit in its place)


def _helper_tests(tr, v: Node, depth: int = 0) -> Node | None:
    """The literal lane test the word `v` reaches as an argument of the file's own helper (through the helpers
    that one passes its parameter to), or None."""
    top = signed_masks._up(v)
    p = top.parent
    if depth > 4 or p is None or p.type != "argument_list" or p.parent is None or p.parent.type != "call_expression":
        return None
    f = p.parent.child_by_field_name("function")
    fn = tr.module.functions.get(tr.src.text_of(f).split("::")[-1].strip()) if f is not None else None
    args = [c for c in p.named_children if c.type != "comment"]
    k = args.index(top) if top in args else -1
    body = fn.node.child_by_field_name("body") if fn is not None and fn.node is not None else None
    if body is None or not 0 <= k < len(fn.params) or fn.params[k].pointer:
        return None
    for u in tr.src.named_under(body, "identifier", [fn.params[k].name]):
        if _tested(tr, signed_masks._up(u)):
            return signed_masks._up(u).parent
        got = _helper_tests(tr, u, depth + 1)
        if got is not None:
            return got
    return None


def _wave_size_meets(tr, top: Node) -> Node | None:
    """Where the word's value (`top`, read) is combined with the port's wave size (`warpSize`, or a literal
    the port makes the wave's): an operand of an expression carrying the value, or of a bit count of it."""
    wave = [s.node for s in tr.analysis.sites if s.confirmed and s.role in _WAVE_ROLES]
    n = top
    while n.parent is not None and (n.parent.type in _CARRIED or n.parent.type == "argument_list" and
                                    n.parent.parent is not None and n.parent.parent.type == "call_expression" and
                                    tr.src.text_of(n.parent.parent.child_by_field_name("function")) in _BIT_CALLS):
        p = n.parent if n.parent.type != "argument_list" else n.parent.parent
        for c in p.named_children:
            if c == n or c.type == "argument_list":
                continue
            if "warpSize" in tr.src.text_of(c) or any(c.start_byte <= w.start_byte and w.end_byte <= c.end_byte
                                                      for w in wave):
                return p
        n = p
    return None


_COUNTS = frozenset({"__popc", "__popcll", "__ffs", "__ffsll"})  # (a count, a leader in wave numbering: per warp)
_TRUTH = frozenset({"condition_clause", "if_statement", "while_statement", "do_statement", "for_statement"})


def _numeric_read(tr, top: Node, depth: int = 0) -> Node | None:
    """Where the read `top` of a word read as the thread's warp's takes it as a number rather than as the set
    of its warp's lanes (`__clz(m)`, `__brev(m)`, `m >> 16`, `~m`, `m * 3`, `m == q`, `m ^ q`, `out[i] = m`): the
    expression to refuse, None where the lanes in their wave positions are what is read (`__popc(m)`,
    `__ffs(m)`, `m != 0`, `if (m)`, `m & x`, `(m >> lane) & 1`, `m & (m - 1)`, a helper's argument)."""
    n = signed_masks._up(top)
    while True:
        p = n.parent
        if p is None:
            return n
        if p.type in _TRUTH or p.type == "conditional_expression" and p.child_by_field_name("condition") == n:
            return None
        if p.type == "unary_expression" and _op(tr, p) == "!":
            return None
        if p.type == "argument_list" and p.parent is not None and p.parent.type == "call_expression":
            f = p.parent.child_by_field_name("function")
            name = tr.src.text_of(f).split("::")[-1].strip() if f is not None else ""
            if name in _COUNTS:
                return None
            return _in_helper(tr, n, tr.module.functions.get(name), depth) if name in tr.module.functions else \
                p.parent
        if p.type == "assignment_expression" and p.child_by_field_name("right") == n and \
                tr.src.text_of(p.child_by_field_name("operator")) == "&=":
            return None
        if p.type != "binary_expression":
            return p
        op, left, right = _op(tr, p), p.child_by_field_name("left"), p.child_by_field_name("right")
        other = right if left == n else left
        if op in ("&&", "||") or op in ("==", "!=", *signed_masks._ORDER) and _literal(tr, other) == 0:
            return None  # (a zero test; a sign test, `b < 0`: signed_masks')
        if op == ">>" and left == n and _literal(tr, right) is None:  # (`(m >> lane) & 1`: a lane of the wave's)
            up = signed_masks._up(p).parent
            oth = None if up is None or up.type != "binary_expression" or _op(tr, up) != "&" else \
                up.child_by_field_name("right") if up.child_by_field_name("left") == signed_masks._up(p) else \
                up.child_by_field_name("left")
            return None if oth is not None and _literal(tr, oth) == 1 else p
        if op == "-" and left == n and _literal(tr, right) == 1:  # (`m & (m - 1)`, `m &= m - 1`: below its lowest)
            up = signed_masks._up(p).parent
            if up is not None and (up.type == "binary_expression" and _op(tr, up) == "&" or
                                   up.type == "assignment_expression" and
                                   tr.src.text_of(up.child_by_field_name("operator")) == "&="):
                n = signed_masks._up(p)
                continue
            return p
        if op != "&":
            return p
        n = signed_masks._up(p)  # (the warp's lanes of both: what reads the intersection decides)


def _in_helper(tr, arg: Node, fn, depth: int) -> Node | None:
    """The numeric read (`_numeric_read`) of the file's own helper `fn` taking the word as the argument `arg`
    (through the helpers it passes it to): the word it receives is the warp's lanes in their wave positions."""
    args = [c for c in arg.parent.named_children if c.type != "comment"]
    k = args.index(arg) if arg in args else -1
    body = fn.node.child_by_field_name("body") if fn is not None and fn.node is not None else None
    if body is None or not 0 <= k < len(fn.params) or fn.params[k].pointer or depth >= 4:
        return None
    for u in tr.src.named_under(body, "identifier", [fn.params[k].name]):
        if _tested(tr, signed_masks._up(u)) or _written(tr, signed_masks._up(u)) is not None:
            continue
        got = _numeric_read(tr, u, depth + 1)
        if got is not None:
            return got
    return None


def _written(tr, top: Node) -> str | None:
    """How the read `top` is written to: "plain" (an assignment's target: a new word), the compound operator,
    "&" (its address taken), "++"/"--"; None where it is only read."""
    p = top.parent
    if p is None:
        return None
    if p.type == "assignment_expression" and p.child_by_field_name("left") == top:
        op = tr.src.text_of(p.child_by_field_name("operator"))
        return "plain" if op == "=" else op
    if p.type == "update_expression":
        return "++"
    if p.type == "pointer_expression" and tr.src.text_of(p).lstrip().startswith("&"):
        return "&"
    return None


def rewrite(tr, site) -> None:
    """One reading per widened word (`site` types it): where a literal bit test reads the word (in the function
    or in a helper it is passed to), every read is the thread's CUDA warp's; otherwise the port's reading stays
    the wave's.  The literal tests read the warp's 32 bits at bit 0 (`_tested`); every other read reads the word
    with only the thread's warp's lanes kept, in their wave positions (`(m & (0xffffffffull << (lane & 32)))`),
    so that `__popc` counts, `__ffs` elects a leader, `!= 0` asks, per 32-lane warp, in the same lane numbers as
    the port's lane masks and shuffles (a 64-lane wave: one leader and one count per half).  A read that meets
    the port's wave size, or an update that moves bits across a warp's 32 lanes (`m <<= 1`, `m -= 1`, `m++`,
    `&m`), cannot take that reading: KP251 there."""
    if all(r.wave <= 32 for r in backends.get(tr.backend).runs):
        return  # (Metal's SIMD-groups, lint's CUDA-to-CUDA fix: the word is the warp's as written)
    try:
        shift = f"{tr.spell('lane_id')} & 32"
    except LookupError:  # (a dialect without a lane id)
        return
    reads = signed_masks._values(tr, site)
    tests = [signed_masks._up(v) for v in reads if _tested(tr, signed_masks._up(v))]
    via = None if tests else next((t for t in (_helper_tests(tr, v) for v in reads) if t is not None), None)
    if not tests and via is None:
        return  # (the word's reads are the port's wave reading: unchanged)
    why = tests[0].parent if tests else via
    rev = _reversal(tr, site)
    if rev is not None:  # (review65f: `r = __brev(m)`, `r & 1`: the port read lane 63's vote for the lower warp)
        tr.problem("KP251", why, f"`{tr.src.text_of(why)}` tests a bit of a reversed ballot word (`"
                   f"{tr.src.text_of(rev)}`, line {tr.src.loc(rev).line}): its bits are the warp's lanes from the "
                   "warp's last down, which on a 64-lane wave are the upper warp's lanes for the lower warp and "
                   "the lower's for the upper: no one reading of the word is the original's on 64- and 32-lane "
                   "waves", "test the lane it means in the ballot word itself (`(mask >> (31 - k)) & 1`)")
        return
    for v in reads:
        top = signed_masks._up(v)
        if top in tests:
            _literal_test(tr, top, shift)
            continue
        w = _written(tr, top)
        meets = _wave_size_meets(tr, top) if w is None else None
        number = _numeric_read(tr, top) if w is None and meets is None and not _sync_mask(tr, top) else None
        if number is not None:
            loc = tr.src.loc(why)
            tr.problem("KP251", number, f"`{tr.src.text_of(number)}` reads as a number a ballot word that a literal "
                       f"lane test (line {loc.line}: `{tr.src.text_of(why)}`) reads as the thread's 32-lane CUDA "
                       "warp's: the port reads the word as that warp's lanes in their wave positions (a 64-lane "
                       "wave's upper warp at bits 32-63), which counts, leader elections and zero tests keep and "
                       "this value does not: no one reading of the word is the original's on 64- and 32-lane waves",
                       "test the lanes it means with bit tests of the thread's own lanes (`(mask >> lane) & 1`), "
                       "or count with `__popc(mask)`")
            continue
        if w not in (None, "plain") and w not in _KEPT_COMPOUND or meets is not None:
            at = meets if meets is not None else top.parent
            loc = tr.src.loc(why)
            tr.problem("KP251", at, f"`{tr.src.text_of(at)}` reads a ballot word that a literal lane test (line "
                       f"{loc.line}: `{tr.src.text_of(why)}`) reads as the thread's 32-lane CUDA warp's, "
                       + ("against the wave's width, which the port makes 64 lanes on CDNA" if meets is not None else
                          "through an update that moves bits across the warp's 32 lanes") +
                       ": no one reading of the word is the original's on 64- and 32-lane waves",
                       "test the lanes it means with bit tests of the thread's own lanes "
                       "(`(mask >> lane) & 1`), or count with `__popc(mask)` against 32")
            continue
        if w is not None or _sync_mask(tr, top) or signed_masks._up(top).parent is not None and \
                signed_masks._up(top).parent.type == "binary_expression" and \
                _op(tr, signed_masks._up(top).parent) in signed_masks._ORDER:
            continue  # (a write, a `_sync` call's member mask, a sign test: signed_masks')
        _project(tr, v, shift)


_REVERSALS = frozenset({"__brev", "__brevll"})


def _reversal(tr, site) -> Node | None:
    """The bit reversal (`__brev(m)`) a widened word's declaration or a plain assignment to it takes its value
    from, None otherwise: its bits are no lanes in their wave positions, so no literal lane test of it reads as
    the warp's."""
    decl = site.node.parent
    if decl is None or decl.type != "declaration":
        return None
    names, values = set(), []
    for d in decl.children_by_field_name("declarator"):
        names.add(ident_name(d.child_by_field_name("declarator") if d.type == "init_declarator" else d))
        if d.type == "init_declarator":
            values.append(d.child_by_field_name("value"))
    scope = decl.parent
    for a in tr.src.index.under(scope, "assignment_expression") if scope is not None else ():
        left = a.child_by_field_name("left")
        if left is not None and left.type == "identifier" and tr.src.text_of(left) in names and \
                tr.src.text_of(a.child_by_field_name("operator")) == "=":
            values.append(a.child_by_field_name("right"))
    for v in values:
        for c in tr.src.index.under(v, "call_expression") if v is not None else ():
            f = c.child_by_field_name("function")
            if f is not None and tr.src.text_of(f).split("::")[-1].strip() in _REVERSALS:
                return c
    return None


def _sync_mask(tr, top: Node) -> bool:
    p = top.parent
    if p is None or p.type != "argument_list" or p.parent is None or p.parent.type != "call_expression":
        return False
    f = p.parent.child_by_field_name("function")
    args = [c for c in p.named_children if c.type != "comment"]
    return f is not None and tr.src.text_of(f).endswith("_sync") and bool(args) and args[0] == top


def _project(tr, v: Node, shift: str) -> None:
    """Read the word `v` with the thread's CUDA warp's lanes alone, in their wave positions."""
    prior = tr.rw.replacements.get((v.start_byte, v.end_byte, v.type))

    def render(rw, n, prior=prior) -> str:
        word = tr.src.text_of(n) if prior is None else prior if isinstance(prior, str) else prior(rw, n)
        return f"(({word}) & (0xffffffffull << ({shift})))"
    tr.rw.replace(v, render)


def _literal_test(tr, top: Node, shift: str) -> None:
    """Write the literal bit test of the word `top` as a test of the thread's warp's 32 bits."""
    test = top.parent

    def render(rw, n, top=top, shift=shift) -> str:
        a, b = n.child_by_field_name("left"), n.child_by_field_name("right")
        op = _op(tr, n)
        word = f"((({rw.text(top)}) >> ({shift})) & 0xffffffffu)" if op != "==" and op != "!=" else \
            f"((unsigned)(({rw.text(top)}) >> ({shift})))"  # (the widened type kept for `&`: overloads)
        keep = (lambda c: tr.src.text_of(c) if _literal(tr, c) is not None else f"{_constant(tr, c):#x}u") \
            if op in ("==", "!=", ">>") else rw.text  # (the literal as CUDA wrote it: `(m >> 31) & 1` names lane
        # 31 of the warp, where the port made 31 the wave's last lane; a name's value, which the port may make
        # the wave's full mask: `m == FULL`)
        return f"{word if a == top else keep(a)} {op} {word if b == top else keep(b)}"
    tr.rw.replace(test, render)
    tr.note(test, f"(unsigned)((mask) >> ({shift}))", "a literal lane test of a ballot's 32-bit word names a lane "
            "of the thread's CUDA warp; the port's mask is the wave's, which holds that warp at a 32-lane offset")
