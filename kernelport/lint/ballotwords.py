"""A lane from 32 whose only use elects the writer of a 32-bit bitmask word holding a ballot.

RXMesh's participation and deletion masks (tests/labelled27) keep one bit per mesh element in 32-bit
words, one word per 32 elements, written by lane 0 of every 32 threads:

    uint32_t warp_mask = __ballot_sync(0xFFFFFFFF, is_par);   // WS007, WS008: the hazard at 64
    uint32_t lane_id   = threadIdx.x % 32;                    // the word's writer
    if (lane_id == 0) s_participant_bitmask[local_id / 32] = warp_mask;

The 32 of `% 32` is the word's width, the same 32 as the index `/ 32` and as the word's bits: on a
64-lane wave what is wrong is the ballot's value (its 64 bits cut to the lower half's 32, reported at
the ballot), while the writers, lanes 0 and 32 of the wave, are the words' (the commit keeps them and
ballots each 32-lane half on its own, as translate's halfvotes port does in a source file).  `% warpSize`
there would leave the odd words unwritten.  So WS002 reports such a lane as advice (info, no fix), its
message naming the ballot.  Only where every use of the lane is a test `lane == 0` (`!lane`) whose
guarded statements store, into an element `A[E / 32]` (`A[E >> 5]`), a ballot of the function held
in a 32-bit integer or its bits combined with another word's (`(~mask) & old`); anything else (a
shuffle's lane, a count per warp, a popc of the lanes below) keeps its finding.
"""
from __future__ import annotations

from tree_sitter import Node

from ..source import ident_name, walk
from ..warpsites import int_value

_WORD_TYPES = frozenset({"unsigned", "unsigned int", "uint32_t", "int", "int32_t", "uint", "unsigned int32_t"})


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n


def _int(ctx, n: Node | None) -> int | None:
    n = _strip(n)
    return int_value(ctx.text(n)) if n is not None and n.type == "number_literal" else None


def _declared(ctx, body: Node, name: str) -> Node | None:
    """The one declaration of local `name` in `body` (None: none, or more than one)."""
    found = [d for d in walk(body) if d.type == "declaration" and any(
        ident_name(x) == name for x in d.children_by_field_name("declarator"))]
    return found[0] if len(found) == 1 else None


def _ballot_words(ctx, body: Node) -> set[str]:
    """Locals of `body` declared as a 32-bit integer and initialised by a ballot (the dialect's)."""
    out = set()
    for d in walk(body):
        if d.type != "declaration":
            continue
        ty = " ".join(ctx.text(c) for c in d.children if c.type in ("sized_type_specifier", "primitive_type",
                                                                     "type_identifier"))
        if ty not in _WORD_TYPES:
            continue
        for x in d.children_by_field_name("declarator"):
            value = _strip(x.child_by_field_name("value")) if x.type == "init_declarator" else None
            if value is not None and value.type == "call_expression":
                c = ctx.concept_of_call(value)
                if c is not None and c[0].key == "ballot":
                    out.add(ident_name(x))
    return out


def _word_index(ctx, idx: Node | None, body: Node) -> bool:
    idx = _strip(idx)
    if idx is not None and idx.type == "identifier":  # `mask_id` declared once as `thread_id / 32`
        d = _declared(ctx, body, ctx.text(idx))
        x = next((x for x in d.children_by_field_name("declarator") if ident_name(x) == ctx.text(idx)), None) \
            if d is not None else None
        idx = _strip(x.child_by_field_name("value")) if x is not None and x.type == "init_declarator" else None
    if idx is None or idx.type != "binary_expression":
        return False
    op = ctx.text(idx.child_by_field_name("operator"))
    v = _int(ctx, idx.child_by_field_name("right"))
    return (op == "/" and v == 32) or (op == ">>" and v == 5)


def _writes_word(ctx, stmt: Node, words: set[str], body: Node) -> bool:
    """`stmt` (a guarded statement) stores into some `A[E / 32]` a value that reads a ballot word."""
    for a in walk(stmt):
        if a.type != "assignment_expression":
            continue
        left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
        if left is None or right is None or left.type != "subscript_expression":
            continue
        idx = left.child_by_field_name("index")
        if idx is None:  # (tree-sitter-cpp: the index sits in a subscript_argument_list)
            args = next((c for c in left.children if c.type == "subscript_argument_list"), None)
            idx = args.named_children[0] if args is not None and args.named_children else None
        if _word_index(ctx, idx, body) and _bits_of(ctx, right, words):
            return True
    return False


def _bits_of(ctx, n: Node, words: set[str]) -> bool:
    """`n` is a ballot word, or its bits combined with other words (`~`, `&`, `|`, `^`): a bitmask word,
    not a count or a value computed from it (`__popc(m)`, a slot's sum keep their findings)."""
    n = _strip(n)
    if n is None:
        return False
    if n.type == "identifier":
        return ctx.text(n) in words
    if n.type == "unary_expression" and ctx.text(n.child_by_field_name("operator")) == "~":
        return _bits_of(ctx, n.child_by_field_name("argument"), words)
    if n.type == "binary_expression" and ctx.text(n.child_by_field_name("operator")) in ("&", "|", "^"):
        l, r = n.child_by_field_name("left"), n.child_by_field_name("right")
        return any(_bits_of(ctx, x, words) for x in (l, r)) and all(
            _bits_of(ctx, x, words) or _strip(x).type in ("identifier", "subscript_expression") for x in (l, r))
    return False


def _leader_test(ctx, use: Node) -> Node | None:
    """The if-statement whose condition tests `use` for lane 0 (`use == 0`, `0 == use`, `!use`), alone or
    as a term of an `&&`; None for any other use."""
    p = use.parent
    if p is not None and p.type == "binary_expression" and ctx.text(p.child_by_field_name("operator")) == "==":
        other = p.child_by_field_name("right") if p.child_by_field_name("left") == use else p.child_by_field_name("left")
        if _int(ctx, other) != 0:
            return None
    elif p is not None and p.type == "unary_expression" and ctx.text(p.child_by_field_name("operator")) == "!":
        pass
    else:
        return None
    n = p.parent
    while n is not None and (n.type == "parenthesized_expression" or n.type == "condition_clause" or (
            n.type == "binary_expression" and ctx.text(n.child_by_field_name("operator")) == "&&")):
        n = n.parent
    return n if n is not None and n.type == "if_statement" else None


def word_writer(ctx, site: Node) -> str | None:
    """The ballot word a `% 32` lane only elects the writer of (its name), else None."""
    expr = site
    while expr is not None and expr.type != "binary_expression":
        expr = expr.parent
    if expr is None or ctx.text(expr.child_by_field_name("operator")) not in ("%", "&") or \
            _int(ctx, expr.child_by_field_name("right")) not in (32, 31):
        return None
    init = expr.parent
    while init is not None and init.type in ("parenthesized_expression", "cast_expression"):
        init = init.parent
    if init is None or init.type != "init_declarator":
        return None
    lane = ident_name(init)
    fn = init
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    body = fn.child_by_field_name("body") if fn is not None else None
    if lane is None or body is None or _declared(ctx, body, lane) is None:
        return None
    words = _ballot_words(ctx, body)
    if not words:
        return None
    uses = [n for n in walk(body) if n.type == "identifier" and ctx.text(n) == lane and n != init.child_by_field_name(
        "declarator") and not (n.parent is not None and n.parent.type == "init_declarator" and n.parent == init)]
    if not uses:
        return None
    for u in uses:
        test = _leader_test(ctx, u)
        then = test.child_by_field_name("consequence") if test is not None else None
        if then is None or not _writes_word(ctx, then, words, body):
            return None
    return sorted(words)[0]
