"""A wave's lane mask converted to a type whose width the port does not read (for warpflow's analyzer `an`).

masksources.cut_to_32 widens a conversion of a ballot to a 32-bit type it can name (`(unsigned)ballot`,
`static_cast<uint32_t>(m)`).  A conversion to a type it cannot name kept the port's 64-bit ballot cut to
whatever that type is, silently, at wave 64 (lanes 32-63 lost where it is 32 bits):
  - GNU `typeof` / `decltype` of a variable, `(typeof(x)) __ballot_sync(...)` (heldout101 made GNU `typeof`
    casts parse, kernelport/typeof_casts.py): the conversion is to `x`'s declared type.  Where that is a
    32-bit type the port widens for a mask `x` holds (a confirmed `type32` site: `x = ballot` elsewhere),
    `typeof(x)` is 64 bits in the port too; where it is a wide or non-integer type nothing is cut; where it
    is a 32-bit type the port keeps, KP232 at the conversion;
  - `typeof` / `decltype` of any other expression (`typeof(*p)`, `decltype(a + b)`): KP232;
  - a template type parameter of the function, `(T) ballot`, `static_cast<T>(ballot)`: KP232 (a 32-bit T
    cuts the mask; the port cannot widen T for the other uses);
  - a functional cast `uint32_t(ballot)`: KP232 (the port's spelling of the wide type is several words,
    no functional cast); a wide one, `uint64_t(ballot)`, cuts nothing.
Each refusal says what to write instead; the analysis notes the casts while it walks and judges them after
its fixpoint (`check`), when the widened declarations are known.
"""
from __future__ import annotations

from tree_sitter import Node

from . import lazy_re
from .masksources import is_int32
from .warpsites import VOTE, Issue

_OPERAND_TYPE = lazy_re.compile(r"(?:typeof|__typeof__|__typeof|decltype)\s*\(\s*([A-Za-z_]\w*)\s*\)$")
_TYPE_OF = lazy_re.compile(r"(?:const\s+|volatile\s+)*(?:typeof|__typeof__|__typeof|decltype)\s*\(")
_QUALIFIERS = lazy_re.compile(r"^(?:(?:const|volatile)\s+)*")
_HINT = "convert the mask to `unsigned long long` (or keep it in an `auto` variable)"


def _plain(text: str) -> str:
    t = " ".join(text.split())
    for q in ("const ", "volatile ", "std::"):
        t = t.replace(q, "")
    return t.strip()


def note(an, tnode: Node | None, facts: frozenset, at: Node, functional: bool = False) -> None:
    """Record a conversion of the mask `facts` to the type `tnode` (a cast's, a static_cast's or a functional
    cast's), judged by `check` after the fixpoint."""
    if an.fn is None or tnode is None or (VOTE, -1) not in facts:
        return
    text = " ".join(an.src.text_of(tnode).split())
    if _TYPE_OF.match(text) is not None:
        o = _OPERAND_TYPE.match(_QUALIFIERS.sub("", text))
        decl = an.decl_types.get((an.cur, o.group(1))) if o is not None else None
        kind = ("of", decl) if decl is not None else ("expression", None)
    elif _plain(text) in getattr(an.fn, "template_params", ()):
        kind = ("template", None)
    elif functional and is_int32(_plain(text), an.aliases):
        kind = ("functional", None)
    else:
        return
    an.__dict__.setdefault("_opaque_casts", {})[(at.start_byte, at.end_byte)] = (at, tnode, kind, an.fn)


def check(an) -> None:
    """After the fixpoint: KP232 at each noted conversion whose type the port would keep 32 bits wide."""
    widened = {(s.node.start_byte, s.node.end_byte) for s in an.a.sites if s.role == "type32" and s.confirmed}
    for at, tnode, (kind, decl), fn in an.__dict__.get("_opaque_casts", {}).values():
        text = " ".join(an.src.text_of(tnode).split())
        if kind == "of":
            dtext = an.src.text_of(decl)
            if not is_int32(dtext, an.aliases) or (decl.start_byte, decl.end_byte) in widened:
                continue  # a wide (or unknown, as a named type's cast is) type, or one the port widens
            why = (f"`{text}` is `{' '.join(dtext.split())}` (line {an.src.loc(decl).line}), which the port keeps "
                   "32 bits")
        elif kind == "expression":
            why = f"`{text}` is the type of an expression the port does not read"
        elif kind == "template":
            why = f"`{text}` is a template parameter of '{fn.name}', 32 bits where a call makes it so"
        else:
            why = f"the functional cast `{text}(...)` has no spelling of the port's 64-bit type"
        if any(i.node == at and i.code == "KP232" for i in an.a.issues):
            continue
        an.a.issues.append(Issue(
            "KP232", at, f"a ballot mask is converted to a type the port does not widen: {why}; at wave 64 "
            "the conversion would cut lanes 32-63", an.scopes.key(fn) or None, _HINT))
