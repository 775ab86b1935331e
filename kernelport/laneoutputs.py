"""A value whose numbers the port changes with the wave width, stored by a kernel to global memory (KP235).

Two things in the original are CUDA's fixed 32-lane warp that the port makes the wave's: PTX's
`%laneid` (0..31 by the ISA; the port's `__lane_id()` counts 0..63 on a 64-wide wave) and a literal
lane or warp index (`x & 31`, `x % 32`, `x / 32`, `x >> 5`) that warpflow confirmed reaching a warp
operation and so rewrites to the wave's.  Where such a value is data the kernel writes to its output
(inlinePTX's `d_ptr[elemID] = laneid`, checked by its host against `elemID % 32`), the port computed
other numbers, silently.  What is written with `warpSize` is not judged: the original asks for the
device's width there, and the port keeps that meaning (`threadIdx.x / warpSize + warpSize` stays the
wave's warp index and width; `tid / warpSize * warpSize + tid % warpSize` stays `tid`).

Per kernel (flow-insensitive, as warpflow), two relations follow locals through assignments:
  - a value *carries* an origin where its number is computed from it: arithmetic, comparisons, casts,
    calls of ordinary functions, a `?:`'s two values.  Not a memory read at an index (another value),
    not a `?:`'s or an `if`'s condition (it selects), not a shift amount (`1u << lane` is a lane mask:
    its width is the mask passes' business, KP207), not a warp operation's result (the wave's by the
    port's contract: a ballot's count, a shuffle's value; kernelport/warpflow judges those);
  - a value *touches* an origin where any of these reaches it (selection and shift amounts included).
A `%laneid` *meets* the wave where a warp operation's argument touches it, or where an expression
combines a part touching it with a part touching `warpSize`, a warp operation's result or a literal
the port makes the wave's (a per-warp table `(i / warpSize) * warpSize + lane`, a lane mask `&` a ballot).

A store through a pointer parameter of the kernel whose value carries an origin is:
  - `%laneid`s only, none meeting the wave: the original's numbers are kept (the idiom becomes the
    backend's `warp_lane`, the lane within its 32-lane warp, for every use: none meets the wave);
  - otherwise KP235 at the store, naming the origin and why (the port's lane must be the wave's where it
    meets it; a literal the port makes the wave's).
A device helper whose return carries the lane id (cub's `LaneId()`: the asm in the helper, `return r;`) is a
lane source at each call, judged where that call's value is stored with the same rules; the port keeps
the helper the wave's and spells a kept call as the 32-lane warp's (`warp_lane_of`), so a call that
feeds a shuffle and another that is stored each keep their meaning.  A helper's return that also carries
the wave's values, or a literal the port makes the wave's, is that origin at its calls.
Only where a wave of the backend can be wider than 32 (HIP's gfx90a, portable); Metal and gfx1030 keep
the code as written.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from tree_sitter import Node

from . import asm_templates, backends, dialect, fnscopes, ptx_idioms
from .source import ident_name

CODE = "KP235"
LANE, WARP = "the lane id", "the warp index"
WIDTH, RESULT = "the warp width", "a warp operation's result"  # the wave's as written: judged only as what a lane meets

# a literal warpflow confirmed (it reaches a warp operation), which the port spells as the wave's
_REWRITTEN = {("%", "ws"): LANE, ("&", "ws_m1"): LANE, ("/", "ws"): WARP, (">>", "five"): WARP}
_SHIFTS = ("<<", ">>")


@dataclass(frozen=True)
class Origin:
    """Where a lane-dependent value comes from."""
    kind: str
    node: Node  # the asm statement, the rewritten `x & 31`, a `warpSize`, a warp operation's call
    fix: Node | None = None  # the `%laneid` asm statement (a lane helper's call) the port may spell as the 32-lane warp's lane

    @property
    def key(self) -> tuple[int, int]:
        return (self.node.start_byte, self.node.end_byte)

    @property
    def changed(self) -> bool:
        """A value whose 32 the port changes (an origin); else the wave's as written (WIDTH, RESULT)."""
        return self.kind in (LANE, WARP)


@dataclass
class Stored:
    """A store of lane-dependent values, their origins and the port's fixes."""
    store: Node  # the assignment
    origins: list[Origin]
    why: str = ""  # "" where the port keeps the original's numbers (the lanes' fixes)
    fixes: list[Origin] = field(default_factory=list)


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


class _Kernel:
    def __init__(self, module, f, warp_functions=frozenset(), sites=None, returns=None, warp_ops=None):
        self.m, self.f, self.src = module, f, module.source
        self.sites = sites or {}  # (start, end) -> role of the literals the port makes the wave's (warpflow)
        self.returns = returns or {}  # a helper's start byte -> the origins its return carries (helper_returns)
        self.called: dict[int, list[Origin]] = {}
        source = backends.source().name
        self.ws = dialect.concept("warp_size").spelling(source) or "warpSize"
        # the dialect's warp operations and the file's warp-level helpers (warpflow's, by bare name)
        self.warp_ops = warp_ops if warp_ops is not None else _warp_ops(warp_functions)
        self.env: dict[bool, dict[str, dict[tuple[int, int], Origin]]] = {False: {}, True: {}}  # touch? -> name ->
        for node, _fn in module.asm:
            if f.body.start_byte <= node.start_byte < f.body.end_byte:
                self._asm(node)
        for touch in (False, True):
            for _ in range(8):  # to a fixpoint: `a = lane; b = a + 1;` in any order
                if not self._propagate(touch):
                    break

    def _asm(self, node: Node) -> None:
        m = ptx_idioms.match(asm_templates.text(self.src, node), lambda key: dialect.concept(key).params)
        for w in (m.writes if m is not None else ()):
            if w.key == "lane_id" and w.output.strip().isidentifier():
                o = Origin(LANE, node, node)
                for env in self.env.values():
                    env.setdefault(w.output.strip(), {})[o.key] = o

    def _propagate(self, touch: bool) -> bool:
        changed = False
        for n in self.src.index.under(self.f.body, "init_declarator"):
            changed |= self._flow(n.child_by_field_name("declarator"), n.child_by_field_name("value"), touch)
        for n in self.src.index.under(self.f.body, "assignment_expression"):
            changed |= self._flow(n.child_by_field_name("left"), n.child_by_field_name("right"), touch)
        return changed

    def _flow(self, target: Node | None, value: Node | None, touch: bool) -> bool:
        if target is None or value is None or target.type != "identifier":
            return False
        got = self.origins(value, touch)
        if not got:
            return False
        have = self.env[touch].setdefault(self.src.text_of(target), {})
        new = {o.key: o for o in got if o.key not in have}
        have.update(new)
        return bool(new)

    def _warp_call(self, n: Node) -> bool:
        return n.type == "call_expression" and ident_name(n.child_by_field_name("function")) in self.warp_ops

    def _returned(self, call: Node) -> list[Origin]:
        """What the call of a helper returning an origin carries: the lane id, as a source of its own (this
        call), which the port may keep the 32-lane warp's where the return carries nothing else."""
        if call.start_byte not in self.called:
            got = {o.key: o for g in fnscopes.callees(self.m, self.f, call) for o in self.returns.get(g.node.start_byte, ())}
            lanes, rest = [o for o in got.values() if o.fix is not None], [o for o in got.values() if o.fix is None]
            self.called[call.start_byte] = ([Origin(LANE, call, None if rest else call)] if lanes else []) + rest
        return self.called[call.start_byte]

    def origins(self, expr: Node, touch: bool = False) -> list[Origin]:
        """The origins `expr`'s value carries (touch: the ones that reach it at all; the module's docstring)."""
        out: dict[tuple[int, int], Origin] = {}
        stack = [expr]
        while stack:
            n = stack.pop()
            if n.type == "subscript_expression":  # a read at an index: memory's value
                continue
            if self._warp_call(n):
                o = Origin(RESULT, n)
                out[o.key] = o
                if not touch:
                    continue
            elif self.returns and n.type == "call_expression":
                out.update((o.key, o) for o in self._returned(n))
            if not touch and n.type == "conditional_expression":
                cond = n.child_by_field_name("condition")  # which value, not a value: `lane < nwarps ? red[lane] : 0`
                stack.extend(c for c in reversed(n.named_children) if c != cond)
                continue
            if n.type == "binary_expression":
                op = self.src.text_of(n.child_by_field_name("operator"))
                right = _strip(n.child_by_field_name("right"))
                if right is not None and (op, self.sites.get((right.start_byte, right.end_byte))) in _REWRITTEN:
                    o = Origin(_REWRITTEN[op, self.sites[right.start_byte, right.end_byte]], n)
                    out[o.key] = o
                    stack.append(n.child_by_field_name("left"))  # (its 32 is the site's, not a value)
                    continue
                if not touch and op in _SHIFTS:  # a bit position: `1u << lane` is a lane mask
                    stack.append(n.child_by_field_name("left"))
                    continue
            if n.type == "identifier":
                name = self.src.text_of(n)
                if name == self.ws:
                    o = Origin(WIDTH, n)
                    out[o.key] = o
                out.update(self.env[touch].get(name, {}))
            stack.extend(reversed(n.children))
        return list(out.values())

    def meets(self, lanes: set[tuple[int, int]]) -> dict[tuple[int, int], list[tuple[Node, Origin | None]]]:
        """`%laneid` origin -> where it meets the wave, in source order: (a warp operation's call, None) or
        (the expression, the wave's value it meets there)."""
        out: dict[tuple[int, int], list[tuple[Node, Origin | None]]] = {}
        for n in self.src.index.under_types(self.f.body, "call_expression", "binary_expression"):
            if n.type == "call_expression":
                if self._warp_call(n) and (args := n.child_by_field_name("arguments")) is not None:
                    for a in args.named_children:
                        for o in self.origins(a, True):
                            if o.key in lanes:
                                out.setdefault(o.key, []).append((n, None))
                continue
            if self.src.text_of(n.child_by_field_name("operator")) in ("&&", "||"):
                continue  # (truth values: `(w & (1u << lane)) && (m & bit)` meets nothing)
            sides = [self.origins(c, True) for c in (n.child_by_field_name("left"), n.child_by_field_name("right"))
                     if c is not None]
            for mine, other in ((sides[0], sides[-1]), (sides[-1], sides[0])):
                wave = next((o for o in other if o.key not in lanes), None)
                for o in mine:
                    if o.key in lanes and wave is not None:
                        out.setdefault(o.key, []).append((n, wave))
        for name, got in self.env[True].items():  # a local assigned both (`v = lane; ... v = warpSize;`)
            wave = next((o for o in got.values() if o.key not in lanes), None)
            for o in got.values():
                if o.key in lanes and wave is not None and o.key not in out:
                    out[o.key] = [(wave.node, wave)]
        return {k: sorted(v, key=lambda m: m[0].start_byte) for k, v in out.items()}

    def stores(self) -> list[tuple[Node, Node, list[Node]]]:
        """(assignment, value, indices) of each store through a pointer parameter of the kernel."""
        params = {p.name for p in self.f.params if p.pointer}
        out = []
        for a in self.src.index.under(self.f.body, "assignment_expression"):
            left, value = a.child_by_field_name("left"), a.child_by_field_name("right")
            base, indices = _strip(left), []
            while base is not None and base.type in ("subscript_expression", "pointer_expression", "field_expression"):
                if base.type == "subscript_expression":
                    indices += [i for i in (base.child_by_field_name("indices") or base.child_by_field_name("index"),)
                                if i is not None]
                base = _strip(base.child_by_field_name("argument"))
            if base is not None and base.type == "identifier" and base is not _strip(left) and \
                    self.src.text_of(base) in params and value is not None:
                out.append((a, value, indices))
        return out


def _line(n: Node) -> int:
    return n.start_point[0] + 1


def _warp_ops(warp_functions) -> frozenset[str]:
    """The dialect's warp operations and the file's warp-level helpers by bare name (once per pass over a
    file's functions, not once per function)."""
    source = backends.source().name
    return frozenset(dialect.warp_level_names(source) | {k.rsplit("::", 1)[-1] for k in warp_functions})


def _origin_starts(module, sites) -> list[int]:
    """The start bytes of the `%laneid`s and of the literals the port rewrites, sorted: `_has_origin` bisects
    them per function (a scan of every site per function grew with the square of the file)."""
    return sorted([node.start_byte for node, _fn in module.asm] + [s for s, _e in (sites or {})])


def _has_origin(module, f, starts: list[int], returns) -> bool:
    """Whether `f` holds an origin: a `%laneid`, a literal the port rewrites, a call of a helper returning one
    (the cheap test before the analysis).  `starts`: `_origin_starts`."""
    i = bisect.bisect_left(starts, f.body.start_byte)
    return i < len(starts) and starts[i] < f.body.end_byte or bool(returns) and any(
        g.node.start_byte in returns for c in module.source.index.under(f.body, "call_expression")
        for g in fnscopes.callees(module, f, c))


def helper_returns(module, warp_functions=frozenset(), sites=None, skip=None) -> dict[int, list[Origin]]:
    """Device helpers whose return carries an origin the port changes: start byte -> the origins it carries
    (to a fixpoint: a helper returning another's lane); `skip`: returns the port does not compile (the
    `#if __CUDA_ARCH__` branch of a helper whose `#else` is the port's)."""
    starts, ops = _origin_starts(module, sites), _warp_ops(warp_functions)
    helpers = [f for f in module.functions.values() if f.is_device and not f.is_kernel and f.body is not None]
    out: dict[int, list[Origin]] = {}
    for _ in range(4):
        changed = False
        for f in helpers:
            if not _has_origin(module, f, starts, out):
                continue
            k = _Kernel(module, f, warp_functions, sites, out, ops)
            got = {o.key: o for r in module.source.index.under(f.body, "return_statement") if skip is None or not skip(r)
                   for e in r.named_children[:1] for o in k.origins(e)}
            if any(o.changed for o in got.values()) and set(got) != {o.key for o in out.get(f.node.start_byte, ())}:
                out[f.node.start_byte], changed = list(got.values()), True
        if not changed:
            break
    return out


def stored(module, warp_functions=frozenset(), sites=None, skip=None) -> list[Stored]:
    """The kernels' stores of values the port's wave changes, each decided (the module's docstring)."""
    out: list[Stored] = []
    src = module.source
    starts, ops = _origin_starts(module, sites), _warp_ops(warp_functions)
    returns = helper_returns(module, warp_functions, sites, skip) if any(
        not (f.is_kernel or f.body is None) and _has_origin(module, f, starts, {}) for f in module.functions.values()) \
        else {}
    for f in module.functions.values():
        if not f.is_kernel or f.body is None or not _has_origin(module, f, starts, returns):
            continue  # no origin in this kernel (the cheap test first)
        k = _Kernel(module, f, warp_functions, sites, returns, ops)
        stores = [(a, [o for o in k.origins(v) if o.changed], [(i, k.origins(i)) for i in ix]) for a, v, ix in k.stores()]
        lanes = {o.key for _, got, ix in stores for o in got + [o for _, g in ix for o in g] if o.fix is not None}
        met = k.meets(lanes) if lanes else {}
        for a, got, ix in stores:
            # a `%laneid` in the store's index: the 32-lane warp's too, unless the index composes it with the
            # wave's values itself (`(i / warpSize) * warpSize + lane`: the wave's lane, the meaning kept)
            within = lambda o, i: any(i.start_byte <= n.start_byte < i.end_byte for n, _w in met.get(o.key, ()))  # noqa: E731
            at = [o for i, g in ix for o in g if o.fix is not None and not within(o, i)]
            if not got and not at:
                continue
            made = next((o for o in got if o.fix is None), None)
            mixed = next((o for o in got + at if o.key in met), None)
            if made is not None and made.node.type == "call_expression":  # a helper's lane mixed in its return
                why = (f"`{src.text_of(made.node)}` (line {_line(made.node)}) returns the lane id combined with the "
                       f"wave's values, where the port's lane must be the wave's")
            elif made is not None:
                why = f"the port makes `{src.text_of(made.node)}` (line {_line(made.node)}) the wave's {made.kind[4:]}"
            elif mixed is not None:
                where, wave = met[mixed.key][0]
                what = (f"also feeds `{src.text_of(where.child_by_field_name('function'))}` at line {_line(where)}"
                        if wave is None else f"is combined with {wave.kind} (`"
                        f"{src.text_of(wave.node.child_by_field_name('function') or wave.node)}`, line {_line(wave.node)})")
                why = (f"the lane id (`{src.text_of(mixed.node)}`, line {_line(mixed.node)}) {what}, where the port's "
                       f"lane must be the wave's{'' if mixed in got else '; the index stored at uses it as a 32-lane lane'}")
            else:
                why = ""
            out.append(Stored(a, got + at, why, [] if why else got + at))
    return out


def check(tr) -> None:
    """Translator pass: keep a data lane's numbers, refuse the rest (only where a wave may be 64)."""
    if all(r.wave <= 32 for r in backends.get(tr.backend).runs):
        return
    lane = dialect.concept("warp_lane").spelling(tr.backend)
    called = dialect.concept("warp_lane_of")
    sites = {(s.node.start_byte, s.node.end_byte): s.role for s in tr.wave_sites()}
    for s in stored(tr.module, tr.analysis.warp_level, sites, tr.cuda_only_region):
        if tr.cuda_only_region(s.store):
            continue
        if s.why or lane is None or called.spelling(tr.backend) is None:
            o = s.origins[0]
            why = s.why or f"{o.kind} (line {_line(o.node)}) and no {tr.backend} spelling of a 32-lane warp's lane"
            tr.problem(CODE, s.store, f"the store depends on the wave width: {why}; the original stores "
                       f"CUDA's 32-lane values here",
                       "store a value the width does not change (the lane within 32: `lane & 31`), or suppress "
                       "with --allow-unported where the output is meant to be the device's")
            continue
        _keep_lanes(tr, s.fixes, called)
    _lane_bits(tr, sites, called)


def _keep_lanes(tr, fixes: list[Origin], called) -> None:
    """Spell each `%laneid` of `fixes` as the 32-lane warp's lane (the asm statement, or the helper's call)."""
    for o in fixes:
        if o.fix.type == "call_expression":  # a lane helper's call: the helper stays the wave's
            if (o.fix.start_byte, o.fix.end_byte, o.fix.type) not in tr.rw.replacements:
                tr.rw.replace(o.fix, lambda rw, n: dialect.render(called, tr.backend, {"lane": rw.stitch(n)}))
        else:
            tr.data_lanes.add(o.fix.start_byte)


def _lane_bits(tr, sites, called) -> None:
    """A lane's bit of a 32-bit word by the lane id (`w & (1u << laneid())`): the 32-lane warp's lane, or
    KP244 where that lane id also meets the wave (kernelport/lane_bits.py)."""
    from . import lane_bits
    module, warp = tr.module, tr.analysis.warp_level
    if not module.asm:
        return
    holders = {h for s in tr.analysis.sites if s.confirmed and s.role == "type32" for h in tr.analysis.holders.get(s.id, ())}
    starts, ops = _origin_starts(module, sites), _warp_ops(warp)
    returns = helper_returns(module, warp, sites, tr.cuda_only_region)
    for f in module.functions.values():
        if not f.is_device or f.body is None or not _has_origin(module, f, starts, returns):
            continue
        k = _Kernel(module, f, warp, sites, returns, ops)
        found = [(n, o) for n, o in lane_bits.shifts(k, sites, holders)
                 if not tr.cuda_only_region(n) and not lane_bits.logical(tr, f, o)]
        met = k.meets({o.key for _, got in found for o in got}) if found else {}
        for shift, got in found:
            mixed = next((o for o in got if o.key in met), None)
            if mixed is not None:
                lane_bits.problem(tr, shift, mixed, met[mixed.key])
            else:
                _keep_lanes(tr, got, called)
