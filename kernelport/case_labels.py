"""A `case` label naming an API enumerator the target lacks (`case cudaErrorUnsupportedPtxVersion:`
in a switch that describes an error the runtime returned): the port leaves the label out.

Why that keeps the meaning: the target's runtime never produces a value its enum has no
enumerator for, and the program cannot make one either (any other use of the name is refused,
KP210), so the label's branch is never taken on the target.  Leaving out only the label (its
statements stay) changes no path that can run: control reached those statements through that
label, which cannot match, or by falling through from the group above, which it still does.
A warning at the label says so; under a preprocessor test too (helper_cuda.h's
`#ifdef __DRIVER_TYPES_H__`, which the port spells as a macro HIP's headers define).  Anything but an enumerator (a function, a type, a macro) and a
label in a macro's body stay refused as before."""
from __future__ import annotations

from tree_sitter import Node

from .diagnostics import Diagnostic


def _case_of(name: Node) -> Node | None:
    """The `case_statement` whose value is `name` (bare, or qualified: `cudaError::X`), else None."""
    value = name
    p = name.parent
    if p is not None and p.type == "qualified_identifier" and p.child_by_field_name("name") == name:
        value, p = p, p.parent
    if p is None or p.type != "case_statement" or p.child_by_field_name("value") != value:
        return None
    return p


def drop(tr, name: Node, entry) -> bool:
    """Leave out `case NAME:` where NAME is an enumerator the target's API table lists with no
    equivalent (`entry`); True when done (a warning says so), False where the caller refuses."""
    if entry is None or not entry.kind.endswith("-enum") or tr.allow_unported:
        return False
    case = _case_of(name)
    if case is None or tr.src.data[case.start_byte:case.start_byte + 4] != b"case":
        return False  # (a label a macro writes is not in the file's text here)
    colon = next((c for c in case.children if c.type == ":"), None)  # (the label's end)
    if colon is None:
        return False
    label = " ".join(tr.src.text_of(case)[:colon.end_byte - case.start_byte].split())
    for part in case.children[:case.children.index(colon) + 1]:  # `case`, the value, `:`
        tr.rw.replace(part, "")
    tr.port.diagnostics.append(Diagnostic(
        "KP210", tr.src.loc(name), f"`{label}` names an enumerator {tr.backend.upper()} lacks: its runtime "
        "never produces that value, so the port leaves the label out (its statements stay)",
        "check that the switch's value comes from the runtime, not from a number the program makes",
        "warning"))
    return True
