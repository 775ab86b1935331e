"""Shared arrays that hold one value in every slot: a read of any slot is the block's one value.

pade-laplace's taylor_slae.cu (heldout53) ends a reduction helper with a doubling copy ladder:

    __device__ void reduce(const int dim) {
      extern __shared__ double data[];
      for (...) { ...; __syncthreads(); }                  // the sum lands in data[0]
      for (int id = 1; id < blockDim.x; id <<= 1) {
        if (threadIdx.x < id && threadIdx.x + id < blockDim.x)
          data[threadIdx.x + id] = data[threadIdx.x];      // slots [id, 2 id) from [0, id)
        __syncthreads();
      }
    }

and its caller reads `err_norm = norm[threadIdx.x]` after `reduce(dim)`, `norm` being an `extern __shared__ double[]`:
the same storage (every `extern __shared__` array starts at the block's dynamic shared memory).  divergence.py tags
a read at a thread-dependent index THREAD, and every barrier under `if (err_norm < 1e-64) break;` was a false SY001.

A broadcast here is one of:
- the ladder above: `for (v = 1; v < blockDim.x; v <<= 1 | v *= 2 | v += v)` whose body is exactly
  `if (t < v [&& t + v < blockDim.x]) A[t + v] = A[t];` then a block barrier (t: `threadIdx.x` or a local set to it
  and never assigned).  By induction slots [0, 2v) hold what A[0] held, so at the end every slot below blockDim.x;
- `A[t] = A[c];` (c a literal) run by every thread (in the function's straight-line code), then a block barrier.
Both need A[0] (A[c]) settled before: the statement before is a block barrier, or a loop whose body ends with one
(and before which the same holds, for a loop that runs no turn), or, at the top of a helper, its call is so preceded.
A call of a helper whose body ends with a broadcast (nothing after it stores or calls) broadcasts the caller's array
passed for that pointer parameter (`bcast(s)`, s `__shared__`), or for a helper's `extern __shared__ T` array, every
`extern __shared__ T` array of the caller (same element type: the same slots).

The reads made uniform are `A[t]` (t as above: below blockDim.x) in the statements that follow the broadcast in the
same block, up to the first that may write shared memory: a store through a subscript, pointer or member other than
into a local array, or a call other than a block barrier or a math function of values.  A read before the barrier,
a ladder or copy that covers part of the slots, or a write after the broadcast keeps the index's tag.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import fnscopes
from ..model import inner_declarator
from ..source import call_args
from .overwrites import _VALUE_CALLS

# the C++ complex library's functions of values (std::conj(z), cuda::std::norm(z)): they write nothing
_COMPLEX_VALUES = frozenset(("conj", "norm", "real", "imag", "arg", "abs", "polar", "proj"))
_SKIP = ("comment", "preproc_call")
_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")
_TID = "threadIdx.x"
_BOUND = "blockDim.x"


def _flat(ctx_src, n: Node | None) -> str:
    return re.sub(r"\s+", "", ctx_src.text_of(n)) if n is not None else ""


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type in ("parenthesized_expression", "condition_clause") and n.named_child_count == 1:
        n = n.named_children[0]
    return n


class _Reads:
    def __init__(self, d):
        self.d, self.src, self.m = d, d.src, d.m
        self.summary: dict[int, tuple | None] = {}  # id(function) -> ("param", i) | ("extern", type) | None
        self.out: set[tuple[int, int]] = set()
        self.refs: dict[int, set[str]] = {}

    # -- thread index, barriers, spoilers ---------------------------------------------------------
    def tids(self, f) -> set[str]:
        """`threadIdx.x` and the locals declared equal to it that nothing assigns."""
        out, assigned = {_TID}, set()
        for a in self.src.index.under_types(f.body, "assignment_expression", "update_expression"):
            t = _strip(a.child_by_field_name("left" if a.type == "assignment_expression" else "argument"))
            if t is not None and t.type == "identifier":
                assigned.add(self.src.text_of(t))
        for decl in self.src.index.under(f.body, "init_declarator"):
            x, v = decl.child_by_field_name("declarator"), decl.child_by_field_name("value")
            if x is not None and x.type == "identifier" and _flat(self.src, v) in (_TID, f"({_TID})"):
                name = self.src.text_of(x)
                if name not in assigned:
                    out.add(name)
        return out

    def is_barrier(self, s: Node) -> bool:
        e = s.named_children[0] if s.type == "expression_statement" and s.named_child_count == 1 else None
        return e is not None and e.type == "call_expression" and barrier_kind_of(self, e)

    def spoils(self, n: Node) -> bool:
        """Whether n may write shared memory: a store not to a plain local, or a call other than a
        block barrier or a math function of values."""
        d = self.d
        if self.src.index.under_types(n, "gnu_asm_expression", "asm_statement"):
            return True  # (an `asm` may store to shared memory)
        for a in self.src.index.under_types(n, "assignment_expression", "update_expression"):
            t = _strip(a.child_by_field_name("left" if a.type == "assignment_expression" else "argument"))
            if t is None:
                return True
            if t.type == "subscript_expression":
                base = _strip(t.child_by_field_name("argument"))
                if base is None or base.type != "identifier" or d.key(base) not in d.local_arrays or \
                        d.key(base) in d.shared_keys:
                    return True
            elif t.type != "identifier" or self.src.text_of(t) in self._references():
                return True  # (a store through a pointer, a member, or a reference: `float& r = s[k]; r = v;`)
        for c in self.src.index.under(n, "call_expression"):
            name = fnscopes.callee_name(c.child_by_field_name("function"))
            if barrier_kind_of(self, c):
                continue
            if name in _VALUE_CALLS or name in _COMPLEX_VALUES:
                if not fnscopes.callees(self.m, d.fn, c):
                    continue
            return True
        return False

    def _references(self) -> set[str]:
        """The names the function analysed declares as references (parameters, locals, range-for variables)."""
        f = self.d.fn
        if id(f) not in self.refs:
            names = set()
            for r in self.src.index.under(f.node, "reference_declarator"):
                x = r
                while x is not None and x.type not in ("identifier", "field_identifier"):
                    x = inner_declarator(x)
                if x is not None:
                    names.add(self.src.text_of(x))
            self.refs[id(f)] = names
        return self.refs[id(f)]

    # -- settled: a barrier before ----------------------------------------------------------------
    def ends_with_barrier(self, s: Node) -> bool:
        if self.is_barrier(s):
            return True
        if s.type in ("compound_statement",):
            kids = [k for k in s.named_children if k.type not in _SKIP]
            return bool(kids) and self.ends_with_barrier(kids[-1])
        return False

    def settled(self, stmts: list[Node], i: int) -> bool | None:
        """Whether a block barrier ends what runs just before stmts[i] (None: the block starts there)."""
        while i > 0:
            prev = stmts[i - 1]
            if self.is_barrier(prev):
                return True
            if prev.type in ("for_statement", "while_statement"):
                body = prev.child_by_field_name("body")
                if body is None or not self.ends_with_barrier(body) or \
                        self.src.index.under_types(body, "break_statement", "continue_statement", "goto_statement"):
                    return False  # (a turn left early ends without the barrier)
                i -= 1  # a loop that runs no turn: what came before it
                continue
            if self.spoils(prev):
                return False
            i -= 1  # (a statement that writes no shared memory changes no slot)
        return None

    # -- broadcasts -------------------------------------------------------------------------------
    def ladder(self, s: Node, tids: set[str]) -> Node | None:
        """The array identifier a doubling copy ladder broadcasts slot 0 of."""
        src = self.src
        init, cond = s.child_by_field_name("initializer"), _strip(s.child_by_field_name("condition"))
        upd, body = s.child_by_field_name("update"), s.child_by_field_name("body")
        if None in (init, cond, upd, body) or body.type != "compound_statement":
            return None
        v = _set_to_one(src, init)
        if v is None:
            return None
        if _flat(src, cond) != f"{v}<{_BOUND}" or _flat(src, upd) not in (f"{v}<<=1", f"{v}*=2", f"{v}+={v}",
                                                                         f"{v}={v}*2", f"{v}=2*{v}"):
            return None
        kids = [k for k in body.named_children if k.type not in _SKIP]
        if len(kids) != 2 or kids[0].type != "if_statement" or not self.is_barrier(kids[1]) or \
                kids[0].child_by_field_name("alternative") is not None:
            return None
        guard = kids[0].child_by_field_name("condition")
        then = kids[0].child_by_field_name("consequence")
        if then is not None and then.type == "compound_statement":
            inner = [k for k in then.named_children if k.type not in _SKIP]
            then = inner[0] if len(inner) == 1 else None
        if then is None or then.type != "expression_statement" or then.named_child_count != 1:
            return None
        a = then.named_children[0]
        if a.type != "assignment_expression" or src.text_of(a.child_by_field_name("operator")) != "=":
            return None
        left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
        if left.type != "subscript_expression" or right.type != "subscript_expression":
            return None
        arr, arr2 = left.child_by_field_name("argument"), right.child_by_field_name("argument")
        if arr.type != "identifier" or _flat(src, arr) != _flat(src, arr2):
            return None
        li, ri = _flat(src, left.child_by_field_name("indices")).strip("[]"), \
            _flat(src, right.child_by_field_name("indices")).strip("[]")
        for t in tids:
            conj = set(_flat(src, guard).strip("()").split("&&"))
            if ri == t and li in (f"{t}+{v}", f"{v}+{t}") and f"{t}<{v}" in conj and \
                    conj <= {f"{t}<{v}", f"{t}+{v}<{_BOUND}", f"{v}+{t}<{_BOUND}"}:
                return arr
        return None

    def copy(self, s: Node, tids: set[str]) -> Node | None:
        """`A[t] = A[c];` (c a literal): the array identifier."""
        a = s.named_children[0] if s.type == "expression_statement" and s.named_child_count == 1 else None
        if a is None or a.type != "assignment_expression" or self.src.text_of(a.child_by_field_name("operator")) != "=":
            return None
        left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
        if left.type != "subscript_expression" or right.type != "subscript_expression":
            return None
        arr, arr2 = left.child_by_field_name("argument"), right.child_by_field_name("argument")
        ri = right.child_by_field_name("indices")
        if arr.type != "identifier" or _flat(self.src, arr) != _flat(self.src, arr2) or ri is None or \
                ri.named_child_count != 1 or ri.named_children[0].type != "number_literal" or \
                _flat(self.src, left.child_by_field_name("indices")).strip("[]") not in tids:
            return None
        return arr

    def point(self, f, stmts: list[Node], i: int, tids: set[str], top: bool):
        """(what stmts[i] broadcasts, the index of the first statement after it) or None.  What: ("id",
        identifier node), ("param", i) or ("extern", type) for a call; ("entry", ...) where the settling
        barrier must come before the function's call."""
        s = stmts[i]
        got, after = None, i + 1
        if s.type == "for_statement":
            x = self.ladder(s, tids)
            got = ("id", x) if x is not None else None
        elif s.type == "expression_statement":
            x = self.copy(s, tids)
            if x is not None and i + 1 < len(stmts) and self.is_barrier(stmts[i + 1]):
                got, after = ("id", x), i + 2
            e = s.named_children[0] if s.named_child_count == 1 else None
            if got is None and e is not None and e.type == "call_expression":
                found = fnscopes.callees(self.m, f, e)
                sums = {self.summarise(g) for g in found}
                if len(found) >= 1 and len(sums) == 1 and None not in sums:
                    kind, what, pre = next(iter(sums))
                    if pre and not self.settled(stmts, i):
                        return None
                    if kind == "extern":
                        return ("extern", what), after
                    args = call_args(e)
                    arg = _strip(args[what]) if what < len(args) else None
                    return (("id", arg), after) if arg is not None and arg.type == "identifier" else None
        if got is None:
            return None
        ok = self.settled(stmts, i)
        if ok is None and top:
            return ("entry", got), after
        return (got, after) if ok else None

    def summarise(self, g):
        """What helper g's body ends by broadcasting: (kind, what, needs a barrier before the call)."""
        if id(g) in self.summary:
            return self.summary[id(g)]
        self.summary[id(g)] = None  # (recursion proves nothing)
        out = None
        if g.body is not None and not any(True for _ in self.src.index.under(g.body, "return_statement")):
            saved, self.d.fn = self.d.fn, g
            stmts = [k for k in g.body.named_children if k.type not in _SKIP]
            tids = self.tids(g)
            for i in range(len(stmts) - 1, -1, -1):
                p = self.point(g, stmts, i, tids, True)
                if p is not None:
                    if all(not self.spoils(s) for s in stmts[p[1]:]):
                        out = self._target(g, p[0])
                    break
            self.d.fn = saved
        self.summary[id(g)] = out
        return out

    def _target(self, g, what):
        pre = what[0] == "entry"
        what = what[1] if pre else what
        if what[0] == "extern":
            return ("extern", what[1], pre)
        x = what[1] if what[0] == "id" else None
        if x is None:
            return None
        name = self.src.text_of(x)
        for i, p in enumerate(g.params):
            if p.name == name:
                return ("param", i, pre)
        arr = self._shared_decl(g, x)
        if arr is not None and arr.dynamic:
            return ("extern", arr.type, pre)
        return None

    def _shared_decl(self, f, x: Node):
        """The `__shared__` array the identifier x names (its declaration resolved), or None."""
        k = self.d.key(x)
        for s in self.m.shared:
            if s.function not in (None, f.name) or s.name != self.src.text_of(x):
                continue
            if k.endswith("@global") and s.function is None:
                return s
            if k in self.d.shared_keys and k.split("@")[1].isdigit() and \
                    s.node.start_byte <= int(k.split("@")[1]) < s.node.end_byte:
                return s
        return None

    # -- the reads ----------------------------------------------------------------------------------
    def names(self, f, what) -> set[str]:
        """The shared arrays of f (by name) whose every slot a broadcast `what` fills."""
        if what[0] == "entry":
            return set()
        if what[0] == "extern":
            typ = what[1]
        else:
            arr = self._shared_decl(f, what[1])
            if arr is None:
                return set()
            if not arr.dynamic:
                return {arr.name}
            typ = arr.type
        return {s.name for s in self.m.shared if s.dynamic and s.type == typ and s.function in (None, f.name)}

    def function(self, f) -> None:
        self.d.fn = f
        tids = self.tids(f)
        for block in self.src.index.under(f.body, "compound_statement"):
            if block.parent is not None and block.parent.type in ("switch_statement", "lambda_expression"):
                continue
            stmts = [k for k in block.named_children if k.type not in _SKIP]
            if any(k.type in ("labeled_statement", "case_statement") for k in stmts):
                continue
            for i in range(len(stmts)):
                p = self.point(f, stmts, i, tids, False)
                if p is None:
                    continue
                names = self.names(f, p[0])
                for s in stmts[p[1]:] if names else ():
                    self._collect(f, s, names, tids)
                    if self.spoils(s):
                        break

    def _collect(self, f, s: Node, names: set[str], tids: set[str]) -> None:
        """The reads `A[t]` of the arrays named in s that come before anything in s may write."""
        stop = min((_loop_start(s, n) for n in self.src.index.under_types(
            s, "assignment_expression", "update_expression", "call_expression") if self.spoils(n)), default=None)
        for r in self.src.index.under(s, "subscript_expression"):
            if stop is not None and r.end_byte > stop:
                break
            base, idx = r.child_by_field_name("argument"), r.child_by_field_name("indices")
            if base is not None and base.type == "identifier" and self.src.text_of(base) in names and \
                    _flat(self.src, idx).strip("[]") in tids and self._shared_decl(f, base) is not None:
                self.out.add((r.start_byte, r.end_byte))


def _loop_start(s: Node, n: Node) -> int:
    """Where a write n in s starts to reach reads: at the outermost loop of s around it (a later turn reads
    after it), else at n."""
    at, p = n.start_byte, n
    while p is not None and p != s.parent:
        if p.type in _LOOPS:
            at = p.start_byte
        p = p.parent
    return at


def _set_to_one(src, init: Node) -> str | None:
    """The variable of a loop initialiser `int v = 1` / `v = 1`."""
    if init.type == "declaration":
        ds = init.children_by_field_name("declarator")
        if len(ds) != 1 or ds[0].type != "init_declarator":
            return None
        x, val = ds[0].child_by_field_name("declarator"), ds[0].child_by_field_name("value")
    elif init.type == "assignment_expression" and src.text_of(init.child_by_field_name("operator")) == "=":
        x, val = init.child_by_field_name("left"), init.child_by_field_name("right")
    else:
        return None
    return src.text_of(x) if x is not None and x.type == "identifier" and _flat(src, val) in ("1", "1u", "1U") else None


def barrier_kind_of(r: _Reads, call: Node) -> bool:
    from .divergence import barrier_kind
    return barrier_kind(r.d.ctx, call) == "block"


def reads(d) -> set[tuple[int, int]]:
    """(start, end) of the subscript reads of d's module that read a broadcast shared array."""
    r = _Reads(d)
    saved = d.fn
    if not d.m.shared:
        return r.out
    for f in d.m.functions.values():
        if f.body is not None:
            r.function(f)
    d.fn = saved
    return r.out
