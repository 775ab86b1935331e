"""Conditional directives a replaced node shares with the text around it, kept in the replacement.

The parse repair blanks directive lines that split a construct, so a node may hold half of a group:
cuda-samples' util.h writes `#ifdef __CUDACC__` / `__host__ __device__` / `#endif` / `T min(...)`, and
the function's node starts at `__host__`: its `#endif` is inside, its `#ifdef` before it.  A port that
replaces the node (a comment for a function left out, a head without CUDA's qualifiers) and writes
no `#endif` leaves the `#ifdef` open to the end of the file.  A replacement that keeps the node's
unpaired directives as they pair outside it is taken as written (it kept them: a head rebuilt line
by line); one that keeps none of them gets them back: the closing ones (an outer group's `#else`,
`#endif`) before it, the opening ones (a group the node opens and the text after it closes, with
its `#else`s) after it, as in the source, where what stands before the first closing directive
belongs to the outer group and what follows the last opening one to the group it opens.
"""
from __future__ import annotations

import re

_CONDITIONAL = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")
_OPEN, _MIDDLE, _CLOSE = "open", "middle", "close"
_KINDS = {"if": _OPEN, "ifdef": _OPEN, "ifndef": _OPEN, "else": _MIDDLE, "elif": _MIDDLE, "elifdef": _MIDDLE,
          "elifndef": _MIDDLE, "endif": _CLOSE}


def directive_lines(text: str) -> str:
    """The preprocessor lines of `text` (a continued one whole), each ending in a newline."""
    out, going = [], False
    for line in text.split("\n"):
        if going or line.lstrip().startswith("#"):
            out.append(line.strip() + "\n")
            going = line.rstrip().endswith("\\")
    return "".join(out)


def kind(line: str) -> str | None:
    """"open", "middle" or "close" for a conditional directive line, else None."""
    m = _CONDITIONAL.match(line)
    return _KINDS[m.group(1)] if m else None


def unpaired(lines: list[str]) -> tuple[list[str], list[str]]:
    """The directive lines (in order) that pair with directives outside them: (those that continue or
    close a group opened before, those that open a group closed after, with the opened groups' `#else`s)."""
    before, stack = [], []  # stack: per group opened here, its lines so far
    for line in lines:
        k = kind(line)
        if k == _OPEN:
            stack.append([line])
        elif k == _MIDDLE:
            (stack[-1] if stack else before).append(line)
        elif k == _CLOSE:
            if stack:
                stack.pop()
            else:
                before.append(line)
    return before, [line for group in stack for line in group]


def _signature(lines: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    before, after = unpaired(lines)
    return tuple(kind(x) for x in before), tuple(kind(x) for x in after)


def keep(directives: list[str], text: str) -> str:
    """`text`, the replacement of a node whose source holds `directives` (its directive lines, in order, as
    the port spells them), with the unpaired ones written back where the replacement dropped them all."""
    want = _signature(directives)
    if want == ((), ()):
        return text
    got = _signature([line for line in text.split("\n") if kind(line)])
    if got != ((), ()):
        return text  # it keeps some itself (as rebuilt: its own placement), or pairs them otherwise
    before, after = unpaired(directives)
    head = "".join(line.strip() + "\n" for line in before)
    tail = "".join("\n" + line.strip() for line in after)
    return head + text + tail
