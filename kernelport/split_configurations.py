"""Nested conditionals that split one construct, parsed one configuration at a time (for kernelport.macro_repair).

mfaktc's tf_barrett96_div.cu writes one function's head four times: `#ifndef DEBUG_GPU_MATH` around
`#ifdef INV_160_96` (the 160-bit inverse's head, else the 192-bit division's), and the `#else` the same
two with a debug parameter, then one body.  No two heads parse together, and masking one group's
branches leaves the other group's heads in a row, so the repair's one-condition candidates never shrink
the error; and each hides a head whose missing `;` the parse reports, which the repair refuses
(`_hides_error`: code some build compiles is checked, never masked away).

Here the error's outermost conditional and every one nested in it are taken together: a configuration
keeps one branch of each group it reaches (a group without `#else` may keep none).  The one the run
compiles (each test as `macro_groups.decided_groups` or `variants` decide it) is the candidate; it is
offered only where every branch it hides parses in some other configuration at least as well, so the
hidden code is still checked, and its masks say so (`Mask.checked`).  The user's text keeps every branch."""
from __future__ import annotations

from dataclasses import replace
from itertools import product

from .macro_groups import Group, decided_groups, defines_itself, variants
from .macro_sites import error_sites, score

_MAX_CONFIGURATIONS = 32  # per nest: more (a long chain of nested tests) is left to the one-group candidates
_WHOLE, _DIRECTIVES = "whole", "directives"  # a group left as written; one with its directive lines alone masked


def _variant(g: Group, choice) -> str:
    """`Group.hidden`'s name for keeping branch `choice` (None: no branch; _DIRECTIVES: every branch)."""
    last = len(g.directives) - 2
    if choice == _DIRECTIVES:
        return choice
    if choice is None:
        return "not taken"
    if choice == 0:
        return "taken"
    return "not taken" if g.has_else and choice == last else f"branch {choice}"


def _choices(g: Group) -> list:
    return list(range(len(g.directives) - 1)) + ([] if g.has_else else [None])


def _preferred(g: Group, macros, data: bytes):
    """The branch the run compiles where it decides the test (as `decided_groups` decides it: a run with no
    -D leaves an ordinary name's test undecided, else a plain read would hide deepwave's whole kernel under
    `#if defined(NDIM) && defined(DTYPE)`), else the one `variants` tries first."""
    got = decided_groups([g], macros, data)
    v = got[0][1] if got else variants(g.cond, macros)[1]
    if v == "taken":
        return 0
    if v.startswith("branch "):
        return int(v[7:])
    return len(g.directives) - 2 if g.has_else else None


def _within(inner: Group, span: tuple[int, int]) -> bool:
    return span[0] <= inner.start and inner.end <= span[1]


class _Nest:
    def __init__(self, root: Group, groups: list[Group]):
        self.root = root
        self.members = [h for h in groups if root.start <= h.start and h.end <= root.end]

    def children(self, g: Group, branch: tuple[int, int]) -> list[Group]:
        inside = [h for h in self.members if h is not g and _within(h, branch)]
        return [h for h in inside if not any(o is not h and _within(h, (o.start, o.end)) for o in inside)]

    def configurations(self, g: Group | None = None, limit: int = _MAX_CONFIGURATIONS) -> list[dict] | None:
        """Every configuration below `g` (the root): {group's start: choice} for each group it reaches; None past `limit`."""
        g = g or self.root
        out: list[dict] = []
        for choice in _choices(g):
            kids = self.children(g, g.branches[choice]) if choice is not None else []
            below = [self.configurations(h, limit) for h in kids]
            if any(b is None for b in below):
                return None
            for combo in product(*below):
                conf = {g.start: choice}
                for part in combo:
                    conf.update(part)
                out.append(conf)
                if len(out) > limit:
                    return None
        return out


def _kept(conf: dict) -> set:
    return {(at, c) for at, c in conf.items() if c is not None}


def candidates(repair, lo: int, hi: int, max_parses: int):
    """(key, edits, masks) of the configuration the run compiles for the nest around the error at
    [lo, hi), where its groups split a construct (an error inside one of their branches); see above."""
    around = [g for g in repair.groups if g.start <= lo and hi <= g.end]
    if not around:
        return
    root = min(around, key=lambda g: g.start)
    if defines_itself(root, repair.macros, repair.data):  # an include guard: the nest is the file, left to the
        return  # one-group candidates (its reading as not taken would hide it all: macro_groups.group_variants)
    nest = _Nest(root, repair.groups)
    if not any(s <= lo and hi <= e for g in nest.members for s, e in g.branches):
        return
    confs = nest.configurations()
    if not confs or len(confs) < 2:
        return
    pref = {g.start: _preferred(g, repair.macros, repair.data) for g in nest.members}
    first = next((c for c in confs if all(pref[at] == ch for at, ch in c.items())), None)
    if first is None:
        return
    best = score(error_sites(_parse(repair, _edits(repair, nest, first)[0])))
    # A group below the root that parses with every branch kept hides nothing: the translation
    # then rewrites each branch (rodinia huffman's `#ifdef CACHECWLUT` / `#else` in a kernel body, whose
    # hidden `#else` the Metal port kept as written, without `threadgroup`; a `#ifdef TESTING` parameter)
    whole: dict = {}
    for g in sorted(nest.members, key=lambda g: g.start):
        if g is root or g.start not in first:
            continue
        for how in (_WHOLE, _DIRECTIVES):  # as written, else its directive lines alone masked
            if repair.parses >= max_parses:
                return
            if score(error_sites(_parse(repair, _edits(repair, nest, {**first, **whole, g.start: how})[0]))) <= best:
                whole[g.start] = how
                break
    first = {**first, **whole}
    edits, masks = _edits(repair, nest, first)
    covered = _kept(first)
    for conf in confs:  # every branch hidden must parse, in some configuration, at least as well
        conf = {at: whole.get(at, ch) for at, ch in conf.items()}
        if _kept(conf) <= covered:
            continue
        if repair.parses >= max_parses:
            return
        if score(error_sites(_parse(repair, _edits(repair, nest, conf)[0]))) <= best:
            covered |= _kept(conf)
    if not {(g.start, c) for g in nest.members if g.start not in whole for c in _choices(g) if c is not None} <= covered:
        return
    yield ("conditional", "configuration", root.cond, root.start), edits, [replace(m, checked=True) for m in masks]


def _edits(repair, nest: _Nest, conf: dict):
    edits, masks = [], []
    for g in nest.members:
        if g.start not in conf or conf[g.start] == _WHOLE:
            continue  # in a branch hidden whole; or left as written
        choice = conf[g.start]
        for _, e, m in repair._variant(_variant(g, choice), [g], g.cond):
            edits += e
            masks += m
    return edits, masks


def _parse(repair, edits):
    repair.parses += 1
    return repair.parse(repair._apply(repair.seen, edits))
