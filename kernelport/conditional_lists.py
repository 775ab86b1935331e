"""A call's arguments and a head's parameters under preprocessor conditionals written inside the list.

mfaktc's tf_barrett96_gs.cu calls `test_FC96_barrett92(f, b_preinit, initial_shifter_value, RES, bit_max64
#ifdef DEBUG_GPU_MATH , modbasecase_debug #endif)`, and the head it runs (tf_barrett96_core.cu) writes
`#ifdef CPU_SIEVE , int shiftcount #endif` and `#ifdef DEBUG_GPU_MATH , unsigned int *modbasecase_debug
#endif` among its parameters.  The parse sees the directives as blanks and every branch's items, so the
call has six arguments and the head seven parameters: no build compiles either count, and a count of
arguments (fnscopes.may_call) found no function for the call, which then did not pass PTX's carry flag on
(hipcc: no matching function).

Here each item of a list is read with the conditions under which a build compiles it (the tests of the
groups around it, an `#else`'s or `#elif`'s as the earlier tests failing), and a call may run a function
where some configuration, one truth value for each test the two lists read (the same test in both read
alike), gives a count of arguments the head takes.  That set holds the configuration the run compiles,
and every other build's: the port's text serves them all, so a function a call may run in any of them is
one it may run.  A directive inside an item, a group that opens outside the list, a continued directive
line or more tests than _MAX_TESTS leave the list as the parse saw it (every item counted)."""
from __future__ import annotations

import re
from itertools import product

from tree_sitter import Node

from . import fnscopes, lazy_re

_DIRECTIVE = lazy_re.compile(rb"^[ \t]*#[ \t]*(ifdef|ifndef|if|elif|else|endif)\b([^\n]*)", re.M)
_DEFINED = lazy_re.compile(r"(!?)\s*defined\s*\(?\s*(\w+)\s*\)?")
_MAX_TESTS = 6  # per pair of lists: 64 configurations at most

Literal = tuple[str, bool]  # a test and the truth value a branch needs of it


def _test(kind: str, rest: str) -> Literal:
    """The literal under which a group's first branch is compiled: `#ifdef X`, `#ifndef X`, `#if defined(X)`
    and `#if !defined(X)` all read the test `defined X`; any other `#if` its expression as written."""
    rest = " ".join(re.sub(r"//.*|/\*.*?\*/", " ", rest).split())
    if kind in ("ifdef", "ifndef"):
        return f"defined {rest}", kind == "ifdef"
    m = _DEFINED.fullmatch(rest)
    if m is not None:
        return f"defined {m.group(2)}", not m.group(1)
    return rest, True


def guarded(data: bytes, lst: Node, items: list[Node]) -> list[tuple[Node, tuple[Literal, ...]]] | None:
    """Each item of the list `lst` with the literals a build needs to compile it; None where the list holds
    no directive or is not read (this module's docstring)."""
    text = data[lst.start_byte:lst.end_byte]
    if b"#" not in text:
        return None
    events = [(lst.start_byte + m.start(), m) for m in _DIRECTIVE.finditer(text)]
    if not events:
        return None
    stack: list[tuple[list[Literal], tuple[Literal, ...]]] = []  # per open group: its tests, the branch's literals
    out, pending = [], sorted(items, key=lambda n: n.start_byte)
    for at, m in events + [(lst.end_byte, None)]:
        while pending and pending[0].start_byte < at:
            item = pending.pop(0)
            if item.end_byte > at:
                return None  # a directive inside an argument or a parameter
            out.append((item, tuple(lit for _, branch in stack for lit in branch)))
        if m is None:
            break
        kind, rest = m.group(1).decode(), m.group(2).decode("utf-8", "replace")
        if rest.rstrip().endswith("\\"):
            return None
        if kind in ("if", "ifdef", "ifndef"):
            lit = _test(kind, rest)
            stack.append(([lit], (lit,)))
        elif not stack:
            return None  # a group opened before the list (a split head: kernelport/split_configurations.py)
        elif kind == "endif":
            stack.pop()
        else:
            tests, _ = stack[-1]
            failed = tuple((t, not v) for t, v in tests)
            if kind == "elif":
                lit = _test("if", rest)
                stack[-1] = (tests + [lit], failed + (lit,))
            else:
                stack[-1] = (tests, failed)
    return out if not stack else None


def _holds(lits: tuple[Literal, ...], given: dict[str, bool]) -> bool:
    return all(given[t] == v for t, v in lits)


def may_call(f, f_source, call: Node, call_source) -> bool:
    """Whether `call` (in `call_source`) may run `f` (in `f_source`) by what it spells, its arguments and
    `f`'s parameters counted per configuration of the conditionals in either list; fnscopes.may_call where
    neither list holds one."""
    args = call.child_by_field_name("arguments")
    params = fnscopes.parameter_list(f)
    a = guarded(call_source.data, args, fnscopes.call_args(call)) if args is not None and call_source else None
    kids = [c for c in params.named_children if c.type != "comment"] if params is not None else []
    p = guarded(f_source.data, params, kids) if params is not None and f_source else None
    if (a is None and p is None) or fnscopes.specialization(f) or \
            not fnscopes.takes_template_args(f, call.child_by_field_name("function")):
        return fnscopes.may_call(f, call)
    a = a if a is not None else [(n, ()) for n in fnscopes.call_args(call)]
    p = p if p is not None else [(n, ()) for n in kids]
    tests = sorted({t for _, lits in a + p for t, _ in lits})
    if len(tests) > _MAX_TESTS:
        return fnscopes.may_call(f, call)
    for values in product((False, True), repeat=len(tests)):
        given = dict(zip(tests, values))
        n = sum(_holds(lits, given) for _, lits in a)
        lo, hi = fnscopes.arity_of(params, [k for k, lits in p if _holds(lits, given)])
        if lo <= n and (hi is None or n <= hi):
            return True
    return False
