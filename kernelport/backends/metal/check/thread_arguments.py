"""Every argument of a call that binds a `const thread` reference, not only the first one clang names.

thread_temporaries.py lets through clang's complaint about a temporary bound to a `const thread T&`
(valid Metal; C++ for OpenCL materialises the temporary in no address space).  clang stops at the first
argument that fails, so `two(1.0f, buf[i])` was let through with its temporary while Metal rejects its
device argument.  The checker therefore wraps each argument clang names as such a temporary in
`__kp_thread_tmp(...)` (metal_stdlib.h: a `const thread T&` to the same value, as Metal binds the
temporary) and runs clang again, until no call names another: a later device or threadgroup argument
is then reported (or the call passes).  Only what clang named is wrapped: an lvalue never is (a device
one would be hidden).  A temporary that clang still names once wrapped (an `int` converted to a `const
float&`: the conversion makes a new one) gets the type clang's message names, `__kp_thread_tmp<float>(n)`,
where it names one (a converted temporary stopped the check of the call and hid the call around it:
`two(two(n, t), out[0])` passed); one still named after that is let through, as before.

Where clang says the argument is: the argument itself (one function of the name: "binding reference of
type ..."), the callee's name with "in Nth argument" in a candidate's note (overloads, member calls),
an operator with the operands' types in the message (the operand of no address space is the temporary)
or a compound assignment (its right side).  Each wrap writes text on one line; `shifts` gives the
(line, column, length) of every insertion so that run_check moves clang's later columns back.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .thread_temporaries import TEMPORARY_THIS

WRAP = "__kp_thread_tmp("
MAX_ROUNDS = 16  # past it, a temporary still named is an error (check/__init__.py): never an unchecked pass

_ORDINAL = re.compile(r"\b(?:in|for) (\d+)(?:st|nd|rd|th) argument\b")
_OPERANDS = re.compile(r"^invalid operands to binary expression \('(?P<a>[^']*)' and '(?P<b>[^']*)'\)")
_SPACE = re.compile(r"\b__(?:private|global|local|constant|generic)\b")
# clang's messages that name the reference a temporary of no space fails to bind (thread_temporaries.py)
_TARGET = re.compile(r"^(?:reference|binding reference) of type 'const __private (?P<t>[^'&]*?)\s*&?' ")
_CALLEE_UP = frozenset({"field_expression", "qualified_identifier", "template_function", "template_method",
                        "parenthesized_expression"})
_CLIMB = frozenset({"binary_expression", "call_expression", "field_expression", "subscript_expression",
                    "parenthesized_expression", "cast_expression", "unary_expression", "conditional_expression",
                    "qualified_identifier", "template_function", "compound_literal_expression"})


def _offset(text: str, line: int, col: int) -> int | None:
    """The character offset of clang's (line, byte column) in `text`."""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    end = text.find("\n", start)
    row = text[start:end if end >= 0 else len(text)].encode("utf-8")
    if col - 1 > len(row):
        return None
    return start + len(row[:col - 1].decode("utf-8", "ignore"))


def _node_at(root: Node, byte: int) -> Node | None:
    n = root.descendant_for_byte_range(byte, byte)
    return n


def _argument_at(n: Node) -> Node:
    """The whole argument that starts where `n` starts (`w + w` from its first `w`)."""
    while n.parent is not None and n.parent.start_byte == n.start_byte and n.parent.type in _CLIMB:
        n = n.parent
    return n


def _sites(root: Node, data: bytes, text: str, group) -> list[Node]:
    """The argument nodes one let-through error names as temporaries."""
    path, line, col, msg, notes = group
    at = _offset(text, line, col)
    if at is None:
        return []
    byte = len(text[:at].encode("utf-8"))
    n = _node_at(root, byte)
    if n is None:
        return []
    if msg.startswith(("binding reference of type", "reference of type")):
        return [_argument_at(n)]
    if msg.startswith("cannot initialize object parameter"):
        return _object_of(n, byte)
    ordinals = sorted({int(m.group(1)) for note in notes for m in _ORDINAL.finditer(note)
                       if "cannot bind reference in default address space" in note})
    if msg.startswith("invalid operands to binary expression"):
        e = n if n.type == "binary_expression" else n.parent
        m = _OPERANDS.match(msg)
        if e is None or e.type != "binary_expression" or m is None:
            return []
        sides = [s for s, t in (("left", m.group("a")), ("right", m.group("b"))) if not _SPACE.search(t)]
        return [x for s in sides if (x := e.child_by_field_name(s)) is not None]
    if msg.startswith("no viable overloaded"):
        e = n if n.type in ("assignment_expression", "subscript_expression") else n.parent
        if e is not None and e.type == "assignment_expression":
            r = e.child_by_field_name("right")
            return [r] if r is not None else []
        if e is not None and e.type == "subscript_expression":
            i = e.child_by_field_name("indices") or e.child_by_field_name("index")
            got = [c for c in i.named_children if c.type != "comment"] if i is not None and \
                i.type == "subscript_argument_list" else [i] if i is not None else []
            return got[:1]
        return []
    call = n
    while call is not None and call.type != "call_expression" and (call is n or call.type in _CALLEE_UP):
        call = call.parent
    if call is None or call.type != "call_expression" or (args := call.child_by_field_name("arguments")) is None:
        return []
    named = [c for c in args.named_children if c.type != "comment"]
    fn = call.child_by_field_name("function")
    obj = [fn.child_by_field_name("argument")] if fn is not None and fn.type == "field_expression" and \
        any(TEMPORARY_THIS in note for note in notes) else []
    return [named[k - 1] for k in ordinals if 0 < k <= len(named)] + [o for o in obj if o is not None]


def _object_of(n: Node, byte: int) -> list[Node]:
    """The object of the member call whose object starts at `byte` (`(a + b)` of `(a + b).norm()`)."""
    while n is not None:
        if n.type == "field_expression" and (o := n.child_by_field_name("argument")) is not None \
                and o.start_byte == byte:
            return [o]
        n = n.parent
    return []


def wrap_temporaries(text: str, groups) -> tuple[str, list[tuple[int, int, int]]]:
    """`text` with each argument the let-through errors `groups` ((path, line, col, message, notes) of
    the checked file) name as a temporary wrapped in __kp_thread_tmp(...), and the insertions (line,
    1-based byte column in `text`, length); none where nothing new is wrapped."""
    if not groups:
        return text, []
    from ....source import _parser
    data = text.encode("utf-8")
    root = _parser().parse(data).root_node
    spans: dict[tuple[int, int], str] = {}
    typed: dict[int, str] = {}  # where `<T>` goes into a wrap clang still names: a conversion's temporary
    for g in groups:
        to = _target(g[3])
        for a in _sites(root, data, text, g):
            wrap = _wrap_of(a, data)
            if wrap is not None:
                name_end = wrap.start_byte + len(WRAP) - 1
                if to is not None and data[name_end:name_end + 1] == b"(":
                    typed[name_end] = f"<{to}>"
                continue  # typed already and still named: let through as before
            spans[(a.start_byte, a.end_byte)] = WRAP if to is None else f"{WRAP[:-1]}<{to}>("
    if not spans and not typed:
        return text, []
    inserts = sorted([(s, w) for (s, _), w in spans.items()] + [(e, ")") for _, e in spans] + list(typed.items()),
                     key=lambda x: x[0])
    out, last, shifts = [], 0, []
    for byte, word in inserts:
        out.append(data[last:byte])
        line = data.count(b"\n", 0, byte) + 1
        col = byte - (data.rfind(b"\n", 0, byte) + 1) + 1
        shifts.append((line, col, len(word)))
        out.append(word.encode())
        last = byte
    out.append(data[last:])
    return b"".join(out).decode("utf-8"), shifts


def _target(message: str) -> str | None:
    """The type of the `const thread T&` a temporary of no space failed to bind, where clang's message says it."""
    m = _TARGET.match(message)
    return m.group("t").strip() if m is not None and "'" not in m.group("t") else None


def _wrap_of(a: Node, data: bytes) -> Node | None:
    """The __kp_thread_tmp(...) call that `a` is or is the one argument of; None where it is not wrapped."""
    name = WRAP[:-1].encode()
    if a.type == "call_expression" and data[a.start_byte:a.end_byte].startswith(name):
        return a
    p = a.parent
    if p is not None and p.type == "argument_list" and p.parent is not None and p.parent.type == "call_expression" \
            and data[p.parent.start_byte:p.start_byte].strip().startswith(name):
        return p.parent
    return None


def unshift_column(line: int, column: int, rounds: list[list[tuple[int, int, int]]]) -> int:
    """A column of the last round's text on `line`, in the text before any wrap."""
    for shifts in reversed(rounds):
        # each round's insertions are in the text before that round: undo them in order
        moved = 0
        for ln, col, n in shifts:
            if ln == line and col + moved + n <= column:
                moved += n
        column -= moved
    return column


def unwrap_output(output: str, src: str, rounds: list[list[tuple[int, int, int]]]) -> str:
    """clang's output with the checked file's columns as before the wraps."""
    if not rounds:
        return output
    where = re.compile(re.escape(src) + r":(\d+):(\d+):")
    return where.sub(lambda m: f"{src}:{m.group(1)}:{unshift_column(int(m.group(1)), int(m.group(2)), rounds)}:",
                     output)
