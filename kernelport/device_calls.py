"""Calls of the target's API names in device code whose arguments a pass may retype: a call by its
plain name (not a file's own function of that name, not under a CUDA-only `#if`), in a device
function, with exactly `arity` arguments none of which another rewrite has touched.  Shared by the
passes that cast arguments where the target lacks CUDA's overload (mixed_sign, retyped_calls)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from .source import call_args

if TYPE_CHECKING:
    from tree_sitter import Node

    from .translate import Translator


def device_calls(tr: "Translator", names, arity: int = 2, host: bool = False) -> Iterator[tuple["Node", str, list["Node"]]]:
    """(call, name, arguments) for each such call of one of `names` (nothing where the text names none);
    `host`: in host functions too."""
    if not names or not any(n.encode() + b"(" in tr.src.data for n in names):
        return
    from .fnscopes import callee_name
    declared = tr.declared_names()
    for call in tr.src.index.of_type("call_expression"):
        fn = call.child_by_field_name("function")
        name = callee_name(fn)
        if name not in names or name in declared or fn.type != "identifier" or tr.cuda_only_region(call):
            continue
        f = tr.module.function_at(call)
        args = call_args(call)
        if f is None or not (f.is_device or host) or len(args) != arity or any(tr.rw.has(a) for a in args):
            continue
        yield call, name, args
