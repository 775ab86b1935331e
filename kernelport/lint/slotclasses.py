"""Interleaved slots of one shared array: steps on disjoint residue classes are no chain (SY002).

CudaSynth (heldout56) sums two channels in one shared array, slot `NUM_CH * p + c` for channel c, one block
tree step per turn of a loop whose barrier opens each turn:

    if (partialIdx < n) {
        out[NUM_CH*partialIdx + 0] += out[NUM_CH*partialIdx + n*NUM_CH + 0];
        out[NUM_CH*partialIdx + 1] += out[NUM_CH*partialIdx + n*NUM_CH + 1];
    }

Two steps on one array are a chain (the second reads what another thread wrote in the first) only if their
slots can meet.  Every index of the first is `NUM_CH * (...) + 0`, every index of the second `NUM_CH * (...) + 1`:
with NUM_CH = 2 they are different residues modulo 2, so no slot of one is a slot of the other, as if they were
two arrays (which SY002 already reads as independent steps).  The class of a step on an array is known only
when every index it writes or reads of that array is a sum of terms each a product with the same factor C (a
literal or an object-like macro of an integer value > 1) plus integer literals; anything else is unknown and
meets every class.
"""
from __future__ import annotations

from tree_sitter import Node

from ..warpsites import int_value


def meet(ctx, steps: list[Node], array: str) -> bool:
    """Whether two of `steps` (statements that each step on `array`) may touch one slot: not when every step's
    indices of the array are one residue class modulo one factor C, a different residue for each step."""
    classes = [step_class(ctx, st, array) for st in steps]
    if any(c is None for c in classes) or len({c[0] for c in classes}) > 1:  # type: ignore[index]
        return True
    return len(set(classes)) < len(classes)


def step_class(ctx, st: Node, array: str) -> tuple[int, int] | None:
    """(C, residue mod C) shared by every index of `array` that statement `st` reads or writes, else None."""
    got = None
    for n in ctx.src.index.under(st, "subscript_expression"):
        b = n.child_by_field_name("argument")
        if b is None or b.type != "identifier" or ctx.text(b) != array:
            continue
        idx = n.child_by_field_name("indices")
        cls = _index_class(ctx, idx.named_children[0] if idx is not None and idx.named_children else None)
        if cls is None or (got is not None and cls != got):
            return None
        got = cls
    return got


def _index_class(ctx, e: Node | None) -> tuple[int, int] | None:
    terms = _terms(e)
    if terms is None:
        return None
    k, products = 0, []
    for t in terms:
        v = int_value(ctx.text(t)) if t.type == "number_literal" else None
        if v is not None:
            k += v
        else:
            products.append(_factors(ctx, t))
    if not products or any(f is None for f in products):
        return None
    common = set.intersection(*(set(f) for f in products))  # type: ignore[arg-type]
    for c in sorted(common):
        v = _value(ctx, c)
        if v is not None and v > 1:
            return v, k % v
    return None


def _terms(e: Node | None) -> list[Node] | None:
    """The operands of a sum (`a + b + c`, parentheses dropped); None for a difference or anything else."""
    e = _bare(e)
    if e is None:
        return None
    if e.type == "binary_expression":
        op = e.child_by_field_name("operator")
        if op is not None and op.type == "+":
            left, right = _terms(e.child_by_field_name("left")), _terms(e.child_by_field_name("right"))
            return None if left is None or right is None else left + right
        if op is not None and op.type == "-":
            return None
    return [e]


def _factors(ctx, e: Node) -> list[str] | None:
    """The texts of a product's factors (`C * x * y`), or None where `e` is no product."""
    e = _bare(e)
    if e is None or e.type != "binary_expression":
        return None
    op = e.child_by_field_name("operator")
    if op is None or op.type != "*":
        return None
    out = []
    for side in (e.child_by_field_name("left"), e.child_by_field_name("right")):
        s = _bare(side)
        if s is None:
            return None
        inner = _factors(ctx, s) if s.type == "binary_expression" else None
        out += inner if inner is not None else [ctx.text(s)]
    return out


def _value(ctx, name: str) -> int | None:
    v = int_value(name)
    if v is None:
        text = ctx._macro_values.get(name)
        v = int_value(text) if text is not None else None
    return v


def _bare(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n
