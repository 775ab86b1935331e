"""Template value arguments as call arguments, for warpflow.

warpflow binds a call's arguments to the callee's parameters; a function template's value
parameters are bound the same way by the call's template arguments.  faiss's bitonic merge takes
its first shuffle distance as one (`warpBitonicMergeLE16<K, V, 16, Dir, Comp, true>(k, v)`, whose
ladder is `for (int stride = L; stride > 0; stride /= 2) shfl_xor(k, stride)`): the 16 is the start
of a shuffle ladder exactly as `merge(k, v, 16)` would pass it.  Type arguments bind nothing.
"""
from __future__ import annotations

from tree_sitter import Node

from .model import Function


def bind(an, fn: Node | None, callee: Function) -> None:
    """Bind the template arguments of the call whose function node is `fn` to `callee`'s template
    parameters in the analyzer's environment (growing it, as call arguments do)."""
    while fn is not None and fn.type == "qualified_identifier":
        fn = fn.child_by_field_name("name")
    targs = fn.child_by_field_name("arguments") if fn is not None and fn.type == "template_function" else None
    if targs is None or not callee.template_params:
        return
    for name, a in zip(callee.template_params, [c for c in targs.named_children if c.type != "comment"]):
        if a.type == "type_descriptor":
            continue
        facts = an.ex(a)
        key = (an.scopes.key(callee), name)  # warpflow's environment is keyed by definition (fnscopes)
        old = an.env.get(key, frozenset())
        if facts and not facts <= old:
            an.env[key] = old | facts
            an.changed = True
            an.work.touch_name(key[0])
