"""Integer buffers a kernel uses as indices into other buffers (a CSR's row pointers and columns,
a permutation, a gather list): read from the kernel's text so that inferred inputs can hold
in-range contents instead of random ones that would make the original fault.

    index_uses(kernel, source) -> {"col": IndexUse(targets={"x"}, pairs=False), ...}

A buffer indexes a target when one of its elements appears in the target's subscript, directly
(`x[col[j]]`) or through a local it was assigned to (`j = ptr[i]; ... val[j]`, the form a CSR
loop `for (j = ptr[i]; j < ptr[i + 1]; ++j)` takes); `pairs` says it is read at `[i]` and
`[i + 1]` (row pointers: their contents must grow).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .model import Function

_ASSIGN = re.compile(r"(?<![=!<>+\-*/%&|^])\b([A-Za-z_]\w*)\s*=(?!=)\s*([^;]*)")
_SUBSCRIPT = re.compile(r"\b([A-Za-z_]\w*)\s*\[")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


@dataclass
class IndexUse:
    """How an index buffer's elements are used: the arrays they index and how."""
    targets: set[str] = field(default_factory=set)  # the arrays its elements index
    pairs: bool = False  # read at [i] and [i + 1]: row pointers
    strides: dict[str, set[str]] = field(default_factory=dict)  # target -> what an element is multiplied by
    # target -> the factors of a product the element is added to (`X[row * D + label[row]]`: an offset in a row of D)
    rows: dict[str, set[str]] = field(default_factory=dict)


def index_uses(k: Function, text_of) -> dict[str, IndexUse]:
    """Each pointer parameter of `k` whose elements index an array, with the arrays it indexes."""
    body = _COMMENT.sub(" ", text_of(k.body))
    out: dict[str, IndexUse] = {}
    for p in (p for p in k.params if p.pointer):
        elem = re.compile(rf"\b{re.escape(p.name)}\s*\[")
        carriers = {p.name + "["}
        for m in _ASSIGN.finditer(body):  # locals holding one of its elements (two steps: j = ptr[i]; k = j)
            if elem.search(m.group(2)):
                carriers.add(m.group(1))
        for m in _ASSIGN.finditer(body):
            if any(_mentions(m.group(2), c) for c in carriers if not c.endswith("[")):
                carriers.add(m.group(1))
        use = IndexUse()
        for name, inner in _subscripts(body):
            if name != p.name and any(_mentions(inner, c) for c in carriers) or \
                    name == p.name and elem.search(inner):
                use.targets.add(name)
                for c in carriers:  # `dwte[ix * C + c]`: an element selects a row of C
                    if _mentions(inner, c):
                        use.strides.setdefault(name, set()).update(_factors(inner, c))
                        if not _factors(inner, c):
                            use.rows.setdefault(name, set()).update(_row_factors(inner, c))
        if use.targets:
            use.pairs = bool(re.search(rf"\b{re.escape(p.name)}\s*\[[^\[\]]*\+\s*1\s*\]", body))
            out[p.name] = use
    return out


def _mentions(text: str, carrier: str) -> bool:
    if carrier.endswith("["):
        return re.search(rf"\b{re.escape(carrier[:-1])}\s*\[", text) is not None
    return re.search(rf"(?<![\w.]){re.escape(carrier)}\b(?!\s*\()", text) is not None


def _factors(inner: str, carrier: str) -> set[str]:
    """What `carrier` (a local, or `buf[` for an element) is multiplied by in a subscript
    (`ix * C + c`, `C*ix`, `idx[i] * 4`): a name or a literal."""
    c = re.escape(carrier[:-1]) + r"\s*\[[^\[\]]*\]" if carrier.endswith("[") else re.escape(carrier)
    return set(re.findall(rf"(?<![\w.]){c}\s*\*\s*([A-Za-z_]\w*|\d+)\b", inner) +
               re.findall(rf"\b([A-Za-z_]\w*|\d+)\s*\*\s*{c}(?![\w(])", inner))


def _row_factors(inner: str, carrier: str) -> set[str]:
    """The operands of each top-level `a * b` term added to the term `carrier` is in (`row * D + label`:
    {row, D}), a term the carrier is not in; nothing where the carrier's term is not a top-level sum's."""
    terms, level, cur = [], 0, ""
    for ch in inner:
        level += {"(": 1, ")": -1, "[": 1, "]": -1}.get(ch, 0)
        if ch in "+-" and level == 0:
            terms.append((cur, ch))
            cur = ""
        else:
            cur += ch
    terms.append((cur, ""))
    out = set()
    for i, (t, _) in enumerate(terms):
        if _mentions(t, carrier):
            continue
        m = re.fullmatch(r"\s*\(?\s*([A-Za-z_][\w.]*|\d+)\s*\*\s*([A-Za-z_][\w.]*|\d+)\s*\)?\s*", t)
        if m is not None and (i == 0 or terms[i - 1][1] == "+"):
            out.update(m.groups())
    return out


def _subscripts(body: str) -> list[tuple[str, str]]:
    """(array, subscript text) of every `name[...]` in the body, nested ones included."""
    out = []
    for m in _SUBSCRIPT.finditer(body):
        level, i = 0, m.end() - 1
        for i in range(m.end() - 1, len(body)):
            level += {"[": 1, "]": -1}.get(body[i], 0)
            if level == 0:
                break
        out.append((m.group(1), body[m.end():i]))
    return out


def index_contents(k: Function, src, spec) -> list[str]:
    """Give each inferred integer buffer that indexes buffers of known length in-range contents
    (in spec.args, in place); one note per buffer changed.  A buffer that indexes only arrays whose
    length inference cannot see (shared or local arrays) keeps its small generated integers."""
    from . import cexpr
    from .annotations import Generator
    notes = []
    for name, use in index_uses(k, src.text_of).items():
        a = spec.args.get(name)
        ct = cexpr.ctype(a.type) if a is not None else None
        if a is None or a.role == "out" or ct is None or ct.kind != "int" or a.loc.path == "<command line>":
            continue
        scalars = spec.scalar_values()
        lengths = [spec.length(t) // max([1] + [int(scalars.get(f, f)) for f in use.strides.get(t, ())
                                                 if str(scalars.get(f, f)).isdigit()])
                   for t in sorted(use.targets) if t in spec.args]
        if not lengths:
            continue
        # an element added to a row's start (`X[row * D + label[row]]`): the kernel's own assumption is an offset
        # within the row, so below its length (the factor whose value the inputs give; `row` is a local)
        rows = [int(scalars[f]) for t in use.targets if t in spec.args for f in use.rows.get(t, ())
                if str(scalars.get(f, "")).lstrip("-").isdigit() and int(scalars[f]) > 0]
        bound = min(min(lengths + rows), ct.hi + 1)
        n = spec.length(name)
        if use.pairs:  # row pointers: 0, then a running sum that ends at most at the bound
            step = bound // max(n - 1, 1) + 1
            a.generator = Generator("monotone", (0, step), a.loc)
        else:
            a.generator = Generator("integers", (0, bound), a.loc)
        notes.append(f"{name}: {a.generator.kind}{a.generator.params} (it indexes "
                     f"{', '.join(sorted(t for t in use.targets if t in spec.args))}: contents kept in range)")
    return notes
