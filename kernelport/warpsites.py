"""What the warp-size dataflow (warpflow.py) finds: fact kinds, sites, issues, the analysis result.

Translate rewrites the confirmed sites, lint reports them; both read these types only.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from typing import TYPE_CHECKING

from tree_sitter import Node

from .model import Module
from .source import uncomment
from . import lazy_re

if TYPE_CHECKING:
    from .warpwidth import Widths

# Fact kinds carried by values.  Sites are ints (index into Analysis.sites); -1 = no site.
TID, BDIM, VOTE, WRES, WS_OK, LANE_OK, WARP_OK = "tid", "bdim", "vote", "wres", "ws_ok", "lane_ok", "warp_ok"
WS, WS_M1, HALF, FIVE, ONE, FULL, LANE, WARP, MASK = "ws", "ws_m1", "half", "five", "one", "full", "lane", "warp", "mask"
OPAQUE = "opaque"  # a value from somewhere the analysis cannot see (a caller's variable, memory)

# Site roles that a warp-level sink confirms.
_SINK_KINDS = (WS, WS_M1, HALF, FIVE, LANE, WARP)

WARP_SIZE_NAME = lazy_re.compile(r"(?i)(^|_)(k_?)?(warp|wave(front)?|simd)_?(size|width|sz|len)$|threads_?per_?warp|"
                                 r"(^|_)warp_?threads$|^k(warp|wave)(size|width)$")
# a helper named for the lane or warp it computes (`lane_id()`): lint reports the 32s it returns
LANE_HELPER_NAME = lazy_re.compile(r"(?i)(^|_)(get_?)?(lane|warp|wave|simd)_?(id|idx|index|no|num)$|^laneid$|^warpid$")
INT32_TYPES = {"unsigned", "unsigned int", "int", "uint32_t", "int32_t", "uint", "unsigned long", "signed",
               "signed int"}


@lru_cache(maxsize=4096)  # a pure function of the text, asked for every literal of every pass (a few distinct texts)
def int_value(text: str) -> int | None:
    t = uncomment(text).strip().replace("'", "").rstrip("uUlL")
    try:
        if re.fullmatch(r"0[xX][0-9a-fA-F]+", t):
            return int(t, 16)
        if re.fullmatch(r"0[bB][01]+", t):
            return int(t[2:], 2)
        if re.fullmatch(r"0[0-7]*", t):
            return int(t, 8)
        if re.fullmatch(r"[1-9][0-9]*", t):
            return int(t)
    except ValueError:
        pass
    return None


@dataclass
class Site:
    """A piece of source whose meaning is the wave width (once confirmed)."""
    id: int
    node: Node
    role: str  # ws | ws_m1 | half | five | one | full | type32 | arg32 | bitop64 | full_value | ladder | ws_macro
    #                                  | ws_macro_use (a use here of a header's macro)
    #                                  | lane_macro_use, warp_macro_use (a header's lane index: header_lane_macros)
    function: str | None
    confirmed: bool = False
    why: str = ""  # which sink confirmed it
    sink: Node | None = None
    origin: tuple | None = None  # (path, line, column) of a header's parameter a mask is passed to (role arg32)


@dataclass
class Issue:
    """Something with no safe rewrite (translate stops) or worth a lint finding."""
    code: str
    node: Node
    message: str
    function: str | None
    hint: str = ""  # what to do instead (translate's refusal says it; a mask store's is translate's default)


@dataclass
class Analysis:
    """warpflow's result for a file: sites, issues and the per-function tables."""
    module: Module
    sites: list[Site] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    # Tables by function are keyed as fnscopes keys functions (`ns::S::f`, with an overload's arity
    # or types: fnscopes.of(module).key(f)), as are Site.function, Issue.function and the fn of
    # shuffle_masks and wave_shuffles: `tile::lane` never gets `warp::lane`'s facts.
    warp_level: set[str] = field(default_factory=set)
    logical_width: dict[str, int] = field(default_factory=dict)
    shuffle_masks: list[tuple[Node, str, str | None]] = field(default_factory=list)  # (mask node, class, fn)
    # shuffles at the default width, the whole wave: (call, concept key, function)
    wave_shuffles: list[tuple[Node, str, str | None]] = field(default_factory=list)
    # index shuffles with no width: (start, end) -> (lane is plain data, the value's fact kinds, function)
    abs_lanes: dict[tuple[int, int], tuple[bool, frozenset, str | None]] = field(default_factory=dict)
    calls: dict[str, set[str]] = field(default_factory=dict)  # function key -> the keys it calls
    # functions whose global-memory indices use a warp index from a hardcoded 32 (rows as warps)
    data_warps: dict[str, Node] = field(default_factory=dict)
    # `D / WARP` in device code: a run-time extent split over the lanes (kernelport/lane_shares.py), with its sites
    lane_shares: dict[str, tuple[Node, tuple[int, ...]]] = field(default_factory=dict)
    # functions using a library warp collective at its default width, the hardware warp (cub)
    wave_collectives: set[str] = field(default_factory=set)
    collective_types: dict[str, Node] = field(default_factory=dict)  # the first of each (its template type)
    # the width each warp-level group means (warpwidth.decide): the `widths` property; where nothing can
    # read or change a site by it, decided on first read (kernelport/lazy_widths.py: `_decide`)
    _widths: Widths | None = None
    # every sink that confirmed a site, by site id (Site.sink is the first): where its value is used
    sinks: dict[int, list[Node]] = field(default_factory=dict)
    # where a site's value became a lane or warp index (`tid % W`), by site id (warpflow._derivation)
    derivations: dict[int, list[Node]] = field(default_factory=dict)
    # the variables whose declared type is a type32 site, by site id: the declarators of a shared
    # declaration that hold a lane mask (declsplit: only they take the lane-mask type)
    holders: dict[int, set[str]] = field(default_factory=dict)

    _decide: object = field(default=None, repr=False, compare=False)  # lazy_widths.Deferred or None

    @property
    def widths(self) -> Widths | None:
        return self._decide() if self._decide is not None else self._widths  # (the cell keeps its log)

    @widths.setter
    def widths(self, w: Widths | None) -> None:
        self._widths, self._decide = w, None

    def confirmed(self) -> list[Site]:
        return [s for s in self.sites if s.confirmed]

    def sink_of(self, sid: int, sink: Node) -> Site:
        """Site `sid`, with `sink` noted among the warp-level uses that confirm it (`sinks`)."""
        seen = self.sinks.setdefault(sid, [])
        if sink not in seen:
            seen.append(sink)
        return self.sites[sid]

    def derived(self, n: Node, out: set, left: frozenset, extra=()) -> frozenset:
        """The facts `out | extra` of `n` (`tid % W`, `tid / W`, `tid & (W - 1)`, `tid >> 5`), noting
        `n` where it made a lane or warp index of a site's constant that its left side did not carry
        (`derivations`: lint names it beside a constant whose other uses are not lanes)."""
        for kind, sid in out:
            if sid >= 0 and kind in (LANE, WARP) and (kind, sid) not in left:
                seen = self.derivations.setdefault(sid, [])
                if n not in seen:
                    seen.append(n)
        return frozenset(out | set(extra))

    def private(self, module: Module) -> "Analysis":
        """This analysis for a translator that changes what it is given (Metal takes host code out):
        `module`, a model of the same text built apart, and sites of its own (it clears their
        `confirmed`); the rest is shared read-only.  What warpflow would compute for `module` again."""
        return replace(self, module=module, sites=[replace(s) for s in self.sites])


def macro_mask(module: Module, name: str) -> int | None:
    """A macro's value as a 32-bit mask, through parentheses, suffixes, casts, ~ and other macros
    (`#define WARP_MASK (FULL_MASK)`, `(0xFFFFFFFFu)`, `UINT32_MAX`): fullmask reads its spellings;
    a wider value is cut to the 32 bits CUDA's `unsigned` mask parameter keeps."""
    from . import fullmask
    v = fullmask.mask_value(name, fullmask.resolver(module))
    return v & 0xFFFFFFFF if v is not None else None


_PARENS = lazy_re.compile(r"^\s*\(+\s*([^()]*?)\s*\)+\s*$")  # a value in balanced parentheses, `((32))`


def macro_facts(an, name: str, node: Node | None) -> frozenset | None:
    """The facts of an object-like macro's value (None: not a macro whose value matters).

    A macro defined in this file makes its value a site (`ws_macro`: translate rewrites the
    definition).  One defined in an included header (`module.visible`) makes each use here a
    `ws_macro_use` site: lint reports it here, the header's port rewrites the definition.  The
    project's decision for a header macro (`visible.confirmed`) holds in every file that sees it.
    """
    vis = an.m.visible
    mac = an.m.macros.get(name)
    local = mac is not None
    if mac is None and vis is not None:
        mac = vis.macros.get(name) or vis.constants.get(name)  # a header's constants too (headerconsts)
    if mac is None or mac.value_node is None:
        return None
    v = int_value(_PARENS.sub(r"\1", mac.value))  # `#define WARP_SIZE (32)` is 32 too
    if v is None and not local and node is not None and getattr(an, "lint", False):  # a header's `(WARP_SIZE - 1)`,
        # `(threadIdx.x & 31)`: lint's reading only (translate ports the use as the header's port defines it)
        from . import header_lane_macros
        got = header_lane_macros.index_facts(an, mac, node)
        if got is not None:
            return got
        v = header_lane_macros.value(an, mac)
    decided = vis.confirmed.get(name) if vis is not None else None
    if v == 32:
        sid = an.site(mac.value_node, "ws_macro") if local else an.site(node, "ws_macro_use") if node is not None \
            else -1
        sink = mac.node if local else node
        if decided:
            an.confirm({(WS, sid)}, decided, sink, kinds=(WS,))
        elif WARP_SIZE_NAME.search(name) and an.a.warp_level:
            an.confirm({(WS, sid)}, f"'{name}' names the warp size", sink, kinds=(WS,))
        return frozenset({(WS, sid)})
    if v == 31:
        # a header's `#define LANE_MASK 31`: each use is a 31 of its own (as a header's 5 below), a site at the
        # use that reaches a warp-level sink (`__shfl_sync(m, v, LANE_MASK)`: lane 31 taken as the last)
        return frozenset({(WS_M1, an.site(mac.value_node, "ws_m1_macro") if local else
                           an.site(node, "ws_m1") if node is not None else -1)})
    if v == 5 and node is not None:
        # `#define LOG_WARP_SIZE 5`: each use is a `>> 5` of its own.  A use that reaches a warp-level
        # sink (`threadIdx.x >> LOG_WARP_SIZE` indexing per-warp slots) is a site at the use, which
        # translate rewrites as it does the literal's shift (`threadIdx.x / warpSize`); the definition
        # stays for the uses that are not about the wave.  (Before, only WARP_SIZE became the wave and
        # a helper's `lane = tid % WARP_SIZE`, `warp = tid >> LOG_WARP_SIZE` disagreed at wave 64.)
        return frozenset({(FIVE, an.site(node, "five"))})
    if local and node is not None and v is None:
        from .lane_macros import expression
        e = expression(an.src, mac)
        if e is not None:  # `#define LANE_ID (threadIdx.x % 32)`: its value read where it is written
            return an.ex(e)
    from . import fullmask
    if fullmask.full_in(an.m, mac.value):  # every spelling of all 32 lanes (`UINT32_MAX`, `(unsigned)-1`)
        return frozenset({(FULL, -1)})
    masks = an.__dict__.setdefault("_macro_masks", {})  # the model's macros are fixed during one analysis,
    if name not in masks:  # and the fixpoint asks for each name on every pass
        masks[name] = macro_mask(an.m, name)
    if masks[name] == 0xFFFFFFFF:
        return frozenset({(FULL, -1)})
    return None


def last_lane(src, param: str, arg: Node, facts) -> bool:
    """A shuffle's argument that is lane 31 itself: the literal, or (as its source lane) a name whose only
    value is a 31 (a header's `#define LANE_MASK 31`: the dataflow's WS_M1 fact, no arithmetic around it)."""
    if arg.type == "number_literal":
        return int_value(src.text_of(arg)) == 31
    return param == "lane" and arg.type == "identifier" and bool(facts) and all(k == WS_M1 for k, _ in facts)


# Statements whose body may be one statement with no braces: a ladder step there that gains its
# wide step needs a block around the two.
BODY_OF = ("if_statement", "else_clause", "for_statement", "while_statement", "do_statement", "for_range_loop")
_WIDE_GUARD = lazy_re.compile(r"^\(\s*(\w+)\s*>\s*32\s*(&&.*)?\)$", re.S)  # `&& (n >= 64)`: a guarded step's test


def guarded_wide_step(src, call: Node) -> bool:
    """`if (warpSize > 32) v += __shfl_xor(v, warpSize / 2);` right before the step at 16 (what
    translate writes for an unrolled ladder): the ladder folds every lane of a wide wave."""
    from . import backends, dialect
    stmt = call
    while stmt is not None and stmt.type != "expression_statement":
        stmt = stmt.parent
    prev = stmt.prev_named_sibling if stmt is not None else None
    if prev is None or prev.type != "if_statement":
        return False
    cond = prev.child_by_field_name("condition")
    m = _WIDE_GUARD.match(src.text_of(cond).strip()) if cond is not None else None
    return m is not None and m.group(1) in {dialect.concept("warp_size").spelling(b.name) for b in backends.all()}


def is_reference(param: Node) -> bool:
    """A C++ reference parameter (`int& l`): the callee's stores are the caller's."""
    d = param.child_by_field_name("declarator")
    return d is not None and d.type == "reference_declarator"


def names_memory(fn, key: str, memory: dict, shared: set, name: str) -> bool:
    """`name` is a pointer or an array in `fn` (whose key in `memory` is `key`): a pointer
    parameter, a local, shared memory."""
    if fn is None:
        return False
    p = fn.param(name)
    return (p is not None and p.pointer) or (key, name) in memory or name in shared


def is_address(an, n: Node) -> bool:
    """`d + tid % 32` with `d` a pointer or an array: an address, not a lane (its loads are data); and
    `0x20 - (0x1f & reinterpret_cast<uintptr_t>(p))`: bytes to an alignment of a pointer's address."""
    return any(c is not None and (c.type == "identifier" and names_memory(an.fn, an.cur, an.memory, an.shared_names,
                                                                        an.src.text_of(c)) or _address_bits(an, c))
               for c in (n.child_by_field_name("left"), n.child_by_field_name("right")))


_ADDRESS_INT = lazy_re.compile(r"(?:reinterpret_cast\s*<\s*(?:std::)?u?intptr_t\s*>|\(\s*(?:std::)?u?intptr_t\s*\))")


def _address_bits(an, n: Node) -> bool:
    """A pointer's address as an integer (`reinterpret_cast<uintptr_t>(p)`, `(uintptr_t)p`), or its
    low bits (`x & that`), through parentheses."""
    while n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    if n.type in ("call_expression", "cast_expression"):
        return _ADDRESS_INT.match(an.src.text_of(n)) is not None
    if n.type == "binary_expression" and an.src.text_of(n.child_by_field_name("operator")) in ("&", "%"):
        return any(c is not None and _address_bits(an, c)
                   for c in (n.child_by_field_name("left"), n.child_by_field_name("right")))
    return False


def declares_memory(d: Node) -> bool:
    """A declarator of a pointer or an array (`unsigned* w = ...`, `unsigned m[4]`)."""
    inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
    return inner is not None and inner.type in ("pointer_declarator", "array_declarator")


def shuffled_name(src, n: Node | None, dialect_name: str) -> str | None:
    """The variable a shuffle broadcasts (`__shfl_sync(m, word[i], j)` -> `word`), through parentheses."""
    from . import dialect
    from .source import call_args
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    fnode = n.child_by_field_name("function") if n is not None and n.type == "call_expression" else None
    found = dialect.spelled_by(dialect_name, src.text_of(fnode)) if fnode is not None else None
    if found is None or found[0].kind != "shuffle":
        return None
    names, args = dialect.call_params(found[0], found[1])[0], call_args(n)
    if "value" not in names or names.index("value") >= len(args):
        return None
    v = args[names.index("value")]
    while v.type == "subscript_expression":
        v = v.child_by_field_name("argument")
    return src.text_of(v) if v.type == "identifier" else None


# the body of an object-like macro that names a type: C's type words (`unsigned int`, `long long`) or
# a <cstdint>/<cstddef> name (`uint32_t`, `std::uint64_t`, `size_t`); other names only where the file
# typedefs them (a macro renaming a function, `#define my_min fminf`, is not a type)
_TYPE_MACRO_BODY = lazy_re.compile(r"^(?:(?:(?:un)?signed|int|long|short|char|bool)(?:\s+|$))+$|"
                                   r"^(?:std::)?(?:u?int(?:8|16|32|64)_t|u?intptr_t|size_t|ptrdiff_t)$")


def _scope_prefix(src, n) -> str:
    """`A::B::` of the named classes and namespaces around `n` (`` at file scope)."""
    parts = []
    p = n.parent
    while p is not None:
        if p.type in ("struct_specifier", "class_specifier", "union_specifier", "namespace_definition"):
            name = p.child_by_field_name("name")
            if name is None:
                return ""  # (an anonymous one: no qualified name reaches it)
            parts.append(src.text_of(name))
        p = p.parent
    return "".join(f"{x}::" for x in reversed(parts))


def type_aliases(src) -> dict[str, str]:
    """`typedef unsigned int uint;`, `using mask_t = uint32_t;` outside function bodies: name -> type
    (read from the node index: a walk of every node outside statements cost more than the rest).
    An object-like macro whose body names a type (`#define WORD uint32_t`) is an alias too: a ballot
    kept in a `WORD` is kept in 32 bits as surely as in a typedef's; where a name is defined more
    than once (under `#if` branches), a 32-bit definition wins, so the hazard is not missed."""
    out: dict[str, str] = {}
    for n in src.index.of_types("type_definition", "alias_declaration"):
        p = n.parent
        while p is not None and not p.type.endswith("statement"):
            p = p.parent
        if p is not None:
            continue  # in a function body
        scope = _scope_prefix(src, n)  # `struct Cfg { using Mask = uint32_t; }`: `Cfg::Mask` too
        names = [src.text_of(d) for d in n.children_by_field_name("declarator")] if n.type == "type_definition" \
            else [src.text_of(n.child_by_field_name("name"))]
        for name in names:
            out[name] = " ".join(src.text_of(n.child_by_field_name("type")).split())
            if scope:
                out[scope + name] = out[name]
    typedefs = set(out)
    for n in src.index.of_types("preproc_def"):
        name, value = n.child_by_field_name("name"), n.child_by_field_name("value")
        body = " ".join(uncomment(src.text_of(value)).split()) if value is not None else ""
        if name is None or name.type != "identifier" or not (_TYPE_MACRO_BODY.match(body) or body in typedefs):
            continue
        if src.text_of(name) not in out or body.removeprefix("std::") in INT32_TYPES:
            out[src.text_of(name)] = body
    return out
