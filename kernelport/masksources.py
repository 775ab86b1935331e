"""Lane masks the warp-size dataflow (kernelport.warpflow) meets beyond the vote built-ins.

A ballot has one bit per lane: 64 bits on a 64-wide wave.  Besides `__ballot_sync` and
`__activemask`, real code makes lane masks with

- a cooperative group that spans the wave: `cg::coalesced_threads().ballot(p)` (HIP's
  `coalesced_group::ballot` returns `unsigned long long`; a fixed tile's ballot is the tile's);
- the PTX lane-mask registers read by inline assembly (`asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m))`):
  the port reads HIP's 64-bit equivalents, and a 32-bit holder cuts lanes 32-63;
- a project's own helpers in its headers: `activemask()` returning `__activemask()`, a `popc(uint32_t)`
  that every ballot is counted through (mallocMC);
- a function-like macro that only renames a built-in (`#define POPC(a) __popc(a)`, pytorch3d).

This module tells the dataflow about them; where the mask lands in 32 bits is the dataflow's
(a declaration, a return type, a parameter, a 32-bit bit operation).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from . import backends, dialect, fullmask
from .model import Module
from .warpsites import FULL, INT32_TYPES, LANE, LANE_OK, MASK as MASK_KIND, ONE, TID, VOTE, WS, int_value
from . import lazy_re

_LANEMASK_PTX = lazy_re.compile(r"%%?lanemask_(?:lt|le|gt|ge|eq)\b")
_LANEID_PTX = lazy_re.compile(r"^\W*mov\.u32\s+%0\s*,\s*%%?laneid\s*;?\W*$")  # (the read alone)
_LANEMASK_CALL = lazy_re.compile(r"\b__lanemask_(?:lt|le|gt|ge|eq)\s*\(")
_WAVE_GROUP = lazy_re.compile(r"\bcoalesced_(?:group|threads)\b")
_FORWARD = lazy_re.compile(r"\(?\s*(?:::)?([A-Za-z_]\w*)\s*\(([^()]*)\)\s*\)?")
MASK = frozenset({(VOTE, -1)})
# The compilers' own 32-bit bit operations, which count a ballot as `__popc` does (a project's host
# header, pulsar's `#define POPC(a) __builtin_popcount(a)`, is what an AMD build without
# `__CUDACC__` takes): the CUDA built-in each one is read as.
_BUILTIN_32 = {"__builtin_popcount": "__popc", "__builtin_ffs": "__ffs", "__builtin_clz": "__clz"}


def is_int32(type_text: str, aliases: dict[str, str]) -> bool:
    """`unsigned`, `uint32_t`, `std::uint32_t`, or a typedef of one (at most 8 deep)."""
    t = " ".join(type_text.split()).removeprefix("std::").removeprefix("const ")
    for _ in range(8):
        if t in INT32_TYPES:
            return True
        if t not in aliases:
            return False
        t = aliases[t]
    return False


def warp_word(an, cast: Node, facts: frozenset) -> frozenset:
    """The facts of a cast: `(unsigned)(ballot >> (lane & 32))` is the 32 bits of a wave's ballot that
    hold the caller's 32-lane warp, as a 32-bit word: a mask of 32 lanes at every wave width (a
    port's vote over a group of lanes, dialect.group_votes), no longer the wave's ballot."""
    t, v = cast.child_by_field_name("type"), _bare(cast.child_by_field_name("value"))
    if (VOTE, -1) not in facts or t is None or not is_int32(an.src.text_of(t), an.aliases) or \
            v is None or v.type != "binary_expression" or an.src.text_of(v.child_by_field_name("operator")) != ">>":
        return facts
    half = _bare(v.child_by_field_name("right"))
    if half is None or half.type != "binary_expression" or an.src.text_of(half.child_by_field_name("operator")) != "&":
        return facts
    sides = [_bare(half.child_by_field_name(f)) for f in ("left", "right")]
    for k, lane in ((0, 1), (1, 0)):
        if sides[k] is not None and sides[k].type == "number_literal" and \
                int_value(an.src.text_of(sides[k])) == 32 and _is_lane(an, sides[lane]):
            return facts - MASK
    return facts


def cut_to_32(an, tnode: Node | None, facts: frozenset, at: Node, functional: bool = False) -> None:
    """An explicit conversion of a wave's lane mask to a 32-bit type (`(unsigned)ballot`,
    `static_cast<uint32_t>(m)`): a store into that type, lanes 32-63 cut (WS008; the port widens the
    conversion's type, as a variable's).  `warp_word`'s 32-lane half has no mask facts left by then.
    A type the port cannot widen there (`typeof(x)`, a template parameter, a functional cast's): noted for
    opaque_mask_casts (KP232 where it stays 32 bits)."""
    if an.fn is None or tnode is None or (VOTE, -1) not in facts or \
            _fits_32(an, _bare(at.child_by_field_name("value") or at.child_by_field_name("arguments"))):
        return
    if an.is_int32(tnode) and not functional:
        an.confirm({(WS, an.site(tnode, "type32"))}, "a ballot mask converted to 32 bits", at, kinds=(WS,))
    else:
        from . import opaque_mask_casts
        opaque_mask_casts.note(an, tnode, facts, at, functional)


def _fits_32(an, v: Node | None) -> bool:
    """`(int)(ballot & once)`, once a 32-bit local or a literal below 2**32: the bits kept are a 32-bit
    word's, the conversion cuts no lane (the test of lanes 32-63 is not written there: nothing to widen)."""
    if v is None or v.type != "binary_expression" or an.src.text_of(v.child_by_field_name("operator")) != "&":
        return False
    for side in (_bare(v.child_by_field_name("left")), _bare(v.child_by_field_name("right"))):
        if side is None:
            continue
        if side.type == "number_literal":
            value = int_value(an.src.text_of(side))
            if value is not None and 0 <= value < 2 ** 32:
                return True
        elif side.type == "identifier":  # a 32-bit local holds no lane above 31, whatever flowed into it
            tnode = an.decl_types.get((an.cur, an.src.text_of(side)))
            if tnode is not None and an.is_int32(tnode):
                return True
    return False


def group_word(an, call: Node, mask: Node) -> bool:
    """A ballot whose mask is the caller's own aligned group of lanes (groupmasks proves it: NVlabs/
    CGBN's TPI groups): CUDA gives the group's bits at their lanes of the 32-lane warp, and a port
    keeps them there (dialect.group_votes), so it is a 32-lane word, not the wave's mask."""
    cache = an.__dict__.setdefault("_group_words", {})
    key = (call.start_byte, call.end_byte)
    if key not in cache:
        from . import groupmasks
        cache[key] = groupmasks.is_group(an.m, mask, an.m.function_at(call))
    return cache[key]


def _bare(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n


def _is_lane(an, n: Node | None) -> bool:
    """A backend's lane id built-in (`__lane_id()`: a port is read in the source dialect too), or a
    value the dataflow knows as a lane or thread id."""
    if n is None:
        return False
    if n.type == "call_expression" and an.src.text_of(n.child_by_field_name("function")) in {
            dialect.concept("lane_id").name(b) for b in backends.names()}:
        return True
    return bool({k for k, _ in an.ex(n)} & {TID, LANE, LANE_OK})


def group_ballot(an, fn: Node) -> bool:
    """`g.ballot(p)` where g is the wave's coalesced group (declared `coalesced_group`, or made by
    `coalesced_threads()` in the same function): a mask of the whole wave."""
    if fn.type != "field_expression" or an.src.text_of(fn.child_by_field_name("field")) != "ballot":
        return False
    obj = fn.child_by_field_name("argument")
    if obj is None:
        return False
    if obj.type == "call_expression":
        return _WAVE_GROUP.search(an.src.text_of(obj.child_by_field_name("function"))) is not None
    if obj.type != "identifier" or an.fn is None:
        return False
    name = an.src.text_of(obj)
    tnode = an.decl_types.get((an.cur, name))
    if tnode is not None and _WAVE_GROUP.search(an.src.text_of(tnode)):
        return True
    body = an.src.text_of(an.fn.body) if an.fn.body is not None else ""
    return re.search(rf"\b{re.escape(name)}\s*=\s*(?:\w+::)*coalesced_threads\s*\(", body) is not None


def asm_lane_masks(an, n: Node) -> None:
    """Inline assembly that reads a PTX lane-mask register: its output operands hold lane masks."""
    code = n.child_by_field_name("assembly_code")
    if code is not None and _LANEID_PTX.search(an.src.text_of(code)):  # `%laneid`: the port's `__lane_id()`, a
        for op in an.src.index.under(n, "gnu_asm_output_operand"):  # lane as `threadIdx.x & (warpSize - 1)` is
            v = op.child_by_field_name("value")
            if v is not None and v.type == "identifier":
                an.bind(an.src.text_of(v), frozenset({(LANE_OK, -1)}))
        return
    if code is None or not _LANEMASK_PTX.search(an.src.text_of(code)):
        return
    for op in an.src.index.under(n, "gnu_asm_output_operand"):
        v = op.child_by_field_name("value")
        if v is not None and v.type == "identifier":
            name = an.src.text_of(v)
            an.bind(name, MASK)
            an._check_store(name, MASK, op)


def lane_bit_holder(an, name: str, facts, tnode: Node | None) -> None:
    """A lane bit (`1u << lane`) stored in a 32-bit variable (`unsigned bit = 1u << lane;`): the
    port's `1ull` is cut back to 32 bits there, so lane 40's bit is 0.  The declaration's type
    travels with the variable as a mask site of its own: whatever combines the variable with a
    ballot confirms it with the `1u` (WS008; the port widens the type as it does a ballot's)."""
    if tnode is None or not an.is_int32(tnode):
        return
    if any(k == MASK_KIND and s >= 0 and an.a.sites[s].role == "one" for k, s in facts):
        sid = an.site(tnode, "type32")
        an.a.holders.setdefault(sid, set()).add(name)
        an.bind(name, frozenset({(MASK_KIND, sid)}))


def compound_assign(an, n: Node, op: str, left: Node, facts: frozenset) -> frozenset:
    """The facts of `x op= y` (`facts`: y's), read as the binary form, and a bit walked through the
    lanes one shift at a time: `bit <<= 1` in a loop, from `bit = 1`, names lane i's bit on the i-th
    pass as `1u << lane` does (AMReX's look-back tests a 64-lane ballot against such a `bit_mask`:
    a 32-bit one never reaches lanes 32-63).  It is a lane bit, a mask site where it meets a ballot
    (the 32-bit holder is one, lane_bit_holder); a bit walked over a data word meets none."""
    held = an.ex(left)
    if op != "<<=" or not _in_loop(n):
        return facts | held
    return held | {(MASK_KIND, s) for k, s in held if k == ONE and s >= 0}  # (the count is no bit of it)


def _in_loop(n: Node) -> bool:
    p = n.parent
    while p is not None and p.type not in ("function_definition", "lambda_expression"):
        if p.type in ("for_statement", "for_range_loop", "while_statement", "do_statement"):
            return True
        p = p.parent
    return False


def makes_mask(an, f, said: set[str]) -> bool:
    """Whether function `f` makes a lane mask from a source beyond the vote built-ins (warpreach's
    seed): a PTX lane-mask read, a wave group, or a header helper that returns a mask."""
    vis = an.m.visible
    helpers = vis.mask_helpers if vis is not None else {}
    if any(t in helpers and helpers[t].returns_mask for t in said) or not said.isdisjoint(("coalesced_threads", "coalesced_group")):
        return True
    text = an.src.text_of(f.node)
    return "lanemask" in text and bool(_LANEMASK_PTX.search(text) or _LANEMASK_CALL.search(text))


def forwarded(an, name: str) -> str:
    """The built-in a function-like macro only renames (`#define POPC(a) __popc(a)`: `__popc`),
    as the AMD build defines it, and a compiler's 32-bit builtin as its CUDA twin; `name` otherwise."""
    if name in an.m.functions:
        return name
    if name in _BUILTIN_32:
        return _BUILTIN_32[name]
    cache = an.__dict__.setdefault("_forwarded", {})
    if name not in cache:
        from . import hipbuild
        vis = an.m.visible
        macs = vis.hip_macros if vis is not None and vis.hip_macros else hipbuild.file_macros(an.src)
        mac = macs.get(name)
        m = _FORWARD.fullmatch(mac.body.strip()) if mac is not None and mac.params is not None else None
        args = [a.strip().strip("()").strip() for a in m.group(2).split(",")] if m and m.group(2).strip() else []
        callee = _BUILTIN_32.get(m.group(1), m.group(1)) if m is not None else None
        ok = m is not None and tuple(args) == tuple(mac.params) and dialect.spelled_by(an.dialect, callee)
        cache[name] = callee if ok else name
    return cache[name]


def check_param(an, callee, param, facts, at: Node) -> None:
    """A lane mask passed to a 32-bit parameter of a function of this file: the parameter's type."""
    tnode = param.node.child_by_field_name("type") if param.node is not None else None
    if tnode is not None and (VOTE, -1) in facts and not param.pointer and is_int32(an.src.text_of(tnode), an.aliases):
        sid = an.site(tnode, "type32")
        an.confirm({(WS, sid)}, f"'{param.name}' of '{callee.name}' receives a ballot mask", at, kinds=(WS,))


@dataclass(frozen=True)
class MaskHelper:
    """A device function of a header: whether it returns a lane mask, and its 32-bit parameters."""
    path: str
    line: int
    returns_mask: bool
    narrow: tuple[tuple[int, str, int, int], ...]  # (position, name, line, column) of each 32-bit parameter


def helpers(module: Module, path: str, known: dict[str, MaskHelper]) -> dict[str, MaskHelper]:
    """The device functions of `module` (a header) that return a lane mask or take a 32-bit
    integer: what a file including it needs to follow a mask into or out of them."""
    src = module.source
    out: dict[str, MaskHelper] = {}
    # Not only `__device__` ones: a header's attribute macro may be empty in the branch lint reads
    # (alpaka's ALPAKA_FN_ACC without Boost.Predef), and a mask only ever reaches device code.
    fns = [f for f in module.functions.values() if f.body is not None and not f.is_kernel]
    masks = {n for n, h in known.items() if h.returns_mask}
    changed = True
    while changed:  # a helper returning another helper's mask returns a mask
        changed = False
        for f in fns:
            if f.name not in masks and _returns_mask(src, f.body, masks):
                masks.add(f.name)
                changed = True
    for f in fns:
        narrow = []
        for i, p in enumerate(f.params):
            t = p.node.child_by_field_name("type") if p.node is not None else None
            if t is not None and not p.pointer and is_int32(src.text_of(t), {}):
                loc = src.loc(t)
                narrow.append((i, p.name, loc.line, loc.column))
        if f.name in masks or narrow:
            out[f.name] = MaskHelper(path, src.loc(f.node).line, f.name in masks, tuple(narrow))
    return out


def _returns_mask(src, body: Node, masks: set[str]) -> bool:
    text = src.text_of(body)
    if _LANEMASK_PTX.search(text):
        return True
    for r in src.index.under(body, "return_statement"):
        for c in src.index.under(r, "call_expression"):
            fn = c.child_by_field_name("function")
            name = src.text_of(fn).split("::")[-1] if fn is not None else ""
            found = dialect.spelled_by(backends.source().name, name)
            if name in masks or _LANEMASK_CALL.match(name + "(") or (
                    found is not None and found[0].key in ("ballot", "activemask")):
                return True
    return False


def header_call(an, n: Node, name: str, args: list[Node], arg_facts: list) -> frozenset | None:
    """A call to a helper of an included header: a 32-bit parameter given a lane mask is a site
    (the argument; the parameter is named as related), and a helper returning a mask returns one."""
    vis = an.m.visible
    h = vis.mask_helpers.get(name) if vis is not None else None
    if h is None:
        return None
    for pos, pname, line, col in h.narrow:
        if pos < len(args) and (VOTE, -1) in arg_facts[pos]:
            sid = an.site(args[pos], "arg32")
            an.a.sites[sid].origin = (h.path, line, col)
            an.confirm({(WS, sid)}, f"is passed to the 32-bit parameter '{pname}' of '{name}'", n,
                       kinds=(WS,))
    return MASK if h.returns_mask else None



def static_member(an, n: Node) -> frozenset:
    """A qualified constant read as a mask (`KernelTraits::shfl_mask`, decoding_attention's traits
    class as a template argument): CUDA's full mask where every class and namespace constant of that
    name, in the file and the headers it reads, is one (the argument's class is one of them)."""
    for c in n.named_children:  # what the dataflow read of its parts before (their sinks)
        an.ex(c)
    name = n
    while name is not None and name.type == "qualified_identifier":
        name = name.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return frozenset()
    vis = an.m.visible
    others = vis.elsewhere.modules() if vis is not None and vis.elsewhere is not None else ()
    values = [v for m in (an.m, *others) for v in _constants(m).get(name.text.decode(), ())]
    return frozenset({(FULL, -1)}) if values and all(fullmask.full_in(an.m, v) for v in values) else frozenset()


def full_constant(module: Module, text: str, depth: int = 3) -> bool:
    """Whether `text` names every lane of a wave of any width: all ones (`~0`, `-1`, 0xffffffff,
    the 64-bit all ones), or a constant or macro (`cudf::LANE_MASK_ALL`) whose every definition the
    file and the headers it reads give is one."""
    t = re.sub(r"\s+", "", text)
    if fullmask.full_in(module, t) or int_value(t) == (1 << 64) - 1:
        return True
    name = t.rsplit("::", 1)[-1]
    if depth == 0 or not re.fullmatch(r"[A-Za-z_]\w*", name):
        return False
    vis = module.visible
    values = [m.value for m in (vis.macros.get(name), vis.constants.get(name)) if m is not None] if vis else []
    others = vis.elsewhere.modules() if vis is not None and vis.elsewhere is not None else ()
    values += [v for m in (module, *others) for v in _constants(m).get(name, ())]
    return bool(values) and all(full_constant(module, v, depth - 1) for v in values)


def _constants(module: Module) -> dict[str, list[str]]:
    """Name -> initializer texts of the module's static data members and const namespace constants
    (a function's locals are not among them)."""
    got = module.__dict__.get("_kp_constants")
    if got is None:
        src, got, types = module.source, {}, {}
        for d in src.index.of_types("field_declaration", "declaration"):
            specs = {src.text_of(c) for c in d.children if c.type in ("storage_class_specifier", "type_qualifier")}
            if not specs & ({"static"} if d.type == "field_declaration" else {"const", "constexpr"}) or \
                    _in_body(d):
                continue
            decl, value = d.child_by_field_name("declarator"), d.child_by_field_name("default_value")
            if d.type == "declaration" and decl is not None and decl.type == "init_declarator":
                decl, value = decl.child_by_field_name("declarator"), decl.child_by_field_name("value")
            if decl is not None and value is not None and decl.type in ("identifier", "field_identifier"):
                got.setdefault(src.text_of(decl), []).append(src.text_of(value))
                ty = d.child_by_field_name("type")
                types.setdefault(src.text_of(decl), []).append(src.text_of(ty) if ty is not None else "")
        module.__dict__["_kp_constants"], module.__dict__["_kp_constant_types"] = got, types
    return got


_WIDE_TYPES = {"uint64_t", "int64_t", "unsigned long long", "unsigned long long int", "long long", "long long int",
               "unsigned __int64", "__int64", "uint64", "u64"}
_SIGNED_ALL_ONES = {"~0", "-1", "~0l", "~0ll", "~0ull", "~0ul", "-1l", "-1ll", "(~0)", "(-1)"}


def _wide_type(module: Module, text: str, depth: int = 3) -> bool:
    """`uint64_t`, `unsigned long long` or an alias of one (`using bitmask_type = uint64_t;`, the branch
    the headers take)."""
    t = " ".join(text.replace("std::", "").replace("const", "").replace("constexpr", "").split())
    if t in _WIDE_TYPES:
        return True
    from .warpsites import type_aliases
    name, vis = t.rsplit("::", 1)[-1], module.visible
    node = vis.types.get(name) if vis is not None and vis.types else None
    alias = node.text.decode(errors="replace") if node is not None else type_aliases(module.source).get(name)
    return depth > 0 and alias is not None and _wide_type(module, alias, depth - 1)


def wide_full(module: Module, text: str, depth: int = 3) -> bool:
    """Whether the mask `text` is all ones in 64 bits, naming every lane of a 64-wide wave: a 64-bit
    all-ones literal, `~0` or `-1` converted to a 64-bit type (`(uint64_t) ~0`), or a constant declared
    64-bit with such a value (hipDF's `constexpr bitmask_type LANE_MASK_ALL = ~0;`, bitmask_type a
    64-bit alias) in every definition the file and its headers give."""
    t = re.sub(r"\s+", " ", text).strip()
    while t.startswith("(") and t.endswith(")") and t.count("(") == 1:
        t = t[1:-1].strip()
    if int_value(t) == (1 << 64) - 1 or t.replace(" ", "").lower() in ("~0ull", "~0ll", "~0ul", "~0l"):
        return True
    cast = re.match(r"^(?:\(([\w: ]+)\)|static_cast<([\w: ]+)>)\s*\(?(.*?)\)?$", t)
    if cast is not None:
        inner = cast.group(3).strip()
        return _wide_type(module, cast.group(1) or cast.group(2)) and (
            inner.replace(" ", "") in _SIGNED_ALL_ONES or wide_full(module, inner, depth))
    name = t.rsplit("::", 1)[-1]
    if depth == 0 or not re.fullmatch(r"[A-Za-z_]\w*", name):
        return False
    vis = module.visible
    others = vis.elsewhere.modules() if vis is not None and vis.elsewhere is not None else ()
    found = []
    for m in (module, *others):
        _constants(m)
        found += zip(m.__dict__["_kp_constant_types"].get(name, ()), _constants(m).get(name, ()))
    return bool(found) and all(_wide_type(module, ty) and (v.replace(" ", "") in _SIGNED_ALL_ONES or
                                                         wide_full(module, v, depth - 1)) for ty, v in found)


def _in_body(n: Node) -> bool:
    """Whether `n` is in a function's body (a local, not a class's or a namespace's constant)."""
    while n.parent is not None and n.type != "compound_statement":
        n = n.parent
    return n.type == "compound_statement"
