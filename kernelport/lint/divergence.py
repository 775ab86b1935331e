"""Which values and which control flow depend on the thread.

Every value gets a tag: UNIFORM (the same in every thread of the block: literals, blockIdx, blockDim, kernel
parameters, shared memory read at a uniform index, a block vote such as `__syncthreads_or`), WARP (the same within
a warp but not across the block: a vote, `threadIdx.x / warpSize`) or THREAD (threadIdx, a shuffle, an atomic's old
value, a load at a thread-dependent index).  Flow-insensitive per function (but a local's read that one assignment
reaches: overwrites.py), it follows assignments, helper parameters and returns to a fixpoint.  Two walks use it:
barriers reached under non-uniform control, after a thread-dependent early return or in a loop with a thread-dependent
trip count (tripcounts.py); and full-mask warp operations inside a partial region."""
from __future__ import annotations

import bisect
from dataclasses import dataclass

from tree_sitter import Node

from .. import backends, dialect, fnscopes, model, shufflewrappers, warpflow
from ..source import field_ids, ident_name
from . import aliasstores, broadcasts, declscopes, exits, lanebroadcasts, launchexits, overwrites, publishes, rngstates, sharedrefs, tripcounts
from .barrier_spellings import barrier_kind  # noqa: F401  (read from here by sync.py, exits.py, broadcasts.py)
from .tags import ROW, THREAD, UNIFORM, WARP, WARP32  # noqa: F401 (the modules that read the tags import them from here)

# (expr reads them per node of every pass: an id skips the name's look-up in the grammar per call)
_F_RIGHT, _F_LEFT, _F_OPERATOR, _F_ARGUMENT, _F_INDICES, _F_CONDITION, _F_CONSEQUENCE, _F_ALTERNATIVE = field_ids(
    "right", "left", "operator", "argument", "indices", "condition", "consequence", "alternative")


def lookup(name: str, dialects) -> "dialect.Concept | None":
    """The concept `name` spells in the first of these dialects (backend names) that has it."""
    return next((c for b in dialects if (c := dialect.lookup(b, name)) is not None), None)


@dataclass
class Frame:
    """A control construct around a statement, with its condition's tag."""
    kind: str  # if | loop | ternary | switch | exit | cut (the condition of an early return before it)
    node: Node  # the condition (or the return statement for exit)
    tag: int


@dataclass
class Hazard:
    """A barrier or full-mask operation reached under non-uniform control."""
    node: Node  # the barrier or the call that reaches one
    frame: Frame  # why the control flow is not uniform
    callee: str | None = None  # the helper that holds the barrier / warp operation


OUTPUTS = ("barrier_hazards", "partial_warp_ops")
_UNIFORM_KINDS = frozenset({"number_literal", "string_literal", "char_literal", "true", "false", "null", "nullptr",
                            "sizeof_expression", "concatenated_string", "lambda_expression"})


class Divergence:
    def __init__(self, ctx, wants=OUTPUTS, wave_aware: bool = False):
        """`wants`: the outputs (OUTPUTS) the caller reads; the others are not computed (None).  `wave_aware`
        (lint): a 32-lane warp index is WARP32 and `threadIdx.y` ROW or what the launches make it (tags.py)."""
        self.ctx = ctx
        self.wave_aware = wave_aware
        self.wants = frozenset(wants)
        self.m = ctx.module
        self.src = ctx.src
        self.source = backends.source().name  # calls and built-ins are read in the source dialect
        self.env: dict[tuple[str, str], int] = {}
        self.returns: dict[str, int] = {}  # function key (fnscopes: `a::step` is not `b::step`) -> its tag
        self.r0: dict[str, int] = {}  # its tag with UNIFORM parameters (return_tags; none: the joined tag)
        self.shared = {s.name for s in self.m.shared}
        self.fn = None
        self.changed = False
        self.barrier_hazards: list[Hazard] | None = [] if "barrier_hazards" in self.wants else None
        self.partial_warp_ops: list[Hazard] | None = [] if "partial_warp_ops" in self.wants else None
        self.wave_names = {"warpSize"} | set(ctx.hardcoded_macros) | set(ctx.settings.portable_macros)
        self.keys: dict[int, str] = {}  # identifier start byte -> the declaration it names
        self.decl_at: dict[str, int] = {}  # declaration key -> its byte offset (-1: parameter/global)
        self.local_arrays: set[str] = set()
        self.aliases: dict[str, set[str]] = {}  # a local pointer or reference -> the locals it names (aliasstores)
        self.pointee_refs: set[str] = set()  # the local references bound to memory through a pointer (aliasstores)
        self._passing, self._read = None, set()  # the function whose fixpoint pass runs, the keys it read
        self.shared_keys: set[str] = set()
        self.overwritten: dict[str, list] = {}  # the locals whose reads overwrites.py follows
        self.broadcast_reads: set[tuple[int, int]] = set()  # reads of a shared array all of one value
        self._param_suffixes: tuple[str, ...] | None = None
        self._all: set[int] = set()  # the worklist (run): every function, those to pass again, who reads what
        self._dirty: set[int] = set()
        self._callers: dict[str, set[int]] = {}
        self._tops: list = []
        self._top_starts: list[int] = []
        self._resolved = False
        self._exit = self._cut = None  # a function's first early return under a thread-dependent condition
        # early returns inside a block that returns every thread by its end: (start, block end, Frame)
        self._scoped_exits: list[tuple[int, int, Frame]] = []
        self._marks: list[int] | None = None  # the start bytes of every call and return (run: at the fixpoint)
        self._macro_stmts: list[Node] | None = None  # macro_statements over the file

    def _resolve_all(self) -> None:
        """Every function's identifiers resolved (once; a file with nothing to report needs none)."""
        if not self._resolved:
            self._resolved = True
            for f in self.m.functions.values():
                if f.body is not None:
                    declscopes.resolve(self, f)

    def key(self, n: Node) -> str:
        return self.keys.get(n.start_byte) or f"{self.src.text_of(n)}@global"

    # -- values ------------------------------------------------------------------------------
    def bind(self, key: str, tag: int) -> None:
        if key in self.shared_keys or (key.endswith("@global") and key.split("@")[0] in self.shared) or self.fn is None:
            return
        if tag > self.env.get(key, UNIFORM):
            self.env[key] = tag
            self.changed = True
            self._touch(key)

    def _is_wave(self, n: Node, shift: bool) -> bool:
        t = self.src.text_of(n).strip("() ")
        v = warpflow.int_value(t)
        if shift:
            return v in (5, 6)
        return v in (32, 64) or t in self.wave_names or bool(warpflow.WARP_SIZE_NAME.search(t))

    def _warp_index(self, n: Node, shift: bool) -> int:
        """WARP32 for a divisor (shift) of a hardcoded 32 lanes in a wave-aware analysis (`/ 32`, `>> 5`, a macro
        that hardcodes 32: ctx.hardcoded_macros), else WARP (`/ warpSize`, `/ 64`, a name of unknown value)."""
        if not self.wave_aware:
            return WARP
        t = self.src.text_of(n).strip("() ")
        v = warpflow.int_value(t)
        thirty_two = v == 5 if shift else (v == 32 or t in self.ctx.hardcoded_macros)
        return WARP32 if thirty_two else WARP

    def _control(self, key: str, frames) -> int:
        """The control tag an assignment inherits: only branches entered after the variable was declared."""
        start = self.decl_at.get(key, -1)
        return max((tag for tag, at in frames if at > start), default=UNIFORM)

    def expr(self, n: Node | None, frames=()) -> int:
        if n is None:
            return UNIFORM
        t = n.type  # (the kinds most read first: identifiers, then binary expressions)
        if t == "identifier":
            return overwrites.tag(self, n)
        if t == "binary_expression":
            right = n.child_by_field_id(_F_RIGHT)
            L, R = self.expr(n.child_by_field_id(_F_LEFT), frames), self.expr(right, frames)
            if L == THREAD and R == UNIFORM:  # (the operator read only where it can make a warp index)
                op = self.src.text_of(n.child_by_field_id(_F_OPERATOR))
                if (op == "/" and self._is_wave(right, False)) or (op == ">>" and self._is_wave(right, True)):
                    return self._warp_index(right, op == ">>")
            return L if L > R else R
        if t in _UNIFORM_KINDS:
            return UNIFORM
        if t == "field_expression":
            base = n.child_by_field_id(_F_ARGUMENT)
            c = dialect.lookup(self.source, self.src.text_of(base)) if base is not None else None
            if c is not None and c.key == "thread_idx":
                field = self.src.text_of(n.child_by_field_name("field")) if self.wave_aware else "x"
                if field in ("y", "z"):
                    from . import rowtags
                    return rowtags.tag(self, 1 if field == "y" else 2)
                return THREAD
            if c is not None and c.kind == "index":
                return UNIFORM
            return self.expr(base, frames)
        if t == "call_expression":
            return self.call(n, frames)
        if t == "subscript_expression":
            if (n.start_byte, n.end_byte) in self.broadcast_reads:
                return UNIFORM  # every slot holds the block's one value (broadcasts.py)
            arr = n.child_by_field_id(_F_ARGUMENT)
            idx = n.child_by_field_id(_F_INDICES)
            it = max((self.expr(c, frames) for c in (idx.named_children if idx is not None else [])), default=UNIFORM)
            base = arr
            while base is not None and base.type == "subscript_expression":
                inner = base.child_by_field_id(_F_INDICES)
                it = max([it] + [self.expr(c, frames) for c in (inner.named_children if inner else [])])
                base = base.child_by_field_id(_F_ARGUMENT)
            bt = UNIFORM
            if base is not None:
                if base.type == "identifier" and self.src.text_of(base) in self.shared:
                    bt = UNIFORM
                else:
                    bt = self.expr(base, frames)
            return max(it, bt)
        if t == "assignment_expression":
            left, right = n.child_by_field_id(_F_LEFT), n.child_by_field_id(_F_RIGHT)
            op = self.src.text_of(n.child_by_field_id(_F_OPERATOR))
            tag = self.expr(right, frames)
            if op != "=":
                tag = max(tag, self.expr(left, frames))
            self._store(left, *publishes.adjust(self, n, tag, frames))  # (one warp's value all read back)
            return tag
        if t == "update_expression":
            return self.expr(n.child_by_field_id(_F_ARGUMENT), frames)
        if t == "conditional_expression":
            c = self.expr(n.child_by_field_id(_F_CONDITION), frames)
            return max(c, self.expr(n.child_by_field_id(_F_CONSEQUENCE), frames),
                       self.expr(n.child_by_field_id(_F_ALTERNATIVE), frames))
        out = UNIFORM  # (the join of the children's tags, each read in order)
        for c in n.named_children:
            v = self.expr(c, frames)
            if v > out:
                out = v
        return out

    def _store(self, left: Node | None, tag: int, frames) -> None:
        if left is None:
            return
        base = left
        if left.type == "subscript_expression":
            while base is not None and base.type == "subscript_expression":
                self.expr(base.child_by_field_name("indices"), frames)
                base = base.child_by_field_name("argument")
        elif left.type in ("field_expression", "pointer_expression", "parenthesized_expression"):
            base = left.child_by_field_name("argument") or (left.named_children[0] if left.named_children else None)
        if base is not None and base.type == "identifier":
            k = self.key(base)
            for x in self.aliases.get(k, ()):  # `*p = E` with `p = &x`: x takes E's tag (aliasstores)
                self.bind(x, max(tag, self._control(x, frames)))
            if left.type == "subscript_expression" and k not in self.local_arrays:
                return  # a store through a pointer or into shared memory does not change the pointer
            if left.type == "field_expression" and left.child_by_field_name("operator") is not None and \
                    self.src.text_of(left.child_by_field_name("operator")) == "->":
                return
            if left.type == "pointer_expression" or k in self.pointee_refs:  # (`r.f = E`, `T& r = p[i]`: memory)
                return
            self.bind(k, max(tag, self._control(k, frames)))

    def call(self, n: Node, frames) -> int:
        fn = n.child_by_field_name("function")
        args_node = n.child_by_field_name("arguments")
        args = [a for a in args_node.named_children if a.type != "comment"] if args_node is not None else []
        tags = [self.expr(a, frames) for a in args]
        name = None
        if fn is not None and fn.type == "identifier":
            name = self.src.text_of(fn)
        elif fn is not None and fn.type == "template_function":
            nm = fn.child_by_field_name("name")
            name = self.src.text_of(nm) if nm is not None else None
        if name is None:
            return self._call_functions(n, tags)  # `a::step(x)`
        rngstates.init(self, name, args, tags, frames)  # `curand_init(seed, tid, 0, &st)`: st is as its seed
        if name in dialect.BLOCK_VOTES:
            return UNIFORM  # the block's OR / AND / count (dialect.BLOCK_VOTES)
        c = lookup(name, (self.source, self.ctx.lang))
        if c is not None:
            if c.kind == "vote":
                return WARP if c.key != "lanemask_lt" else THREAD
            if c.kind == "shuffle":
                return lanebroadcasts.tag(self, n, frames)  # `__shfl_sync(FULL, v, 0)`: one lane's value
            if c.kind == "warp_reduce":
                return lanebroadcasts.reduce_tag(self, n, tags)  # `__reduce_add_sync(FULL, v)`: the warp's one sum
            if c.kind == "atomic" or c.key in ("lane_id",):
                return THREAD
            if c.kind == "barrier":
                return UNIFORM
            return max(tags, default=UNIFORM)
        return self._call_functions(n, tags)

    def _call_functions(self, n: Node, tags: list[int]) -> int:
        """A call of the file's own functions (those C++ would run: fnscopes): their parameters take the
        arguments' tags, the call the join of min(its return, max(its return_tags R0, the arguments))."""
        found = fnscopes.callees(self.m, self.fn, n)
        if not found:
            return max(tags, default=UNIFORM)
        for callee in found:
            for p, tg in zip(callee.params, tags):
                key = f"{p.name}@{p.node.start_byte}"
                if tg > self.env.get(key, UNIFORM):
                    self.env[key] = tg
                    self.changed = True
                    self._touch(key)
        return max(min(self.returns.get(k, UNIFORM), max([self.r0.get(k, THREAD)] + tags)) for k in map(self._fkey, found))

    def _fkey(self, f) -> str:
        return fnscopes.of(self.m).key(f)

    def _called(self, n: Node) -> set[str]:
        """The keys of the file's functions the call `n` may run (in the function analysed)."""
        return {self._fkey(g) for g in fnscopes.callees(self.m, self.fn, n)}

    # -- statements --------------------------------------------------------------------------
    def stmt(self, n: Node, frames: tuple) -> None:
        t = n.type
        if t == "declaration":
            for d in n.children_by_field_name("declarator"):
                name = ident_name(d)
                val = d.child_by_field_name("value") if d.type == "init_declarator" else None
                if val is not None and name:
                    if self.src.text_of(val).strip("() ") in self.wave_names and name not in self.wave_names:
                        self.wave_names.add(name)
                        self._dirty.update(self._all)  # any function may read the name
                    dd = d
                    while dd is not None and dd.type != "identifier":
                        dd = model.inner_declarator(dd)
                    k = self.key(dd) if dd is not None else f"{name}@global"
                    self.bind(k, self.expr(val, frames))
            return
        if t == "return_statement":
            tag = max((self.expr(c, frames) for c in n.named_children), default=UNIFORM)
            tag = max([tag] + [f[0] for f in frames])
            if self.fn is not None and tag > self.returns.get(self._fkey(self.fn), UNIFORM):
                self.returns[self._fkey(self.fn)] = tag
                self.changed = True
                self._dirty.update(self._callers.get(self.fn.name.split("::")[-1], ()))
            return
        if t in ("if_statement", "while_statement", "do_statement", "switch_statement"):
            inner = frames + ((self.expr(n.child_by_field_name("condition"), frames), n.start_byte),)
            for ch in n.named_children:
                if ch.type not in ("condition_clause", "parenthesized_expression"):
                    self.stmt(ch, inner)
            return
        if t == "for_statement":
            init = n.child_by_field_name("initializer")
            if init is not None:
                self.stmt(init, frames) if init.type == "declaration" else self.expr(init, frames)
            inner = frames + ((tripcounts.tag(self, n, frames), n.start_byte),)
            self.expr(n.child_by_field_name("update"), inner)
            body = n.child_by_field_name("body")
            if body is not None:
                self.stmt(body, inner)
            return
        if t == "for_range_loop":
            inner = frames + ((self.expr(n.child_by_field_name("right"), frames), n.start_byte),)
            body = n.child_by_field_name("body")
            if body is not None:
                self.stmt(body, inner)
            return
        if t == "expression_statement":
            for ch in n.named_children:
                self.expr(ch, frames)
            return
        for ch in n.named_children:
            if ch.type.endswith("statement") or ch.type in ("declaration", "compound_statement", "else_clause",
                                                            "case_statement", "preproc_if", "preproc_ifdef",
                                                            "preproc_else", "preproc_elif", "labeled_statement"):
                self.stmt(ch, frames)

    # -- the fixpoint as a worklist --------------------------------------------------------------
    # A function's pass reads its own locals and parameters, globals, its callees' returns and the
    # wave names.  A function none of whose inputs changed since its last pass would write what it
    # wrote then (joins that change nothing), so it is skipped: the sweeps see the same states as
    # sweeps that run every function, in the same order, and end at the same sweep.  A pass that
    # changes a local it has not read yet (overwrites.tag notes each read in `_read`) reads the new
    # value later in the same pass: it needs no pass again for that change (kernelport/sweeps.py).
    def _worklist(self, funcs) -> None:
        self._all = {id(f) for f in funcs}
        tops: list = []  # outermost definitions (a nested one is read through its outer's scopes)
        for f in sorted(funcs, key=lambda f: f.node.start_byte):
            if not tops or f.node.start_byte >= tops[-1][1]:
                tops.append([f.node.start_byte, f.node.end_byte, set()])
            tops[-1][2].add(id(f))
        self._tops, self._top_starts = tops, [t[0] for t in tops]
        callers: dict[str, set[int]] = {}  # a function's last name -> who may call it (a worklist, not a fact)
        names = {f.name.split("::")[-1] for f in funcs}
        for f in funcs:  # a call names its callee by an identifier (plain or a template's name)
            for name in set(self.src.texts_under(f.body, "identifier")) & names:
                callers.setdefault(name, set()).add(id(f))
        self._callers = callers
        self._dirty = set(self._all)

    def _touch(self, key: str) -> None:
        """A value changed: the functions that may read it run again."""
        at = key.rsplit("@", 1)[1]
        if not at.isdigit():
            self._dirty.update(self._all)  # a global
            return
        i = bisect.bisect_right(self._top_starts, int(at)) - 1
        if i >= 0 and int(at) < self._tops[i][1]:
            self._dirty.update(self._tops[i][2] - ({self._passing} if key not in self._read else set()))
        else:
            self._dirty.update(self._all)

    def run(self) -> "Divergence":
        funcs = [f for f in self.m.functions.values() if f.body is not None]
        # A hazard is only ever recorded at a call (_at_call): a block barrier or a full-mask warp
        # operation, or a call of a helper that executes one.  The summaries need no tags, so they
        # come first; where no function holds such a call, there is nothing to report and the
        # fixpoint over the thread tags is skipped.
        self._summaries(funcs)
        hazardous = self.barrier_fns | self.full_fns
        if not hazardous and not self._direct:
            return self
        self._resolve_all()
        self.shared_keys |= sharedrefs.params(self, hazardous) | sharedrefs.locals_bound(self)  # `int& n` every caller binds to a `__shared__` scalar
        self.overwritten = overwrites.prepare(self)
        self.aliases = aliasstores.prepare(self)
        self.broadcast_reads = broadcasts.reads(self)
        self._worklist(funcs)
        from .return_tags import param_free_returns  # (it subclasses this module's analysis)
        self.r0 = param_free_returns(self, funcs)
        for _ in range(10):
            self.changed = False
            for f in funcs:
                if id(f) not in self._dirty:
                    continue  # nothing it reads changed since its last pass
                self._dirty.discard(id(f))
                self.fn, self._passing, self._read = f, id(f), set()
                self.stmt(f.body, ())
                self._passing = None
            if not self.changed:
                break
        converged = not self.changed  # at the fixpoint, a walk's reads of the tags change no tag
        self._marks = self._walk_marks() if converged else None
        for f in funcs:
            if f.is_device or not backends.get(self.ctx.lang).lint_host_code:
                if converged and not self._may_hazard(f, hazardous):
                    continue  # no call in it can be a hazard (_at_call)
                self.fn = f
                self._exit = self._cut = None
                self._scoped_exits = []
                self._walk(f.body, [])
        self.fn = None
        return self

    def _walk_marks(self) -> list[int] | None:
        """The start bytes of every call (where _at_call records a hazard) and return (the early exits
        a later call's frames read).  At the fixpoint the walk need not enter a subtree holding none:
        its conditions' tags would make frames no call reads, and reading them changes no tag."""
        return sorted([n.start_byte for n in self.src.index.of_types("call_expression", "return_statement")] +
                      [n.start_byte for n in self.macro_statements(self.src.root)])

    def macro_statements(self, under: Node) -> list[Node]:
        """The names under `under` that are a statement by themselves and an object-like barrier macro
        (`SYNC;` with `#define SYNC __syncthreads()`: barrier_spellings), in source order."""
        if self.barrier_hazards is None:
            return []  # (translate's group-mask checks ask for no barrier, on a context without the unit's macros)
        if self._macro_stmts is None:
            found = [s.named_children[0] for s in self.src.index.of_type("expression_statement")
                     if s.named_child_count == 1 and s.named_children[0].type == "identifier"]
            self._macro_stmts = [n for n in found if barrier_kind(self.ctx, n)]
        return [n for n in self._macro_stmts if under.start_byte <= n.start_byte < under.end_byte]

    def _may_hazard(self, f, hazardous: set[str]) -> bool:
        """Whether a call in f's body may be recorded by _at_call: a barrier or full-mask operation
        of its own, or a call (by the name _at_call reads) of a function that executes one."""
        if id(f) in self._direct:
            return True
        self.fn = f
        return any(self._called(n) & hazardous for n in self.src.index.under(f.body, "call_expression"))

    def _summaries(self, funcs) -> None:
        full_calls = set()
        for mask, cls, _ in self.ctx.analysis.shuffle_masks:
            if cls == "full" and mask.parent is not None and mask.parent.parent is not None:
                full_calls.add((mask.parent.parent.start_byte, mask.parent.parent.end_byte))
        self.full_calls = full_calls
        direct_barrier, direct_full, calls = {}, {}, {}
        self._direct: set[int] = set()  # functions (by identity: two may share a name) holding either
        # an output nobody reads needs no summary: its hazards are never recorded (_at_call), and
        # where neither is wanted-and-present the fixpoint is skipped
        barriers, fulls = self.barrier_hazards is not None, self.partial_warp_ops is not None
        for f in funcs:  # by key (fnscopes): `a::step` with a barrier is not `b::step` without one
            self.fn, k = f, self._fkey(f)
            direct_barrier.setdefault(k, False)
            direct_full.setdefault(k, False)
            if barriers and any(barrier_kind(self.ctx, n) == "block" for n in self.macro_statements(f.body)):
                direct_barrier[k] = True  # `SYNC;`: a statement of an object-like barrier macro
                self._direct.add(id(f))
            for n in self.src.index.under(f.body, "call_expression"):
                if barriers and barrier_kind(self.ctx, n) == "block":
                    direct_barrier[k] = True
                    self._direct.add(id(f))
                if fulls and self.full_mask_op(n):
                    direct_full[k] = True
                    self._direct.add(id(f))
        for f in funcs if self._direct else ():  # where no function holds one, no caller reaches one: the
            self.fn, k = f, self._fkey(f)  # closures are empty without resolving a call (most files)
            calls.setdefault(k, set())
            for n in self.src.index.under(f.body, "call_expression"):
                calls[k] |= self._called(n)
        self.fn = None
        self.barrier_fns = warpflow.callers_closure(direct_barrier, calls)
        self.full_fns = warpflow.callers_closure(direct_full, calls)

    def full_mask_op(self, call: Node) -> bool:
        """A warp operation that claims every lane: a full mask, or a mask-less legacy/HIP/Metal form."""
        if (call.start_byte, call.end_byte) not in self.full_calls:  # first: a set lookup, where most
            fn = call.child_by_field_name("function")  # calls are no warp operation at all; or a header's
            return fn is not None and fn.type == "identifier" and \
                shufflewrappers.fixed_full_mask(self.m, self.src.text_of(fn))  # wrapper with its own full mask
        found = self.ctx.concept_of_call(call)
        if found is None:
            return False
        c, order, bound = found
        if not c.warp_level or c.kind not in ("shuffle", "vote") or c.key in ("activemask", "lanemask_lt"):
            return False
        if "mask" not in bound:
            return False  # mask-less (HIP, Metal, legacy CUDA) forms take the lanes that are active
        return not self.callers_mask(bound["mask"])

    def callers_mask(self, mask: Node) -> bool:
        """A mask that names a parameter: the caller decides it."""
        if mask.type == "identifier":
            self._resolve_all()  # the mask's declaration (self.keys)
            if self._param_suffixes is None:  # once per file (per call, it was calls x parameters)
                self._param_suffixes = tuple(f"@{p.node.start_byte}" for f in self.m.functions.values()
                                             for p in f.params)
            if self.keys.get(mask.start_byte, "").endswith(self._param_suffixes):
                return True
        return False

    def _worst(self, frames: list[Frame], at_least: int) -> Frame | None:  # the innermost one at least so
        return next((fr for fr in reversed(frames) if fr.tag >= at_least), None)

    def _partial(self, frames: list[Frame]) -> Frame | None:
        """The innermost frame that leaves part of a wave out: THREAD, and in a wave-aware analysis ROW too
        (`threadIdx.y` in rows whose width no launch makes a multiple of 64).  A WARP32 one (`threadIdx.x / 32`) is
        not: its 32 is the hazard, WS003's or WS001's there, whose fix to the wave makes the region whole waves
        (tests/test_lint_includervalues.py)."""
        return self._worst(frames, ROW if self.wave_aware else THREAD)

    def _walk(self, n: Node, frames: list[Frame]) -> None:
        marks = self._marks
        if marks is not None:  # (a descendant starts within its parent's bytes, at its end at the latest)
            k = bisect.bisect_left(marks, n.start_byte)
            if k == len(marks) or marks[k] > n.end_byte:
                return  # no call or return in it: nothing the walk records (run)
        t = n.type
        if t == "call_expression" or (t == "identifier" and self._macro_stmts and n in self._macro_stmts):
            self._at_call(n, frames)
        if t in ("function_definition", "lambda_expression"):
            return
        if t in ("if_statement", "while_statement", "switch_statement", "do_statement"):
            cond = n.child_by_field_name("condition")
            tag = self.expr(cond) if cond is not None else UNIFORM
            if cond is not None:
                self._walk(cond, frames)
            kind = {"if_statement": "if", "switch_statement": "switch"}.get(t, "loop")
            inner = frames + [Frame(kind, cond, tag)] if cond is not None else frames
            if kind == "loop" and tag < WARP and exits.divergent_exit_in_loop(self, n):
                inner = frames + [Frame("loop-exit", cond if cond is not None else n, THREAD)]
            for ch in n.named_children:
                if ch is not None and (cond is None or (ch.start_byte, ch.end_byte) != (cond.start_byte, cond.end_byte)):
                    self._walk(ch, inner)
            return
        if t == "for_statement":
            init = n.child_by_field_name("initializer")
            cond = n.child_by_field_name("condition")
            if init is not None:
                self._walk(init, frames)
            tag = tripcounts.tag(self, n)
            fr = Frame("loop", cond if cond is not None else n, tag)
            if tag < WARP and exits.divergent_exit_in_loop(self, n):
                fr = Frame("loop-exit", cond if cond is not None else n, THREAD)
            inner = frames + [fr]
            for part in ("condition", "update", "body"):
                p = n.child_by_field_name(part)
                if p is not None:
                    self._walk(p, inner)
            return
        if t == "conditional_expression":
            cond = n.child_by_field_name("condition")
            tag = self.expr(cond)
            self._walk(cond, frames)
            inner = frames + [Frame("ternary", cond, tag)]
            for part in ("consequence", "alternative"):
                p = n.child_by_field_name(part)
                if p is not None:
                    self._walk(p, inner)
            return
        if t == "binary_expression" and self.src.text_of(n.child_by_field_name("operator")) in ("&&", "||"):
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            self._walk(left, frames)
            self._walk(right, frames + [Frame("if", left, self.expr(left))])
            return
        if t == "return_statement":
            for ch in n.named_children:
                self._walk(ch, frames)
            fr = self._worst(frames, WARP)
            if fr is not None and not any(f.kind.startswith("loop") for f in frames) and \
                    not (self.barrier_hazards is not None and launchexits.never_taken(self, n)):
                until = exits.returning_block_end(n)  # `if (!ids) { if (i > n) return; ...; return; }`
                if until is not None:
                    self._scoped_exits.append((n.start_byte, until, Frame("exit", n, fr.tag)))
                elif self._exit is None:
                    self._exit = Frame("exit", n, fr.tag)
            cut = self._partial(frames)  # `if (t > (n | 31)) return;`: the rest runs on part of a warp
            if cut is not None and self._cut is None and cut.kind == "if" and \
                    not any(f.kind.startswith("loop") for f in frames):
                self._cut = (n.start_byte, Frame("cut", self._deciding(cut.node), cut.tag))
            return
        for ch in n.named_children:
            self._walk(ch, frames)

    def _deciding(self, cond: Node) -> Node:
        """The part of `A || B` / `A && B` that depends on the thread where the other is uniform
        (ds4's `if (c >= n_comp || tid >= 128u) return;`: which lanes return is `tid >= 128u`'s)."""
        n = cond
        while n.type in ("condition_clause", "parenthesized_expression") and len(n.named_children) == 1:
            n = n.named_children[0]
        if n.type == "binary_expression" and self.src.text_of(n.child_by_field_name("operator")) in ("&&", "||"):
            sides = [n.child_by_field_name(k) for k in ("left", "right")]
            varying = [x for x in sides if x is not None and self.expr(x) != UNIFORM]
            if len(varying) == 1:
                return self._deciding(varying[0])
        return cond

    def _at_call(self, n: Node, frames: list[Frame]) -> None:
        fn = n.child_by_field_name("function")
        # the helpers it runs (fnscopes), by key; not a call through template arguments (`f<T>(...)`, `S<T>::f(...)`)
        called = self._called(n) if fn is not None and fn.type in ("identifier", "qualified_identifier") and \
            "<" not in self.src.text_of(fn) else set()
        callee = self.src.text_of(fn) if called and fn is not None else None  # as the call names it
        kind = barrier_kind(self.ctx, n) if self.barrier_hazards is not None else None
        if self.barrier_hazards is not None and (kind == "block" or (
                (called - {self._fkey(self.fn)}) & self.barrier_fns)):
            fr = self._worst(frames, WARP)
            if fr is None and self._exit is not None and self._exit.node.start_byte < n.start_byte:
                fr = self._exit
            if fr is None:  # in the block of a confined early return, after it
                fr = next((x for s, e, x in self._scoped_exits if s < n.start_byte < e), None)
            if fr is not None:
                self.barrier_hazards.append(Hazard(n, fr, None if kind == "block" else callee))
        if self.partial_warp_ops is not None and (self.full_mask_op(n) or called & self.full_fns):
            fr = self._partial(frames)
            if fr is None and self._cut is not None and self._cut[0] < n.start_byte:
                fr = self._cut[1]
            if fr is not None and fr.kind in ("if", "ternary", "switch", "loop", "cut"):
                self.partial_warp_ops.append(Hazard(n, fr, None if self.full_mask_op(n) else callee))
