"""Every lane reading a 32-lane ladder's fold whose value depends on the width: translate keeps 32 lanes.

A reduction ladder from 16 (`for (o = 16; o > 0; o >>= 1) v += __shfl_down_sync(full, v, o);`, or its xor
butterfly) that the wave port makes a ladder from `warpSize / 2` computes, in a lane that reads it:
 - at a FIRST level (a lane's own value folded): its 32-lane warp's fold (xor) or, in lanes 1-31 of a down
   ladder, a partial fold whose span is the width's.  At wave 64 both are other values: `float v =
   warp_sum(x[i]); y[i] = x[i] / v;` gives another y (stop 47: bench/block_reduce_ports47.txt).
 - at a SECOND level (its input read back from per-warp slots that leaders filled with first-level folds,
   `v = lane < nwarps ? part[lane] : 0; v = warp_sum(v);`): the block's fold in every lane of an xor butterfly,
   the same at either width (examples/softmax.cu), but in lanes 1-31 of a down ladder partial folds of the slots,
   which hold 32-lane warps' folds in CUDA and 64-lane waves' in the port: other values again, unless lane 0's
   fold is broadcast (`__shfl_sync(full, v, 0)`).
A select fold (`ov = __shfl_down_sync(m, best, o); if (ov > best) { best = ov; idx = oi; }`, an argmax), or any
other form that reads a ladder step's shuffle as a value, is the same fold: every variable it assigns carries it.
The fold is followed through a function's statements in order (an `if`'s branches and a loop's body merged
as either may run), through the module's helpers (a call's value is the helper's return with the caller's
argument), into the stores and atomics every lane runs (not under a test of equality: a leader's, where the
wave's fold is the right one, unless it stores one warp's fold at an address no thread index picks: `if (tid ==
0) x[0] = v * nwarps;`).  A value that reads `warpSize` is the code's own account of the width (`atomicAdd(out,
v / warpSize)`: each lane its share of its wave's total): left to the wave.  Such a function's group keeps CUDA's 32-lane groups in translate's view
(warpwidth.Group.counted, warpcounts.adopted; refused KP219 where it cannot); lint reads the code as written.
A ladder whose every step a thread count guards (`if (n >= 32) v += __shfl_down_sync(m, v, 16);` ...) is a first-level
fold tagged with its count (COUNT): under a test bounding the block's count by CUDA's warp it is the block's fold in
lane 0 (kernelport/count_guards.py); one of another count that a leader hands on keeps 32 lanes.
A slot read back by every lane (`y = a * part[lane]`) is a 32-lane warp's fold in CUDA, a wave's in the port:
dependent too, unless every slot is read in turn (`for (w = 0; w < nwarps; ++w) t += part[w];`) or a full fold
was stored at that literal slot (a broadcast: `if (tid == 0) part[0] = total;`, read `part[0]`).
A slot read next to the one the reader's own warp stored (`SD[tId >> 5] = g; ... g += SD[(tId >> 5) + 1]`:
Zialus/cumf_ccd's 64-thread rows, two warps each, the row's first lane adding its second warp's fold) pairs
warps of 32 lanes: at wave 64 the neighbour slot is another row's wave.  It is dependent even in a leader's
store (PAIR), so the function keeps CUDA's 32-lane groups, and slot w + 1 is the second half of the row again.
"""
from __future__ import annotations

from tree_sitter import Node

from . import blockdims, count_guards, dialect, fnscopes, function_table_memo, shufflewrappers
from .butterfly_lanes import folds_into, starts_at_16, under_leader
from .source import call_args, ident_name

_LADDERS = {"shfl_xor": "lanemask", "shfl_down": "delta"}  # the shuffles a reduction ladder folds with: their step
WARP, DOWN2, SLOT, FULL = "warp", "down2", "slot", "full"  # a first-level or partial fold; a second-level down
PAIR = "pair"  # a slot next to the reader's own warp's (`part[warp + 1]`): another 32-lane warp's fold
DEPENDENT = frozenset({WARP, DOWN2, SLOT, PAIR})  # ladder's (full in lane 0); a per-warp slot's value; a block's fold
TID = "tid"  # read from threadIdx: an address that a thread index picks
WAVE = "wave"  # reads `warpSize`: a value the code scales by the width it runs at (`v / warpSize`: its lane's share)
COUNT = "count:"  # `count:<shuffle>:<count>`: a first-level fold every step of which the count guards (count_guards)
_PER_BLOCK = ("blockIdx", "blockDim", "gridDim")  # the same in every thread of a block
_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")
_NONE: frozenset = frozenset()


def width_dependent_read(module, f, read_as: str) -> Node | None:
    """The first store or atomic through which every lane of `f` keeps a width-dependent ladder fold."""
    if f.body is None or not _has_ladder(module) or f.name not in _carriers(module, read_as):
        return None  # (no ladder step in f nor in a helper it reaches: no fold, no tag the flow could keep)
    flow = _Flow(module, read_as, f)
    flow.run(f.body, {p.name: _NONE for p in f.params if p.name}, report=True)
    return flow.found


def _has_ladder(module) -> bool:
    got = module.__dict__.get("_kp_has_ladder")
    if got is None:
        text = module.source.text
        got = module.__dict__["_kp_has_ladder"] = any(w in text for w in ("shfl_down", "shfl_xor", "SHFL_DOWN",
                                                                          "SHFL_XOR", "ShuffleDown", "ShuffleXor"))
    return got


def _carriers(module, read_as: str) -> frozenset:
    """The functions, by name, whose flow can meet a ladder step: one in the body, or a call of such a
    helper as _Flow calls them (by name, non-kernel functions with a body).  Every fold tag is made at a ladder
    step (`_fold`, `_partner`, a count-guarded step), so a function with neither has no dependent value to keep:
    its flow, which walks each loop twice and each helper per argument tags, need not run.  Once per model."""
    got = module.__dict__.setdefault("_kp_fold_carriers", {}).get(read_as)
    if got is not None:
        return got
    src = module.source
    helpers = {g.name for g in module.functions.values() if g.body is not None and not g.is_kernel}
    calls: dict[str, set[str]] = {}  # a function's name -> the helpers it calls (its definitions together)
    direct: set[str] = set()
    for g in module.functions.values():
        out = calls.setdefault(g.name, set())
        for c in (src.index.under(g.body, "call_expression") if g.body is not None else ()):
            fn = c.child_by_field_name("function")
            if fn is None:
                continue
            found = dialect.spelled_by(read_as, src.text_of(fn))
            if found is not None and found[0].key in _LADDERS:
                direct.add(g.name)
            elif (name := fnscopes.callee_name(fn)) in helpers:
                out.add(name)
    reach = set(direct)
    while True:  # the callers of a carrier, by name, until none is added
        more = {k for k, v in calls.items() if k not in reach and not v.isdisjoint(reach)}
        if not more:
            break
        reach |= more
    got = module.__dict__["_kp_fold_carriers"][read_as] = frozenset(reach)
    return got


def _helpers(module) -> dict[str, list]:
    """The helpers a flow follows into: non-kernel functions with a body, by name (overloads together).  Once
    per model while its function table is unchanged (function_table_memo): each flow listed every function."""
    out: dict[str, list] = {}
    for g in module.functions.values():
        if g.body is not None and not g.is_kernel:
            out.setdefault(g.name, []).append(g)
    return out


def _norm(tags: frozenset) -> frozenset:
    """A count-guarded fold read as the first-level fold it is until a bound on its count says otherwise."""
    return frozenset(WARP if t.startswith(COUNT) else t for t in tags) if any(t.startswith(COUNT) for t in tags) \
        else tags


def _bound(tags: frozenset, bounds: frozenset, keep: str | None = None) -> frozenset:
    """tags with each count-guarded fold whose count (the block's) is bounded by CUDA's warp read as the block's
    fold in lane 0 (a down ladder: DOWN2) or in every lane (xor: FULL); `keep`: the count a later step of the
    ladder is guarded by, any other count-guarded fold it folds further is a first-level fold (WARP)."""
    out = set()
    for t in tags:
        if t.startswith(COUNT):
            kind, c = t[len(COUNT):].split(":", 1)
            if keep is not None and c != keep:
                t = WARP
            elif c in bounds and c in count_guards.BLOCK_COUNTS:
                t = DOWN2 if kind == "shfl_down" else FULL
        out.add(t)
    return frozenset(out)


def _fold(kind: str, given: frozenset) -> frozenset:
    """The tags of a ladder's fold of a value tagged `given` (see the module's docstring)."""
    given = given - {TID, WAVE}
    if given and given <= {SLOT, FULL}:
        return frozenset({FULL if kind == "shfl_xor" else DOWN2})
    return frozenset({WARP})


class _Flow:
    """Tags per variable through a function's statements; `found`: the first every-lane keeper of a dependent value."""

    def __init__(self, module, read_as: str, f):
        self.m, self.src, self.read_as, self.fn = module, module.source, read_as, f
        self.bounds: frozenset = _NONE  # the counts a test on the path bounds by CUDA's warp (count_guards)
        self.found: Node | None = None
        self.slot_at: dict[str, set[str]] = {}  # array -> the index texts a first-level fold was stored at
        self.wrappers: dict | None = None  # shuffle wrappers by name (shufflewrappers), read on first need
        self.helpers: dict[str, list] = function_table_memo.kept(module, "fold helpers", _helpers)  # (read-only)
        self.summaries: dict[tuple[str, frozenset], frozenset] = {}
        self.report = True
        self.stepped: set[str] = set()  # variables a ladder step folded (in the loop being read)
        self.first_in: dict[int, frozenset] | None = None  # a ladder step's input on its loop's first turn
        self.returns: list[frozenset] | None = None

    def run(self, n: Node, st: dict, report: bool = True) -> None:
        self.report = report
        self._stmt(n, st)

    # statements
    def _stmt(self, n: Node, st: dict) -> None:
        t = n.type
        if t == "if_statement":
            self._if(n, st)
        elif t in _LOOPS or t == "switch_statement":
            if t == "for_statement" and (i := n.child_by_field_name("initializer")) is not None:
                self._stmt(i, st) if i.type == "declaration" else self._expr(i, st)
            a, stepped, self.stepped, first = dict(st), self.stepped, set(), self.first_in
            self.first_in = {}
            for _ in range(2):  # a second turn sees what the first left (a ladder folds its own value)
                for c in n.named_children:
                    if c.type != "declaration" or t != "for_statement":
                        self._stmt(c, a) if _is_stmt(c) else self._expr(c, a)
            folded, self.stepped, self.first_in = self.stepped, stepped | self.stepped, first
            _merge(st, a, {k: v for k, v in st.items() if k not in folded})  # a ladder's loop from 16 runs
        elif t == "declaration":
            for d in n.named_children:
                if d.type == "init_declarator" and (name := ident_name(d.child_by_field_name("declarator"))):
                    st[name] = self._expr(d.child_by_field_name("value"), st)
        elif t == "return_statement":
            got = self._expr(n.named_children[0], st) if n.named_children else _NONE
            if self.returns is not None:
                self.returns.append(got)
        elif t in ("expression_statement", "condition_clause", "parenthesized_expression"):
            for c in n.named_children:
                self._expr(c, st)
        elif t in ("function_definition", "lambda_expression", "class_specifier", "struct_specifier"):
            return
        else:
            saved = self.bounds  # (a bound an early return leaves holds to the end of its block)
            for c in n.named_children:
                self._stmt(c, st) if _is_stmt(c) else self._expr(c, st)
            self.bounds = saved

    def _if(self, n: Node, st: dict) -> None:
        """Both branches merged, each under the counts its test bounds; a branch that returns does not reach on."""
        cond = n.child_by_field_name("condition")
        self._expr(cond, st)
        yes, no = count_guards.bounded(self.m, self.fn, cond) if self.src.text_of(cond).count("<") + \
            self.src.text_of(cond).count(">") else (_NONE, _NONE)
        a, b, saved = dict(st), dict(st), self.bounds
        for branch, s, more in ((n.child_by_field_name("consequence"), a, yes),
                                (n.child_by_field_name("alternative"), b, no)):
            self.bounds = saved | more
            for k in s:
                s[k] = _bound(s[k], self.bounds)
            if branch is not None:
                self._stmt(branch, s)
        left_a, left_b = (count_guards.returns(n.child_by_field_name(k)) for k in ("consequence", "alternative"))
        self.bounds = saved
        if left_a != left_b:  # (`if (blockDim.x > WARP_SIZE) return;`: what follows runs bounded)
            st.clear()
            st.update(b if left_a else a)
            self.bounds = saved | (no if left_a else yes)
        else:
            _merge(st, a, b)

    # expressions: their tags
    def _expr(self, n: Node | None, st: dict) -> frozenset:
        if n is None:
            return _NONE
        t = n.type
        if t == "identifier":
            return frozenset({WAVE}) if self.src.text_of(n) == "warpSize" else st.get(self.src.text_of(n), _NONE)
        if t == "field_expression" and self.src.text_of(n.child_by_field_name("argument")) == "threadIdx":
            return frozenset({TID})
        if t == "assignment_expression":
            return self._assign(n, st)
        if t == "subscript_expression":
            for i in n.named_children[1:]:
                self._expr(i, st)  # (side effects only: an index is no part of the value)
            return self._slot_read(n, st)
        if t == "call_expression":
            return self._call(n, st)
        if t in ("lambda_expression", "string_literal", "sizeof_expression"):
            return _NONE
        out = _NONE
        for c in n.named_children:
            out |= self._expr(c, st)
        return out

    def _assign(self, n: Node, st: dict) -> frozenset:
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        op = self.src.text_of(n.child_by_field_name("operator"))
        if left is not None and left.type == "identifier":
            v = self.src.text_of(left)
            step = self._step_in(right, v)
            kind = step[0] if step else None
            if kind:  # (a loop's second turn folds what its first turn was given: one ladder)
                self.stepped.add(v)
                if self.first_in is not None:
                    st[v] = self.first_in.setdefault(n.id, st.get(v, _NONE))
            got = _fold(kind, st.get(v, _NONE)) if kind else \
                self._expr(right, st) | (st.get(v, _NONE) if op != "=" else _NONE)
            if step and got == {WARP} and (c := count_guards.step_count(self.m, self.fn, step[1], step[2])):
                got = _bound(frozenset({f"{COUNT}{kind}:{c}"}), self.bounds)
            elif not kind and any(t.startswith(COUNT) for t in got):
                for _, call, offset, _ in self._steps(right, v):  # a later step: guarded by the same count?
                    got = _bound(got, _NONE, count_guards.step_count(self.m, self.fn, call, offset) or "")
            st[v] = got
            return got
        got = self._expr(right, st)
        if left is not None and left.type in ("subscript_expression", "pointer_expression"):
            at = self._expr(left.child_by_field_name("argument"), st) | self._expr(_index(left), st)
            self._keeper(n, got, TID not in at and _uniform(self.m, left, st))
            if left.type == "subscript_expression":
                self._slot_store(left, got, st)
        return got

    def _slot_store(self, left: Node, got: frozenset, st: dict) -> None:
        """An array's values as `[]` (any index) and `[c]` (a literal index) keys of st: a first-level fold stored
        makes per-warp slots; a full fold stored at a literal index (a broadcast through slot 0) is read back full."""
        base, idx = left.child_by_field_name("argument"), _index(left)
        if base is None or base.type != "identifier" or idx is None:
            return
        norm = _norm(got)
        tags = frozenset({SLOT} if norm & {WARP, SLOT} else {FULL} if norm & {FULL, DOWN2} else ())
        arr = self.src.text_of(base) + "["
        if idx.type == "number_literal":  # (a value that took in every slot, stored at one: the block's, broadcast)
            st[arr + self.src.text_of(idx)] = frozenset({FULL}) if FULL in got else tags
            return
        if SLOT in tags:
            self.slot_at.setdefault(arr, set()).add("".join(self.src.text_of(idx).split()))
        for k in [k for k in st if k.startswith(arr)] + [arr]:
            st[k] = st.get(k, _NONE) | tags

    def _slot_read(self, n: Node, st: dict) -> frozenset:
        base, idx = n.child_by_field_name("argument"), _index(n)
        if base is None or base.type != "identifier" or idx is None:
            return _NONE
        arr = self.src.text_of(base) + "["
        if idx.type == "number_literal" and arr + self.src.text_of(idx) in st:
            return st[arr + self.src.text_of(idx)]
        got = st.get(arr, _NONE)
        if idx.type != "number_literal":
            got = got.union(*(v for k, v in st.items() if k.startswith(arr)))
        if got == {SLOT} and idx.type == "identifier" and _loop_variable(self.src, n, self.src.text_of(idx)):
            return frozenset({FULL})  # every slot in turn (`for (w = 0; w < nwarps; ++w) t += part[w];`): the block's
        if SLOT in got and self._beside_own(arr, idx):
            return got | {PAIR}
        return got

    def _beside_own(self, arr: str, idx: Node) -> bool:
        """idx is a slot this array's fold was stored at, plus or minus (or xor) a nonzero literal: a neighbour warp's."""
        if idx.type != "binary_expression" or self.src.text_of(idx.child_by_field_name("operator")) not in "+-^":
            return False
        a, b = (_unparen(idx.child_by_field_name(k)) for k in ("left", "right"))
        own = self.slot_at.get(arr, set())
        for x, y in ((a, b), (b, a)):
            if x is not None and y is not None and y.type == "number_literal" and \
                    "".join(self.src.text_of(x).split()) in own and self.src.text_of(y).rstrip("uUlL") not in ("0", "0x0"):
                return True
        return False

    def _call(self, n: Node, st: dict) -> frozenset:
        args = call_args(n)
        tags = [self._expr(a, st) for a in args]
        given = frozenset().union(*tags) if tags else _NONE
        fn = n.child_by_field_name("function")
        name = fnscopes.callee_name(fn) or ""
        if name.startswith("atomic"):
            self._keeper(n, frozenset().union(*tags[1:]) if len(tags) > 1 else _NONE)
        found = self._shuffle(n)
        if found is not None and found[0] == "shfl":  # lane 0's fold broadcast: the second level's total
            names = found[1]
            lane = args[names.index("lane")] if "lane" in names and len(args) > names.index("lane") else None
            value = names.index("value") if "value" in names else len(tags)
            if lane is not None and self.src.text_of(lane).strip() in ("0", "0u", "0U") and \
                    value < len(tags) and tags[value] == {DOWN2}:
                return frozenset({FULL})
        if found is not None and found[0] in _LADDERS and (got := self._partner(n, found, args, tags)):
            return got
        if name in self.helpers:
            self._out_params(name, args, given, st)
            return self._counts_at(name, args, self._summary(name, given))
        vis = self.m.visible
        if (out := _carried(given)) and vis is not None and name in vis.declared:  # a header's helper, body unseen:
            for a in args:  # any variable it is handed may be an output (a reference parameter) carrying the fold
                if (v := _variable(self.src, a)) is not None:  # `v` or `&v`
                    st[v] = st.get(v, _NONE) | out
        return given

    def _out_params(self, name: str, args: list[Node], given: frozenset, st: dict) -> None:
        """A helper's non-const reference parameter, or its pointer given `&v`, is an output: the caller's variable
        passed there carries what
        the call was given (`two_sum(ah, bh, rh, t); ah = rh;` folds the ladder step `bh` into `ah`, Bridge++'s
        compensated reductions, held-out set 90), as a return value would.  A header's helper, whose body the
        flow does not see, is read so for every variable argument (`_call`): a fold it may write out is kept.
        Only the fold's tags are carried (`_carried`): the output may or may not take in the other arguments."""
        out = _carried(given)
        if not out:
            return
        for g in self.helpers[name]:
            for p, a in zip(g.params, args):
                if p.const:
                    continue
                if p.pointer and a.type == "pointer_expression":  # `two_sum(ah, bh, &rh, &t)` into `float *s`
                    v = _variable(self.src, a)
                elif not p.pointer and a.type == "identifier" and self.src.index.under(p.node, "reference_declarator"):
                    v = self.src.text_of(a)
                else:
                    continue
                if v is not None:
                    st[v] = st.get(v, _NONE) | out

    def _partner(self, call: Node, found, args: list[Node], tags: list[frozenset]) -> frozenset | None:
        """A ladder step from 16 read as a value, not folded into its own variable by `v = op(v, shfl(v))`: a
        select fold (`ov = shfl(best, o); if (ov > best) { best = ov; idx = oi; }`, `v = c ? ov : v`) or any
        other accumulation form.  Whatever takes it in carries the fold's tags (its first turn's input, as a
        step's), so a store of `idx` is read as a store of the fold."""
        key, names = found[0], found[1]
        if _LADDERS[key] not in names or "value" not in names:
            return None
        step = names.index(_LADDERS[key])
        if _named_width(self.src, names, args, found) or len(args) <= step or args[step].type != "identifier" or \
                not starts_at_16(self.src, args[step], call):
            return None  # (a width named: the code says which group it means; a literal step is no loop's
            # ladder: an xor exchange or one shift reads its partner's value, which is no fold)
        given = tags[names.index("value")]
        if self.first_in is not None:
            given = self.first_in.setdefault(call.id, given)
        return _fold(key, given)

    def _counts_at(self, name: str, args: list[Node], tags: frozenset) -> frozenset:
        """A helper's count-guarded fold with its count named as the caller's argument where it is a parameter;
        then read under the caller's bounds."""
        if not any(t.startswith(COUNT) for t in tags):
            return tags
        params = next(([p.name for p in g.params] for g in self.helpers[name] if len(g.params) >= len(args)), [])
        out = set()
        for t in tags:
            if t.startswith(COUNT):
                kind, c = t[len(COUNT):].split(":", 1)
                if c in params[:len(args)]:
                    t = f"{COUNT}{kind}:{''.join(self.src.text_of(args[params.index(c)]).split())}"
                elif c not in count_guards.BLOCK_COUNTS:
                    t = f"{COUNT}{kind}:?"  # (a helper's own count: not the block's)
            out.add(t)
        return _bound(frozenset(out), self.bounds)

    def _summary(self, name: str, given: frozenset) -> frozenset:
        """A helper's return value, its parameters tagged as the caller's arguments (a depth guard on recursion)."""
        key = (name, given)
        if key in self.summaries:
            return self.summaries[key]
        self.summaries[key] = given  # (recursion: the arguments' tags)
        saved = (self.returns, self.report, self.first_in, self.fn, self.bounds)
        out = _NONE
        for g in self.helpers[name]:
            self.returns, self.report, self.first_in, self.fn, self.bounds = [], False, None, g, _NONE
            self._stmt(g.body, {p.name: given for p in g.params if p.name})
            out |= frozenset().union(*self.returns) if self.returns else _NONE
        self.returns, self.report, self.first_in, self.fn, self.bounds = saved
        self.summaries[key] = out
        return out

    def _step_in(self, right: Node | None, v: str) -> tuple | None:
        """(kind, call, offset) of a ladder step from 16 in `right` that folds v's partner value into v."""
        return next((s[:3] for s in self._steps(right, v) if s[3]), None)

    def _steps(self, right: Node | None, v: str):
        """(kind, call, offset, from 16) of each ladder step in `right` folding v's partner into v (no width named)."""
        for call in (self.src.index.under(right, "call_expression") if right is not None else ()):
            found = self._shuffle(call)
            if found is None or found[0] not in _LADDERS:
                continue
            key, names, args = found[0], found[1], call_args(call)
            step = _LADDERS[key]
            if step not in names or "value" not in names or _named_width(self.src, names, args, found) or \
                    len(args) <= names.index(step) or len(args) <= names.index("value"):
                continue  # a width named: the code says which group it means
            value, offset = args[names.index("value")], args[names.index(step)]
            if value.type == "identifier" and self.src.text_of(value) == v and folds_into(self.src, call, v):
                yield key, call, offset, starts_at_16(self.src, offset, call)

    def _shuffle(self, call: Node) -> tuple | None:
        """(concept key, parameter names) of a shuffle call: the intrinsic, or a
        wrapper forwarding its parameters to one (the file's or an included header's: cumf_ccd's `shfl_down(v, d)`
        in cuda_common.h), read as the shuffle it wraps (kernelport.shufflewrappers)."""
        fn = call.child_by_field_name("function")
        if fn is None:
            return None
        found = dialect.spelled_by(self.read_as, self.src.text_of(fn))
        if found is not None:
            return found[0].key, dialect.call_params(*found)[0]
        name = fnscopes.callee_name(fn) or ""
        if not name:
            return None
        if self.wrappers is None:
            vis = self.m.visible
            self.wrappers = {**(vis.shuffle_wrappers if vis is not None else {}), **shufflewrappers.wrappers(self.m)}
        hit = self.wrappers.get(name)
        return (hit[0], list(hit[1]), True) if hit is not None else None

    def _keeper(self, n: Node, got: frozenset, one_per_block: bool = False) -> None:
        """n keeps `got` in memory: a dependent value every lane stores, or a leader's store of a first-level fold
        at an address no thread index picks (`if (tid == 0) x[0] = v * nwarps;`: one warp's fold, not recombined
        as `part[warp] = v` or `atomicAdd(out, v)` recombine theirs)."""
        counted = any(t.startswith(COUNT) and t.split(":", 2)[2] not in count_guards.BLOCK_COUNTS for t in got)
        got = _norm(got)  # (a count-guarded fold of another count is a fold of fewer lanes than the wave's
        if self.report and self.found is None and got & DEPENDENT and WAVE not in got and \
                (not under_leader(self.src, n, _body(n)) or one_per_block and WARP in got or counted or PAIR in got):
            self.found = n  # where each warp's leader hands it on: lanes 32-63's fold has no leader at 64)


def _variable(src, a: Node) -> str | None:
    """The local an argument may write: `v` itself, or `v` through its address `&v`."""
    if a.type == "identifier":
        return src.text_of(a)
    op = a.child_by_field_name("operator") if a.type == "pointer_expression" else None
    arg = a.child_by_field_name("argument") if op is not None and src.text_of(op) == "&" else None
    return src.text_of(arg) if arg is not None and arg.type == "identifier" else None


def _carried(given: frozenset) -> frozenset:
    """What a call's output argument may take from the call's arguments: their fold tags only.  WAVE, TID and FULL
    each exempt a value or an address from keeping 32 lanes, so they come only from what the flow reads: a fold
    handed on beside `warpSize` or `threadIdx.x` (`clamp(v, warpSize); y[i] = x[i] / v;`) is still the fold
    its variable held, and a variable that held the fold keeps its tags (`st[v] | out`)."""
    return frozenset(t for t in given if t in DEPENDENT or t.startswith(COUNT))


def _uniform(module, n: Node, st: dict) -> bool:
    """Every name in the address n is a parameter or a local the flow followed, or a constant (a macro or a
    header's macro with a constant value: `red[blockIdx.x + MAX_THREADS] = lo;`, Bridge++'s second word, held-out
    set 90); another macro may hide `threadIdx`."""
    src = module.source
    names = [src.text_of(i) for i in src.index.under(n, "identifier")] + ([src.text_of(n)] if n.type == "identifier"
                                                                         else [])
    return all(x in st or x in _PER_BLOCK or blockdims.constant(x, None, module) is not None for x in names)


def _is_stmt(n: Node) -> bool:
    return n.type.endswith("_statement") or n.type in ("declaration", "compound_statement", "else_clause",
                                                       "case_statement", "condition_clause")


def _named_width(src, names: list[str], args: list[Node], found: tuple) -> bool:
    """The call names the shuffle's width: a logical group (a wrapper's default, cudasift's `int width = 32`, is
    none, nor a wrapper call's literal 32: the wave port makes both the wave's where the function's group is)."""
    if "width" not in names or len(args) <= names.index("width"):
        return False
    return not (len(found) > 2 and shufflewrappers.full_width(src, args[names.index("width")]))


def _unparen(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n


def _index(n: Node) -> Node | None:
    idx = n.child_by_field_name("indices")
    got = idx.named_children[0] if idx is not None and idx.named_children else None
    return got.named_children[0] if got is not None and got.type == "parenthesized_expression" and \
        got.named_children else got


def _loop_variable(src, n: Node, name: str) -> bool:
    """Whether `name` is the variable a loop around n counts with (its initializer sets it)."""
    p = n.parent
    while p is not None and p.type != "function_definition":
        if p.type == "for_statement" and (i := p.child_by_field_name("initializer")) is not None and \
                any(src.text_of(d) == name for d in src.index.under(i, "identifier")):
            return True
        p = p.parent
    return False


def _merge(st: dict, a: dict, b: dict) -> None:
    for k in set(a) | set(b):
        st[k] = a.get(k, _NONE) | b.get(k, _NONE)


def _body(n: Node) -> Node:
    p = n
    while p.parent is not None and p.type != "function_definition":
        p = p.parent
    return p.child_by_field_name("body") or p
