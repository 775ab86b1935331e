"""The CUDA toolkit's version macros read as values, outside the tests kernelport.version_branches settles.

nvcc defines `CUDART_VERSION`, `__CUDACC_VER_MAJOR__` and their kin on both passes; hipcc (and Metal) define none.
version_branches takes the branch of `#if defined(__CUDACC_VER_MAJOR__)` that nvcc takes, but what the branch
says with the macro stayed: CMake's CMakeCUDACompilerId.cu (heldout59) kept `#define COMPILER_VERSION_MAJOR
DEC(__CUDACC_VER_MAJOR__)` under the branch taken and hipcc stopped on an undeclared identifier; `printf("%d",
CUDART_VERSION)` or a kernel's `o[0] = CUDART_VERSION` did the same.  Each such use, in code or in a `#define`'s
body, is the value nvcc's passes read (the source backend's `toolkit_versions`, the values the branch was chosen
by).  A test of a preprocessor conditional keeps its text (version_branches decides it, or keeps it where a name
it reads is not decided), and so does every use where the unit defines the macro itself or the run gives it as
-D (version_branches.toolkit_values leaves those out): hipcc reads that definition as nvcc does.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import arch_branches, backends
from .version_branches import toolkit_values

_TESTS = frozenset(("preproc_if", "preproc_elif", "preproc_elifdef", "preproc_ifdef"))
_LITERAL = r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''


def values(tr) -> dict[str, int]:
    srcs = arch_branches.unit_sources(tr)
    given = frozenset(d[0] if isinstance(d, tuple) else str(d).split("=")[0] for d in tr.options.get("defines", ()) or ())
    return toolkit_values(srcs, given)


def _in_test(node: Node) -> bool:
    """Is `node` in a conditional's test (`#if X >= 11000`, `defined(X)`, `#ifdef X`) rather than in what it holds?"""
    child, p = node, node.parent
    while p is not None:
        if p.type == "preproc_defined":
            return True
        if p.type in _TESTS:
            return child.type != "preproc_else" and p.child_by_field_name("condition") == child or \
                p.child_by_field_name("name") == child
        child, p = p, p.parent
    return False


def rewrite_pass(tr) -> None:
    """A pass: each use of a toolkit version macro outside a conditional's test, as its value."""
    if not any(n.encode() in tr.src.data for n in backends.source().toolkit_versions):
        return
    known = values(tr)
    if not known:
        return
    for n in tr.src.index.of_types("identifier"):
        name = tr.src.text_of(n)
        if name in known and not tr.rw.has(n) and not tr.rw.within(n) and not _in_test(n):
            tr.rw.replace(n, str(known[name]))
            tr.note(n, str(known[name]), "nvcc defines the toolkit's version on both passes; hipcc does not")
    pattern = re.compile(_LITERAL + r"|\b(" + "|".join(map(re.escape, known)) + r")\b")

    def sub(text: str) -> str:
        return pattern.sub(lambda m: str(known[m.group(1)]) if m.group(1) else m.group(0), text)

    for d in tr.src.index.of_types("preproc_def", "preproc_function_def"):
        body = d.child_by_field_name("value")
        if body is None or tr.rw.within(body) or not pattern.search(tr.src.text_of(body)) or \
                not any(m.group(1) for m in pattern.finditer(tr.src.text_of(body))):
            continue
        before = tr.rw.replacements.get((body.start_byte, body.end_byte, body.type))
        if before is None:
            tr.rw.replace(body, sub(tr.src.text_of(body)))
        else:  # (a body another pass rewrote: the version read in its result)
            tr.rw.replace(body, lambda rw, node, before=before: sub(before(rw, node) if callable(before) else before))
        tr.note(body, "", "a toolkit version macro in a #define's body is the value nvcc's passes read")
