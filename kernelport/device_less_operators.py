"""A host-only `operator<` that a thrust algorithm compares with in device code: refused (KP241).

BPS-HDBSCAN's kernel.cu (heldout59) calls `thrust::binary_search(thrust::seq, arr, arr + n, key)` and
`thrust::lower_bound(...)` in `__device__` functions; the elements are `struct gridCellLookup`, whose `bool
operator<(const gridCellLookup &) const` is written without an execution space (host-only). The algorithms compare
through `thrust::less`, a `__host__ __device__` template under thrust's exec-check pragma. nvcc accepts the call
without a word but builds no comparison (measured, nvcc 13 -std=c++17 -O3 -arch=sm_75 -ptx, on that file and
minimal ones: binary_search is `first != last`, lower_bound and min_element return `first`, sort compares nothing;
with -G each comparison is a call through a null pointer); clang refuses it ("reference to __host__ function
'operator<' in __host__ __device__ function"). Writing `__host__ __device__` on the operator would give a port that
searches, which the original's build does not: undefined behaviour in the source that nvcc accepts (as
kernelport/nvcc_leniencies.py's `delete[]` of an array, KP243), so the port is refused at the operator, the message
naming the call. The algorithms and their argument counts are backend data (`Backend.device_less_algorithms`).

The operator is judged where it is proved reached from device code: the call is in a `__device__` or `__global__`
function, with a policy and no comparator; its range's first iterator is a pointer local or parameter (`p`, `p +
i`) to a class this file defines; the class's every `operator<` is defined in it with no execution space written. A
`constexpr` operator is ported with `__host__ __device__` written (a note): clang compiles a constexpr function for
the device, and nvcc's build compares with it where the project passes --expt-relaxed-constexpr (measured; without
that flag nvcc builds no comparison either: kernelport does not know the flags). Elsewhere (an operator already
`__host__ __device__`, a free operator, a comparator given) the code is kept as written. A class of a header
(BPS-HDBSCAN's structs.h, kernel.cu's searches): the header's port is judged by the calls of the run's files that
include it and define no class of that name (their pointer declared as the header's class): refused at the operator
in the header, the message naming the includer's line, or written with its includes rewritten
(kernelport.project_ports) for a constexpr one. kernelport/host_typed_functors.py is the reverse case (a
`__device__` functor the library types in host code) and shares the class and operator lookups.
"""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from tree_sitter import Node

from . import backends, lazy_re
from .host_typed_functors import _classes, _last_name, _thrust_or_plain, declared, operators

_OPERATOR_LT = lazy_re.compile(rb"\boperator\s*<\s*\(")  # (a file that may define one: a header's class)
_CONSTEXPR = re.compile(r"\bconstexpr\b")


def widen_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    entries = backends.get(tr.backend).device_less_algorithms
    if not entries:
        return
    classes = None
    done: set[int] = set()
    for where, call, at in _sites(tr, entries):
        classes = _classes(tr.src) if classes is None else classes
        rec = _pointee_class(where, call[1], classes)
        if rec is None or rec.id in done:
            continue
        done.add(rec.id)
        ops = operators(tr, rec, "<")
        if not ops or any(spaces for _, spaces in ops):
            continue
        for op, _ in ops:
            if _CONSTEXPR.search(_head(tr, op)):
                tr.rw.insert_before(op, "__host__ __device__ ")
                tr.note(op, "__host__ __device__", f"`constexpr operator<` and `{at}` compares with it in device "
                        "code: clang compiles a constexpr function for the device, nvcc where the project passes "
                        "--expt-relaxed-constexpr (without it nvcc's build compares nothing)")
                continue
            tr.problem("KP241", op, f"`operator<` is host-only and `{at}` compares with it in device code: nvcc "
                       "builds no comparison there (measured, nvcc 13 -ptx: the comparisons are dropped, binary_search "
                       "gives `first != last`, lower_bound and min_element `first`; with -G each is a call through a "
                       "null pointer) and clang (hipcc) refuses "
                       "it, so no port computes what nvcc's build computes (undefined behaviour in the source)",
                       "fix the source: write `__host__ __device__` before the operator (its body must then compile "
                       "for the device), or pass the algorithm a `__host__ __device__` comparator")


def _head(tr, op: Node) -> str:
    """The operator definition's text before its declarator (its specifiers: `constexpr`, `inline`, ...)."""
    d = op.child_by_field_name("declarator")
    return tr.src.data[op.start_byte:d.start_byte if d is not None else op.end_byte].decode(errors="replace")


def _sites(tr, entries: dict[str, int]):
    """(the file it is in, as `declared` reads it; the call's arguments; what it is, for messages) of each call
    of an entry with its policy and no comparator in a `__device__` or `__global__` function: this file's, then,
    where this file defines a class with an `operator<` (a header's), those of the run's files that include it
    (kernelport.includers.Elsewhere.calls) and define no class of that name themselves."""
    own = b"thrust" in tr.src.data and any(name.encode() in tr.src.data for name in entries)
    for call in (tr.src.index.of_type("call_expression") if own else ()):
        got = _site(tr, call, entries, "")
        if got is not None:
            yield got
    vis = tr.module.visible
    if vis is None or vis.elsewhere is None or _OPERATOR_LT.search(tr.src.data) is None:
        return
    mine = Path(tr.src.path).resolve()
    for name in entries:
        for m, call, _ in vis.elsewhere.calls(name)[0]:
            if Path(m.source.path).resolve() != mine:
                got = _site(SimpleNamespace(src=m.source, module=m), call, entries, Path(m.source.path).name)
                if got is not None and _pointee_name(got[0], got[1][1]) not in _classes(m.source):
                    yield got


def _site(where, call: Node, entries: dict[str, int], file: str):
    src = where.src
    fn = call.child_by_field_name("function")
    name = _last_name(src, fn)
    if fn is None or name not in entries or not _thrust_or_plain(src, fn):
        return None
    args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
    f = where.module.function_at(call)
    if len(args) != entries[name] or f is None or not f.is_device or "__host__" in f.qualifiers:
        return None
    line = f" ({file}:{src.loc(call).line})" if file else ""
    return where, args, f"thrust::{name}` in `{src.text_of(f.node.child_by_field_name('declarator')).split('(')[0].strip()}{line}"


def _pointee_class(tr, arg: Node, classes) -> Node | None:
    """The class this file defines that the pointer `arg` (`p`, `p + i`, `(p)`) points to, or None."""
    name = _pointee_name(tr, arg)
    return classes.get(name) if name else None


def _pointee_name(tr, arg: Node) -> str:
    """The class name the pointer `arg` (`p`, `p + i`, `(p)`, a local or parameter) points to ('' where unknown)."""
    while arg.type in ("parenthesized_expression", "binary_expression"):
        if arg.type == "binary_expression" and tr.src.text_of(arg.child_by_field_name("operator")) != "+":
            return ""
        arg = arg.named_children[0] if arg.type == "parenthesized_expression" else arg.child_by_field_name("left")
    if arg.type != "identifier":
        return ""
    text, d = declared(tr, arg)
    if d is None or d.type != "pointer_declarator" or d.child_by_field_name("declarator").type != "identifier":
        return ""
    return re.sub(r"^(?:const\s+)?(?:struct|class)\s+|\s+const$", "", " ".join(text.split()))
