"""SY003: every thread of a block read-modify-writes one `__shared__` slot without an atomic."""
from __future__ import annotations

from tree_sitter import Node

from ...source import walk
from ..rule import Rule, ex, register
from ..tags import UNIFORM
from ..triggers import BARRIER

_CONTROL = frozenset({"if_statement", "for_statement", "while_statement", "do_statement", "switch_statement",
                      "conditional_expression", "for_range_loop", "case_statement", "lambda_expression"})


def _known_uniform(d, node: Node) -> bool:
    """UNIFORM by the analysis and no call in it: a call it does not resolve (`cta.thread_rank()`, a member
    function) reads as uniform there, which a claim that every thread stores to one slot cannot rest on."""
    return d.expr(node) == UNIFORM and not any(n.type == "call_expression" for n in walk(node))


def _slot(ctx, d, left: Node, scalars: set[str], arrays: set[str]) -> str | None:
    """The shared slot `left` names when it is the same in every thread: a `__shared__` scalar (or its field),
    or a `__shared__` array at a block-uniform index."""
    n = left
    while n.type == "field_expression":
        n = n.child_by_field_name("argument")
    if n.type == "identifier" and ctx.text(n) in scalars:
        return ctx.text(n)
    if n.type == "subscript_expression":
        arr = n.child_by_field_name("argument")
        idx = n.child_by_field_name("indices") or n.child_by_field_name("index")
        if arr is not None and arr.type == "identifier" and ctx.text(arr) in arrays and idx is not None and \
                _known_uniform(d, idx):
            return ctx.text(arr)
    return None


def _uniform_control(ctx, d, stmt: Node, body: Node) -> bool:
    """Every construct between the kernel's body and `stmt` is entered by all threads alike (a condition every
    thread computes the same): the store runs in every thread of the block."""
    p = stmt.parent
    while p is not None and p != body:
        if p.type in _CONTROL:
            cond = p.child_by_field_name("condition")
            if cond is None or not _known_uniform(d, cond):
                return False
        p = p.parent
    return p is not None


_JUMPS = ("return_statement", "break_statement", "continue_statement", "goto_statement")
_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")


def _left_early(ctx, d, stmt: Node, body: Node) -> bool:
    """A jump under a thread-dependent condition keeps some threads from `stmt`: a `return` (or `goto`) before it
    (`if (threadIdx.x != 0) return;`), a `break`/`continue` anywhere in a loop around it (`if (tid != i) continue;`)."""
    loops = []
    p = stmt.parent
    while p is not None and p != body:
        if p.type in _LOOPS:
            loops.append(p)
        p = p.parent
    for j in walk(body):
        if j.type not in _JUMPS:
            continue
        q, own = j.parent, None  # own: the loop a break/continue leaves
        while q is not None and q != body and q.type != "lambda_expression":
            own = q if own is None and q.type in _LOOPS else own
            q = q.parent
        if q is None or q.type == "lambda_expression":
            continue  # a lambda's own return
        before = j.start_byte < stmt.start_byte and j.type in ("return_statement", "goto_statement")
        inside = j.type in ("return_statement", "goto_statement") and any(
            lp.start_byte <= j.start_byte < lp.end_byte for lp in loops) or own in loops
        if (before or inside) and not _uniform_control(ctx, d, j, body):
            return True
    return False


def _reads(ctx, node: Node, name: str) -> bool:
    return any(n.type == "identifier" and ctx.text(n) == name for n in walk(node))



@register
class SharedSlotRace(Rule):
    code, name = "SY003", "shared-slot-race"
    summary = "Every thread of a block read-modify-writes the same `__shared__` slot without an atomic."
    divergence_reads = ("barrier_hazards",)
    triggers = BARRIER  # the slot is set, raced on and read in phases a block barrier separates
    docs = """\
`__shared__ float4 m; ... m = fminf(m, x[i]);` run by every thread of the block: each thread reads the slot,
combines its own value and stores the result, with nothing ordering the threads.  Which thread's store survives
depends on the schedule, so the block's result is some subset of its values (a data race on every GPU; which lanes
store together differs between a 32-lane warp and a 64-lane wave, so a port may compute another result than the
original did on NVIDIA).  Reported where the slot is the same in every thread (a `__shared__` scalar or field, or a
`__shared__` array at a block-uniform index with no call in it), the store runs in every thread (no thread-dependent
condition, loop or `?:` around it, nor one that calls a function: `cta.thread_rank() < 256`; no thread-dependent `return` before it
or `break`/`continue` in a loop around it), the stored value reads the slot itself (or is a compound assignment) and depends on the thread; in a
unit with a block barrier (the phases that set, race on and read the slot).  A thread index reached only through a
member function (`res.idx()`) is not followed (the divergence analysis resolves calls by name).

**Fix**: an atomic (`atomicMin`, `atomicAdd`; a float min/max through an integer view or a compare-and-swap loop),
or a reduction: per-thread values in a shared array, a tree or shuffle reduction, one thread storing the result.
A store under `if (threadIdx.x == 0)`, an atomic, a per-thread slot (`s[threadIdx.x] = ...`), a value every thread
computes the same (`s = 0;`) and a store that does not read the slot stay silent (the `if (v > best) best = v;`
idiom under a thread-dependent test is not reported: this rule is only the unconditional read-modify-write)."""
    flags = (
        ex("""
__global__ void block_min(float* o, const float* x) {
    __shared__ float m;
    if (threadIdx.x == 0) m = x[blockIdx.x * blockDim.x];
    __syncthreads();
    m = fminf(m, x[blockIdx.x * blockDim.x + threadIdx.x]);  // !
    __syncthreads();
    if (threadIdx.x == 0) o[blockIdx.x] = m;
}"""),
        ex("""
__global__ void block_sum(float* o, const float* x) {
    __shared__ float s[2];
    if (threadIdx.x == 0) s[blockIdx.x % 2] = 0.f;
    __syncthreads();
    s[blockIdx.x % 2] += x[blockIdx.x * blockDim.x + threadIdx.x];  // !
    __syncthreads();
    if (threadIdx.x == 0) o[blockIdx.x] = s[blockIdx.x % 2];
}""", note="a block-uniform index: one slot for the whole block"),
    )
    passes = (
        ex("""
__global__ void block_min(float* o, const float* x) {
    __shared__ float m;
    if (threadIdx.x == 0) m = x[blockIdx.x * blockDim.x];
    __syncthreads();
    if (threadIdx.x == 0) m = fminf(m, x[blockIdx.x * blockDim.x + 1]);
    __syncthreads();
    if (threadIdx.x == 0) o[blockIdx.x] = m;
}""", note="one thread stores"),
        ex("""
__global__ void block_sum(float* o, const float* x) {
    __shared__ float s[256];
    s[threadIdx.x] = 0.f;
    __syncthreads();
    s[threadIdx.x] += x[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) o[blockIdx.x] = s[0];
}""", note="each thread its own slot"),
        ex("""
__global__ void clear(float* o) {
    __shared__ float m;
    m = 0.f;
    __syncthreads();
    o[threadIdx.x] = m;
}""", note="every thread stores the same value"),
    )

    def check(self, ctx) -> None:
        kernels = {f.name: f for f in ctx.module.functions.values() if f.is_kernel and f.body is not None}
        mine: dict[str, tuple[set[str], set[str]]] = {}
        for sh in ctx.module.shared:
            if sh.function in kernels and not sh.dynamic:
                mine.setdefault(sh.function, (set(), set()))[1 if sh.dims else 0].add(sh.name)
        if not mine:
            return
        d = ctx.divergence
        for name, (scalars, arrays) in mine.items():
            f = kernels[name]
            d.fn = f
            try:
                for a in ctx.nodes("assignment_expression"):
                    if not (f.body.start_byte <= a.start_byte < f.body.end_byte):
                        continue
                    self._check(ctx, d, f, a, scalars, arrays)
            finally:
                d.fn = None

    def _check(self, ctx, d, f, a: Node, scalars: set[str], arrays: set[str]) -> None:
        stmt = a.parent
        if stmt is None or stmt.type != "expression_statement":
            return
        left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
        op = a.child_by_field_name("operator")
        slot = _slot(ctx, d, left, scalars, arrays) if left is not None and right is not None else None
        if slot is None:
            return
        compound = op is not None and ctx.text(op) != "="
        if not (compound or _reads(ctx, right, slot)) or d.expr(right) == UNIFORM:
            return
        if not _uniform_control(ctx, d, stmt, f.body) or _left_early(ctx, d, stmt, f.body):
            return
        ctx.report(self, left, f"every thread of the block read-modify-writes the shared `{ctx.text(left)}` without "
                   f"an atomic: the stores race and the survivor depends on the schedule (which lanes store together "
                   f"differs at 32 and 64 lanes); use an atomic, or reduce per thread and let one thread store")
