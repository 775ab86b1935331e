"""The C types a lane mask lands in beyond a declared variable: a template parameter a function returns
it as, and a struct field it is stored in (for warpflow's analyzer `an`).

A ballot is 32 bits in CUDA and 64 in HIP at wave 64.  warpflow follows it into declarations, return
types, parameters and 32-bit bit operations; here:

- `template <typename T, typename U> T aa_ballot(const U& m, const T& p) { return __ballot_sync(m, p); }`
  returns the mask as T, which C++ deduces from the predicate (`aa_ballot(FULL, 1)`: T = int) or the
  call names (`vote<unsigned>(...)`).  The HIP port's 64-bit ballot is cut to T where T is 32 bits,
  a wrong answer that compiles.  Where every return of the function is a lane mask, the mask's type
  is not T's business: the port returns the lane-mask type (`unsigned long long`, site `type32` on the
  return type; a call's T, deduced or explicit, no longer matters), and where every call of the run
  makes T 64 bits there is nothing to do.  A function that returns other values as T too cannot be
  widened: KP232 (translate refuses; lint reports it).
- `v.mask = __ballot_sync(...)` with `struct Vote { unsigned mask; ... }`: the field's declared type
  is a `type32` site (the port widens it) where the struct is the file's own and no kernel
  parameter or host function takes it (its layout is then the device code's alone); otherwise the
  layout is shared with memory the port does not own: KP232.
"""
from __future__ import annotations

import os
import re

from tree_sitter import Node

from .model import Function
from .masksources import is_int32
from .warpsites import VOTE, WRES, WS, Issue, INT32_TYPES

# `__ffs(ballot) - 1`: a voting lane's index, read from the mask.  Compared with a lane (`lane == leader`),
# in any function (a helper given the lane and the mask as parameters), it is a lane test: the lane is
# the wave's.  (A shuffle result's kind, WRES, with its own marker.)
MASK_LANE = frozenset({(WRES, -3)})
_WIDE = frozenset({"unsigned long long", "long long", "uint64_t", "int64_t", "size_t", "unsigned long long int",
                   "long long int"})
_NOT_INT = frozenset({"bool", "float", "double", "half", "__half"})


def _plain(text: str) -> str:
    t = " ".join(text.replace("&", " ").split())
    for q in ("const ", "volatile ", "std::"):
        t = t.replace(q, "")
    return t.strip()


def template_return(fn: Function) -> str | None:
    """The template type parameter `fn` returns its value as (`T f(...)`, `const T& f(...)`), else None."""
    rtype = fn.node.child_by_field_name("type")
    if rtype is None or not fn.template_params:
        return None
    t = _plain(rtype.text.decode())
    return t if t in fn.template_params else None


def deduced(an, callee: Function, fn: Node | None, args: list[Node]) -> str | None:
    """The type the call makes `callee`'s returned template parameter: the call's explicit template
    argument at its position (`vote<unsigned>(...)`), else C++'s deduction from an argument passed to
    a parameter of that type (`const T& p` given `1`: int; a local: its declared type); None unknown."""
    from . import fnscopes
    tp = template_return(callee)
    if tp is None:
        return None
    while fn is not None and fn.type == "qualified_identifier":
        fn = fn.child_by_field_name("name")
    targs = fn.child_by_field_name("arguments") if fn is not None and fn.type == "template_function" else None
    given = [c for c in targs.named_children if c.type != "comment"] if targs is not None else []
    i = callee.template_params.index(tp)
    if i < len(given):
        return _plain(an.src.text_of(given[i]))
    for p, a in zip(callee.params, args):
        if not p.pointer and _plain(p.type) == tp:
            if a.type == "number_literal" and re.search(r"[lL]{2}$", an.src.text_of(a).rstrip("uU")):
                return "unsigned long long" if re.search(r"[uU]", an.src.text_of(a)) else "long long"
            t = fnscopes.arg_type(an, a)
            if t is not None and t != fnscopes.LANE_MASK:
                return {"unsigned": "unsigned", "unsignedlonglong": "unsigned long long", "longlong": "long long",
                        "unsignedlong": "unsigned long"}.get(t, t)
            if a.type in ("binary_expression", "unary_expression") and \
                    an.src.text_of(a.child_by_field_name("operator")) in ("<", ">", "<=", ">=", "==", "!=", "&&", "||", "!"):
                return "bool"
    return None


def note_call(an, callee: Function, fn: Node | None, args: list[Node], at: Node) -> None:
    """Remember what the call makes the callee's returned template parameter (for `check_returns`)."""
    if template_return(callee) is None:
        return
    calls = an.__dict__.setdefault("_tret_calls", {})
    key = an.scopes.key(callee)
    seen = calls.setdefault(key, {})
    if at.id not in seen:
        seen[at.id] = (deduced(an, callee, fn, args), at)


def returned(an, ret: Node, facts: frozenset) -> None:
    """A return statement of the function analysed: a lane mask returned as a 32-bit type, or as a
    template parameter."""
    fn = an.fn
    if fn is None:
        return
    an.__dict__.setdefault("_return_facts", {})[ret.id] = (an.cur, ret, facts)
    rtype = fn.node.child_by_field_name("type")
    if (VOTE, -1) in facts and rtype is not None and an.is_int32(rtype):  # `unsigned f(...)`
        an.confirm({(WS, an.site(rtype, "type32"))}, f"'{fn.name}' returns a ballot mask", ret, kinds=(WS,))
    tp = template_return(fn)
    if tp is None or (VOTE, -1) not in facts:
        return
    an.__dict__.setdefault("_tret_sites", {})[an.cur] = ret
    sid = an.site(fn.node.child_by_field_name("type"), "type32")
    an.confirm({(WS, sid)}, f"is returned as the template parameter `{tp}` of '{fn.name}' (a caller's argument "
               "decides it: `int` for a predicate such as `1`)", ret, kinds=(WS,))


def check_returns(an) -> None:
    """After the fixpoint: a function whose returned template parameter holds a lane mask on one
    return and something else on another cannot return the lane-mask type: KP232, its site withdrawn."""
    facts = an.__dict__.get("_return_facts", {})
    for key, ret in an.__dict__.get("_tret_sites", {}).items():
        fn = an.scopes.function(key) or an.m.function_at(ret)
        rtype = fn.node.child_by_field_name("type")
        site = next((s for s in an.a.sites if s.role == "type32" and s.node == rtype and s.confirmed), None)
        if site is None:
            continue
        calls = list(an.__dict__.get("_tret_calls", {}).get(key, {}).values())
        if calls and all(t is not None and t in _WIDE for t, _ in calls):
            site.confirmed = False  # every call of the file makes T 64 bits: the mask fits
            continue
        narrow = next(((t, at) for t, at in calls if t is not None and t in INT32_TYPES), None)
        if narrow is not None:
            site.why = (f"is returned as the template parameter `{template_return(fn)}` of '{fn.name}', `{narrow[0]}` "
                        f"where `{' '.join(an.src.text_of(narrow[1]).split())}` is called at line "
                        f"{an.src.loc(narrow[1]).line}")
        plain = [r for k, r, f in facts.values() if k == key and (VOTE, -1) not in f]
        if not plain:
            continue
        site.confirmed = False
        an.a.issues.append(Issue(
            "KP232", rtype, f"'{fn.name}' returns a lane mask as its template parameter "
            f"`{an.src.text_of(rtype)}` (line {an.src.loc(ret).line}) and other values as well (line "
            f"{an.src.loc(plain[0]).line}): where a call makes it a 32-bit type the 64-lane ballot is cut "
            "to 32 bits, and returning the 64-bit lane-mask type would change the other values",
            key, "return the ballot from a function of its own whose return type is `unsigned long long` "
            "(or `auto`)"))


def _struct_field(an, base: Node, field: str) -> tuple[str, Node | None, object]:
    """(the struct's name, the field's declaration, the source file declaring it: this one or a
    header's) for `base.field` where `base` is a local or a by-value parameter of a struct type."""
    if base.type != "identifier" or an.fn is None:
        return "", None, None
    name = an.src.text_of(base)
    p = an.fn.param(name)
    tnode = an.decl_types.get((an.cur, name))
    t = _plain(p.type if p is not None and not p.pointer else an.src.text_of(tnode) if tnode is not None else "")
    t = t.removeprefix("struct ").strip()
    if not t:
        return "", None, None
    vis = an.m.visible
    others = vis.elsewhere.modules() if vis is not None and vis.elsewhere is not None else ()
    for src in (an.src, *(m.source for m in others)):  # this file's, then a header's (not rewritable here)
        for s in src.index.of_types("struct_specifier", "class_specifier"):
            n, body = s.child_by_field_name("name"), s.child_by_field_name("body")
            if n is None or body is None or src.text_of(n) != t:
                continue
            for d in body.named_children:
                if d.type == "field_declaration" and any(
                        src.text_of(x) == field for x in d.children_by_field_name("declarator")):
                    return t, d, src
            return t, None, None
    return t, None, None


def _layout_shared(an, struct: str) -> str | None:
    """Why the struct's layout is not the device code's alone (a kernel parameter, host code, sizeof), or None."""
    for f in an.m.functions.values():
        if f.is_kernel and any(_plain(p.type).removeprefix("struct ") == struct for p in f.params):
            return f"kernel '{f.name}' takes it as a parameter"
        if f.is_host and not f.is_device and f.body is not None and \
                re.search(rf"\b{re.escape(struct)}\b", an.src.text_of(f.body)):
            return f"host function '{f.name}' uses it"
    if re.search(rf"\bsizeof\s*\(\s*(struct\s+)?{re.escape(struct)}\s*\)", an.src.text):
        return "its size is taken (sizeof)"
    return None


def field_store(an, left: Node, facts: frozenset, at: Node) -> None:
    """`v.mask = ballot`: the field holds a lane mask (what reads of `v.mask` see); where the field is
    declared 32 bits, its type is a type32 site when the struct is this file's own and its layout the
    device code's alone (the port widens it), else KP232 at the store."""
    an.ex(left)
    if left.type != "field_expression":
        return
    base, fld = left.child_by_field_name("argument"), left.child_by_field_name("field")
    if base is None or fld is None or an.src.text_of(left.child_by_field_name("operator") or fld) == "->":
        return
    if base.type == "identifier":
        an.bind(f"{an.src.text_of(base)}.{an.src.text_of(fld)}", facts)
    if (VOTE, -1) not in facts:
        return
    struct, decl, src = _struct_field(an, base, an.src.text_of(fld))
    tnode = decl.child_by_field_name("type") if decl is not None else None
    if tnode is None or not is_int32(src.text_of(tnode), an.aliases):
        return
    here = src is an.src
    shared = _layout_shared(an, struct) if here else "it is declared in an included header, ported on its own"
    if shared is None and len(decl.children_by_field_name("declarator")) > 1:
        shared = "its declaration declares other fields with the same type"
    if shared is None:
        an.confirm({(WS, an.site(tnode, "type32"))}, f"'{struct}::{an.src.text_of(fld)}' holds a ballot mask", at,
                   kinds=(WS,))
    elif not any(i.node == at for i in an.a.issues):
        an.a.issues.append(Issue(
            "KP232", at, f"a ballot is stored in the 32-bit field '{an.src.text_of(fld)}' of '{struct}' (declared "
            f"`{src.text_of(tnode)}` at {'line ' if here else os.path.basename(src.path) + ':'}{src.loc(tnode).line}), whose "
            f"layout the port cannot widen: {shared}",
            an.scopes.key(an.fn) or None, "keep the mask in an `unsigned long long` local (or `auto`), or declare "
            "the field `unsigned long long`"))


def field_facts(an, n: Node) -> frozenset:
    """What `v.field` holds where the function stored a lane mask in it (field_store)."""
    base, fld = n.child_by_field_name("argument"), n.child_by_field_name("field")
    if base is None or fld is None or base.type != "identifier" or an.fn is None:
        return frozenset()
    return an.work.read(an.env, (an.cur, f"{an.src.text_of(base)}.{an.src.text_of(fld)}"))
