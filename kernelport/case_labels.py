"""A `case` label naming an API enumerator the target lacks (`case cudaErrorUnsupportedPtxVersion:`
in a switch that describes an error the runtime returned): the port leaves the label out.

Why that keeps the meaning: the target's runtime never produces a value its enum has no
enumerator for, and the program cannot make one either (any other use of the name is refused,
KP210), so the label's branch is never taken on the target.  Leaving out only the label (its
statements stay) changes no path that can run: control reached those statements through that
label, which cannot match, or by falling through from the group above, which it still does.
A warning at the label says so; under a preprocessor test too (helper_cuda.h's
`#ifdef __DRIVER_TYPES_H__`, which the port spells as a macro HIP's headers define).  Anything but an enumerator (a function, a type, a macro) and a
label in a macro's body stay refused as before, but one: a statement-position use of a
function-like macro whose expansion is whole arms, `case PARAM: ...; break;` (sacabench's
`#define map_single_error_code(e) case e: out << #e; break;`, one use per cudaError enumerator in
a switch), each label an argument the target lacks.  The port leaves that use out whole (the
macro's body is shared with uses the target has, so its label cannot go alone): its statements
run only through its labels, which cannot match, or by falling through from above, which the
check rules out (the use opens the switch's body, or follows an arm that ends in a jump).
Anything less certain stays refused."""
from __future__ import annotations

import re
from functools import lru_cache

from tree_sitter import Node

from .diagnostics import Diagnostic

# The statements after which control does not go on to the next one.
_JUMPS = frozenset(("break_statement", "return_statement", "continue_statement", "goto_statement"))


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
    if case is None:
        return _drop_use(tr, name)
    if tr.src.data[case.start_byte:case.start_byte + 4] != b"case":
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


def _ends_in_jump(stmt: Node) -> bool:
    body = [c for c in stmt.named_children if c.type != "comment"]
    return bool(body) and body[-1].type in _JUMPS


@lru_cache(maxsize=256)
def _arm_labels(params: tuple[str, ...], body: str) -> tuple[str, ...] | None:
    """The parameters a function-like macro's body labels, in order, where that body is whole
    switch arms, each `case PARAM:` then statements that end in a jump; else None.  A quoted
    parameter (`#e`) reads as a string; a pasted one (`##`) is not read."""
    if "##" in body:
        return None
    body = re.sub(r"#\s*([A-Za-z_]\w*)", lambda m: '""' if m.group(1) in params else m.group(0), body)
    if "#" in body:
        return None
    from .source import _parser
    text = f"void f(){{switch(0){{\n{body}\n}}}}".encode("utf-8")
    root = _parser().parse(text).root_node
    if root.has_error:
        return None
    switch = root.named_children[0].child_by_field_name("body").named_children[0]
    arms = [c for c in switch.child_by_field_name("body").named_children if c.type != "comment"]
    labels = []
    for arm in arms:
        value = arm.child_by_field_name("value") if arm.type == "case_statement" else None
        label = text[value.start_byte:value.end_byte].decode("utf-8") if value is not None else None
        if label not in params or not _ends_in_jump(arm):
            return None
        labels.append(label)
    return tuple(labels) or None


def _macro_use(tr, stmt: Node):
    """A statement that is a use of a function-like macro: (its definition, its arguments, the
    bytes [start, end) it spans, the mask the parse put on its head or None); else None.  Written
    `M(a, b);` it parses as a call; written `M(a, b)` (no `;`) the parse masked `M(` as blanks."""
    from .macros import arguments
    data = tr.src.data
    if stmt.type != "expression_statement" or stmt.named_child_count != 1:
        return None
    call = stmt.named_children[0]
    if call.type == "call_expression" and call.child_by_field_name("function").type == "identifier":
        name, args, start, mask = tr.src.text_of(call.child_by_field_name("function")), call.child_by_field_name("arguments"), stmt.start_byte, None
        args = data[args.start_byte + 1:args.end_byte - 1].decode("utf-8")
    else:
        mask = next((m for m in tr.src.masks if m.reason == "statement" and m.end <= stmt.start_byte
                     and not data[m.end:stmt.start_byte].strip()), None)
        if mask is None or not data[mask.start:mask.end].rstrip().endswith(b"(") or data[stmt.end_byte - 1:stmt.end_byte] != b")":
            return None
        name, args, start = mask.name, data[mask.end:stmt.end_byte - 1].decode("utf-8"), mask.start
    m = tr.src.macros.get(name)
    if m is None or m.params is None:
        return None
    return m, arguments(args), start, stmt.end_byte, mask


def _whole_arms(tr, stmt: Node, lacks) -> list[str] | None:
    """The labels that `stmt`, a macro use, writes where its expansion is whole arms, each labelled
    with an argument that `lacks` says the target lacks; else None."""
    use = _macro_use(tr, stmt)
    if use is None:
        return None
    m, args, *_ = use
    labels = _arm_labels(m.params, m.body)
    if labels is None or len(args) != len(m.params):
        return None
    given = dict(zip(m.params, args))
    written = [given[p] for p in labels]
    return written if all(lacks(w) for w in written) else None


def _falls_into(tr, stmt: Node) -> bool:
    """Whether control may reach `stmt`, a statement of a switch's body, from the one before it."""
    before = stmt.prev_named_sibling
    while before is not None and before.type == "comment":
        before = before.prev_named_sibling
    if stmt.parent.type == "case_statement" and (before is None or before == stmt.parent.child_by_field_name("value")):
        return True  # the first statement after a label (the grammar holds a label's statements in its case_statement)
    if before is None:
        return False  # the switch's first statement: reached only through a label
    if before.type == "case_statement":
        return not _ends_in_jump(before)
    if before.type in _JUMPS:
        return False
    use = _macro_use(tr, before)  # another macro use of whole arms (whichever labels it writes)
    return use is None or _arm_labels(use[0].params, use[0].body) is None


def _drop_use(tr, name: Node) -> bool:
    """Leave out a macro use whose expansion is whole `case` arms labelled with enumerators the
    target lacks, `name` one of them (see the module's doc); False where that is not certain."""
    stmt = name
    while stmt is not None and stmt.type not in ("expression_statement", "compound_statement"):
        stmt = stmt.parent
    body = stmt.parent if stmt is not None else None
    if body is not None and body.type == "case_statement":
        body = body.parent
    if stmt is None or stmt.type != "expression_statement" or body.type != "compound_statement" or \
            body.parent is None or body.parent.type != "switch_statement":
        return False
    from . import backends
    table = backends.get(tr.backend).api()

    def lacks(arg: str) -> bool:
        e = table.get(arg) if re.fullmatch(r"[A-Za-z_]\w*", arg) else None
        return e is not None and not e.supported and e.kind.endswith("-enum") and arg not in tr.declared_names()
    written = _whole_arms(tr, stmt, lacks)
    if written is None or tr.src.text_of(name) not in written or _falls_into(tr, stmt):
        return False
    m, _, start, end, mask = _macro_use(tr, stmt)
    if not tr.rw.has(stmt):
        tr.rw.replace(stmt, "")
        if mask is not None:
            tr.rw.drop_span(mask.start, mask.end)
    use = " ".join(tr.src.data[start:end].decode("utf-8").split())
    tr.port.diagnostics.append(Diagnostic(
        "KP210", tr.src.loc(name), f"`{use}` writes `case {tr.src.text_of(name)}:`, an enumerator "
        f"{tr.backend.upper()} lacks: its runtime never produces that value, so the port leaves the use out "
        "(its arms end in a jump and nothing falls into them)",
        "check that the switch's value comes from the runtime, not from a number the program makes", "warning"))
    return True
