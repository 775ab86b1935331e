"""A value that depends on the wave width, stored by a kernel to global memory (KP235).

CUDA's lane id (`%laneid`, `threadIdx.x % warpSize`, `threadIdx.x & (warpSize - 1)`) counts 0..31, its
warp index (`threadIdx.x / warpSize`) counts warps of 32 and `warpSize` is 32.  A port whose wave is
64 lanes wide computes 0..63, warps of 64 and 64: where such a value is only data the kernel writes to
its output (inlinePTX's `d_ptr[elemID] = laneid`, which its host checks against `elemID % 32`), the
port compiled and computed other numbers, silently.

Per kernel (flow-insensitive, as warpflow): the origins are the lane-id PTX idiom's output, `% warpSize`,
`& (warpSize - 1)` (the lane), `/ warpSize` (the warp index) and any other `warpSize` (the width); locals
assigned from them carry them (not through a warp operation's result or a memory read at an index:
those are other values, nor through a `?:`'s condition: it picks a value).  A store through one of
the kernel's pointer parameters whose value carries an origin is:
  - the lane only, no warp operation reading the same origin, and no store of the kernel carrying the
    width or the warp index (value or index): the original's numbers are kept, the lane within its
    32-lane warp (`lane_id` becomes the backend's `warp_lane`, `% warpSize` becomes `% 32`): data, which
    is what verify compares;
  - otherwise KP235 at the store, naming the origin and why: a lane that also feeds a warp operation
    (the port's lane is the wave's there), or a width or warp index (wave-dependent by design).
Only where a wave of the backend can be wider than 32 (HIP's gfx90a, portable); Metal and gfx1030 keep
the code as written.  Shared memory and warp operations' lane arguments are warpflow's.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from . import backends, dialect, ptx_idioms
from .source import ident_name, walk

CODE = "KP235"
LANE, WARP, WIDTH = "the lane id", "the warp index", "the warp width"
RESULT = "a warp operation's result"  # not wave-width data itself; a lane combined with one is refused


# a literal warpflow confirmed (it reaches a warp operation), which the port spells as the wave's
_REWRITTEN = {("%", "ws"): LANE, ("&", "ws_m1"): LANE, ("/", "ws"): WARP, (">>", "five"): WARP}


@dataclass(frozen=True)
class Origin:
    kind: str
    node: Node  # the asm statement, or the `x % warpSize` / `/ warpSize` / `warpSize` expression
    fix: Node | None = None  # the lane's: the asm statement, or the `warpSize` the port spells 32

    @property
    def key(self) -> tuple[int, int]:
        return (self.node.start_byte, self.node.end_byte)


@dataclass
class Stored:
    store: Node  # the assignment
    origins: list[Origin]
    why: str = ""  # "" where the port keeps the original's numbers (the lane's fixes)
    fixes: list[Origin] = field(default_factory=list)


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


class _Kernel:
    def __init__(self, module, f, warp_functions=frozenset(), sites=None):
        self.m, self.f, self.src = module, f, module.source
        self.sites = sites or {}  # (start, end) -> role of the literals the port makes the wave's (warpflow)
        source = backends.source().name
        self.ws = dialect.concept("warp_size").spelling(source) or "warpSize"
        # the dialect's warp operations and the file's warp-level helpers (warpflow's, by bare name)
        self.warp_ops = dialect.warp_level_names(source) | {k.rsplit("::", 1)[-1] for k in warp_functions}
        self.env: dict[str, dict[tuple[int, int], Origin]] = {}
        for node, _fn in module.asm:
            if f.body.start_byte <= node.start_byte < f.body.end_byte:
                self._asm(node)
        for _ in range(8):  # to a fixpoint: `a = lane; b = a + 1;` in any order
            if not self._propagate():
                break

    def _asm(self, node: Node) -> None:
        m = ptx_idioms.match(self.src.text_of(node), lambda key: dialect.concept(key).params)
        for w in (m.writes if m is not None else ()):
            if w.key == "lane_id" and w.output.strip().isidentifier():
                o = Origin(LANE, node, node)
                self.env.setdefault(w.output.strip(), {})[o.key] = o

    def _propagate(self) -> bool:
        changed = False
        for n in self.src.index.under(self.f.body, "init_declarator"):
            changed |= self._flow(n.child_by_field_name("declarator"), n.child_by_field_name("value"))
        for n in self.src.index.under(self.f.body, "assignment_expression"):
            changed |= self._flow(n.child_by_field_name("left"), n.child_by_field_name("right"))
        return changed

    def _flow(self, target: Node | None, value: Node | None) -> bool:
        if target is None or value is None or target.type != "identifier":
            return False
        got = self.origins(value)
        if not got:
            return False
        have = self.env.setdefault(self.src.text_of(target), {})
        new = {o.key: o for o in got if o.key not in have}
        have.update(new)
        return bool(new)

    def _is_ws(self, n: Node | None) -> bool:
        n = _strip(n)
        return n is not None and n.type == "identifier" and self.src.text_of(n) == self.ws

    def origins(self, expr: Node) -> list[Origin]:
        """The wave-width origins `expr`'s value carries."""
        out: dict[tuple[int, int], Origin] = {}
        covered: set[tuple[int, int]] = set()

        def skip(n: Node) -> bool:  # another value: a warp operation's result, a read at an index
            if n.type == "call_expression" and ident_name(n.child_by_field_name("function")) in self.warp_ops:
                o = Origin(RESULT, n)
                out[o.key] = o
                return True
            return n.type == "subscript_expression"

        stack = [expr]
        while stack:
            n = stack.pop()
            if skip(n):
                continue
            if n.type == "conditional_expression" and n.child_by_field_name("condition") is not None:
                cond = n.child_by_field_name("condition")  # which value, not a value: `lane < nwarps ? red[lane] : 0`
                stack.extend(c for c in reversed(n.named_children) if c != cond)
                continue
            if n.type == "binary_expression":
                op = self.src.text_of(n.child_by_field_name("operator"))
                right = _strip(n.child_by_field_name("right"))
                if op == "%" and self._is_ws(right):
                    o = Origin(LANE, n, right)
                elif op == "&" and right is not None and right.type == "binary_expression" and \
                        self.src.text_of(right.child_by_field_name("operator")) == "-" and \
                        self._is_ws(right.child_by_field_name("left")) and \
                        self.src.text_of(right.child_by_field_name("right")).strip() == "1":
                    o = Origin(LANE, n, _strip(right.child_by_field_name("left")))
                elif op == "/" and self._is_ws(right):
                    o = Origin(WARP, n)
                elif right is not None and (op, self.sites.get((right.start_byte, right.end_byte))) in _REWRITTEN:
                    o = Origin(_REWRITTEN[op, self.sites[right.start_byte, right.end_byte]], n)  # no fix: the wave's
                else:
                    o = None
                if o is not None:
                    out[o.key] = o
                    covered.add((right.start_byte, right.end_byte))
                    for c in walk(right):
                        covered.add((c.start_byte, c.end_byte))
            if n.type == "identifier" and (n.start_byte, n.end_byte) not in covered:
                name = self.src.text_of(n)
                if name == self.ws:
                    o = Origin(WIDTH, n)
                    out[o.key] = o
                out.update(self.env.get(name, {}))
            stack.extend(reversed(n.children))
        # a `warpSize` inside a lane pattern met before its pattern (a stack order): not the width
        return [o for o in out.values() if not (o.kind == WIDTH and (o.node.start_byte, o.node.end_byte) in covered)]

    def warp_reads(self) -> dict[tuple[int, int], Node]:
        """Origin -> the first warp operation whose arguments carry it."""
        out: dict[tuple[int, int], Node] = {}
        for call in self.src.index.under(self.f.body, "call_expression"):
            if ident_name(call.child_by_field_name("function")) in self.warp_ops:
                args = call.child_by_field_name("arguments")
                for a in (args.named_children if args is not None else ()):
                    for o in self.origins(a):
                        out.setdefault(o.key, call)
        return out

    def stores(self) -> list[tuple[Node, Node, Node | None]]:
        """(assignment, value, index) of each store through a pointer parameter of the kernel."""
        params = {p.name for p in self.f.params if p.pointer}
        out = []
        for a in self.src.index.under(self.f.body, "assignment_expression"):
            left, value = a.child_by_field_name("left"), a.child_by_field_name("right")
            base, index = _strip(left), None
            while base is not None and base.type in ("subscript_expression", "pointer_expression", "field_expression"):
                if base.type == "subscript_expression":
                    index = base.child_by_field_name("indices") or base.child_by_field_name("index")
                    base = base.child_by_field_name("argument")
                elif base.type == "pointer_expression":
                    base = base.child_by_field_name("argument")
                else:
                    base = base.child_by_field_name("argument")
                base = _strip(base)
            if base is not None and base.type == "identifier" and base is not _strip(left) and \
                    self.src.text_of(base) in params and value is not None:
                out.append((a, value, index))
        return out


def stored(module, warp_functions=frozenset(), sites=None) -> list[Stored]:
    """The kernels' stores of wave-width values to global memory, each decided (the module's docstring)."""
    out: list[Stored] = []
    for f in module.functions.values():
        if not f.is_kernel or f.body is None:
            continue
        k = _Kernel(module, f, warp_functions, sites)
        stores = [(a, k.origins(v), k.origins(i) if i is not None else []) for a, v, i in k.stores()]
        if not any(o.kind != RESULT for _, v, _ in stores for o in v):
            continue
        reads = k.warp_reads()
        width = next(((a, o) for a, v, i in stores for o in v + i if o.kind in (WARP, WIDTH)), None)
        for a, value, _ in stores:
            result = next((o for o in value if o.kind == RESULT), None)
            value = [o for o in value if o.kind != RESULT]
            if not value:
                continue
            other = next((o for o in value if o.kind != LANE), None)
            shared = next((o for o in value if o.key in reads), None)
            src = module.source
            if other is not None:
                why = (f"{other.kind} (`{src.text_of(other.node)}`, line {other.node.start_point[0] + 1}) is CUDA's 32 "
                       f"and the wave's on a wider wave")
            elif shared is not None:
                why = (f"the lane id (`{src.text_of(shared.node)}`, line {shared.node.start_point[0] + 1}) also feeds "
                       f"`{src.text_of(reads[shared.key].child_by_field_name('function'))}` at line "
                       f"{reads[shared.key].start_point[0] + 1}, where the port's lane is the wave's")
            elif result is not None:
                why = (f"the lane id is combined with {result.kind} (`{src.text_of(result.node.child_by_field_name('function'))}`"
                       f", line {result.node.start_point[0] + 1}), which is the wave's on a wider wave")
            elif width is not None:
                why = (f"the kernel also stores {width[1].kind} (`{src.text_of(width[1].node)}`, line "
                       f"{width[0].start_point[0] + 1}): its output is the wave's by design")
            elif any(o.fix is None for o in value):  # (a confirmed literal reaches a warp operation elsewhere)
                o = next(o for o in value if o.fix is None)
                why = f"the port makes `{src.text_of(o.node)}` (line {o.node.start_point[0] + 1}) the wave's lane"
            else:
                why = ""
            out.append(Stored(a, value, why, [] if why else value))
    return out


def check(tr) -> None:
    """Translator pass: keep a data lane's numbers, refuse the rest (only where a wave may be 64)."""
    if all(r.wave <= 32 for r in backends.get(tr.backend).runs):
        return
    lane = dialect.concept("warp_lane").spelling(tr.backend)
    sites = {(s.node.start_byte, s.node.end_byte): s.role for s in tr.wave_sites()}
    for s in stored(tr.module, tr.analysis.warp_level, sites):
        if tr.cuda_only_region(s.store):
            continue
        if s.why or lane is None:
            o = s.origins[0]
            why = s.why or f"{o.kind} (line {o.node.start_point[0] + 1}) and no {tr.backend} spelling of a 32-lane warp's lane"
            tr.problem(CODE, s.store, f"the stored value depends on the wave width: {why}; the original stores "
                       f"CUDA's 32-lane values here",
                       "store a value the width does not change (the lane within 32: `lane & 31`), or suppress "
                       "with --allow-unported where the output is meant to be the device's")
            continue
        for o in s.fixes:
            if o.fix is not None and o.fix.type == "identifier" and not tr.rw.has(o.fix):
                tr.rw.replace(o.fix, "32")
                tr.note(o.fix, "32", "a lane id stored as data: the original's lane within its 32-lane warp")
            elif o.fix is not None:
                tr.data_lanes.add(o.fix.start_byte)
