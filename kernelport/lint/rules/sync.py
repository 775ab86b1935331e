"""SY: synchronisation.  Barriers that not every thread reaches, and warp code that relies on
implicit lockstep.  Both are wrong on every GPU, so these are errors whatever the targets."""
from __future__ import annotations

import re
from collections import Counter

from tree_sitter import Node

from ...reached import reached
from ...source import ident_name
from ..divergence import barrier_kind
from ..rule import Rule, ex, register
from ..triggers import BARRIER
from .. import channelslots, haloslots, loneguards, onewarp, parityslots, privateslots, return_groups, rowslots, sharedptrs, slotclasses
from ..slotloops import walks_step_slots


@register
class BarrierInDivergentCode(Rule):
    code, name = "SY001", "barrier-in-divergent-code"
    divergence_reads = ("barrier_hazards",)
    triggers = BARRIER  # a hazard is a block barrier's call, or a call of a function of the unit that executes one
    summary = "`__syncthreads()` is reached under thread-dependent control flow."
    docs = """\
A block barrier must be reached by every thread of the block (CUDA, HIP and Metal all say so).
Reported when `__syncthreads()` (or a helper that executes one) sits under a thread-dependent
condition (`if (tid < n)`), after a thread-dependent early `return`, or in a loop whose trip
count depends on the thread (`for (i = tid; i < n; i += blockDim.x)`).  Threads that skip it
make the block hang, or on newer GPUs release the barrier early and race.  Conditions on
`blockIdx`, `blockDim`, kernel parameters or shared values are uniform and stay silent, as does a
test of a block vote (`if (__syncthreads_or(pos > cap)) return false;`: every thread gets the same
answer, so all return or none), and so does the offset loop `for (i = A + t; i < B + t; i += S)`: its start and bound carry the same
thread offset t, so every thread runs the same turns (kernelport/lint/tripcounts.py).  An early return that
no launch takes is no hazard: `if (d >= kHeadDim) return;` with `d = threadIdx.x` in a kernel every launch of
which the run shows, each block's x extent at most kHeadDim (`<<<rows, kHeadDim>>>`, or `k<<<g, n>>>(x, n)` for
`if (threadIdx.x >= n)`); a launch with more threads, one whose block lint cannot read or whose local block is
written after its initialiser (`if (big) threads = 256;`: launchblocks.py), no launch, the kernel's
address taken, a header declaring it (another unit may launch it) or a global / grid-stride index keep the
finding (kernelport/lint/launchexits.py).  A return that skips two or more barriers is one finding at the
return, its barriers listed and each a related location; a suppression on the return's line or on a
barrier's line still applies (kernelport/lint/return_groups.py).  A local
re-read after a block broadcast (`if (tx == 0) s = v; __syncthreads(); v = s;`) holds the block's one
value at the reads only that re-read reaches (kernelport/lint/overwrites.py), and a reference bound
to `__shared__` storage (`auto& ts = reinterpret_cast<TS&>(smem)`) stays shared when stored through.
A shared array every slot of which holds one value (a doubling copy ladder `s[t + d] = s[t]` for t < d,
d = 1, 2, 4, ... < blockDim.x, or `s[t] = s[0]`, each closed by a barrier; also in a helper, for the array
passed or an `extern __shared__` array of the same element type) reads as the block's one value at any
thread's slot until something may write it (kernelport/lint/broadcasts.py).
A barrier spelled through a macro (`#define SYNC __syncthreads()` in the file, a header or -D; a
function-like `BAR()`) or as a cooperative group's `block.sync()` / `cg::sync(block)` of a thread block
or grid group is one too (kernelport/lint/barrier_spellings.py).

The thread dependence is dataflow, not a pattern: values are followed from `threadIdx`,
shuffles, atomics and thread-indexed loads through assignments (also those made under a
thread-dependent branch), helper parameters and return values, and into a random-number state
seeded with them (`curand_init(seed, tid, 0, &st)`: every draw `curand_uniform(&st)` is the thread's
own; seeded per block, `curand_init(seed[bx], bx, off[bx], &st)`, the draws are the block's:
kernelport/lint/rngstates.py).

**Fix**: hoist the barrier out of the branch and keep the condition around the work only; give
loops a uniform trip count (loop to the block-rounded bound and guard the body)."""
    flags = (
        ex("""
__global__ void k(float* x, int n) {
    __shared__ float s[256];
    int tid = threadIdx.x;
    if (tid < n) {
        s[tid] = x[tid];
        __syncthreads();  // !
        x[tid] = s[n - 1 - tid];
    }
}"""),
        ex("""
__device__ void stage(float* s) { __syncthreads(); }
__global__ void k(float* x, int n) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    s[threadIdx.x] = x[i];
    stage(s);  // !
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        __syncthreads();  // !
    }
}"""),
        ex("""
__device__ bool pack(const int* x, int n, int cap, int* s) {
    int pos = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) pos += x[i] != 0;
    if (__syncthreads_or(pos > cap) && pos > 0) return false;
    __syncthreads();  // !
    s[threadIdx.x] = pos;
    return true;
}
__global__ void k(const int* x, int* out, int n, int cap) {
    __shared__ int s[256];
    if (!pack(x, n, cap, s)) out[blockIdx.x] = -1;
}""", note="the vote is uniform, but `pos > 0` is the thread's own: only some threads return"),
    )
    passes = (
        ex("""
__global__ void block_reduce(const float* x, float* out, int n) {
    __shared__ float s[256];
    unsigned tid = threadIdx.x;
    s[tid] = (blockIdx.x * blockDim.x + tid < n) ? x[blockIdx.x * blockDim.x + tid] : 0.0f;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
        if (tid < st) s[tid] += s[tid + st];
        __syncthreads();
    }
    if (blockIdx.x < n) { __syncthreads(); }
    if (tid == 0) out[blockIdx.x] = s[0];
}"""),
        ex("""
__global__ void pairs(double* out, const int* idx, int p0, int p1, int stride) {
    __shared__ int s[256];
    int nsp = 256 / stride, sp = threadIdx.x % nsp;
    for (int p = p0 + sp; p < p1 + sp; p += nsp) {
        s[threadIdx.x] = p < p1 ? idx[p] : 0;
        __syncthreads();
        out[threadIdx.x] += s[(threadIdx.x + 1) % 256];
        __syncthreads();
    }
}""", note="every thread runs ceil((p1 - p0) / nsp) turns: the offset `sp` is in the start and the bound"),
        ex("""
__device__ bool pack(const int* x, int n, int cap, int* s) {
    int pos = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) pos += x[i] != 0;
    if (__syncthreads_or(pos > cap)) return false;
    __syncthreads();
    s[threadIdx.x] = pos;
    return true;
}
__global__ void k(const int* x, int* out, int n, int cap) {
    __shared__ int s[256];
    if (!pack(x, n, cap, s)) out[blockIdx.x] = -1;
}""", note="__syncthreads_or gives every thread of the block the same answer: all return or none (fpcompress)"),
        ex("""
__global__ void sample(const float* p, int* out, float u) {
    __shared__ float s;
    unsigned tx = threadIdx.x;
    float total = p[tx];
    if (tx == 0) s = total;
    __syncthreads();
    total = s;
    if (total > u) {
        __syncthreads();
        out[tx] = 1;
    }
}""", note="only the re-read `total = s` (the block's one value) reaches the test, not the per-thread `p[tx]`"),
    )

    def check(self, ctx) -> None:
        hazards = ctx.divergence.barrier_hazards
        if hazards:
            from ...exclusive_branches import exclusive  # (read only where a hazard is found: lint's start-up)
            # the barrier and the divergence in branches no compile takes together are no hazard
            hazards = [h for h in hazards if not exclusive(ctx.src.data, h.node.start_byte, h.frame.node.start_byte)]
        single, groups = return_groups.grouped(ctx, hazards)
        for ret, hs in groups.values():
            lines = [ctx.position(h.node.start_byte)[0] for h in hs]
            shown = ", ".join(map(str, lines[:8])) + (", ..." if len(lines) > 8 else "")
            ctx.report(self, ret, f"this thread-dependent early `return` skips {len(hs)} block barriers after it (lines "
                       f"{shown}): returned threads never arrive; the block hangs or races on NVIDIA, AMD and Metal "
                       f"alike. Hoist the barriers out and guard only the work, or make the return's test uniform",
                       related=tuple(ctx.related(h.node, f"`{h.callee}` executes a block barrier and is called here"
                                                 if h.callee else f"`{_barrier(ctx, h.node)}` skipped by the returned "
                                                 "threads") for h in hs))
        for h in single:
            line = ctx.where(h.frame.node).split(":")[0]
            cond = " ".join(ctx.text(h.frame.node).split())
            cond = cond if len(cond) <= 40 else cond[:37] + "..."
            what = f"`{h.callee}` executes a block barrier and is called" if h.callee else \
                f"`{_barrier(ctx, h.node)}` is reached"
            if h.frame.kind == "exit":
                why = f"after the thread-dependent early `return` on line {line}: returned threads never arrive"
            elif h.frame.kind == "loop":
                why = f"in a loop whose trip count depends on the thread (`{cond}`, line {line}): threads pass different numbers of barriers"
            elif h.frame.kind == "loop-exit":
                why = f"in a loop left early by a thread-dependent break/continue/return (line {line})"
            else:
                why = f"under the thread-dependent condition `{cond}` (line {line}): threads that skip it never arrive"
            ctx.report(self, h.node, f"{what} {why}; the block hangs or races on NVIDIA, AMD and Metal alike. Hoist the "
                       f"barrier out and guard only the work")


def _barrier(ctx, node) -> str:
    """The barrier as the file spells it (`__syncthreads()`, Metal's `threadgroup_barrier(...)`, a macro, a group's sync)."""
    fn = node.child_by_field_name("function") if node.type == "call_expression" else None
    if node.type == "identifier" or (fn is not None and fn.type != "identifier"):
        return " ".join(ctx.text(node).split())  # `SYNC` (a macro), `block.sync()`, `cg::sync(block)`
    return f"{ctx.text(fn)}()" if fn is not None else "__syncthreads()"


# SY002's advice where no thread test keeps the steps inside one warp (onewarp.py): `__syncwarp()` orders one warp
_ACROSS_WARPS = ("`__syncwarp()` between the read and the write of every step orders them only where each warp reads "
                 "its own slots (a per-warp scan); where the steps' threads span warps (no `tid < 32` test keeps them "
                 "in one: a `tid < 64` tree, a group of several warps) put `__syncthreads()` between the steps, "
                 "reached by every thread of the block, or reduce each warp with shuffles and combine the warps' "
                 "partials after one `__syncthreads()`")
_STEP_OPS = ("+=", "-=", "*=", "=", "|=", "&=", "^=")


@register
class ImplicitWarpSynchronous(Rule):
    code, name = "SY002", "implicit-warp-synchronous"
    summary = "Shared-memory reduction steps rely on warp lockstep without `__syncwarp()`."
    docs = """\
The classic last-warp unrolled reduction

    if (tid < 32) { vs[tid] += vs[tid + 32]; vs[tid] += vs[tid + 16]; ... vs[tid] += vs[tid + 1]; }

(often through a `volatile` pointer) assumes the 32 threads of a warp execute each statement
together.  That was never guaranteed: since Volta (independent thread scheduling) it is a data
race on NVIDIA, and on a 64-wide wave the `tid < 32` half-wave and the step sizes no longer match
the hardware.  `volatile` only stops the compiler from caching; it does not order threads.

**Fix**: separate each read and write with `__syncwarp()` (`v += vs[tid + 16]; __syncwarp();
vs[tid] = v; __syncwarp();`), or better, reduce in registers with shuffles.  `__syncwarp()` orders one warp
only: the message names it alone where a thread test keeps the steps below x index 32 (`tid < 32`, `tid <= 31`,
`32 > tid`); elsewhere (`tid < 64`, `tid < n`, `tid % 2 == 0`, no test) it says `__syncwarp()` holds only where each
warp reads its own slots (a per-warp scan) and asks otherwise for `__syncthreads()` reached by every thread of the
block, or a shuffle reduction per warp whose partials are combined after one.  Steps separated by
`__syncwarp()` or `__syncthreads()` (the block tree reduction) stay silent, and so does a loop that spreads one
such step's slots over the block (`for (i = threadIdx.x; i < s; i += blockDim.x) m[i] += m[i + s];` inside the
step loop of `s` that holds the barrier): it writes below the step and reads at or above it; so does a loop over
channels of one buffer under `tid < s` in a step loop from `blockDim.x / 2` (`for (c ...) a[c * blockDim.x + tid] +=
a[c * blockDim.x + tid + s];`): modulo blockDim.x a thread writes residue tid and reads tid + s.  Two steps on one
array whose every index is `C * (...) + k` for one factor C > 1 and a different residue k each (interleaved
channels: `o[2*p + 0] += o[2*p + 2*n + 0]; o[2*p + 1] += o[2*p + 2*n + 1];`) touch disjoint slots: no chain.
Steps one thread runs alone (under `if (threadIdx.x == 0)` or a copy's `tid == 0`, every index the same in each
thread that passes the test: `if (tid == 0) for (i = 1; i < n; i++) s[i] += s[i - 1];`) stay silent.  A device
function's pointer parameter counts as shared memory where every call the run shows passes a `__shared__` array
(`buf`, `&buf[k]`, `buf + k`, a cast, a pointer set only from these, or a caller's own such parameter), and so
do the function's locals copied from it (`T *a = data; ... a += d;`); a local pointer whose initialiser and every
store point into a `__shared__` array (`extern __shared__ float mem[]; float *s = mem;`) is shared memory too.  Steps whose every thread writes only
its own slots `C*tid + k` (0 <= k < C) and reads those or `X + tid` under `if (tid < X / C)` (above every
written slot: a Brent-Kung down-sweep level, `a[2*id + 1] = a[2*id] + a[d + id]; a[2*id] = a[d + id];`) are no chain,
and so are steps and loops whose every index of the array is `E * blockDim.x + threadIdx.x` (a function-like macro
expanded; the function uses no threadIdx.y or .z): each thread keeps to its own residue modulo blockDim.x, a batched
solver's interleaved per-thread copies (`#define CID(i) ((i) * blockDim.x + threadIdx.x)`, `w[CID(i)] -= r[CID(k)] *
w[CID(j)];`).  An odd-even exchange stays silent too: every index of the array is `k + c` for literals c spanning
fewer than m values, each access under an `if` conjunct `k % m == R` (or `(k & (m - 1)) == R`) with one R that no
thread picks (the phase `i % 2` of a loop whose turns end at a barrier), and k the thread's x index or a block-stride
walk from it (`for (k = threadIdx.x; k < n; k += blockDim.x) if ((k % 2) == (i % 2) && k + 1 < n) { ... s[k] =
s[k + 1]; s[k + 1] = a; }`): the pairs of one residue class are disjoint (kernelport/lint/parityslots.py).  So are a
padded tile's halo copies: every index `R * (blockDim.x + P) + C` (a function-like macro expanded, the `#define`
in effect there) with C within the row, every written (row, column) on the border and every read inside it, for
all block sizes, the ranges following `threadIdx`, locals and a device function's parameters from every call of
the file (`if (threadIdx.x == 0) s[SH_ID(li, 0)] = s[SH_ID(li, 1)];` with `li = threadIdx.y + 1`:
kernelport/lint/haloslots.py)."""
    flags = (
        ex("""
__device__ void warp_reduce(volatile float* vs, int tid) {
    vs[tid] += vs[tid + 32];  // !
    vs[tid] += vs[tid + 16];
    vs[tid] += vs[tid + 8];
}
__global__ void k(float* x) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = x[tid];
    __syncthreads();
    if (tid < 32) {
        s[tid] = s[tid] + s[tid + 32];  // !
        s[tid] = s[tid] + s[tid + 16];
    }
    if (tid < 32) warp_reduce(s, tid);
}"""),
        ex("""
__device__ void tail(float* data) {
    float* a = data;
    for (int d = 32; d > 1; d /= 2) {
        if (threadIdx.x < d / 2) a[threadIdx.x] += a[threadIdx.x + d / 2];  // !
    }
}
__global__ void k(float* x) {
    __shared__ float s[64];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    tail(s);
}""", note="every call passes a `__shared__` array"),
        ex("""
template <int N>
__global__ void rows(float* y) {
    __shared__ volatile float sdata[256];
    float sum = y[threadIdx.x], t;
    sdata[threadIdx.x] = sum;
    if (N > 16) {t = sdata[threadIdx.x + 16]; sdata[threadIdx.x] = sum = sum + t;}  // !
    if (N >  8) {t = sdata[threadIdx.x +  8]; sdata[threadIdx.x] = sum = sum + t;}
    y[threadIdx.x] = sum;
}"""),
    )
    passes = (
        ex("""
__global__ void k(unsigned* o) {
    __shared__ unsigned down[96][10];
    down[threadIdx.x][0] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = down[95 - threadIdx.x][0];
}
long solve(int size, unsigned mask, int row) {  // a host solver's own `down`: no shared memory
    unsigned down[32]; down[row] = 0;
    long total = 0;
    while (row >= 0 && row < size) { down[row + 1] = down[row] | (mask & -mask); row++; total++; }
    return total;
}"""),
        ex("""
__global__ void k(float* x) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = x[tid];
    __syncthreads();
    for (int st = 32; st > 0; st >>= 1) {
        if (tid < st) s[tid] += s[tid + st];
        __syncthreads();
    }
    if (tid < 32) {
        float v = s[tid];
        v += s[tid + 16]; __syncwarp();
        s[tid] = v; __syncwarp();
        v += s[tid + 8]; __syncwarp();
        s[tid] = v; __syncwarp();
    }
}"""),
        ex("""
__global__ void tree(float* x) {
    __shared__ float buf[512];
    int tid = threadIdx.x;
    buf[tid] = x[tid];
    __syncthreads();
    if (blockDim.x >= 512) { if (tid < 256) buf[tid] = buf[tid] + buf[tid + 256]; __syncthreads(); }
    if (blockDim.x >= 256) { if (tid < 128) buf[tid] = buf[tid] + buf[tid + 128]; __syncthreads(); }
    x[tid] = buf[tid];
}"""),
        ex("""
__global__ void smallest(float* x, int n) {
    extern __shared__ float m[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) m[i] = x[i];
    __syncthreads();
    for (int s = n / 2; s > 0; s >>= 1) {
        for (int i = threadIdx.x; i < s; i += blockDim.x) m[i] = fminf(m[i], m[i + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) x[0] = m[0];
}""", note="one tree step's slots spread over the block: writes below the step, reads at or above it"),
        ex("""
__global__ void serial(unsigned* x, int n) {
    __shared__ unsigned s[256];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int i = 1; i < n; i++) s[i] += s[i - 1];
    }
    __syncthreads();
    x[threadIdx.x] = s[threadIdx.x];
}""", note="one thread's serial scan"),
        ex("""
__global__ void odd_even(float* x, int n) {
    __shared__ float s[1024];
    for (int k = threadIdx.x; k < n; k += blockDim.x) s[k] = x[k];
    __syncthreads();
    for (int i = 0; i < n; ++i) {
        for (int k = threadIdx.x; k < n; k += blockDim.x)
            if ((k % 2) == (i % 2) && k + 1 < n) { float a = s[k]; if (a > s[k + 1]) { s[k] = s[k + 1]; s[k + 1] = a; } }
        __syncthreads();
    }
    for (int k = threadIdx.x; k < n; k += blockDim.x) x[k] = s[k];
}""", note="an odd-even transposition phase: the pairs (k, k + 1) of one parity are disjoint"),
    )

    @classmethod
    def _shared(cls, ctx) -> frozenset[str]:
        got = ctx.__dict__.get("_sy_shared")
        if got is None:
            got = ctx.__dict__["_sy_shared"] = frozenset({s.name for s in ctx.module.shared} | cls._volatile_names(ctx))
        return got

    def check(self, ctx) -> None:
        shared = self._shared(ctx)
        # A step writes an element of one of these arrays: the statements that hold no such write
        # (most of a file, and every statement of a file without one) are no step, unwalked.
        pointed = frozenset(x for *_, names in self._pointers(ctx).spans for x in names)
        writers = ctx.__dict__["_sy_writers"] = [ctx.src.index.position(n) for n in ctx.nodes("assignment_expression")
                                                 if _writes_element(ctx, n, shared | pointed)]
        if not writers:
            return
        reported: set[int] = set()
        for block in ctx.nodes("compound_statement"):
            run: list[Node] = []
            here = self._scope_shared(ctx, block, shared)
            for st in block.named_children + [None]:
                step = st is not None and self._step(ctx, st, here) and \
                    self._confirmed(ctx, st, self._step_arrays(ctx, st, here))
                if step:
                    run.append(st)
                    continue
                if st is not None and self._is_barrier(ctx, st):
                    self._flush(ctx, run, reported, here)
                    run = []
                    continue
                if st is not None and st.type == "comment":
                    continue
                self._flush(ctx, run, reported, here)
                run = []
        for loop in ctx.nodes("for_statement", "while_statement", "do_statement"):
            body = loop.child_by_field_name("body")
            if body is None or any(self._is_barrier(ctx, n) for n in ctx.src.index.under(body, "expression_statement")):
                continue
            here = self._scope_shared(ctx, loop, shared)
            steps = [n for n in ctx.src.index.under(body, "expression_statement") if self._step(ctx, n, here) and
                     self._confirmed(ctx, n, self._step_arrays(ctx, n, here))]
            if steps and walks_step_slots(ctx, loop, {name for a in ctx.src.index.under(body, "assignment_expression")
                                                      if _writes_element(ctx, a, here) and self._confirmed(ctx, a, (
                                                          name := ctx.text(a.child_by_field_name("left")
                                                                           .child_by_field_name("argument")),))},
                                          self._is_barrier):
                continue  # one tree step's slots spread over the block: reads and writes never meet
            if steps and rowslots.private(ctx, [body], {a for n in steps for a in self._step_arrays(ctx, n, here)}):
                continue  # every thread on its own strided slots `E * blockDim.x + threadIdx.x` (a batched solver)
            if steps and channelslots.one_step(ctx, loop, {a for n in steps for a in self._step_arrays(ctx, n, here)},
                                               self._is_barrier):
                continue  # one tree step over channels `E * B + t` of a buffer (the step loop holds the barrier)
            if steps and parityslots.apart(ctx, [body], {a for n in steps for a in self._step_arrays(ctx, n, here)},
                                           scope=[loop]):
                continue  # an odd-even exchange: one residue class of pairs `s[k]`, `s[k + 1]` per turn
            if steps and loneguards.lone_run(ctx, [loop]):
                continue  # one thread's serial loop (`if (threadIdx.x == 0) for (...) s[i] += s[i - 1];`)
            if steps and steps[0].start_byte not in reported:
                reported.add(steps[0].start_byte)
                ctx.report(self, steps[0], "a shared-memory step in a loop with no `__syncwarp()` relies on warp "
                           "lockstep: threads read slots other threads are writing (a race on NVIDIA since Volta, "
                           "and the step sizes assume 32 lanes); " + (
                               "separate reads and writes with `__syncwarp()` or reduce in registers with shuffles"
                               if onewarp.one_warp(ctx, steps[0]) else _ACROSS_WARPS))

    @staticmethod
    def _pointers(ctx) -> sharedptrs.Pointers:
        """Device functions' pointers that may point into `__shared__` memory (sharedptrs.py: samplesort's
        `brent_kung_inclusive(T *data)`, its callers passing a shared buffer): steps on them are found as on
        a shared array, and reported only where every call of the run confirms the pointer (`_confirmed`)."""
        got = ctx.__dict__.get("_sy_pointers")
        if got is None:
            got = ctx.__dict__["_sy_pointers"] = sharedptrs.Pointers(ctx.module)
        return got

    @classmethod
    def _confirmed(cls, ctx, node: Node, arrays) -> bool:
        """Whether one of a step's arrays is shared memory for certain: a `__shared__` or volatile name, or
        a pointer every call of the run points into shared memory."""
        base = cls._shared(ctx)
        if any(a in base for a in arrays):
            return True
        return bool(set(arrays) & cls._pointers(ctx).confirmed(node))

    @classmethod
    def _scope_shared(cls, ctx, node: Node, shared: frozenset[str]) -> frozenset[str]:
        """The shared (or volatile) names at `node`: a host function's own locals and parameters of
        those names are not the kernels' arrays (heldout33: N-Queens' host solvers keep `unsigned int
        down[32]` or take `int* left` beside a kernel's `__shared__ unsigned int down[96][10]`); in a
        device function, its pointers every caller points into shared memory are shared too."""
        names = cls._pointers(ctx).candidates(node)  # (device functions: no host span holds them)
        if names:
            return shared | names
        spans = ctx.__dict__.get("_sy_host_locals")
        if spans is None:
            spans = ctx.__dict__["_sy_host_locals"] = [
                (f.body.start_byte, f.body.end_byte, names) for f in ctx.module.functions.values()
                if not f.is_device and f.body is not None and
                (names := frozenset(ident_name(d) for n in ctx.src.index.under_types(
                    f.node, "declaration", "parameter_declaration") for d in n.children_by_field_name("declarator"))
                 & shared)]
        for start, end, names in spans:
            if start <= node.start_byte < end:
                return shared - names
        return shared

    def _flush(self, ctx, run: list[Node], reported: set[int], shared: frozenset[str]) -> None:
        # a chain is two steps on one array (the second reads what the first wrote): single steps on
        # different arrays (`s_x[tid] += s_x[tid + offset]; s_y[tid] += s_y[tid + offset];` under a
        # block tree's `tid < offset`) depend on no other step
        # (and two steps on one array whose slots are disjoint residue classes, interleaved channels, are no chain)
        per_array = Counter(a for st in run for a in self._step_arrays(ctx, st, shared))
        chained = any(n >= 2 and slotclasses.meet(ctx, steps := [st for st in run if a in self._step_arrays(
            ctx, st, shared)], a) and not privateslots.apart(ctx, steps, a) and not rowslots.private(ctx, steps, (a,))
                      and not parityslots.apart(ctx, run, (a,)) and not haloslots.apart(ctx, steps, a)
                      and self._confirmed(ctx, steps[0], (a,))
                      for a, n in per_array.items())
        if len(run) >= 2 and chained and run[0].start_byte not in reported and not loneguards.lone_run(ctx, run):
            reported.add(run[0].start_byte)
            ctx.report(self, run[0], f"{len(run)} shared-memory steps without `__syncwarp()` rely on implicit warp "
                       f"lockstep (each reads slots another thread writes): a race on NVIDIA since Volta, and on a "
                       f"64-wide wave the half-wave steps no longer match the hardware; " + (
                           "put `__syncwarp()` between the read and the write of every step, or reduce with shuffles"
                           if onewarp.one_warp(ctx, run[0]) else _ACROSS_WARPS))

    @staticmethod
    def _is_barrier(ctx, st: Node) -> bool:
        """Whether st's subtree holds a barrier call: a bisect into the file's barrier positions,
        computed once (re-walking each statement from every enclosing block was quadratic)."""
        ix = ctx.src.index
        barriers = ctx.__dict__.get("_sy_barriers")
        if barriers is None:
            barriers = ctx.__dict__["_sy_barriers"] = [
                ix.position(n) for n in ix.of_type("call_expression") if _is_barrier_call(ctx, n)]
        return ix.any_under(st, barriers)

    @staticmethod
    def _volatile_names(ctx) -> set[str]:
        out = set()
        # the declarations with a `volatile` qualifier, reached from those qualifiers (the index's texts: a few
        # a file), not by reading each declaration's children (21,848 in tests/realcorpus + examples, 18 volatile)
        for q in ctx.src.named_under(ctx.src.root, "type_qualifier", ("volatile",)):
            n = q.parent
            if n is not None and n.type in ("parameter_declaration", "declaration"):
                for d in n.children_by_field_name("declarator"):
                    name = ident_name(d)
                    if name:
                        out.add(name)
        return out

    @classmethod
    def _step(cls, ctx, st: Node, shared: frozenset[str]) -> bool:
        return bool(cls._step_arrays(ctx, st, shared))

    @classmethod
    def _step_arrays(cls, ctx, st: Node, shared: frozenset[str]) -> frozenset[str]:
        memo = ctx.__dict__.setdefault("_sy_steps", {})  # a statement is asked from each enclosing block
        key = (st.id, shared)
        if key not in memo:
            memo[key] = cls._step_uncached(ctx, st, shared)
        return memo[key]

    @classmethod
    def _step_uncached(cls, ctx, st: Node, shared: frozenset[str]) -> frozenset[str]:
        """The arrays of one lockstep step: it writes `A[i]` and reads `A[j]` (j != i) of a shared or
        volatile array A (empty: no step).

        The step may be one statement (`s[tid] += s[tid + 16];`, `buf[tid] = v = op(v, buf[tid + 16]);`),
        a read into a temporary and a write (`t = s[tid + 16]; s[tid] = sum = f(sum, t);`), or either
        behind an `if` (`if (CTA_SIZE >= 32) { ... }`, `if (tid < 16) ...`).  A statement that
        contains a barrier is never a step: the barrier separates its read from other threads' writes.
        """
        if st.type not in ("expression_statement", "if_statement", "compound_statement") or not st.named_children:
            return frozenset()
        if not ctx.src.index.any_under(st, ctx.__dict__["_sy_writers"]) or cls._is_barrier(ctx, st):
            return frozenset()
        writes, reads = set(), set()
        for n in reached(ctx.src, st, ("assignment_expression",),
                         lambda n: n.type not in ("for_statement", "while_statement", "do_statement")):
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if _writes_element(ctx, n, shared):
                writes.add((ctx.text(left.child_by_field_name("argument")),
                            _norm(ctx.text(left.child_by_field_name("indices")))))
            for m in ctx.src.index.under(right, "subscript_expression") if right is not None else ():
                b = m.child_by_field_name("argument")
                if b is not None and b.type == "identifier" and ctx.text(b) in shared:
                    reads.add((ctx.text(b), _norm(ctx.text(m.child_by_field_name("indices")))))
        return frozenset(name for name, idx in writes for rn, ri in reads if name == rn and idx != ri)


def _writes_element(ctx, assign: Node, arrays) -> bool:
    """`A[i] = ...` (any assignment operator) for an A of `arrays`."""
    left = assign.child_by_field_name("left")
    if left is None or left.type != "subscript_expression":
        return False
    base = left.child_by_field_name("argument")
    return base is not None and base.type == "identifier" and ctx.text(base) in arrays


def _is_barrier_call(ctx, n: Node) -> bool:
    if barrier_kind(ctx, n):
        return True
    fn = n.child_by_field_name("function")
    # cooperative groups: cg::sync(block), block.sync(), tile.sync() (not in the dialect table yet)
    return fn is not None and re.search(r"(^|::|\.|->)sync$", ctx.text(fn)) is not None


def _norm(s: str) -> str:
    return re.sub(r"\s+", "", s)
