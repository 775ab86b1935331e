"""A named full mask compared with a ballot word: `constexpr unsigned F = 0xffffffffu;` ... `b == F`.

The port makes a full mask a ballot is compared with the wave's active lanes (`__ballot(1)` on HIP: the
`full_value` site), so that `__ballot_sync(F, p) == F` asks whether every lane of the wave voted.  Where the
literal is a named variable's initializer, that rewrite alone is wrong twice: a `constexpr` (or a `static
constexpr`) cannot hold a ballot (hipcc: "constexpr variable must be initialized by a constant expression"), and a
32-bit variable truncates the wave's 64-bit mask (`unsigned F = __ballot(1)`: lanes 32-63 dropped, `b == F`
false on a full 64-lane wave).  Here:
- a `const` / `constexpr` whose every read is a `_sync` call's member mask (the port drops it) or one operand of
  `==` / `!=` with a widened ballot word (kernelport/literal_lanes.py writes that test with the constant's value,
  the thread's 32-lane warp's word against it) keeps its CUDA literal;
- a `constexpr` read any other way (`g = F; b == g`, `__ballot_sync(F, p) == F`: the wave's mask is needed, which
  is no constant) is refused, KP244 at that read;
- otherwise the initializer becomes the wave's mask and a 32-bit declared type the lane-mask type (a declaration
  declaring that variable alone; one declaring others too is refused, KP244).
"""
from __future__ import annotations

from tree_sitter import Node

from .source import ident_name

_INT32 = frozenset({"unsigned", "unsigned int", "int", "uint32_t", "int32_t", "unsigned int32_t", "uint",
                    "std::uint32_t", "std::int32_t"})


def _up(n: Node) -> Node:
    while n.parent is not None and n.parent.type == "parenthesized_expression":
        n = n.parent
    return n


def _declaration(lit: Node) -> tuple[Node, Node] | None:
    """The (init_declarator, declaration) whose initializer is the literal `lit`, or None."""
    top = _up(lit)
    init = top.parent
    if init is None or init.type != "init_declarator" or init.child_by_field_name("value") != top:
        return None
    decl = init.parent
    return (init, decl) if decl is not None and decl.type in ("declaration", "field_declaration") else None


def _holders(tr) -> set[str]:
    """The names of the variables holding a ballot word the port widens (confirmed `type32` sites)."""
    out: set[str] = set()
    for s in tr.analysis.sites:
        if s.confirmed and s.role == "type32":
            out |= tr.analysis.holders.get(s.id, set())
    return out


def _unneeded_read(tr, use: Node, holders: set[str]) -> bool:
    """Whether the read `use` of the constant does not need the wave's mask: a `_sync` call's member mask, or
    an operand of `==` / `!=` whose other operand is a widened ballot word (a literal lane test)."""
    top = _up(use)
    p = top.parent
    if p is not None and p.type == "argument_list" and p.parent is not None and p.parent.type == "call_expression":
        f = p.parent.child_by_field_name("function")
        args = [c for c in p.named_children if c.type != "comment"]
        return f is not None and tr.src.text_of(f).endswith("_sync") and bool(args) and args[0] == top
    if p is None or p.type != "binary_expression" or tr.src.text_of(p.child_by_field_name("operator")) not in ("==", "!="):
        return False
    left, right = p.child_by_field_name("left"), p.child_by_field_name("right")
    other = left if right == top else right
    while other.type == "parenthesized_expression" and other.named_child_count == 1:
        other = other.named_children[0]
    return other.type == "identifier" and tr.src.text_of(other) in holders


def rewrite(tr, site) -> bool:
    """Port the `full_value` site `site` where its literal initializes a named variable; True when done here
    (the caller writes the plain rewrite otherwise)."""
    got = _declaration(site.node)
    if got is None:
        return False
    init, decl = got
    name = ident_name(init.child_by_field_name("declarator"))
    quals = {tr.src.text_of(c) for c in decl.children if c.type == "type_qualifier"}
    if quals & {"const", "constexpr"} and name:
        scope = decl.parent
        while scope is not None and scope.type not in ("function_definition", "translation_unit"):
            scope = scope.parent
        holders = _holders(tr)
        reads = [u for u in tr.src.named_under(scope, "identifier", [name]) if u.start_byte >= init.end_byte] \
            if scope is not None else []
        needed = next((u for u in reads if not _unneeded_read(tr, u, holders)), None)
        if needed is None:  # (the literal lane tests read the constant's CUDA value: ported, as written)
            text = tr.src.text_of(site.node)
            tr.rw.replace(site.node, text)
            tr.note(site.node, text, "a named full mask read only as a `_sync` member mask and in literal lane tests "
                    "of ballot words, which the port writes as tests of the thread's 32-lane warp: its value stays")
            return True
        if "constexpr" in quals:
            tr.problem("KP244", needed, f"`{name}` (line {tr.src.loc(decl).line}), a constexpr full mask, "
                       f"reaches a comparison with a ballot word through this read (`{tr.src.text_of(_up(needed).parent)}`"
                       "), not as a literal lane test of a ballot variable: the port's "
                       "ballot is the wave's lane mask, 64 bits on CDNA, and the mask it must be compared with is "
                       "the wave's active lanes, which is no constant expression",
                       f"compare the ballot with `{name}` itself in the test (a lane test of the thread's warp), "
                       "or declare the mask without constexpr (`const unsigned F = __activemask();`)")
            return True
    tnode = decl.child_by_field_name("type")
    ttext = " ".join(tr.src.text_of(tnode).split()) if tnode is not None else ""
    if ttext in _INT32:
        if len(decl.children_by_field_name("declarator")) != 1:
            tr.problem("KP244", init, f"`{name}` is a full mask compared with a ballot word, which the port makes the "
                       "wave's 64-bit lane mask, in a declaration of other variables too: its 32-bit type would "
                       "drop lanes 32-63", f"declare `{name}` in a declaration of its own")
            return True
        tr.rw.replace(tnode, tr.spell("lanemask_type"))
    text = tr.spell("activemask")
    tr.rw.replace(site.node, text)
    tr.note(site.node, text, site.why)
    return True
