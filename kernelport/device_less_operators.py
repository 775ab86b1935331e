"""A host-only `operator<` that a thrust algorithm reaches from device code: `__host__ __device__`.

BPS-HDBSCAN's kernel.cu (heldout59) calls `thrust::binary_search(thrust::seq, arr, arr + n, key)` and
`thrust::lower_bound(...)` in `__device__` functions; the elements are `struct gridCellLookup`, whose
`bool operator<(const gridCellLookup &) const` is written without an execution space (host-only).
The algorithms compare through `thrust::less`, a `__host__ __device__` template under thrust's exec-check
pragma: nvcc then compiles the inline host operator for the device as well (no diagnostic; measured: the
PTX holds the comparison inline), clang does not ("reference to __host__ function 'operator<' in
__host__ __device__ function").  The algorithms and their argument counts are backend data
(`Backend.device_less_algorithms`).

The port writes `__host__ __device__` before such an operator only where it is proved reached from
device code and to compile there: the call is in a `__device__` or `__global__` function, with a policy
and no comparator; its range's first iterator is a pointer local or parameter (`p`, `p + i`) to a class
this file defines; the class's every `operator<` is defined in it with no execution space written; its
body calls nothing and allocates, throws or keeps nothing static.  Where the body is not so shown, KP241
at the operator (the port would not compile); elsewhere (a class of a header, a free operator, a
comparator given) the code is kept as written.  kernelport/host_typed_functors.py is the reverse case
(a `__device__` functor the library types in host code) and shares the class and operator lookups.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends
from .host_typed_functors import _classes, _last_name, _thrust_or_plain, declared, operators

# what a body that compiles for the device as nvcc compiled it may not hold (a call may reach host code)
UNSHOWN = ("call_expression", "new_expression", "delete_expression", "throw_expression", "gnu_asm_expression")


def widen_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    entries = backends.get(tr.backend).device_less_algorithms
    if not entries or b"thrust" not in tr.src.data or not any(name.encode() in tr.src.data for name in entries):
        return
    classes = None
    done: set[int] = set()
    for call in tr.src.index.of_type("call_expression"):
        fn = call.child_by_field_name("function")
        name = _last_name(tr.src, fn)
        if fn is None or name not in entries or not _thrust_or_plain(tr.src, fn):
            continue
        args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        f = tr.module.function_at(call)
        if len(args) != entries[name] or f is None or not f.is_device or "__host__" in f.qualifiers:
            continue
        classes = _classes(tr.src) if classes is None else classes
        rec = _pointee_class(tr, args[1], classes)
        if rec is None or rec.id in done:
            continue
        done.add(rec.id)
        ops = operators(tr, rec, "<")
        if not ops or any(spaces for _, spaces in ops):
            continue
        at = f"thrust::{name}` in `{tr.src.text_of(f.node.child_by_field_name('declarator')).split('(')[0].strip()}"
        for op, _ in ops:
            body = op.child_by_field_name("body")
            bad = next((n for kind in UNSHOWN for n in tr.src.index.under(body, kind)), None) if body else op
            if bad is None and re.search(r"\bstatic\b", tr.src.text_of(body)) is None:
                tr.rw.insert_before(op, "__host__ __device__ ")
                tr.note(op, "__host__ __device__", f"`operator<` is host-only and `{at}` compares with it in device "
                        "code: nvcc compiles it for the device there, clang does not")
            else:
                tr.problem("KP241", op, f"`operator<` is host-only and `{at}` compares with it in device code (nvcc "
                           "compiles it for the device there, clang does not); its body "
                           f"{'calls or allocates' if bad is not None else 'keeps a static'}, which kernelport "
                           "cannot show compiles for the device",
                           "write `__host__ __device__` before the operator where its body is device code, or pass "
                           "the algorithm a __device__ comparator")


def _pointee_class(tr, arg: Node, classes) -> Node | None:
    """The class this file defines that the pointer `arg` (`p`, `p + i`, `(p)`) points to, or None."""
    while arg.type in ("parenthesized_expression", "binary_expression"):
        if arg.type == "binary_expression" and tr.src.text_of(arg.child_by_field_name("operator")) != "+":
            return None
        arg = arg.named_children[0] if arg.type == "parenthesized_expression" else arg.child_by_field_name("left")
    if arg.type != "identifier":
        return None
    text, d = declared(tr, arg)
    if d is None or d.type != "pointer_declarator" or d.child_by_field_name("declarator").type != "identifier":
        return None
    name = re.sub(r"^(?:const\s+)?(?:struct|class)\s+|\s+const$", "", " ".join(text.split()))
    return classes.get(name)
