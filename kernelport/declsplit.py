"""The declaration a lane mask is stored in, where it declares other variables too (for warpflow's
analyzer `an`, and the translator `tr`).

A ballot stored in a 32-bit variable makes the variable's declared type a `type32` site: the port
writes the backend's lane-mask type (`unsigned long long` on HIP) in its place.  A declaration's
declarators share one type node, so `int mask = __ballot_sync(FULL, p), sign = x < 0 ? -1 : 1;`
became `unsigned long long mask = ..., sign = ...;`: `sign` unsigned, `sign * v` and `sign < 0`
wrong, and the port compiles.  Here:

- `check_store`: a ballot stored in a declared variable, a local or (new) a file-scope one
  (`__device__ unsigned g_mask;` stored in a kernel: it was cut to 32 bits at wave 64); the
  variable's name is noted as one of the site's mask holders (`Analysis.holders`).
- `check` (after the fixpoint): a declaration the port cannot widen, KP232 and the site withdrawn:
  a `for` initialiser that declares other variables (only one declaration may stand there), and a
  file-scope variable whose type is not this declaration's alone (`extern`, declared again here or
  in an included header, used by host code: `cudaMemcpyFromSymbol` reads it with its 32-bit size).
- `wide_type` (translate): where only some declarators hold masks the declaration is split into
  one declaration per run of declarators, in their order (a later initialiser may read an earlier
  variable): the mask runs take the lane-mask type, the others keep the type as written; every run
  keeps the specifiers, qualifiers and attributes (`static`, `const`, `__shared__`); the text before
  the type that a backend wrote for the declaration's pointers (Metal's address space) goes with the
  runs that declare pointers.  In a macro body (the use decides what the text is: a `for`
  initialiser, a declaration continued after it) the split is refused: KP232.
"""
from __future__ import annotations

import os
import re

from tree_sitter import Node

from . import maskmemory, masksources
from .rewrite import key
from .source import ident_name
from .warpsites import VOTE, WS, Issue

_FILE_SCOPES = ("translation_unit", "namespace_definition", "declaration_list", "preproc_if", "preproc_ifdef",
                "preproc_else", "preproc_elif", "linkage_specification")


def _file_scope_type(an, name: str) -> Node | None:
    """The declared type of the file-scope variable `name` where the function analysed sees it (no
    parameter or local of that name)."""
    if an.fn is None or an.fn.param(name) is not None:
        return None
    return an.decl_types.get(("", name))


def check_store(an, name: str, facts, at: Node) -> None:
    """A value stored in the variable `name`: a ballot in a 32-bit declared type confirms the type as a
    lane-mask site (the port widens it), `name` one of its holders."""
    if an.fn is None:
        return
    tnode = an.decl_types.get((an.cur, name))
    if tnode is None:
        tnode = _file_scope_type(an, name)
        if tnode is None and (VOTE, -1) in facts and an.fn.param(name) is None:
            _header_variable(an, name, at)
        elif tnode is not None and (VOTE, -1) in facts and (VOTE, -1) not in an.env.get(("", name), ()):
            an.env[("", name)] = an.env.get(("", name), frozenset()) | {(VOTE, -1)}  # what other functions read
            an.changed = True
            an.work.touch(None)
    if tnode is not None and (VOTE, -1) in facts and an.is_int32(tnode):
        sid = an.site(tnode, "type32")
        an.a.holders.setdefault(sid, set()).add(name)
        an.confirm({(WS, sid)}, f"'{name}' holds a ballot mask", at, kinds=(WS,))
        maskmemory.check_loads(an, name)
    masksources.lane_bit_holder(an, name, facts, tnode)


def _header_variables(an) -> dict[str, tuple[object, Node, Node]]:
    """The 32-bit file-scope variables the included headers declare: name -> (source, declaration, type)."""
    got = an.__dict__.get("_header_vars")
    if got is None:
        got = an.__dict__["_header_vars"] = {}
        vis = an.m.visible
        for m in (vis.elsewhere.modules() if vis is not None and vis.elsewhere is not None else ()):
            src = m.source
            for decl in src.index.of_type("declaration"):
                tnode = decl.child_by_field_name("type")
                if tnode is not None and _file_scope(decl) and masksources.is_int32(src.text_of(tnode), {}):
                    for d in decl.children_by_field_name("declarator"):
                        if d.type != "function_declarator":
                            got.setdefault(ident_name(d), (src, decl, tnode))
    return got


def _header_variable(an, name: str, at: Node) -> None:
    """A ballot stored in a 32-bit file-scope variable an included header declares: this file's port
    cannot widen it (the header is ported on its own, and other files read it): KP232 at the store."""
    found = _header_variables(an).get(name)
    if found is None or any(i.node == at for i in an.a.issues):
        return
    src, decl, tnode = found
    an.a.issues.append(Issue(
        "KP232", at, f"a ballot is stored in '{name}', declared `{src.text_of(tnode)}` (32 bits) at "
        f"{os.path.basename(src.path)}:{src.loc(decl).line}: the header is ported on its own, this "
        "file's port cannot widen it", an.scopes.key(an.fn) or None,
        "declare the variable `unsigned long long` in the header"))


def declaration_of(tnode: Node) -> Node | None:
    """The declaration whose type `tnode` is, else None (a parameter's, a return type, a field)."""
    d = tnode.parent
    return d if d is not None and d.type == "declaration" and d.child_by_field_name("type") == tnode else None


def _file_scope(decl: Node) -> bool:
    """Whether `decl` declares file-scope (namespace-scope) variables: no function body holds it."""
    p = decl.parent
    while p is not None and p.type in _FILE_SCOPES and p.type != "translation_unit":
        p = p.parent
    return p is not None and p.type == "translation_unit"


def _whole_statement(decl: Node) -> str | None:
    """Where a declaration may not become several: the statement a `for` initialiser or the whole
    body of an `if`/loop is (the second declaration would fall outside it); None where it may."""
    p = decl.parent
    while p is not None and p.type in ("labeled_statement", "preproc_if", "preproc_ifdef", "preproc_else",
                                       "preproc_elif"):
        p = p.parent
    if p is None or p.type in ("compound_statement", "case_statement", "translation_unit", "namespace_definition",
                               "declaration_list", "linkage_specification"):
        return None
    if p.type == "for_statement" and p.child_by_field_name("initializer") == decl:
        return "a `for` initialiser, where only one declaration may stand"
    return f"the whole body of a `{p.type.removesuffix('_statement').removesuffix('_clause')}`, which one statement is"


def _global_shared(an, decl: Node, name: str) -> str | None:
    """Why the file-scope variable `name` (declared by `decl`) cannot change its type here, or None."""
    src = an.src
    if any(c.type == "storage_class_specifier" and src.text_of(c) == "extern" for c in decl.children):
        return "it is declared `extern` (defined in another file)"
    word = re.compile(rf"\b{re.escape(name)}\b")
    for other in src.index.of_type("declaration"):
        if other.id != decl.id and _file_scope(other) and \
                any(ident_name(d) == name for d in other.children_by_field_name("declarator")):
            return f"it is declared again at line {src.loc(other).line}"
    vis = an.m.visible
    for m in (vis.elsewhere.modules() if vis is not None and vis.elsewhere is not None else ()):
        if word.search(m.source.text):
            return f"an included header ({m.source.path}) names it"
    for f in an.m.functions.values():
        if f.is_host and not f.is_device and f.body is not None and word.search(src.text_of(f.body)):
            return f"host function '{f.name}' uses it (a copy by symbol reads it with its declared size)"
    return None


def _unsound(an, decl: Node, masks: list[Node], others: list[Node]) -> str | None:
    """Why the mask declarators `masks` of `decl` cannot take the lane-mask type, or None."""
    names = lambda ds: ", ".join(f"'{ident_name(d)}'" for d in ds)  # noqa: E731
    if others and not masks:
        return "the declaration declares other variables too and the analysis cannot tell which holds the mask"
    where = _whole_statement(decl) if others else None
    if where is not None:
        return f"it is declared with {names(others)} in {where}: the lane-mask type would change {names(others)} too"
    if _file_scope(decl):
        for d in masks:
            why = _global_shared(an, decl, ident_name(d))
            if why is not None:
                return f"'{ident_name(d)}' is a file-scope variable whose type the port cannot change: {why}"
    return None


def check(an) -> None:
    """After the fixpoint: each lane-mask type site of a declaration the port cannot widen (or split)
    is withdrawn, with KP232 at the mask's declarator."""
    for s in an.a.sites:
        decl = declaration_of(s.node) if s.role == "type32" and s.confirmed else None
        if decl is None:
            continue
        held = an.a.holders.get(s.id, set())
        ds = decl.children_by_field_name("declarator")
        masks = [d for d in ds if ident_name(d) in held]
        why = _unsound(an, decl, masks, [d for d in ds if d not in masks])
        if why is None:
            continue
        s.confirmed = False
        at = masks[0] if masks else decl
        an.a.issues.append(Issue(
            "KP232", at, f"a ballot is stored in the 32-bit `{an.src.text_of(s.node)}` variable "
            f"'{ident_name(at) or '?'}', which the port cannot widen: {why}", s.function,
            "declare the mask in a declaration of its own, `unsigned long long` (or `auto`)"))


# -- translate ---------------------------------------------------------------------------------
def _points(d: Node) -> bool:
    """Whether the declarator `d` declares a pointer (a backend's address space qualifies its type)."""
    inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
    return inner is not None and inner.type == "pointer_declarator"


def wide_type(tr, site) -> str:
    """The lane-mask type for `site`'s type node; where the declaration it types declares variables
    that hold no mask, the declaration is split (or, in a macro body, refused: KP232)."""
    wide = tr.spell("lanemask_type")
    decl = declaration_of(site.node)
    ds = decl.children_by_field_name("declarator") if decl is not None else []
    held = tr.analysis.holders.get(site.id, set())
    masks = [ident_name(d) in held for d in ds]
    if all(masks):
        return wide
    if tr.src.text.startswith(tr._MACRO_WRAP[0]):  # a macro body, translated as a function's (translate.py)
        tr.problem("KP232", ds[masks.index(True)] if any(masks) else decl, "a ballot is stored in a variable of a "
                   "macro body's declaration that declares other variables too: only the mask may take the lane-mask "
                   "type, and the macro's uses decide whether the declaration can be split",
                   "declare the mask in a declaration of its own, `unsigned long long` (or `auto`)")
        return tr.src.text_of(site.node)
    tr.rw.replace(decl, _split(site.node, ds, masks, wide))
    tr.note(decl, "...", "only " + ", ".join(f"'{ident_name(d)}'" for d, m in zip(ds, masks) if m) +
            " of the declaration holds a lane mask: a declaration of its own takes the lane-mask type")
    return wide


def _split(tnode: Node, ds: list[Node], masks: list[bool], wide: str):
    """The declaration's replacement: a declaration per run of mask (or other) declarators, in order."""
    def render(rw, decl: Node) -> str:
        first = ds[0]
        before = "".join(rw.before.get(key(tnode), ()))  # a backend's text for the pointers (Metal: a space)

        def prefix(mask: bool, pointers: bool) -> str:
            t = wide if mask else rw.stitch(tnode)  # (stitch: the type as written, its own replacement aside)
            return rw.span(decl, decl.start_byte, tnode.start_byte) + (before if pointers else "") + t + \
                rw.span(decl, tnode.end_byte, first.start_byte)

        runs: list[list[int]] = []
        for i, m in enumerate(masks):
            if runs and masks[runs[-1][0]] == m:
                runs[-1].append(i)
            else:
                runs.append([i])
        out = []
        for k, run in enumerate(runs):
            a, b = ds[run[0]], ds[run[-1]]
            out.append(prefix(masks[run[0]], any(_points(ds[i]) for i in run)))
            out.append(rw.span(decl, a.start_byte, b.end_byte))
            if k + 1 < len(runs):
                nxt = ds[runs[k + 1][0]]
                comma = next(c for c in decl.children if c.type == "," and b.end_byte <= c.start_byte < nxt.start_byte)
                out.append(rw.span(decl, b.end_byte, comma.start_byte) + ";" + rw.span(decl, comma.end_byte, nxt.start_byte))
        out.append(rw.span(decl, ds[-1].end_byte, decl.end_byte))
        return "".join(out)
    return render
