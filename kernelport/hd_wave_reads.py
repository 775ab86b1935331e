"""Where a `__host__ __device__` function's read of the wave width may be a run-time call (review of h/hip66b).

The port writes `kp_hd_wave_size()` there (the device pass's `warpSize`, the host pass asking the device), a
run-time value.  Two places in such a function need a constant the call is not: a `constexpr` (or `consteval`)
function's body (`__host__ __device__ constexpr int nwarps(int t) { return t / WARP_SIZE; }` sizing a
`__shared__` array: hipcc rejects the call there), and a `static` (or `thread_local`) local's initializer
(`static const int w = WARP_SIZE;`: a dynamic initializer needs a guard, `__cxa_guard_acquire`, which the
device link does not have).  Those keep the translator's compile-time spelling, as before h/hip66b.
"""
from __future__ import annotations

from tree_sitter import Node

_CONSTANT_FUNCTION = frozenset({"constexpr", "consteval"})
_STATIC = frozenset({"static", "thread_local"})


def runtime(src, node: Node) -> bool:
    """Whether the wave-width read `node` in a function body may be a run-time call."""
    n = node.parent
    while n is not None:
        if n.type == "declaration" and any(c.type == "storage_class_specifier" and src.text_of(c) in _STATIC
                                           for c in n.children):
            return False
        if n.type in ("function_definition", "lambda_expression"):
            words = {src.text_of(c) for c in n.children if c.type in ("type_qualifier", "storage_class_specifier")}
            return not words & _CONSTANT_FUNCTION
        n = n.parent
    return True
