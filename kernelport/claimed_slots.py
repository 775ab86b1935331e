"""Buffers a kernel writes only at slots it claims with `atomicAdd(counter, 1)`: a stream compaction
(`if (keep) list[atomicAdd(cnt, 1)] = i;`).  CUDA defines no order among the atomics of a launch, so
which thread gets which slot is the GPU's choice: the slots claimed are [counter's value before,
its value after) whatever the order, and the values stored there are the same multiset, in an order
no model predicts.  verify compares such a buffer's claimed range as a multiset (sorted on both sides)
and every other element exactly, and says so in the check's detail.

Sound only where every access to the buffer in the kernel is such a store, the stored value does
not read the slot, the buffer or the counter (it is the thread's own), and the counter is touched by
nothing but those `atomicAdd(counter, 1)` calls (a pointer parameter, `&c[0]` or `c`); a buffer with
any other access (a read, a store at another index, an increment other than 1, the counter reset or
read) is compared exactly, as before.  The slot may be the call itself or a local that holds it once
(`int s = atomicAdd(cnt, 1); list[s] = i;`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from tree_sitter import Node

ATOMIC_ADDS = frozenset({"atomicAdd", "atomicAdd_system", "atomicAdd_block"})


@dataclass(frozen=True)
class Claimed:
    """A buffer written only at slots claimed from `counter` (a pointer parameter), first at `where` (line:col)."""
    buffer: str
    counter: str
    where: str


def _walk(n: Node):
    yield n
    for c in n.children:
        yield from _walk(c)


def _bare(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n


def _counter(src, call: Node, params: set[str]) -> str | None:
    """The counter of `atomicAdd(C, 1)` (C: `p` or `&p[0]` of a pointer parameter p), else None."""
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if fn is None or args is None or src.text_of(fn).strip() not in ATOMIC_ADDS or len(args.named_children) != 2:
        return None
    c, k = (_bare(a) for a in args.named_children)
    if k is None or c is None or "".join(src.text_of(k).split()) not in ("1", "1u", "1U"):
        return None
    name = "".join(src.text_of(c).split())
    if name.startswith("&") and name.endswith("[0]"):
        name = name[1:-3]
    return name if name in params else None


def claimed_buffers(src, fn) -> dict[str, Claimed]:
    """The pointer parameters of kernel `fn` (model.Function) written only at atomically claimed slots."""
    params = {p.name for p in fn.params if getattr(p, "name", None)}
    nodes = list(_walk(fn.body))
    idents: dict[str, int] = {}
    for n in nodes:
        if n.type == "identifier":
            idents[src.text_of(n)] = idents.get(src.text_of(n), 0) + 1
    # a local that holds one claimed slot and is stored at by the very next statement:
    # `int s = atomicAdd(c, 1); list[s] = v;` (a slot claimed and left unwritten would leave a hole)
    slots: dict[str, tuple[str, Node]] = {}
    for n in nodes:
        if n.type == "init_declarator" and n.parent is not None and n.parent.type == "declaration":
            d, v = n.child_by_field_name("declarator"), _bare(n.child_by_field_name("value"))
            nxt = n.parent.next_named_sibling
            if d is not None and d.type == "identifier" and v is not None and v.type == "call_expression" and \
                    nxt is not None and nxt.type == "expression_statement" and nxt.named_children:
                c = _counter(src, v, params)
                if c is not None and idents.get(src.text_of(d)) == 2:  # its declaration and one use
                    slots[src.text_of(d)] = (c, nxt.named_children[0])
    good: dict[str, int] = {}
    claims: dict[str, int] = {}  # counter -> claiming calls a store uses
    out: dict[str, Claimed] = {}
    for n in nodes:
        if n.type != "assignment_expression":
            continue
        left = _bare(n.child_by_field_name("left"))
        op = n.child_by_field_name("operator")
        if left is None or left.type != "subscript_expression" or op is None or src.text_of(op).strip() != "=":
            continue
        arr = _bare(left.child_by_field_name("argument"))
        idx = left.child_by_field_name("index") or left.child_by_field_name("indices")
        if arr is None or arr.type != "identifier" or src.text_of(arr) not in params or idx is None:
            continue
        b = src.text_of(arr)
        inner = _bare(idx.named_children[0] if idx.type == "subscript_argument_list" and idx.named_children else idx)
        counter = None
        if inner is not None and inner.type == "call_expression":
            counter = _counter(src, inner, params)
        elif inner is not None and inner.type == "identifier" and src.text_of(inner) in slots:
            c, stmt = slots[src.text_of(inner)]
            counter = c if stmt == n else None
        value = n.child_by_field_name("right")
        if counter is None or counter == b or value is None or any(
                m.type == "identifier" and src.text_of(m) in {b, counter} | set(slots) or
                m.type == "call_expression" and src.text_of(m.child_by_field_name("function") or m).strip()
                in ATOMIC_ADDS for m in _walk(value)):
            continue
        good[b] = good.get(b, 0) + 1
        claims[counter] = claims.get(counter, 0) + 1
        if b not in out:
            p = n.start_point
            out[b] = Claimed(b, counter, f"{p[0] + 1}:{p[1] + 1}")
    calls: dict[str, int] = {}
    for n in nodes:
        if n.type == "call_expression" and (c := _counter(src, n, params)) is not None:
            calls[c] = calls.get(c, 0) + 1
    # every mention of the buffer is such a store; every mention of the counter a call whose slot is stored at
    return {b: c for b, c in out.items() if idents.get(b) == good[b] and
            idents.get(c.counter) == calls.get(c.counter) == claims.get(c.counter)}


def as_multiset(got: np.ndarray, want: np.ndarray, lo: int, hi: int,
                bound: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """got and want with their slots [lo, hi) each sorted (the claimed range's values as a multiset), and
    want's per-element rounding bound moved with its values (a value's bound stays its own: a large bound
    left at a slot a precise value sorts into let a wrong GPU value there pass); None where bound is not
    one per element of want (compared exactly)."""
    got, want = got.copy(), want.copy()
    lo, hi = max(0, lo), min(hi, got.shape[0], want.shape[0])
    if bound is not None and bound.shape[:1] != want.shape[:1]:
        bound = None
    if hi > lo:
        got[lo:hi] = np.sort(got[lo:hi])
        order = np.argsort(want[lo:hi], kind="stable")
        want[lo:hi] = want[lo:hi][order]
        if bound is not None:
            bound = bound.copy()
            bound[lo:hi] = bound[lo:hi][order]
    return got, want, bound
