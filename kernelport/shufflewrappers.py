"""Shuffle wrappers of included headers, for warpflow.

Projects wrap the shuffle intrinsics in their own headers (faiss's WarpShuffles.cuh:
`T shfl_xor(const T val, int laneMask, int width = kWarpSize) { return __shfl_xor_sync(0xffffffff,
val, laneMask, width); }`).  A wrapper defined in the file itself is analysed through its body; one
from a header is not, so a caller's ladder start or lane reached no shuffle sink there.  A header
function whose body shuffles with some of its parameters as the shuffle's arguments is read as that
shuffle, spelled with its own parameter order: each parameter passed as the lane, delta, lane mask,
value or width takes that name (a width parameter it leaves to its default is the hardware warp, as
for the intrinsic).  A wrapper that fixes the width itself (a literal, a logical group) or whose
shuffles disagree on the roles is left out.
"""
from __future__ import annotations

from . import backends, dialect
from .model import Module
from .source import call_args

_SINKS = ("lane", "delta", "lanemask")


def wrappers(module: Module) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Functions of `module` that forward parameters to a shuffle: name -> (the shuffle's concept
    key, a positional name per parameter: the shuffle parameter it is passed as, else `argN`)."""
    src = module.source
    backend = backends.source().name
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for key, f in module.functions.items():
        if key != f.name or f.body is None:  # an overload's other definitions: the first one speaks
            continue
        pos = {p.name: i for i, p in enumerate(f.params)}
        found: tuple[str, tuple[str, ...]] | None = None
        for call in src.index.under(f.body, "call_expression"):
            fn = call.child_by_field_name("function")
            hit = dialect.spelled_by(backend, src.text_of(fn)) if fn is not None and fn.type == "identifier" else None
            if hit is None or hit[0].kind != "shuffle":
                continue
            roles = [f"arg{i}" for i in range(len(f.params))]
            fixed_width = False
            for pname, a in zip(dialect.call_params(*hit)[0], call_args(call)):
                if a.type == "identifier" and src.text_of(a) in pos:
                    roles[pos[src.text_of(a)]] = pname
                elif pname == "width":
                    fixed_width = True  # the wrapper decides the width: not the caller's to judge
            if fixed_width or not any(r in _SINKS for r in roles):
                found = None
                break
            mapping = (hit[0].key, tuple(roles))
            if found is not None and found != mapping:
                found = None
                break
            found = mapping
        if found is not None:
            out[f.name] = found
    return out


def library_call(module: Module, backend: str, name: str) -> tuple[dialect.Concept, list[str], int] | None:
    """(concept, positional parameter names, how many are required) of a call to a library's warp
    helper (dialect.library_call) or an included header's shuffle wrapper, that `module` does not
    define itself; None for anything else."""
    if name in module.functions:
        return None
    lib = dialect.library_call(backend, name)
    if lib is not None:
        return lib
    vis = module.visible
    hit = vis.shuffle_wrappers.get(name) if vis is not None else None
    if hit is None:
        return None
    return dialect.concept(hit[0]), list(hit[1]), len(hit[1])
