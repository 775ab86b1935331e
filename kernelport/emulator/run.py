"""run_kernel: lower, compile once, bind arguments, run the grid batch by batch."""
from __future__ import annotations

import os
import time
import zlib
from collections.abc import Collection
from dataclasses import dataclass, field

import numpy as np
import numpy.lib.recfunctions as rfn

from .. import backends
from .frontend import LowerError, lower, wave_defines
from . import bfloat16, flips, intrinsics as K, undefined
from .compiler import Compiler
from .ctype import U8, PtrT, base_scalar, conv, inner_dims, row_scalar, scalar_count, vector_row
from .errors import BudgetExceeded, Diagnostic, EmulatorError, KernelFault, Race, TimedOut
from .layout import bind_array, global_structs, in_memory
from .struct_bounds import field_bounds
from .global_races import GlobalWrites
from .memory import Buffer, Memory, Pointer
from .race_table import RaceTable
from .schedule import run_block, run_interleaved
from .structs import bind_struct, bind_vector, is_struct

SCHEDULES = ("block", "warp", "thread")


@dataclass
class RunResult:
    """One emulated launch: its outputs, bounds, races and diagnostics."""
    outputs: dict[str, np.ndarray]
    bounds: dict[str, np.ndarray] | None
    races: list[Race] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    wave: int = 32
    schedule: str = "block"
    seconds: float = 0.0
    steps: int = 0
    # the file-scope device variables as the kernel found them (zeros, or their initialisers):
    # what a port that passes one as a buffer (Metal's __constant__ arrays) is given
    globals: dict[str, np.ndarray] = field(default_factory=dict)
    # a block run watched (run_kernel's watch): no thread depended on another's order between barriers
    # (emulator.order), and one thread at a time would stay within the step budget (each of a block's
    # threads makes at most the block's loop iterations): every schedule computes this run's result
    independent: bool = False
    global_races: list[Race] = field(default_factory=list)  # (emulator.global_races: the oracle's, not a port's check)
    # "file:line:col: what" where a float's bound was lost through its bits (emulator.bitbounds): the
    # elements it reached have NaN bounds, unknown
    bounds_lost: list[str] = field(default_factory=list)
    # output -> marks of its elements stored from values never written (emulator.undefined), where any is;
    # "file:line:col" of each store that wrote them -> lanes it stored so
    undefined: dict[str, np.ndarray] = field(default_factory=dict)
    undefined_at: dict[str, int] = field(default_factory=dict)
    # "file:line:col: why" of each read of a lane not active (emulator.undefined.read_inactive) and each comparison
    # within its operands' bounds that decided a branch (emulator.flips): what makes elements unknown
    unjudged: list[str] = field(default_factory=list)


class RunCtx:
    def __init__(self, path, grid, block, wave, track, budget, shared_bytes, check_races, contract, deadline=None):
        self.path = path
        self.steps = 0  # loop iterations of every lane group of the whole run: one budget per run
        self.deadline = deadline  # time.monotonic() past which the run stops (verify --timeout), or None
        self.grid = grid
        self.block = block
        self.W = wave
        self.track = track
        self.budget = budget
        self.shared_bytes = shared_bytes
        self.check_races = check_races
        self.contract = contract
        self.threads_per_block = block[0] * block[1] * block[2]
        self.padded_threads = -(-self.threads_per_block // wave) * wave
        self.nwarps = self.padded_threads // wave
        self.mem = Memory(self)
        self.epoch = 0
        self.races: list[Race] = []
        self.race_keys: set = set()
        self.writes = None  # global memory's write-write races, where run_kernel is asked (GlobalWrites)
        self.diagnostics: list[Diagnostic] = []
        self.diag_keys: set = set()
        self.bounds_lost: list[str] = []  # (bitbounds.record)
        self.undefined_at: dict[str, int] = {}  # (emulator.undefined.stored)
        self.unjudged: list[str] = []  # "file:line:col: why" of what makes outputs unknown (undefined, flips)
        self.flip_any = False  # some lane is tainted by a comparison that may flip (emulator.flips)
        self.flip_all = None  # why every output is unknown (a flip whose construct stores, calls or jumps)
        self.globals: dict[str, Buffer] = {}
        self.shared_bufs: dict = {}
        self.dyn_buf = None
        self.batch_start = 0
        self.batch_blocks = 1
        self.wsync = None
        self.wsync_used = False  # some warp of the batch has synchronised (race detector)

    def step(self, line: tuple[int, int]) -> None:
        """One loop iteration of some lane group, in the loop at `line`: the run's budgets."""
        self.steps += 1
        if self.steps > self.budget:
            raise BudgetExceeded(f"step budget of {self.budget} loop iterations for the whole run exceeded (an "
                                "infinite loop, or a spin-wait on other threads?)", self.path, *line)
        if self.watch_at is not None and time.monotonic() > self.watch_at:
            self.watch(line)

    deadline_seconds = 0.0
    watch_at: float | None = None  # the next time.monotonic() step() looks at the clock past: min(deadline, report_at)
    report_at: float | None = None  # the next progress line on stderr (check_budget.progress_on), or None
    started = 0.0
    what = "the run"  # what a progress line calls the run

    def watch(self, line: tuple[int, int], site: str = "loop") -> None:
        """The clock past watch_at: the budget spent (TimedOut at `line`, the loop header the run
        is in) or a progress line due."""
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise TimedOut(f"ran past its {self.deadline_seconds:g} s budget (verify --timeout) in this {site}, "
                           f"after {self.steps} loop iterations", self.path, *line, seconds=self.deadline_seconds,
                           elapsed=now - self.started, site=site, steps=self.steps)
        if self.report_at is not None and now > self.report_at:
            from ..check_budget import PROGRESS_AFTER, say_progress
            say_progress(self.what, self.path, *line, now - self.started, self.steps,
                         self.deadline_seconds if self.deadline is not None else None)
            self.report_at = now + PROGRESS_AFTER
        self.watch_at = min((t for t in (self.deadline, self.report_at) if t is not None), default=None)

    def pos(self, node):
        if node is not None and getattr(node, "coord", None) is not None:
            return node.coord.line, node.coord.column or 0
        return 0, 0

    def diag(self, node, severity, message):
        line, col = self.pos(node)
        key = (line, message)
        if key in self.diag_keys:
            return
        self.diag_keys.add(key)
        self.diagnostics.append(Diagnostic(self.path, line, col, severity, message))

    def syncwarp(self, g, m, node, mask):
        if mask is not None:
            K.collective("activemask", {"mask": (mask, None)}, m, g.W, self, node)
        ws = g.blk * self.nwarps + g.warp_arr
        sel = ws[m] if not (m is g.full) else ws
        self.wsync[np.unique(sel)] += 1
        self.wsync_used = True

    def global_structs(self, name, st):
        """A file-scope array of structs: a pointer to its structs (their bytes, emulator.layout)."""
        buf = self.globals[name]
        size = buf.layout.itemsize
        return Pointer(buf, U8, 0, np.int64(0), buf.data.shape[0], (size,), st)

    def global_ptr(self, name, elem, dims):
        buf = self.globals[name]
        return Pointer(buf, elem, 0, np.int64(0), buf.data.shape[0] * buf.data.dtype.itemsize // elem.itemsize, dims)


_COMPILED: dict[tuple, Compiler] = {}


def _tune_malloc():
    """Keep large freed blocks in the heap (glibc): the emulator allocates many short-lived
    arrays of the same sizes, and fresh pages from the OS cost more than the arithmetic."""
    try:
        import ctypes
        import sys
        if sys.platform.startswith("linux"):
            libc = ctypes.CDLL("libc.so.6")
            libc.mallopt(-3, 1 << 30)  # M_MMAP_THRESHOLD
            libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD
    except Exception:
        pass


_tune_malloc()


def _compile(low, mode: str, kernel: str):
    key = (id(low), mode)
    c = _COMPILED.get(key)
    if c is None:
        c = Compiler(low, "thread" if mode == "thread" else "lockstep")
        _COMPILED[key] = c
    return c, c.function(kernel)


def run_kernel(source: str, kernel: str, *, args: dict, grid, block, shared_bytes: int = 0, wave: int = 32,
               schedule: str = "block", seed: int = 0, backend: str | None = None, template_args=None,
               path: str = "<kernel>", error_bound: bool = True, check_races: bool = True,
               max_steps: int | None = None, max_lanes: int = 1 << 20, contract: bool = True,
               timeout: float | None = None, headers: dict[str, str] | None = None,
               file_scope: dict[str, np.ndarray] | None = None, context: tuple[str, str] | None = None,
               redefine: dict[str, str] | None = None, generate: Collection[str] = (),
               port_of: str | None = None, watch: bool = False, offsets: dict[str, int] | None = None,
               global_races: bool = False, configured_as: str | None = None,
               malloc_heap: int | None = None, arg_order: tuple[str, ...] = ()) -> RunResult:
    """Run `kernel` from `source` on the emulator for the whole grid.

    args: pointer parameters as 1-D numpy arrays (copied; results in .outputs), scalars as numbers.
    arg_order: the original's parameters in order, for a port's parameter renamed (bound by its place).
    wave: the warp/wavefront width W (32 or 64); `warpSize` is W and ballots are W-bit.
    schedule: "block" (block lockstep), "warp" (warps interleaved between barriers in a seeded
    order) or "thread" (one thread at a time between barriers and warp collectives).
    backend: the dialect of `source` (by default the one kernels are written in); port_of: the
    backend whose port `source` is, where it differs (a portable port read as CUDA or HIP): the
    names it spells its own way (kp_wave_size()) are read from its spellings too.
    file_scope: the original's file-scope variables (RunResult.globals), for a parameter the
    arguments do not name (a port that passes such a variable to its kernel as a buffer), and the
    contents of the file-scope variables of the same name and size.  generate: file-scope float
    variables filled with seeded uniform(-1, 1) values, not zeros (__constant__ memory the host fills);
    an array of structs, each number field by its type (emulator.layout.global_structs).
    context: (path, text) of what the file that includes this one has before its #include.
    headers: texts of headers not on disk (real path -> text): the ports of the headers a port includes.
    redefine: new values of object-like macros the file (or its headers) defines: sizes scaled down.
    configured_as: the file whose configuration (-D, -I, forced includes) the text is read with where it
    is not `path`'s own (a port: its original's, as its build and verify's compile checks read it).
    global_races: also watch global memory for write-write races (RunResult.global_races; emulator.global_races:
    the oracle's question, at a cost on every global store).
    malloc_heap: the bytes of the device heap device `malloc` draws on; by default the host's
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, n) in `source`, else CUDA's 8 MiB (emulator.heap).
    offsets: buffer -> the element its kernel pointer starts at (host code stepped it after allocating:
    `p[-1]` reads the element before; the output is the whole buffer).
    watch: in the block schedule, record whether any thread read or wrote what another wrote between
    barriers (RunResult.independent; emulator.order).  max_steps: loop iterations (of a lane group: a block in lockstep, a warp or a thread, by
    schedule) for the whole run, every loop of every group counted against it; by default a
    million plus 16 per thread of the grid.  timeout: seconds of wall clock for the run.
    """
    t0 = time.monotonic()
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {SCHEDULES}")
    if wave not in (8, 16, 32, 64):
        raise ValueError("wave must be 32 or 64")
    grid = tuple(int(x) for x in (tuple(grid) + (1, 1, 1))[:3])
    block = tuple(int(x) for x in (tuple(block) + (1, 1, 1))[:3])
    backend = backend or backends.source().name
    try:
        low = lower(source, backend, template_args, path=path, kernel=kernel,
                    defines=wave_defines(backend, wave), headers=headers, context=context, redefine=redefine,
                    port_of=port_of, configured_as=configured_as)
    except LowerError as e:
        raise EmulatorError(e.message, e.path, e.line, e.column) from None
    kernel = _overload(low, kernel, args)
    if kernel not in low.functions:
        raise EmulatorError(f"kernel `{kernel}` not found (functions: {', '.join(low.functions) or 'none'})", path)
    comp, cf = _compile(low, schedule, kernel)
    if max_steps is None:
        max_steps = 1_000_000 + 16 * grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2]
    ctx = RunCtx(path, grid, block, wave, error_bound, max_steps, shared_bytes, check_races, contract,
                 t0 + timeout if timeout is not None else None)
    ctx.deadline_seconds, ctx.started = timeout or 0.0, t0
    from ..check_budget import PROGRESS_AFTER, progress_on
    ctx.what = f"`{kernel}` of {os.path.basename(path)} (wave {wave}, {schedule} schedule)"
    ctx.report_at = t0 + PROGRESS_AFTER if progress_on() else None
    ctx.watch_at = min((t for t in (ctx.deadline, ctx.report_at) if t is not None), default=None)
    ctx.heap_limit, ctx.heap_host = malloc_heap, (source, backend)  # (emulator.heap: the host's limit, lazily)
    ctx.writes = GlobalWrites(ctx) if global_races and check_races else None

    # global memory: argument buffers and file-scope device variables
    bindings = {}
    buffers: dict[str, Buffer] = {}
    # A port may rename a parameter (Metal's reserved word `matrix` -> `matrix_`): where every
    # name differs from the one given but the count agrees, the arguments bind by position, as a
    # launch's do, and the outputs keep the caller's names.
    user = [name for name, _, s in cf.params if s not in cf.param_builtins]
    caller_name: dict[str, str] = {}
    given = list(args)
    if set(user) != set(given) and len(user) == len(given) and all(
            u == g or (u not in args and g not in user) for u, g in zip(user, given)):
        caller_name = dict(zip(user, given))
        args = {u: args[g] for u, g in caller_name.items()}

    def pointer_arg(name, t, a):
        """A pointer argument (or a struct's pointer field, `p.f`): a global buffer of its own,
        whose final contents are the output `name`."""
        if in_memory(t.elem):  # an array of structs: bytes in the struct's C layout
            p = bind_array(name, t.elem, a, error_bound, path)
            buffers[name] = p.buf
            return p, None
        elem = base_scalar(t.elem)
        row = vector_row(t.elem)
        if row is not None:  # float2* and the like: rows of n scalars (v[i].y is scalar 2i + 1)
            elem = row[0]
        if not isinstance(elem, np.dtype):
            raise EmulatorError(f"argument `{name}`: pointers to {elem} are not supported", path)
        arr = np.asarray(a)
        if row is not None and arr.dtype.names is not None and len(arr.dtype.names) == row[1]:
            # a struct of n fields of one type that is a vector's row (`typedef struct {float x, y, z;} Float3`):
            # host inference lays it out as a struct, the same bytes as its n scalars
            arr = rfn.structured_to_unstructured(arr.reshape(-1))
        if elem == bfloat16.BF16 and arr.dtype != elem:  # floats given: their bfloat16 bytes, as the host's conversion
            arr = bfloat16.stored(arr)
        if arr.dtype != elem:
            if arr.dtype.kind != elem.kind or arr.dtype.itemsize != elem.itemsize:
                ctx.diag(cf.node, "info", f"argument `{name}` converted from {arr.dtype} to {elem}")
            arr = arr.astype(elem)
        if name in cf.const_params:
            # a const input is never written: use a read-only view instead of a copy
            data = np.ascontiguousarray(arr.reshape(-1)).view()
            data.flags.writeable = False
        else:
            data = np.array(arr.reshape(-1), dtype=elem, copy=True)
        buf = Buffer(name, data, "global", data.shape[0], error_bound)
        buffers[name] = buf
        dims = (row[1],) if row is not None else inner_dims(t.elem)
        p = Pointer(buf, elem, 0, np.int64(0), data.shape[0], dims)
        return (p.add(np.int64(offsets[name])) if offsets and offsets.get(name) else p), None

    # a port's by-value parameter bound under another name (Metal's `constant int& kp_n`, copied to the `int n` the
    # body changes): the original's parameter at its place, as the port's host binds it by index (arg_order)
    own = [n for n, _, s in cf.params if s not in cf.param_builtins and n != backends.get(backend).assertion_flag[0]
           and n not in (file_scope or {})]  # (a file-scope variable the port passes: its own name, not a place)
    by_place = dict(zip(own, arg_order)) if arg_order and len(own) == len(arg_order) else {}
    for name, t, s in cf.params:
        if s in cf.param_builtins:
            continue
        if name not in args and not isinstance(t, PtrT) and by_place.get(name) in args:
            args = {**args, name: args[by_place[name]]}
        flag = name == backends.get(backend).assertion_flag[0] and name not in args  # a port's assert flag: 0
        if name not in args and name not in (file_scope or {}) and not flag:
            raise EmulatorError(f"no value for kernel argument `{name}`", path, *ctx.pos(cf.node))
        a = np.zeros(1, np.uint32) if flag else args[name] if name in args else file_scope[name]
        if isinstance(t, PtrT):
            bindings[s] = pointer_arg(name, t, a)
        elif is_struct(t):
            bindings[s] = bind_struct(name, t, a, pointer_arg, path, ctx.pos(cf.node))
        elif vector_row(t) is not None:
            bindings[s] = bind_vector(name, t, a, path, ctx.pos(cf.node))
        else:
            if name not in args and isinstance(a, np.ndarray) and a.size == 1:
                # a file-scope scalar the port passes by value (Metal's `constant float& d_w0` for the original's
                # `__constant__ float d_w0`): the variable's one element, as the host's setBytes passes it
                a = a.reshape(-1)[0]
            if isinstance(a, np.ndarray) and a.ndim:
                raise EmulatorError(f"argument `{name}` is a scalar parameter but got an array", path)
            bindings[s] = (conv(np.asarray(a), t)[()] if isinstance(t, np.dtype) else a, None)
    initial: dict[str, np.ndarray] = {}
    for gname, (d, t) in comp.globals.items():
        row = row_scalar(t)
        if row is None and in_memory(base_scalar(t)):
            ctx.globals[gname], initial[gname] = global_structs(gname, d, t, file_scope, generate, seed, path, ctx.pos(d))
            continue
        if row is None:
            continue
        elem, n = row[0], max(scalar_count(t), 1)
        data = np.zeros(n, elem)
        given = (file_scope or {}).get(gname)
        if given is not None and given.shape == (n,):  # the original's contents: every run sees the same
            data[:] = given
        elif gname in generate and (elem.kind == "f" or elem == bfloat16.BF16):  # __constant__ memory the host fills
            vals = np.random.default_rng([seed, zlib.crc32(gname.encode())]).uniform(-1, 1, n)
            data[:] = bfloat16.stored(vals) if elem == bfloat16.BF16 else vals
        elif d.init is not None:
            vals = []

            def walk(x):
                from pycparser import c_ast
                if isinstance(x, c_ast.InitList):
                    for e in x.exprs:
                        walk(e)
                else:
                    vals.append(comp.const_eval(x))
            try:
                walk(d.init)
                data[: len(vals)] = bfloat16.stored(np.asarray(vals[:n], np.float32)) if elem == bfloat16.BF16 \
                    else vals[:n]
            except EmulatorError:
                pass
        ctx.globals[gname] = Buffer(gname, data, "global", n, error_bound, ctx.pos(d)[0])
        initial[gname] = data.copy()

    rng = np.random.default_rng(seed)
    total_blocks = grid[0] * grid[1] * grid[2]
    per_batch = max(1, max_lanes // ctx.padded_threads)
    from . import order
    order.WATCH = seen = order.Watch() if watch and schedule == "block" else None
    if seen is not None and cf.warp_ops:  # (its thread run stands apart only where that compiles: order.py)
        try:
            _compile(low, "thread", kernel)
        except Exception:  # (whatever stops its compile stops its run, as before)
            seen.dependent = True
    try:
        _run_batches(ctx, comp, cf, bindings, schedule, rng, total_blocks, per_batch, shared_bytes, error_bound,
                     check_races)
    finally:
        order.WATCH = None
        # break the ctx <-> memory cycle: the batch's buffers are freed now, not at the next
        # cyclic garbage collection (their memory is reused by the next run instead of new pages)
        ctx.mem.ctx = None
        ctx.shared_bufs = {}
        ctx.dyn_buf = None
    steps = ctx.steps
    flag = buffers.pop(backends.get(backend).assertion_flag[0], None) if backends.get(backend).assertion_flag[0] \
        not in args else None
    if flag is not None and flag.data[0]:  # a port's recorded assert: the host reads a failed dispatch
        raise KernelFault(f"the port's assertion {int(flag.data[0])} failed (its sidecar's 'assertions')", path,
                          *ctx.pos(cf.node))
    outputs = {caller_name.get(n, n): bfloat16.to_float(b.data) if b.data.dtype == bfloat16.BF16 else
               b.data if b.layout is None else b.data.view(b.layout)
               for n, b in buffers.items()}  # the run's private copies (a bfloat16's as the floats it holds)
    bounds = None
    if error_bound:
        # float32 for float buffers (the bound's own rounding is far below its size), float64 for doubles
        # an array of structs: a structured array of its fields' bounds (from its bytes' shadow)
        bounds = {caller_name.get(n, n): (b.err if b.err is not None else np.zeros(b.data.shape[0], np.float32))
                  if b.layout is None else field_bounds(b.layout, b.data.nbytes, b.shadow) for n, b in buffers.items()}
        for n, b in buffers.items():  # a bfloat16's own rounding, which a whole-struct copy (layout.py) moves
            if b.data.dtype == bfloat16.BF16:  # without its bound: the unit roundoff of its 8 bits
                bounds[caller_name.get(n, n)] = bounds[caller_name.get(n, n)] + bfloat16.UNIT_ROUNDOFF * np.abs(
                    outputs[caller_name.get(n, n)])
    und = undefined.outputs(buffers, caller_name)
    if ctx.flip_all is not None:  # (a lane may have skipped a store: no element is vouched for, emulator.flips)
        flips.unknown_outputs(outputs, bounds, und)
    if ctx.flip_any:  # (an element marked may be a tainted lane's value, not one never written: flips.Marks)
        und = flips.Marks(und)
    return RunResult(outputs, bounds, list(ctx.races), list(ctx.diagnostics), wave, schedule,
                     time.monotonic() - t0, steps, initial,
                     independent=seen is not None and not seen.dependent and steps * ctx.threads_per_block <= max_steps,
                     global_races=ctx.writes.finish() if ctx.writes is not None else [],
                     bounds_lost=list(ctx.bounds_lost), undefined=und,
                     undefined_at=dict(ctx.undefined_at), unjudged=list(ctx.unjudged))


def _overload(low, kernel: str, args: dict) -> str:
    """An overloaded kernel (two `__global__ void init(...)`, renamed init__kpov0, ...): the one
    whose parameters are the arguments given, by name; else `kernel` itself."""
    if kernel in low.functions:
        return kernel
    fits = [o for o in low.overloads.get(kernel, ()) if low.functions[o].decl.type.args is not None and
            {getattr(p, "name", None) for p in low.functions[o].decl.type.args.params} == set(args)]
    return fits[0] if len(fits) == 1 else kernel


def _run_batches(ctx, comp, cf, bindings, schedule, rng, total_blocks, per_batch, shared_bytes, error_bound,
                 check_races):
    """Run the grid batch by batch (a batch: as many whole blocks as fit in max_lanes lanes)."""
    if check_races and ctx.padded_threads > 1 << 20:
        raise EmulatorError(f"blocks of {ctx.threads_per_block} threads: the race detector tells at most 2^20 "
                            "threads of a block apart (run without race detection)", ctx.path, *ctx.pos(cf.node))
    with np.errstate(all="ignore"):
        for start in range(0, total_blocks, per_batch):
            nb = min(per_batch, total_blocks - start)
            if ctx.watch_at is not None and time.monotonic() > ctx.watch_at:  # a grid of many blocks, no loop
                ctx.watch(ctx.pos(cf.node), f"kernel (between blocks, at block {start} of {total_blocks})")
            ctx.batch_start, ctx.batch_blocks = start, nb
            ctx.epoch = 0
            ctx.wsync = np.zeros(nb * ctx.nwarps, np.int32)
            ctx.wsync_used = False
            ctx.shared_bufs = {}
            for key, (name, t, line) in comp.static_shared.items():
                elem = row_scalar(t)[0]
                region = max(scalar_count(t), 1)
                buf = Buffer(name, np.zeros(nb * region, elem), "shared", region, error_bound, line)
                if check_races:
                    buf.race = RaceTable(nb * region, ctx.padded_threads)
                ctx.shared_bufs[key] = buf
            ctx.dyn_buf = None
            if shared_bytes:
                elem = base_scalar(comp.dynamic_shared[0][1]) if comp.dynamic_shared else np.dtype(np.float32)
                nelem = shared_bytes // elem.itemsize
                buf = Buffer(comp.dynamic_shared[0][0] if comp.dynamic_shared else "<dynamic shared>",
                             np.zeros(nb * nelem, elem), "shared", nelem, error_bound)
                if check_races:
                    buf.race = RaceTable(nb * nelem, ctx.padded_threads)
                ctx.dyn_buf = buf
            if schedule == "block":
                run_block(ctx, cf, bindings)
            else:
                run_interleaved(ctx, cf, bindings, schedule, rng)
            for buf in (*ctx.shared_bufs.values(), ctx.dyn_buf):
                if buf is not None and buf.race is not None and buf.race.unwritten:
                    ctx.mem.settle_unwritten(buf)

