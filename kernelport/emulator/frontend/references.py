"""C++ reference parameters of helpers (`void welford(float& mean, int& count)`) for the C99
parser: the parameter is passed by value and copied back to the caller's argument when the call
returns (copy-in/copy-out, `calls.py`).  That is a reference's meaning unless two references
alias one variable, which helper code of this kind does not do.

Kernel parameters are not touched (a Metal kernel's `constant int& n` is a scalar passed by value,
which the item rewrite handles).  Lines are kept: diagnostics still point into the user's file.
"""
from __future__ import annotations

import re

from ...cexpr import split_top_level
from .items import Item, balanced

_REF_PARAM = re.compile(r"^(?P<type>.*[\w>\s])(?<!&)&(?!&)(?P<name>\s*[A-Za-z_]\w*\s*)$", re.S)


def _head(it: Item) -> tuple[int, int] | None:
    """(start, end) of the parameter list's parentheses of a function item."""
    m = re.search(r"\b" + re.escape(it.name or "") + r"\s*\(", it.text)
    if m is None:
        return None
    return m.end() - 1, balanced(it.text, m.end() - 1)


def _lower_item(it: Item) -> set[int]:
    span = _head(it)
    if span is None:
        return set()
    start, end = span
    inner = it.text[start + 1: end - 1]
    refs, parts, pos = set(), [], 0
    for i, (p, off) in enumerate(split_top_level(inner)):
        m = _REF_PARAM.match(p)
        if m is None or "(" in p or not p:
            continue
        lead = inner.find(p, off)
        if lead < 0:
            continue
        if not re.search(r"\bconst\b", m.group("type").rsplit("*", 1)[-1]):
            refs.add(i)  # (a const reference is only read: nothing to copy back, into `__constant__` memory least)
        parts.append(inner[pos:lead])
        parts.append(m.group("type") + " " + m.group("name"))  # same length: columns stay
        pos = lead + len(p)
    if parts:
        parts.append(inner[pos:])
        it.text = it.text[:start + 1] + "".join(parts) + it.text[end - 1:]
    return refs


def lower_references(items: list[Item]) -> dict[str, set[int]]:
    """Reference parameters of device helpers, by helper: {name: {parameter index}}; the items'
    texts pass them by value."""
    names = [it.name for it in items if it.kind in ("device", "plain") and it.name]
    out = {}
    for it in items:
        if it.kind in ("device", "plain") and it.name and names.count(it.name) == 1:
            refs = _lower_item(it)
            if refs:
                out[it.name] = refs
    return out
