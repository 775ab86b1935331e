"""Lane masks kept in 32-bit memory (for warpflow's analyzer `an`): warpflow's KP207 issues.

A ballot stored through a 32-bit pointer or array loses lanes 32-63 on a 64-wide wave, and a
word read from 32-bit memory into a variable that is a lane mask (broadcast and tested at the
lane's bit, or combined with a ballot) holds only 32 lanes: either way the layout of that memory
is 32 lanes per word.  Neither has a safe rewrite: the memory layout is the program's data.
"""
from __future__ import annotations

from tree_sitter import Node

from .warpsites import WS, WS_M1, Issue


def element_type(an, name: str) -> Node | None:
    """The element type of the pointer parameter, local pointer or array, or shared array `name`."""
    elem = None
    if an.fn is not None and (p := an.fn.param(name)) is not None and p.pointer:
        elem = p.node.child_by_field_name("type")
    if an.fn is not None and (an.cur, name) in an.memory:
        elem = an.memory[(an.cur, name)]
    for sh in an.m.shared:
        if sh.name == name:
            elem = sh.node.child_by_field_name("type")
    return elem


def check_store(an, name: str, at: Node) -> None:
    """A ballot stored into `name[...]` (at: the subscript written)."""
    elem = element_type(an, name)
    if elem is not None and an.is_int32(elem):
        _issue(an, at, f"a ballot mask is stored into 32-bit memory '{name}': on a 64-wide wave lanes 32-63 are lost")


def check_loads(an, mask: str) -> None:
    """`mask = words[i]`, `mask[j] = words[i]` in this function, now that `mask` is known to be a
    lane mask: a read of 32-bit memory `words` (the issue sits on the subscript read)."""
    if an.fn is None or an.fn.body is None:
        return
    src = an.src
    for n in src.index.under(an.fn.body, "assignment_expression"):
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        _load(an, mask, left, right)
    for d in src.index.under(an.fn.body, "init_declarator"):
        _load(an, mask, d.child_by_field_name("declarator"), d.child_by_field_name("value"))


def _load(an, mask: str, left: Node | None, right: Node | None) -> None:
    src = an.src
    while left is not None and left.type == "subscript_expression":
        left = left.child_by_field_name("argument")
    if left is None or right is None or src.text_of(left) != mask:
        return
    for read in _word_reads(right):
        base = read.child_by_field_name("argument")
        if base is None or base.type != "identifier":
            continue
        elem = element_type(an, src.text_of(base))
        if elem is None or not an.is_int32(elem):
            continue
        if read is right:
            _issue(an, right, f"a lane mask '{mask}' is read from 32-bit memory '{src.text_of(base)}': the memory "
                   "keeps 32 lanes per word, on a 64-wide wave lanes 32-63 are lost")
        else:  # `changed = word ^ prev[w]`: a logic simulator's gate words, 32 lanes each (heldout41)
            _issue(an, read, f"a lane mask '{mask}' is combined with a word read from 32-bit memory "
                   f"'{src.text_of(base)}': the memory keeps 32 lanes per word, on a 64-wide wave the mask's lanes "
                   "32-63 meet no stored lanes")


_BITWISE = frozenset({"^", "&", "|"})


def _word_reads(n: Node):
    """The subscript reads that `n` combines bit for bit: `words[i]` itself, or an operand of `^ & |`
    (through parentheses) - not an index, a call's argument or arithmetic, which hold no lanes."""
    if n.type == "subscript_expression":
        yield n
    elif n.type == "parenthesized_expression" and n.named_child_count == 1:
        yield from _word_reads(n.named_children[0])
    elif n.type == "binary_expression" and (op := n.child_by_field_name("operator")) is not None \
            and op.type in _BITWISE:
        for side in ("left", "right"):
            if (c := n.child_by_field_name(side)) is not None:
                yield from _word_reads(c)


def ballot_pair(an, n: Node, shift_kinds) -> None:
    """`(uint64_t)hi << 32 | lo`: two 32-lane waves' ballots packed into one 64-bit word.  On a 64-lane
    wave one ballot fills the word, so there is no upper half; `<< warpSize` would shift a 64-bit
    value by 64, which C++ leaves undefined.  No rewrite: refused where a wave is 64 wide (KP226)."""
    if WS not in shift_kinds:
        return
    _issue(an, n, f"`{' '.join(an.src.text_of(n).split())}` packs a 32-lane ballot above another in one 64-bit "
           "word: a 64-lane wave's ballot fills the word, so there is no upper half to shift into (and a shift "
           "by the wave width, 64, is undefined)", "KP226",
           "on a 64-lane wave use the one ballot of the whole wave (its 64 bits hold both halves); keep the "
           "packing in code only 32-lane targets compile (e.g. under `#ifdef __CUDA_ARCH__`)")


WIDE_MASK_CODES = frozenset({"KP236"})  # hazards of the port's 64-bit mask at every wave width (not only 64)


def top_lane_shift(an, n: Node, shift_kinds) -> None:
    """`__popc(mask << (31 - lane))`: a ballot shifted left by a count made from lane 31, which CUDA's 32-bit
    word turns into "the lanes up to this one" (the shift drops every bit that passes bit 31).  The port's
    mask is 64 bits wide at every wave width, so the bits above the lane are kept (moved into bits 32-62):
    the count includes them (at wave 64, lanes 32-63 shift by a negative count).  Nothing says which lanes
    the author meant at 64, so no rewrite: refused wherever HIP runs (KP236); `<< 32` is ballot_pair's."""
    if WS_M1 not in shift_kinds or WS in shift_kinds:
        return
    _issue(an, n, f"`{' '.join(an.src.text_of(n).split())}` shifts a ballot left by a count made from lane 31: "
           "CUDA's 32-bit word drops the lanes that pass bit 31 (keeping the lanes up to one lane), the port's "
           "64-bit mask keeps them at every wave width, so what the shift leaves differs", "KP236",
           "select the lanes with a mask of the wave's width instead of a shift, e.g. "
           "`__popcll(mask & ((2ull << lane) - 1))` for the lanes up to `lane`; or keep the shift in code only "
           "32-lane targets compile (e.g. under `#ifdef __CUDA_ARCH__`)")


def _issue(an, at: Node, message: str, code: str = "KP207", hint: str = "") -> None:
    if not any(i.node == at for i in an.a.issues):
        an.a.issues.append(Issue(code, at, message, an.scopes.key(an.fn) or None, hint))
