"""Lane masks of a logical group inside the warp: when a port may drop them (KP203 otherwise).

Real code runs thread groups of G lanes inside a warp (NVlabs/CGBN's TPI = 4, 8, 16 or 32) and
passes each shuffle the mask of the caller's own group, built from the lane id:
`((1u << G) - 1) << (lane & ~(G - 1))`, or CGBN's `TPI_ONES << (group_thread ^ warp_thread)`.
HIP on ROCm 5.2 has no `_sync` warp operations and Metal's simd operations take no mask: their
shuffle runs on every active lane.  Dropping such a mask from a shuffle gives what CUDA gives, at
wave 32 and at wave 64, when

1. the mask names the caller's own aligned group of G lanes, G a power of two up to 32, at every
   lane: decided by evaluating the mask's dataflow (its single definitions in the function, the
   file's constants (a class's `static const` members too), argument-less helpers that only return
   a value, found in the file, its headers or the text of a file that includes it partway before
   the include: kernelport.includers) with C's semantics at every lane of a warp
   (threadIdx.x over several warps, warpSize 32 as CUDA has it).  A name the file does not define
   (a template's TPI, a member of a class of another file) is G's own unknown: the mask must be
   the group at every power of two, since a shuffle whose width is not one up to 32 is undefined
   in CUDA;
2. the shuffle's width is G: the lane read (`lane`, `lane ± delta`, `lane ^ mask`, each taken in
   the width's section as CUDA and HIP both take it) stays in the caller's group, and a 64-lane
   wave holds whole groups, so the section is the same lanes at either width;
3. no thread-dependent control flow leads to the call, in its function or from a caller in the
   file (lint's divergence analysis, as for full masks): every lane of the group executes it
   together, as a mask-less shuffle needs.  A condition the same across a CUDA warp keeps whole
   groups at wave 64 too (G divides 32).

A vote over a group (`__ballot_sync(group, p)`, `__any_sync`, `__all_sync`) needs (1) and (3) (it
has no width): it becomes the wave's ballot restricted to the group, the 32 bits of the wave that
hold the caller's CUDA warp ANDed with the mask (dialect.group_votes, spelled by each backend), so
the group's bits stay at their CUDA lanes at wave 32 and 64.  Each refusal names the condition that
failed (docs/soundness.md).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from types import SimpleNamespace

from tree_sitter import Node

from . import backends, cexpr, dialect, fnscopes, fullmask, guardmasks
from .diagnostics import Diagnostic
from .warpsites import is_reference

_GS = (1, 2, 4, 8, 16, 32)
_TIDS = tuple(range(32)) + tuple(range(32, 64, 3)) + tuple(range(96, 224, 13))  # lanes of several warps
_TID = "__kp_tid"
_SYM = "__kp_group"
_MAX_DEPTH = 8


class _Literal(str):
    """A macro's value made of literals and operators only (`#define MASK 0xFFFFFFFF`)."""

    @property
    def text(self) -> str:
        return str(self)


class _Fail(Exception):
    """Why a mask is not recognised as the caller's group (the text KP203 gives)."""


class _Expander:
    """A mask or width expression as one C expression over threadIdx.x and at most one unknown name."""

    def __init__(self, tr, fn) -> None:
        self.tr, self.src, self.module = tr, tr.src, tr.module
        self.fn = fn
        self.symbol: str | None = None
        self.wave = False  # the mask reads the warp size (evaluated as CUDA's 32)

    def text(self, n: Node, fn, depth: int = 0) -> str:
        if depth > _MAX_DEPTH:
            raise _Fail("its definition is nested too deeply to follow")
        t = n.type
        if t == "number_literal":
            return self.src.text_of(n)
        if t == "identifier":
            return self.name(n, self.src.text_of(n), fn, depth)
        if t in ("qualified_identifier", "call_expression") and fullmask.full_in(self.module, self.src.text_of(n)):
            return "0xFFFFFFFFu"  # `std::numeric_limits<uint32_t>::max()`, `static_cast<unsigned>(-1)`, `k::kFull`
        if t == "qualified_identifier":  # `env::TPI`, `core::sync_mask` without a call: a name we cannot read
            return self.unknown(self.src.text_of(n))
        if t == "field_expression":
            if self.src.text_of(n).replace(" ", "") == "threadIdx.x":
                return _TID
            raise _Fail(f"it reads '{self.src.text_of(n)}', not the lane id")
        if t == "call_expression":
            return self.call(n, fn, depth)
        if t in ("binary_expression", "parenthesized_expression", "unary_expression", "cast_expression",
                 "conditional_expression", "type_descriptor", "primitive_type", "sized_type_specifier",
                 "type_identifier", "type_qualifier"):
            parts, at = [], n.start_byte
            for c in n.children:
                if c.type in ("type_descriptor", "primitive_type", "sized_type_specifier", "type_identifier",
                              "type_qualifier") or not c.is_named:
                    continue
                parts.append(self._between(at, c.start_byte))
                parts.append(self.text(c, fn, depth))
                at = c.end_byte
            parts.append(self._between(at, n.end_byte))
            return "(" + "".join(parts) + ")"
        raise _Fail(f"its value '{self.src.text_of(n)}' is not lane arithmetic kernelport can evaluate")

    def _between(self, start: int, end: int) -> str:
        return self.src.data[start:end].decode("utf-8", "replace")

    def unknown(self, name: str) -> str:
        if self.symbol not in (None, name):
            raise _Fail(f"it depends on two names this file does not define ('{self.symbol}', '{name}')")
        self.symbol = name
        return _SYM

    def name(self, n: Node, name: str, fn, depth: int) -> str:
        c = dialect.lookup(backends.source().name, name)
        if c is not None and c.key == "warp_size":
            self.wave = True
            return "32"  # CUDA's warp, which the mask is written for
        if fn is not None and fn.param(name) is not None:
            raise _Fail(f"it is the parameter '{name}' of '{fn.name}': its callers decide the lanes it names")
        if fn is not None and fn.body is not None:
            got = self.local(name, fn)
            if got is not None:
                value, ctype = got
                return self.typed(self.text(value, fn, depth + 1), ctype)
        got = self.file_constant(name)
        if got is not None:
            value, ctype = got
            if self.ported_to_wave(name, value):
                self.wave = True  # `static constexpr int WARPSIZE = 32;`: the port makes it the wave's width
            return f"({value.text})" if isinstance(value, _Literal) else self.typed(self.text(value, None, depth + 1), ctype)
        for module in self.elsewhere().modules():  # a constant of a header or of the includer's text before the file
            got = self.in_module(module, lambda: self.file_constant(name, macros=False))
            if got is not None:
                value, ctype = got
                return self.in_module(module, lambda: self.typed(self.text(value, None, depth + 1), ctype))
        if name in fullmask.LIMIT_NAMES:  # `UINT32_MAX` of <cstdint>, which no file of the run defines
            return f"({fullmask.limit_text(name)})"
        return self.unknown(name)

    def ported_to_wave(self, name: str, value) -> bool:
        """Whether the port rewrites this constant of the file to the wave's width: a backend with a wave
        wider than 32, and a confirmed warp-size site of the translator (`tr.wave_sites()`, where the
        caller is one) in its value, or the literal macro's definition.  The mask then reads the warp size as surely as through `warpSize`."""
        sites, wide = getattr(self.tr, "wave_sites", None), getattr(self.tr, "wide_waves", None)
        if sites is None or not wide():
            return False  # every run of the backend is 32 wide (Metal): the constant stays what CUDA means
        for site in sites():
            n = site.node
            if isinstance(value, _Literal):
                d = n if n.type in ("preproc_def", "preproc_function_def") else n.parent
                if d is not None and d.type == "preproc_def" and \
                        self.src.text_of(d.child_by_field_name("name")) == name:
                    return True
            elif value.start_byte <= n.start_byte and n.end_byte <= value.end_byte:
                return True
        return False

    def elsewhere(self):
        vis = self.module.visible
        return vis.elsewhere if vis is not None and vis.elsewhere is not None else _NOWHERE

    def in_module(self, module, fn):
        """fn() with the nodes of `module` (another file's) read through its source."""
        was = self.src, self.module
        self.src, self.module = module.source, module
        try:
            return fn()
        finally:
            self.src, self.module = was

    def typed(self, text: str, ctype: str | None) -> str:
        t = " ".join((ctype or "").replace("const", " ").replace("static", " ").replace("constexpr", " ").split())
        return f"(({t})({text}))" if t in cexpr.SIZEOF else f"({text})"

    def local(self, name: str, fn):
        """The one value `name` takes in `fn`: its declaration's initializer, or the one assignment
        of a declaration without one (a statement of the body itself, so it runs before any use)."""
        ix = self.src.index
        decls = [d for d in ix.under(fn.body, "init_declarator") if _declared(d) == name]
        plain = [d for d in ix.under(fn.body, "declaration") if any(
            x.type == "identifier" and self.src.text_of(x) == name for x in d.children_by_field_name("declarator"))]
        assigns = [a for a in ix.under(fn.body, "assignment_expression")
                   if self.src.text_of(a.child_by_field_name("left")) == name]
        updates = [u for u in ix.under(fn.body, "update_expression") if self.src.text_of(u.named_children[0]) == name]
        updates += [n for n in ix.under(fn.body, "identifier") if self.src.text_of(n) == name and self.escapes(n, fn)]
        if updates or len(decls) + len(plain) != 1:
            if decls or plain or assigns:
                raise _Fail(f"'{name}' takes more than one value in '{fn.name}'")
            return None
        if decls and not assigns:
            return decls[0].child_by_field_name("value"), self.src.text_of(decls[0].parent.child_by_field_name("type"))
        if plain and len(assigns) == 1 and self.src.text_of(assigns[0].child_by_field_name("operator")) == "=":
            stmt = assigns[0].parent
            if stmt is not None and stmt.type == "expression_statement" and stmt.parent == fn.body:
                return assigns[0].child_by_field_name("right"), self.src.text_of(plain[0].child_by_field_name("type"))
        raise _Fail(f"'{name}' takes more than one value in '{fn.name}'")

    def escapes(self, ident: Node, fn) -> bool:
        """A use through which something else may store to the local: its address (`&sync`), or an
        argument of a call that is no dialect operation and may take it by reference (a reference
        parameter of the file's function, or a function this file does not define)."""
        p = ident.parent
        if p is not None and p.type == "pointer_expression" and self.src.text_of(p).lstrip().startswith("&"):
            return True
        if p is None or p.type != "argument_list" or p.parent is None or p.parent.type != "call_expression":
            return False
        call = p.parent
        if dialect.spelled_by(backends.source().name, fnscopes.callee_name(call.child_by_field_name("function")) or ""):
            return False
        pos = [a for a in p.named_children if a.type != "comment"].index(ident)
        found = fnscopes.callees(self.module, fn, call)
        return not found or any(pos >= len(g.params) or is_reference(g.params[pos].node) for g in found)

    def file_constant(self, name: str, macros: bool = True):
        """A literal macro's value, or the initializer of a constant at file, namespace or class scope
        (`static const uint32_t TPI_ONES = (1ull << TPI) - 1;`) and its type."""
        vis = self.module.visible
        mac = self.module.macros.get(name) or (vis.macros.get(name) if vis is not None else None)  # as the model reads it
        if mac is not None and macros:
            text = (mac.value or "").strip()
            if not text or re.search(r"[A-Za-z_]\w*", re.sub(r"\b(0[xX])?[0-9a-fA-F]+[uUlL]*\b", "", text)):
                raise _Fail(f"it reads the macro '{name}', which is not one literal value (give it as a constant)")
            return _Literal(text), None
        for d in self.src.index.of_type("init_declarator"):
            if _declared(d) == name and self.module.function_at(d) is None and d.parent.type == "declaration":
                return d.child_by_field_name("value"), self.src.text_of(d.parent.child_by_field_name("type"))
        for d in self.src.index.of_type("field_declaration"):
            x, v = d.child_by_field_name("declarator"), d.child_by_field_name("default_value")
            if v is not None and x is not None and x.type == "field_identifier" and self.src.text_of(x) == name and \
                    any(c.type == "type_qualifier" and self.src.text_of(c) in ("const", "constexpr") for c in d.children):
                return v, self.src.text_of(d.child_by_field_name("type"))
        return None

    def call(self, n: Node, fn, depth: int) -> str:
        f = n.child_by_field_name("function")
        name = fnscopes.callee_name(f)
        args = [a for a in n.child_by_field_name("arguments").named_children if a.type != "comment"]
        if f is not None and f.type in ("primitive_type", "type_identifier", "sized_type_specifier") and len(args) == 1:
            return self.typed(self.text(args[0], fn, depth), self.src.text_of(f))  # uint32_t(x)
        found = fnscopes.callees(self.module, fn, n)
        if not found and not args:  # a helper of a header or of the includer's text before the file
            got = self.elsewhere().function(fnscopes.of(self.module).candidates(fn, f))
            if got is not None:
                return self.in_module(got[0], lambda: self.returned(got[1], name, depth))
        if args or len(found) != 1 or found[0].body is None:
            raise _Fail(f"it comes from '{self.src.text_of(f)}(...)', whose value this file does not show"
                        if not found else f"it comes from a call of '{name}' with arguments")
        return self.returned(found[0], name, depth)

    def returned(self, g, name: str | None, depth: int) -> str:
        """The value an argument-less helper returns, where its body only declares and returns."""
        stmts = [s for s in g.body.named_children if s.type != "comment"]
        if not stmts or stmts[-1].type != "return_statement" or \
                any(s.type not in ("declaration", "return_statement") for s in stmts):
            raise _Fail(f"'{name}' computes more than a value")
        value = next(c for c in stmts[-1].named_children if c.type != "comment")
        return self.text(value, g, depth + 1)


class _Nowhere:
    """No other files (a file analysed alone)."""

    def modules(self):
        return ()

    def function(self, names):
        return None

    def calls(self, name, callee=None, recursive=False):
        return [], []


_NOWHERE = _Nowhere()


def _declared(d: Node) -> str | None:
    x = d.child_by_field_name("declarator")
    return x.text.decode() if x is not None and x.type == "identifier" else None


def _eval(ev, tid: int, g: int) -> int:
    return ev({_TID: cexpr.Value(cexpr.UINT, tid), _SYM: cexpr.Value(cexpr.INT, g)}).v


def group_widths(tr, mask: Node, width: Node | None, fn, vote: bool = False) -> dict[int, int]:
    """{value of the unknown (or 0): G} where `mask` is the caller's aligned group of G lanes at
    every lane and `width` (where the call has one) is G; _Fail with the reason otherwise.  `vote`:
    the port reads the mask's value, which must not depend on the warp size (the wave's there)."""
    ex = _Expander(tr, fn)
    mtext = ex.text(mask, fn)
    if vote and ex.wave:
        raise _Fail("it reads the warp size: a vote's port keeps the mask's value, which on a 64-lane wave "
                    "is not CUDA's lanes")
    wtext = ex.text(width, fn) if width is not None else None
    got = _widths(mtext, wtext, ex.symbol)
    if isinstance(got, str):
        raise _Fail(got)
    return got


@functools.lru_cache(maxsize=4096)
def _widths(mtext: str, wtext: str | None, symbol: str | None) -> dict[int, int] | str:
    """group_widths on the expanded texts (the reason it fails as a string): a helper's mask met at
    every call of a file, and of every file that sees the helper, is evaluated once."""
    out: dict[int, int] = {}
    undefined: list[str] = []
    for s in (_GS if symbol is not None else (0,)):
        where = f" when {symbol} is {s}" if symbol is not None else ""
        try:
            mev = cexpr.evaluator(mtext, cxx=True)
            masks = {tid: _eval(mev, tid, s) & 0xFFFFFFFF for tid in _TIDS}
            w = _eval(cexpr.evaluator(wtext, cxx=True), 0, s) if wtext is not None else None
        except cexpr.CExprError as e:
            if symbol is not None:
                undefined.append(f"{s} ({e})")
                continue  # C leaves the mask undefined at this G: the original is, so no port owes it
            return f"evaluating it fails ({e})"
        g = bin(masks[0]).count("1")
        if g not in _GS or any(m != ((1 << g) - 1) << ((tid % 32) & ~(g - 1)) for tid, m in masks.items()):
            return f"it is not the caller's own aligned group of lanes{where}"
        if wtext is not None and w != g:
            return f"the shuffle's width is not the group's width ({g}{where}), so the lane read may leave the group"
        out[s] = g
    if not out:
        return f"evaluating it fails at every width {symbol} may have: {'; '.join(undefined)}"
    return out


def is_group(module, mask: Node, fn) -> bool:
    """Whether `mask` is the caller's own aligned group of lanes at every lane (condition 1)."""
    try:
        group_widths(SimpleNamespace(src=module.source, module=module), mask, None, fn, vote=True)
    except _Fail:
        return False
    return True


def _divergent_calls(tr, spans: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The calls of `spans` that thread-dependent control may reach: a condition, a loop's trip count
    or an earlier return that depends on the thread, in their function or, through the file's calls
    (template instances too), in a caller."""
    from .lint.divergence import Divergence, THREAD  # lint's analysis: loaded only where such a mask is met
    out: set[tuple[int, int]] = set()
    reached: set[str] = set()

    class _Reach(Divergence):
        def full_mask_op(self, call: Node) -> bool:
            return (call.start_byte, call.end_byte) in spans

        def _at_call(self, n: Node, frames) -> None:
            divergent = self._worst(frames, THREAD) is not None or (
                self._exit is not None and self._exit.tag >= THREAD and self._exit.node.start_byte < n.start_byte)
            if divergent:
                if (n.start_byte, n.end_byte) in spans:
                    out.add((n.start_byte, n.end_byte))
                reached.update(self._called(n))

    d = _Reach(_Ctx(tr), ("partial_warp_ops",)).run()

    def inside(c: Node) -> None:
        if (c.start_byte, c.end_byte) in spans:
            out.add((c.start_byte, c.end_byte))
    close_reached(tr, d, reached, inside)
    return out


def close_reached(tr, d, reached: set[str], visit=None) -> None:
    """Grow `reached` (function keys of divergence `d`) to what its helpers call, to a fixpoint: what a
    divergently reached helper runs is reached so too; `visit(call)` sees each call in a reached helper."""
    changed = True
    while changed:
        changed = False
        for f in tr.module.functions.values():
            if f.body is not None and d._fkey(f) in reached:
                d.fn = f
                for c in tr.src.index.under(f.body, "call_expression"):
                    if visit is not None:
                        visit(c)
                    if new := d._called(c) - reached:
                        reached |= new
                        changed = True


class _Ctx:
    """What lint's divergence analysis reads of a lint context, from the translator's own parse."""

    def __init__(self, tr) -> None:
        self.module, self.src, self.analysis = tr.module, tr.src, tr.analysis
        self.hardcoded_macros: dict = {}
        self.lang = backends.source().name

        class _S:
            portable_macros: frozenset = frozenset()
        self.settings = _S()

    def text(self, n: Node) -> str:
        return self.src.text_of(n)


def _full_at_every_lane(module, arg: Node, caller, seen: frozenset = frozenset()) -> str | None:
    """None where `arg` (of a call in `module`'s function `caller`) is CUDA's full mask at every lane of
    every warp (its value followed as a group's mask is: the group of 32); why not otherwise.  A
    parameter of a device helper passed on as it is (era-bellman-cuda's `transpose_tile(stride, ...)`
    handing its `mask` on) is followed to the helper's own callers; met again around a cycle of calls
    (`seen`), it adds nothing: its values enter the cycle through calls outside it, each checked."""
    while arg.type == "parenthesized_expression" and arg.named_children:
        arg = arg.named_children[0]
    name = module.source.text_of(arg)
    if arg.type == "identifier" and caller is not None and not caller.is_kernel and caller.param(name) is not None:
        key = (str(module.source.path), caller.node.start_byte)
        if key in seen:
            return None
        if len(seen) > _MAX_DEPTH:
            return f"it is the parameter '{name}' of '{caller.name}', whose callers are nested too deeply to follow"
        pos = next(i for i, p in enumerate(caller.params) if p.name == name)
        got = _through_callers(module, caller, pos, seen | {key})
        if got is None or (got[0] and not got[2]):
            return f"it is the parameter '{name}' of '{caller.name}': its callers decide the lanes it names, " \
                   "and no call of this run shows them"
        return None if got[0] else got[1]
    try:
        widths = group_widths(SimpleNamespace(src=module.source, module=module), arg, None, caller)
    except _Fail as e:
        return str(e)
    return None if set(widths.values()) == {32} else "it names only some lanes"


def _through_callers(module, fn, pos: int, seen: frozenset):
    """(whether every call of `fn` the run shows passes CUDA's full mask as its parameter `pos`, why
    not, the calls seen as 'file:line', the files looked in); None where no run is around the file.
    The calls are of that overload (includers.Elsewhere.calls with the callee); a recursive call that
    passes the parameter on as it is passes what its own callers gave it, any other value is checked."""
    from .includers import _same
    vis = module.visible
    ew = vis.elsewhere if vis is not None and vis.elsewhere is not None else _NOWHERE
    calls, looked = ew.calls(fn.name, callee=fn, recursive=True)
    if not looked:
        return None
    pname, seen_at = fn.params[pos].name, []
    for m, call, caller in calls:
        args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
        loc = m.source.loc(call)
        at = f"{Path(loc.path).name}:{loc.line}"
        if pos < len(args) and caller is not None and _same(caller, fn) and m.source.path == module.source.path \
                and m.source.text_of(args[pos]) == pname:
            continue  # (a recursive call passes what its own callers gave it)
        why = "it gives no such argument" if pos >= len(args) else _full_at_every_lane(m, args[pos], caller, seen)
        if why is not None:
            return False, f"the call at {at} passes '{m.source.text_of(args[pos]) if pos < len(args) else ''}' " \
                          f"as '{pname}' of '{fn.name}', which may name only some lanes ({why})", seen_at, looked
        seen_at.append(at)
    return True, "", seen_at, looked


def from_callers(tr, mask: Node, fn) -> tuple[bool, str] | None:
    """A mask that is a parameter of its function (a header's `aa_shfl(const U& mask, ...)` wrapper):
    (whether every call of the function the run shows passes CUDA's full mask, what was seen: the
    callers, or the first that does not).  The calls are those of the run's files, the headers they
    include and the file itself (kernelport.includers.Elsewhere.calls) that may run this overload of
    the function; a caller that passes on a parameter of its own is followed to its callers in turn
    (_full_at_every_lane).  None where the mask is no parameter, or the file is analysed with no run
    around it (no call can be seen)."""
    while mask.type == "parenthesized_expression" and mask.named_children:
        mask = mask.named_children[0]
    if fn is None or fn.is_kernel or mask.type != "identifier" or fn.param(tr.src.text_of(mask)) is None:
        return None  # (a kernel's parameter comes from the host's launch, not from a device call)
    pos = next(i for i, p in enumerate(fn.params) if p.name == tr.src.text_of(mask))
    got = _through_callers(tr.module, fn, pos, frozenset({(str(tr.src.path), fn.node.start_byte)}))
    if got is None:
        return None
    ok, why, seen, looked = got
    if not ok:
        return False, why
    if not seen:  # no program this run ports executes it (a wrapper the run's files never call)
        return True, f"no call of '{fn.name}' in the {len(looked)} file(s) of this run that see it"
    more = f" and {len(seen) - 8} more" if len(seen) > 8 else ""
    return True, f"every call of '{fn.name}' this run shows passes CUDA's full mask: {', '.join(seen[:8])}{more}"


def ported(tr, concept: dialect.Concept, bound: dict[str, Node], call: Node) -> dialect.Concept | None:
    """The concept the call with a mask that may name only some lanes (`bound["mask"]`) is ported as:
    a shuffle itself, the mask dropped; a vote as its vote over the group (`group_ballot`, ...: the
    wave's ballot restricted to the group's lanes, as the backend spells it); None, with KP203 at the
    mask naming the failed condition, otherwise."""
    mask = bound["mask"]
    why, target = None, concept
    seen = from_callers(tr, mask, tr.module.function_at(call))
    if seen is not None and seen[0]:
        tr.full_masks().add((mask.start_byte, mask.end_byte))  # spelled as a full mask is
        tr.note(mask, "(dropped)", f"the parameter's callers decide its lanes: {seen[1]}")
        if seen[1].startswith("no call"):
            tr.port.diagnostics.append(Diagnostic(
                "KP203", tr.src.loc(mask), f"mask '{tr.src.text_of(mask)}' is dropped from {tr.backend.upper()} "
                f"{concept.name(tr.backend)}, which runs on every active lane: {seen[1]}, so no program of this run "
                "executes it, and the port is right only for callers that pass a full mask", "translate it with the "
                "files that call it, which are then checked", "warning"))
        return concept
    try:
        widths = group_widths(tr, mask, bound.get("width"), tr.module.function_at(call), concept.kind != "shuffle")
    except _Fail as e:
        why = str(e)
    if why is None and concept.kind != "shuffle":
        target = dialect.concept(f"group_{concept.key}")
        if target is None or target.spelling(tr.backend) is None:
            why = f"{tr.backend.upper()} spells no vote over a group of lanes"
    elif why is None and "width" not in bound:
        why = "the shuffle gives no width, so the lane it reads may leave the mask's lanes"
    if why is None:
        if "_kp_group_divergent" not in tr.__dict__:  # once per port: every call with such a mask
            spans = {(m.parent.parent.start_byte, m.parent.parent.end_byte) for m, cls, _ in tr.analysis.shuffle_masks
                     if cls == "partial" and m.parent is not None and m.parent.parent is not None}
            tr.__dict__["_kp_group_divergent"] = _divergent_calls(tr, spans)
        if (call.start_byte, call.end_byte) in tr.__dict__["_kp_group_divergent"]:
            why = "thread-dependent control flow may reach the call with only part of the group"
    if why is None:
        at = f" (G = {', '.join(map(str, sorted(set(widths.values()))))})"
        if target is concept:
            tr.note(mask, "(dropped)", "the mask names the caller's own aligned group of G lanes, the width G "
                    f"keeps the shuffle inside it, and the whole group runs the call{at}")
        else:
            tr.note(call, dialect.render(target, tr.backend, {"mask": "mask", "predicate": "p"}),
                    f"a vote over the caller's own aligned group of G lanes, which the whole group runs: the "
                    f"wave's ballot restricted to the group's lanes{at}")
        return target
    guard = guardmasks.mismatch(tr, concept, bound, call) if seen is None else ""
    if guard is None:  # `(1 << N) - 1` under `lane < N`: the lanes active at the call are the mask's
        tr.note(mask, "(dropped)", "the mask names lanes 0 .. N-1, exactly the lanes the branch around the call "
                "lets in (`lane < N`, N uniform), and no other thread-dependent control reaches it")
        return concept
    if seen is not None:  # a caller the run shows passes a mask that may name only some lanes
        why = seen[1]
    elif guard:
        why = f"{why}; nor is it the lanes its guard lets in: {guard}"
    from . import unavailable
    message = f"mask '{tr.src.text_of(mask)}' may name only some lanes; {tr.backend.upper()} " \
              f"{concept.name(tr.backend)} runs on every active lane ({why})"
    # (a helper no code of the run calls, gpu4pyscf's `block_max` with its `0xff` tail: declared unavailable)
    unavailable.declare(tr, mask, "KP203", message) or tr.problem(
        "KP203", mask, message, "use a full mask (0xffffffff) or __activemask() in converged code, a group mask "
        "`((1u << G) - 1) << (lane & ~(G - 1))` (with width G for a shuffle) in uniform control flow, "
        "or keep the CUDA path under #ifdef")
    return None
