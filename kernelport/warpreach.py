"""Which functions warpflow's fixpoint must analyse: those a warp construct can reach.

A function's pass writes only its own variables, its callees' parameters, its return, sites, and
what a sink confirms; values travel only along calls (arguments, returns, reference parameters;
overloads share their name's variables) and from file-scope constants.  Every sink needs a seed
in the code its values travel through:
- a ballot or shuffle value (vote and shuffle calls), a popc/ffs/clz or __syncwarp (mask sinks),
  also through a macro that renames one, and the other lane-mask sources (kernelport.masksources);
- a warp-level function (leader tests, per-warp shared arrays, lane-strided loops);
- a name of the warp size: `warpSize` (its group's width decides its port), a declared
  `kWarpSize`, a header's `WARP_SIZE` the project decided is the wave;
- a pointer into shared memory (its name joins the shared arrays every function reads).
A site no sink confirms is read in two places only: a `lane_id()`-named helper's returned 32, 31
or 5 (lint reports it), and a warp index laid out in global data (`d[tid / 32]`), which decides
its group's width, read only where a group is annotated (`@kp warp-width`) or has a seed above:
so those literals seed only a helper of such a name, and a file with an annotation is analysed
whole.  A function in a part of the call graph with no seed writes nothing that any output
reads: its passes are skipped, and every other pass sees what it saw before.
"""
from __future__ import annotations

from tree_sitter import Node

from . import masksources
from .source import ident_name
from .warpsites import LANE_HELPER_NAME, WARP_SIZE_NAME, int_value

_VALUES = (32, 31, 5)  # the literals whose unconfirmed sites a lane helper's return shows
_KINDS = ("shuffle", "vote", "bitop")


def live_functions(an, said: dict[str, set[str]]) -> set[str]:
    """The names of the functions whose passes can change what warpflow reports.  `said`: the
    identifiers each function's definitions mention (sweeps.Sweeps)."""
    src, m = an.src, an.m
    if "warp-width" in src.text:  # a `// @kp warp-width` annotation: every group's width is read
        return set(said)
    decided = m.visible.confirmed if m.visible is not None else {}
    known: dict[str, bool] = {}

    def seed_name(t: str) -> bool:
        hit = known.get(t)
        if hit is None:
            hit = known[t] = t == "warpSize" or t in decided or bool(WARP_SIZE_NAME.search(t)) or _concept(an, t)
        return hit

    seeds = {f.name for f in m.functions.values() if an.scopes.key(f) in an.a.warp_level} | _shared_pointers(an)
    for f in m.functions.values():
        if f.name in seeds:
            continue
        if any(seed_name(t) for t in said[f.name]) or (LANE_HELPER_NAME.search(f.name.split("::")[-1]) and any(
                int_value(src.text_of(x)) in _VALUES for x in src.index.under(f.node, "number_literal"))) \
                or masksources.makes_mask(an, f, said[f.name]):
            seeds.add(f.name)
    # the parts of the call graph (either direction) that hold a seed
    links: dict[str, set[str]] = {f: set() for f in said}
    for f, names in said.items():
        for g in names & said.keys():
            links[f].add(g)
            links[g].add(f)
    live, todo = set(), [f for f in seeds if f in links]
    while todo:
        f = todo.pop()
        if f not in live:
            live.add(f)
            todo.extend(links[f] - live)
    return live


def _concept(an, name: str) -> bool:
    found = an.concept_call(masksources.forwarded(an, name))  # `POPC` renaming `__popc` too
    return found is not None and (found[0].kind in _KINDS or found[0].key == "syncwarp" or found[0].warp_level)


def _shared_pointers(an) -> set[str]:
    """Functions that declare a pointer into shared memory (`float* b = smem + o`): warpflow adds its
    name to the shared arrays every function reads.  Chains (`b2 = b + 1`) are followed."""
    src, names, out = an.src, set(an.shared_names), set()
    if not names:
        return out  # no shared array: nothing points into one
    decls: list[tuple[str, str | None, set[str]]] = []
    for f in an.m.functions.values():
        for d in src.index.under(f.node, "init_declarator"):
            inner, init = d.child_by_field_name("declarator"), d.child_by_field_name("value")
            if inner is not None and inner.type == "pointer_declarator" and init is not None:
                decls.append((f.name, ident_name(d), set(src.texts_under(init, "identifier"))))
    grew = True
    while grew:
        grew = False
        for fname, name, used in decls:
            if used & names and (fname not in out or name not in names):
                out.add(fname)
                if name is not None and name not in names:
                    names.add(name)
                    grew = True
    return out
