"""Warp-size dataflow: which 32s, 31s, 16s, `>> 5`s and 32-bit masks are about the wave width.

A literal is never judged by its value alone.  Values are followed from their sources (thread ids, block dims,
warp-size constants, votes) through assignments, helper calls and returns to warp-level sinks (shuffle lanes and
deltas, mask arithmetic with a ballot, per-warp shared slots, leader tests in warp-level code).  Only a literal
whose value reaches such a sink becomes a confirmed *site*; a `TILE_DIM 32` tile or `idx >> 5` into a bitset never
reaches one and stays untouched.  Translate rewrites confirmed sites, lint reports them.  The analysis is
flow-insensitive per function and iterated to a fixpoint over the call graph.
"""
from __future__ import annotations

from tree_sitter import Node

from . import abslanes, backends, dialect, fnscopes, launchrows, maskmemory, masksources, memberlanes
from . import declkeys, declsplit, fullmask, masktypes, shufflewrappers, templateargs, warpreach, warpshapes, warpwidth
from . import braced_scalars, collective_widths, lane_shares, header_full_masks, header_lane_macros, lazy_widths
from . import opaque_mask_casts, warpbinary, warpcounts, xorexchange
from .model import Function, Module
from .reached import reached
from .source import call_args, ident_name
from .fnscopes import callers_closure  # (lint's divergence pass imports it from here too)
from .sweeps import Sweeps
from .warpsites import declares_memory, guarded_wide_step, is_reference as _is_reference, macro_facts, type_aliases
from .warpsites import (  # noqa: F401  (translate and lint import them from here too)
    TID, BDIM, VOTE, WRES, WS_OK, LANE_OK, WARP_OK, WS, WS_M1, HALF, FIVE, ONE, FULL, LANE, WARP, MASK, last_lane,
    OPAQUE, _SINK_KINDS, WARP_SIZE_NAME, INT32_TYPES, int_value, Site, Issue, Analysis, shuffled_name)
# Any other number: as a mask, only some lanes; joined with a full one (`c ? ~0u : 0xffff`), partial.
_SOME_LANES = frozenset({(OPAQUE, -2)})


class _Analyzer:
    def __init__(self, module: Module, kept_collectives: bool = False, lint: bool = False):
        self.m, self.kept, self.lint = module, kept_collectives, lint
        self.src = module.source
        self.dialect = backends.source().name  # the code analysed is in the source dialect
        self.a = Analysis(module)
        self._site_by_node: dict[tuple[int, int, str], int] = {}
        self.env: dict[tuple[str, str], frozenset] = {}
        self.returns: dict[str, frozenset] = {}
        self.decl_types: dict[tuple[str, str], Node] = {}
        self.memory: dict[tuple[str, str], Node] = {}  # local pointers and arrays: their element type
        self.shared_names = {s.name for s in module.shared}
        self.loops: list[tuple[str, str, Node]] = []  # (function, induction var, for node)
        self.shuffle_vars: set[tuple[str, str]] = set()
        self.warp_arrays: dict[str, Node] = {}  # shared arrays indexed by confirmed lane/warp values
        self.changed = False
        self.fn: Function | None = None
        self.cur = ""  # the key of the function analysed (fnscopes: its qualified name), '' at file scope
        self.scopes = fnscopes.of(module)
        self.warp_keys: set[str] = set()  # the keys of the warp-level functions (a.warp_level too)
        self.work = Sweeps(module, list(module.functions.values()), self.scopes.key)
        self.aliases: dict[str, str] = {}
        self.width_params: dict[str, tuple[int, str]] = {}  # helper -> (its width parameter, the shuffle)
        self._literals: dict[int, frozenset] = {}  # number literal node -> its facts
        self.members = memberlanes.MemberLanes(self)

    # -- sites ------------------------------------------------------------------------------
    def site(self, node: Node, role: str) -> int:
        key = (node.start_byte, node.end_byte, role)
        if key not in self._site_by_node:
            fn = self.m.function_at(node)
            self._site_by_node[key] = len(self.a.sites)
            self.a.sites.append(Site(len(self.a.sites), node, role, self.scopes.key(fn) or None))
        return self._site_by_node[key]

    def confirm(self, facts, why: str, sink: Node, kinds=_SINK_KINDS) -> None:
        for kind, sid in facts:
            if sid >= 0 and kind in kinds:
                s = self.a.sink_of(sid, sink)
                if not s.confirmed:
                    s.confirmed, s.why, s.sink = True, why, sink
                    self.changed = True
                    self.work.confirmed()

    # -- environment ------------------------------------------------------------------------
    def bind(self, name: str, facts) -> None:
        key = (self.cur, name)
        old = self.env.get(key, frozenset())
        new = old | facts
        if new != old:
            self.env[key] = new
            self.changed = True
            self.work.touch(self.fn, key)

    def lookup(self, name: str, node: Node | None = None) -> frozenset:
        if self.fn is not None and ((key := declkeys.key(self, node, name)) != name or self.work.has(self.env, (self.cur, name))):
            got = self.work.read(self.env, (self.cur, key))  # (declkeys: a scope's own key, and the name's)
            return got if key == name else got | self.work.read(self.env, (self.cur, name))
        if ("", name) in self.env:
            return self.env[("", name)]
        facts = macro_facts(self, name, node)  # this file's macros, then the includes' (project)
        if facts is not None:
            return facts
        if name == "warpSize" or name in getattr(self.m.visible, "wave_widths", ()):  # (headerconsts.wave_widths)
            return frozenset({(WS_OK, -1)})
        if fullmask.full_name(self.m, name) or header_full_masks.full_mask_constant(self.m, name):
            return frozenset({(FULL, -1)})  # `UINT32_MAX`, a header's `constexpr uint32_t FULL = 0xffffffff`
        return frozenset()

    # -- expressions ------------------------------------------------------------------------
    def ex(self, n: Node | None) -> frozenset:
        if n is None:
            return frozenset()
        t = n.type  # (the kinds most read first: identifiers, binary expressions, literals)
        if t == "identifier":
            return self.lookup(self.src.text_of(n), n)
        if t == "binary_expression":
            return warpbinary.binary(self, n)
        if t == "number_literal":  # the same facts on every pass (its site is made on the first)
            facts = self._literals.get(n.id)
            return facts if facts is not None else self._literals.setdefault(n.id, self._literal(n))
        if t == "qualified_identifier":  # `Traits::mask`: masksources.static_member
            return masksources.static_member(self, n)
        if t == "field_expression":
            base = n.child_by_field_name("argument")
            name = self.src.text_of(base)
            c = dialect.lookup(self.dialect, name)
            if c is not None and c.key in ("thread_idx",):
                return frozenset({(TID, -1)})
            if c is not None and c.key in ("block_dim",):
                return frozenset({(BDIM, -1)})
            if c is not None and c.key in ("block_idx", "grid_dim"):
                return frozenset()
            return self.ex(base) | masktypes.field_facts(self, n)  # `v.mask`: a ballot stored in the field
        if t in ("parenthesized_expression",):
            return self.ex(n.named_children[0]) if n.named_children else frozenset()
        if t == "cast_expression":  # `(unsigned)(ballot >> (lane & 32))`: its warp's 32 bits, no wave mask
            facts = masksources.warp_word(self, n, self.ex(n.child_by_field_name("value")))
            masksources.cut_to_32(self, n.child_by_field_name("type"), facts, n)  # `(unsigned)ballot`: cut
            return facts
        if t == "unary_expression":
            op = self.src.text_of(n.child_by_field_name("operator"))
            arg = n.child_by_field_name("argument")
            if arg is not None and arg.type == "number_literal" and fullmask.full_in(self.m, self.src.text_of(n)):
                return frozenset({(FULL, -1)})  # `~0u`, `-1`
            f = self.ex(arg)
            return f if op in ("-", "~", "+") else frozenset()
        if t == "conditional_expression":
            self.ex(n.child_by_field_name("condition"))
            return self.ex(n.child_by_field_name("consequence")) | self.ex(n.child_by_field_name("alternative"))
        if t == "assignment_expression":
            return self.assign(n)
        if t == "call_expression":  # `std::numeric_limits<uint32_t>::max()`, `static_cast<unsigned>(-1)`: all lanes
            return frozenset({(FULL, -1)}) if fullmask.full_call(self.m, self.src, n) else self.call(n)
        if t == "subscript_expression":
            return self.subscript(n)
        if t == "comma_expression":
            self.ex(n.child_by_field_name("left"))
            return self.ex(n.child_by_field_name("right"))
        if t in ("pointer_expression", "update_expression"):
            return self.ex(n.child_by_field_name("argument"))
        if t == "lambda_expression" and n.child_by_field_name("body") is not None:  # statements (a mask declared there)
            return self.stmt(n.child_by_field_name("body")) or frozenset()
        if t == "gnu_asm_expression":  # PTX lane-mask reads bind their outputs to a lane mask
            masksources.asm_lane_masks(self, n)
        # Anything else (literals, sizeof, lambdas...): visit children for their sinks.
        for c in n.named_children:
            self.ex(c)
        return frozenset()

    def _literal(self, n: Node) -> frozenset:
        if self.src.text_of(n).replace(" ", "") == "-1":
            return frozenset({(FULL, -1)})  # all ones as an unsigned mask, at any width (no value to rewrite)
        v = int_value(self.src.text_of(n))
        if v == 32:
            return frozenset({(WS, self.site(n, "ws"))})
        if v == 31:
            return frozenset({(WS_M1, self.site(n, "ws_m1"))})
        if v == 16:
            return frozenset({(HALF, self.site(n, "half"))})
        if v == 5:
            return frozenset({(FIVE, self.site(n, "five"))})
        if v == 1:
            return frozenset({(ONE, self.site(n, "one"))})
        if fullmask.full_in(self.m, self.src.text_of(n)):  # `0xffffffff`, `037777777777`, `0xffff'ffff`
            return frozenset({(FULL, self.site(n, "full_value"))})
        return _SOME_LANES if v is not None else frozenset()

    def assign(self, n: Node) -> frozenset:
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        op = self.src.text_of(n.child_by_field_name("operator"))
        R = self.ex(right)
        if op != "=":
            # `x >>= 5`, `x &= 31`... are the binary forms (a bit walked by `<<=`: masksources).
            R = masksources.compound_assign(self, n, op, left, R)
        if left.type == "identifier":
            name = self.src.text_of(left)
            self.bind(declkeys.key(self, left, name), R)
            self._check_store(name, R, n)
        elif left.type == "subscript_expression":
            self.subscript(left, store=R)
        else:  # (its parts' sinks; `v.mask = ballot`: a 32-bit field, masktypes)
            masktypes.field_store(self, left, R, n)
        return R

    def _check_store(self, name: str, facts, at: Node) -> None:
        declsplit.check_store(self, name, facts, at)  # a ballot in a 32-bit local or file-scope variable

    def is_int32(self, tnode: Node) -> bool:
        return masksources.is_int32(self.src.text_of(tnode), self.aliases)

    def subscript(self, n: Node, store=None) -> frozenset:
        arr = n.child_by_field_name("argument")
        idx_nodes = n.child_by_field_name("indices")
        idx = frozenset()
        for c in (idx_nodes.named_children if idx_nodes is not None else []):
            idx |= self.ex(c)
        base = arr
        while base.type == "subscript_expression":
            inner = base.child_by_field_name("indices")
            for c in (inner.named_children if inner is not None else []):
                idx |= self.ex(c)
            base = base.child_by_field_name("argument")
        while base.type == "parenthesized_expression" and base.named_children:  # (lanes)[0] is lanes[0]
            base = base.named_children[0]
        name = self.src.text_of(base) if base.type == "identifier" else None
        if name in self.shared_names:
            kinds = {k for k, _ in idx}
            if ({WARP, LANE, WARP_OK, LANE_OK} & kinds) and self.fn is not None and self.cur in self.warp_keys:
                self.confirm(idx, f"indexes the per-warp shared array '{name}'", n)
                if name not in self.warp_arrays:
                    self.warp_arrays[name] = n
                    self.changed = True
                    self.work.touch_all()
        if name is not None and name not in self.shared_names and self.fn is not None and \
                (p := self.fn.param(name)) is not None and p.pointer and \
                any(k == WARP and sid >= 0 and self.a.sites[sid].role != "ws_macro" for k, sid in idx):
            self.a.data_warps.setdefault(self.cur, n)  # rows as warps: the data layout says 32
        if name is not None:
            if store is not None:
                self.bind("[]" + name, store)
                if (VOTE, -1) in store:
                    maskmemory.check_store(self, name, n)
            return self.lookup("[]" + name)
        self.ex(base)
        return frozenset()

    def call(self, n: Node) -> frozenset:
        fn = n.child_by_field_name("function")
        args = call_args(n)
        arg_facts = shufflewrappers.ladder_facts(self, n, args, [self.ex(a) for a in args])  # an own wrapper's step 16
        name = fnscopes.callee_name(fn)
        if fn is not None and fn.type in ("primitive_type", "type_identifier", "sized_type_specifier") and \
                len(arg_facts) == 1:
            masksources.cut_to_32(self, fn, arg_facts[0], n, functional=True)  # `uint32_t(ballot)`: opaque_mask_casts
            return arg_facts[0]  # a functional cast: uint32_t(-1)
        if fn is not None and fn.type == "template_function" and name == "static_cast" and len(arg_facts) == 1:
            targs = fn.child_by_field_name("arguments")  # `static_cast<uint32_t>(ballot)`: as `(uint32_t)ballot`
            masksources.cut_to_32(self, targs.named_children[0] if targs is not None and targs.named_children
                                  else None, arg_facts[0], n)
            return arg_facts[0]
        if name is None:
            if fn is not None:
                self.ex(fn)
            return masksources.MASK if fn is not None and masksources.group_ballot(self, fn) else frozenset()
        found = self.concept_call(masksources.forwarded(self, name))
        if found is not None:
            c, params = found
            bound_idx = dict(zip(params, range(len(args))))
            if (mi := bound_idx.get("mask")) is not None and c.kind in ("shuffle", "warp_reduce", "cuda_only"):
                self._classify_mask(args[mi], arg_facts[mi])  # (a reduction, a match: ported with the full one only)
            if c.warp_level and c.kind == "cuda_only":  # __match_any_sync's lanes: 64 bits at wave 64, as a ballot's
                return frozenset({(VOTE, -1)})
            if c.kind == "shuffle":
                width = bound_idx.get("width")  # a literal one, or cub's `ShuffleDown<16>`: a logical group
                literal_width = warpshapes.literal_width(self.src, n, args[width] if width is not None else None) is not None \
                    or (width is None and shufflewrappers.default_width(self.m, name) is not None)
                if width is None and not literal_width:  # (abslanes notes `__shfl_sync(m, v, 3)`: whose lane 3)
                    self.a.wave_shuffles.append(abslanes.note(self, n, c, bound_idx, arg_facts))
                if not literal_width:
                    for p in ("lane", "delta", "lanemask", "width"):
                        if p in bound_idx:
                            i = bound_idx[p]
                            a = args[i]
                            if a.type == "number_literal" and int_value(self.src.text_of(a)) == 16 and p != "width":
                                if guarded_wide_step(self.src, n) or (p == "lanemask" and xorexchange.exchange_step(self, n, a)):
                                    continue  # the step at 32 is there; or a 32-lane butterfly's exchange, right at 64
                                sid = self.site(a, "ladder")
                                self.confirm({(WS, sid)}, "an unrolled shuffle ladder starts at 16", n, kinds=(WS,))
                            elif last_lane(self.src, p, a, arg_facts[i]):  # 31, or a name for it (LANE_MASK)
                                self.confirm(arg_facts[i], "the last lane of a warp", n)
                            elif a.type == "number_literal":  # lane 5 is lane 5: only a 32 is the width here
                                self.confirm(arg_facts[i], f"reaches the {p} of {name}", n, kinds=(WS,))
                            elif p == "width":  # only the full warp is the wave width; 16 is a logical width
                                self.confirm(arg_facts[i], f"reaches the {p} of {name}", n, kinds=(WS,))
                            else:
                                self.confirm(arg_facts[i], f"reaches the {p} of {name}", n)
                            self.shuffle_vars.update((self.cur, v) for v in self.src.texts_under(a, "identifier"))
                return frozenset({(WRES, abslanes.INDEXED if c.key == "shfl" else -1)})
            if c.kind == "vote":  # a ballot over the caller's own group of lanes: a 32-lane word (masksources)
                mi = bound_idx.get("mask")
                group = mi is not None and self._classify_mask(args[mi], arg_facts[mi]) == "partial" and \
                    c.key == "ballot" and masksources.group_word(self, n, args[mi])
                return frozenset({(VOTE, -1)}) if c.key in ("ballot", "activemask") and not group else frozenset()
            if c.key == "syncwarp":
                if args:
                    self._classify_mask(args[0], arg_facts[0])
                return frozenset()
            if c.kind == "bitop" and args:
                self.work.reads_confirmed(self.fn)
                kinds = {k for k, _ in arg_facts[0]}
                if c.key in ("popc", "ffs", "clz", "brev") and (VOTE in kinds or any(
                        k == MASK and self.a.sites[s].confirmed for k, s in arg_facts[0])):
                    sid = self.site(n, "bitop64")
                    self.confirm({(WS, sid)}, f"{name} of a lane mask counts only 32 lanes", n, kinds=(WS,))
                return frozenset(f for f in arg_facts[0] if f[0] == VOTE and c.key == "brev") | (  # reversed: a mask
                    masktypes.MASK_LANE if c.key == "ffs" and VOTE in kinds else frozenset())  # a voting lane
            return frozenset(f for fs in arg_facts for f in fs if f[0] in (TID, LANE, WARP))
        votes = {a.id for a, fs in zip(args, arg_facts) if any(k == VOTE for k, _ in fs)}  # a lane mask's word
        callees = self.scopes.resolve(self.fn, fn, args, lambda a: fnscopes.lane_mask_type(fnscopes.arg_type(self, a))
                                      if a.id in votes else fnscopes.arg_type(self, a))
        for callee in callees:  # the definitions C++ would call (fnscopes); facts join where it is ambiguous
            ck = self.scopes.key(callee)
            templateargs.bind(self, fn, callee)  # `merge<K, V, 16>(k, v)`: 16 binds the template's L
            masktypes.note_call(self, callee, fn, args, n)  # what T a `T f(...)` returns here (masktypes)
            if ck in self.width_params and len(args) <= self.width_params[ck][0]:
                self.a.wave_shuffles.append((n, self.width_params[ck][1], self.cur or None))
            for p, f, a in zip(callee.params, arg_facts, args):
                f = f or frozenset({(OPAQUE, -1)})  # the caller's value came from where we cannot see
                key = (ck, p.name)
                old = self.env.get(key, frozenset())
                if not f <= old:
                    self.env[key] = old | f
                    self.changed = True
                    self.work.touch_name(ck)
                masksources.check_param(self, callee, p, f, n)
                if a.type == "identifier" and _is_reference(p.node):
                    # `void lane_of(int& l) { l = tid % 32; }`: what the callee stores reaches the caller
                    self.bind(self.src.text_of(a), self.work.read(self.env, key) - {(OPAQUE, -1)})
        if callees:
            return frozenset().union(*(self.returns.get(self.scopes.key(c), frozenset()) for c in callees))
        if (got := masksources.header_call(self, n, name, args, arg_facts)) is not None:
            return got
        if name in INT32_TYPES or name in ("uint32_t", "int32_t", "unsigned", "uint64_t", "size_t") or \
                name in self.aliases:
            return arg_facts[0] if len(arg_facts) == 1 else frozenset()  # a functional cast: uint32_t(-1)
        if getattr(self, "lint", False) and (got := header_lane_macros.call_facts(self, n, name, arg_facts)) is not None:
            return got  # a header's `#define LANE_OF(t) ((t) & 31)` given a thread index
        # Unknown function (math, user macros): values pass through.
        return frozenset(f for fs in arg_facts for f in fs if f[0] in (TID, LANE, WARP, WS, WS_M1))

    def concept_call(self, name: str):
        """(concept, positional parameter names) of a call to a dialect name or to a library's warp
        helper that this file does not define itself; None for anything else."""
        found = dialect.spelled_by(self.dialect, name)
        if found is not None:
            return found[0], dialect.call_params(*found)[0]
        lib = shufflewrappers.library_call(self.m, self.dialect, name)  # a library's, or an included header's
        return (lib[0], lib[1]) if lib is not None else None

    def _classify_mask(self, node: Node, facts) -> str:
        kinds = {k for k, _ in facts}
        cls = "partial" if OPAQUE in kinds else "full" if FULL in kinds else "active" if VOTE in kinds else "partial"
        self.a.shuffle_masks.append((node, cls, self.cur or None))
        return cls

    # -- statements -------------------------------------------------------------------------
    def stmt(self, n: Node) -> None:
        t = n.type
        if t == "comment":
            return  # (a comment between statements: no children, nothing below would read it)
        if t == "declaration":
            tnode = n.child_by_field_name("type")
            for d in n.children_by_field_name("declarator"):
                name = ident_name(d)
                if name and tnode is not None:  # ('', name): a file-scope variable (declsplit)
                    self.decl_types[(self.cur, name)] = tnode
                    if declares_memory(d) and self.fn is not None:
                        self.memory[(self.cur, name)] = tnode
                init = d.child_by_field_name("value") if d.type == "init_declarator" else None
                if init is not None and name and d.child_by_field_name("declarator") is not None and \
                        d.child_by_field_name("declarator").type == "pointer_declarator" and \
                        any(v in self.shared_names for v in self.src.texts_under(init, "identifier")):
                    self.work.grow(self.shared_names, name)  # float* base = smem + off: a pointer into shared memory
                if init is not None and name:
                    if init.type == "initializer_list" and (one := braced_scalars.braced_scalar(tnode, d, init)) is None:
                        for c in init.named_children:
                            self.ex(c)
                        continue
                    f = self.ex(one if init.type == "initializer_list" else init)  # `int tid{e}`: `int tid = e`
                    self.bind(declkeys.key(self, declkeys.declared(d) or d, name), f)
                    self._check_store(name, f, d)
                    if WARP_SIZE_NAME.search(name) and self.a.warp_level:
                        self.confirm({x for x in f if x[0] == WS}, f"'{name}' names the warp size", d, kinds=(WS,))
            return
        if t == "return_statement":
            f = frozenset()
            for c in n.named_children:
                f |= self.ex(c)
            if self.fn is not None:
                masktypes.returned(self, n, f)  # a 32-bit return type, or `T f(...)` deduced or given as one
                old = self.returns.get(self.cur, frozenset())
                if not f <= old:
                    self.returns[self.cur] = old | f
                    self.changed = True
                    self.work.returned(self.cur)
            return
        if t == "for_statement":
            init = n.child_by_field_name("initializer")
            var = None
            if init is not None:
                if init.type == "declaration":
                    self.stmt(init)
                    d = init.child_by_field_name("declarator")
                    var = ident_name(d)
                else:
                    self.ex(init)
                    if init.type == "assignment_expression":
                        var = self.src.text_of(init.child_by_field_name("left"))
            self.ex(n.child_by_field_name("condition"))
            self.ex(n.child_by_field_name("update"))
            if var and self.fn is not None:
                self.loops.append((self.cur, var, n))
                warpshapes.lane_stride(self, var, n)
            body = n.child_by_field_name("body")
            if body is not None:
                self.stmt(body)
            return
        if t in ("expression_statement",):
            for c in n.named_children:
                self.ex(c)
            return
        if t in ("if_statement", "while_statement", "do_statement", "switch_statement"):
            cond = n.child_by_field_name("condition")
            if cond is not None:
                self.ex(cond)
            for c in n.named_children:
                if c != cond:
                    self.stmt(c)
            if t == "if_statement":
                warpshapes.ballot_leader(self, n)
            return
        if t in ("compound_statement", "else_clause", "case_statement", "labeled_statement",
                 "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"):
            for c in n.named_children:
                self.stmt(c)
            return
        if t in ("condition_clause", "parenthesized_expression") or t.endswith("_expression"):
            self.ex(n)
            return
        for c in n.named_children:
            if c.type.endswith("statement") or c.type == "declaration":
                self.stmt(c)

    # -- driver -----------------------------------------------------------------------------
    def warp_level_functions(self) -> None:
        direct: dict[str, bool] = {}
        calls = self.a.calls  # function key -> the keys it calls (abslanes reads it too)
        for f in self.m.functions.values():  # by key (fnscopes): `tile::lane` is not `warp::lane`
            k = self.scopes.key(f)
            if found := warpshapes.wave_collective_types(self.src, self.dialect, f):
                self.a.wave_collectives.add(k)
                self.a.collective_types.setdefault(k, found[0])
            direct[k] = direct.get(k, False) or bool(found)
            calls.setdefault(k, set())
            for n in (self.src.index.under(f.body, "call_expression") if f.body is not None else ()):  # `= default`
                fn = n.child_by_field_name("function")
                name = fnscopes.callee_name(fn)
                if name is None:
                    continue
                if targets := self.scopes.resolve(f, fn, call_args(n)):
                    calls[k] |= {self.scopes.key(g) for g in targets}
                elif self.m.visible is not None and not self.m.visible.warp_qualified.isdisjoint(
                        self.scopes.candidates(f, fn)):
                    direct[k] = True  # a warp-level helper from an included header
                found = self.concept_call(name)
                if found is None or not found[0].warp_level:
                    continue
                c, names = found
                args = call_args(n)
                wi = names.index("width") if "width" in names else None
                lw = warpshapes.literal_width(self.src, n, args[wi] if wi is not None and wi < len(args) else None)
                if lw is not None:
                    self.a.logical_width[k] = lw
                    continue  # an explicit logical width: the code means it
                if warpshapes.masks_logical_shuffles(self, f, n):
                    continue  # a vote that only names those shuffles' lanes
                direct[k] = True
                if c.kind == "shuffle" and wi is not None and wi < len(args) and args[wi].type == "identifier":
                    warpshapes.width_param(self, f, self.src.text_of(args[wi]), c.key)
        self.warp_keys = callers_closure(direct, calls)
        self.warp_keys -= warpshapes.logical_callers(self, direct, self.warp_keys)
        self.a.warp_level = set(self.warp_keys)

    def run(self) -> Analysis:
        self.warp_level_functions()
        # File-scope constants (constexpr int kWarpSize = 32;) live in the global environment.
        scopes = ("translation_unit", "namespace_definition", "declaration_list", "preproc_if", "preproc_ifdef",
                  "preproc_else", "preproc_elif", "linkage_specification")
        globals_ = [n for n in reached(self.src, self.src.root, ("declaration",), scopes)
                    if n.parent is not None and n.parent.type in scopes]
        self.work.limit(warpreach.live_functions(self, self.work.said))
        self.aliases = type_aliases(self.src)
        while True:  # until a sweep changes nothing: every change grows a finite set, so it ends
            self.changed = False
            self.fn, self.cur = None, ""
            self.a.shuffle_masks, self.a.wave_shuffles = [], []
            for g in globals_:
                self.stmt(g)
            for f in self.m.functions.values():
                self.fn, self.cur = f, self.scopes.key(f)  # (the last stays for _post)
                before = len(self.a.shuffle_masks), len(self.a.wave_shuffles)
                if not self.work.due(f):  # nothing it reads changed: its pass would change nothing (sweeps.py)
                    masks, waves = self.work.replay(f) or ([], [])  # what its last pass found, both lists
                    self.a.shuffle_masks += masks
                    self.a.wave_shuffles += waves
                    continue
                for p in f.params:  # default arguments: `unsigned mask = 0xffffffff`
                    default = p.node.child_by_field_name("default_value")
                    if default is not None:
                        self.bind(p.name, self.ex(default))
                self.members.seed(f)  # what its class's members hold (kernelport.memberlanes)
                if f.body is not None:
                    self.stmt(f.body)
                self.work.record(f, (self.a.shuffle_masks[before[0]:], self.a.wave_shuffles[before[1]:]))
            self._post()
            if not self.changed:
                break
        opaque_mask_casts.check(self)  # a mask converted to `typeof(x)`, `T`, `uint32_t(...)`: KP232 where 32 bits
        masktypes.check_returns(self)  # a template parameter returned as a mask and as other values: KP232
        declsplit.check(self)  # a mask's declaration the port cannot widen or split: KP232
        self._name_confirmed_globals()
        self._logical_groups()
        return self.a

    def _logical_groups(self) -> None:
        """A group decided to be a logical 32-lane group (warpwidth) keeps CUDA's 32s: its sites are no
        wave-width sites, for translate and lint alike."""
        evidence = (*collective_widths.evidence(self.a, self.kept), warpcounts.evidence(self),  # global data, slots read
                    lane_shares.evidence(self.a))  # `D / WARP`: a run-time extent split over the lanes
        if lazy_widths.deferrable(self.a, self.m):  # nothing it can change: decided where read (lazy_widths)
            m, warp_level = self.m, self.a.warp_level
            self.a.widths = None
            self.a._decide = lazy_widths.Deferred(lambda: warpwidth.decide(m, warp_level, *evidence), m)
            return
        self.a.widths = w = warpwidth.decide(self.m, self.a.warp_level, *evidence)  # (in warps of 32)
        for s in self.a.sites:
            if s.confirmed and w.logical(s.function):
                s.confirmed, s.why = False, f"a logical 32-lane group ({w.width(s.function)})"
        launchrows.guard_constants(self, w)  # rows of the wave: a guard's named 32 is the wave width too

    def _post(self) -> None:
        warpshapes.ladder_bounds(self)
        warpshapes.per_warp_arrays(self)

    def _name_confirmed_globals(self) -> None:
        for name in self.m.macros:  # `#define WARP_SIZE 32` says it even when only host code uses it
            self.lookup(name)
        # (`constexpr int kWarpSize = 32;` is confirmed by its name where it is declared: file scope)


def analyze(module: Module, kept_collectives: bool = False, lint: bool = False) -> Analysis:
    """`kept_collectives`: cub's default-width collectives keep 32 lanes (collective_widths.analysis_for).  `lint`:
    lint's own analysis, which also reads a header's lane macros at their uses (header_lane_macros)."""
    return _Analyzer(module, kept_collectives, lint).run()
