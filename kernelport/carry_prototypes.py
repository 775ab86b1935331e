"""Free-function prototypes in a carry run (kernelport/carry_calls.py): a carrier's prototype takes the carry
parameter its definition takes, and a qualified call that names a prototype runs that function, not another of
its last name.

era-bellman-cuda's bellman-cuda.cu calls `ff::inverse(cfg)`, which ff.cuh declares (`cudaError_t inverse(const
inverse_configuration &configuration);`) and ff.cu, outside the run, defines; the run's only definition of that
last name is the field's `static HOST_DEVICE_INLINE storage inverse(const storage &xs)`, a carrier, so the call
was given `kp_carry` (hipcc: too many arguments).  A prototype above its carrier's definition in one file kept
its old parameter list while the calls below it passed the carry (hipcc: no matching function).
"""
from __future__ import annotations

from tree_sitter import Node

from .fnscopes import enclosing
from .member_spaces import _SCOPES, _declarator, _signature


def _declared(src, n: Node) -> tuple[tuple[str, ...], tuple] | None:
    """(qualified name, member_spaces' signature) of a free function's prototype or definition `n`."""
    top = n.parent if n.parent is not None and n.parent.type == "template_declaration" else n
    fd = _declarator(n)
    if fd is None or top.parent is None or top.parent.type not in _SCOPES:
        return None
    sig = _signature(src, top, n, fd)
    return (enclosing(n) + (sig[0],), sig) if sig is not None else None


def prototypes(units) -> dict[tuple[str, ...], list[tuple[str, Node, tuple]]]:
    """The run's free-function prototypes by qualified name: [(path, declaration, signature)]."""
    out: dict[tuple[str, ...], list[tuple[str, Node, tuple]]] = {}
    for path, m in units:
        for n in m.source.index.of_type("declaration"):
            got = _declared(m.source, n)
            if got is not None:
                out.setdefault(got[0], []).append((path, n, got[1]))
    return out


def names_prototype(protos, parts: tuple[str, ...]) -> bool:
    """Whether a call spelled `parts` (`ff::inverse`, qualified) names one of the run's prototypes."""
    return len(parts) > 1 and any(q[-len(parts):] == parts for q in protos)


def of_carriers(units, protos, carriers: set, key) -> set:
    """The keys of the prototypes whose function is a carrier defined in the run (same qualified name and
    signature: overloads are told apart by their parameter types)."""
    out = set()
    for path, m in units:
        for f in m.functions.values():
            if key(path, f.node) not in carriers or f.node.type != "function_definition":
                continue
            got = _declared(m.source, f.node)
            for p, n, sig in (protos.get(got[0], ()) if got is not None else ()):
                if sig == got[1]:
                    out.add(key(p, n))
    return out
