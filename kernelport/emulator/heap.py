"""Device-side `malloc` / `free`: a per-launch heap, as CUDA's.

CUDA gives every launch a heap of 8 MiB unless the host sets `cudaDeviceSetLimit(cudaLimitMallocHeapSize,
n)`; `malloc` returns NULL when the request does not fit.  The emulator runs a call for all its lanes at
once: each active lane gets its own block, a region of one buffer (as a local array's), 16-byte aligned
as CUDA's are, its bytes never written (a read before a write is undefined: emulator.undefined).  The
heap counts the live bytes of the launch (the aligned sizes: CUDA's allocator adds its own overhead, so a
kernel that fits here may not on the GPU, never the reverse); `free` gives a lane's block back.  A load or
store through a freed block, a second free and a free of memory malloc did not return are faults of the
kernel (KernelFault, located), as out-of-bounds accesses are.  Not modelled, said located: one call whose
lanes ask for different sizes, and a heap that fits some of a call's lanes but not all (a pointer NULL in
some lanes only).
"""
from __future__ import annotations

import numpy as np

from .ctype import U8
from .errors import HeapExhausted, KernelFault
from .memory import Buffer, Pointer
from . import undefined
from .nulls import null_lanes

DEFAULT_BYTES = 8 << 20  # CUDA's cudaLimitMallocHeapSize default
ALIGN = 16
_HOST_BYTES = 1 << 28  # the most one call's blocks take of the emulating machine's memory


class HeapBlock:
    """One malloc call's blocks (one per lane of the batch): their aligned size, which lanes got one and
    which freed it, and where malloc ran (for the faults' wording)."""
    __slots__ = ("stride", "live", "freed_at", "line")

    def __init__(self, stride: int, live: np.ndarray, line: int):
        self.stride = stride  # bytes per lane's region
        self.live = live  # bool per lane: holds a block not freed yet
        self.freed_at = 0  # the line of a free (the first), for a use-after-free's message
        self.line = line

    def lanes(self, g, p: Pointer, m):
        """The regions p points into (their lanes) and the active lanes' mask."""
        base = np.broadcast_to(np.asarray(p.base, np.int64) * p.dt.itemsize // self.stride, (g.n,))
        return base, np.broadcast_to(np.asarray(m, bool), (g.n,))

    def check(self, g, p: Pointer, m, node, what: str):
        """A use after free: a located fault."""
        if self.live.all():
            return
        region, act = self.lanes(g, p, m)
        dead = act & ~self.live[region] & ~np.broadcast_to(null_lanes(p), (g.n,))
        if dead.any():
            lane = int(np.flatnonzero(dead)[0])
            t, b = g.thread_of(lane)
            raise KernelFault(f"{what} of device-heap memory after free: the block malloc returned at line "
                              f"{self.line} was freed (line {self.freed_at}); thread {t} of block {b}",
                              g.ctx.path, *g.ctx.pos(node))


def heap_bytes(ctx) -> int:
    """The launch's heap: run_kernel's malloc_heap, else the host's limit in the text (host_heap.py),
    else CUDA's default; a limit the host computes at run time is CUDA's default here, and a malloc
    that would find the heap full past it is refused (heap.malloc), its result unknown."""
    if getattr(ctx, "heap_limit", None) is None:
        from .host_heap import host_limit
        got, expr = host_limit(*getattr(ctx, "heap_host", ("", None)))
        ctx.heap_limit, ctx.heap_expr = got or DEFAULT_BYTES, "" if got else expr
    return ctx.heap_limit


def malloc(g, size, m, node, line: int):
    """(pointer, None) of malloc(size) for the active lanes m, or (0, None): NULL, the heap full."""
    ctx = g.ctx
    act = np.broadcast_to(np.asarray(m, bool), (g.n,))
    sizes = np.broadcast_to(np.asarray(size, np.int64), (g.n,))[act]
    if sizes.size == 0:
        return np.int64(0), None
    if (sizes != sizes[0]).any():
        raise ctx_error(g, node, f"device malloc of sizes that differ across threads ({int(sizes.min())} to "
                                 f"{int(sizes.max())} bytes): the emulator gives one call's threads blocks of one size")
    want = int(sizes[0])
    stride = max(-(-want // ALIGN) * ALIGN, ALIGN)
    used = getattr(ctx, "heap_used", 0)
    room = (heap_bytes(ctx) - used) // stride
    if room < sizes.size and getattr(ctx, "heap_expr", ""):
        raise ctx_error(g, node, f"device malloc past {heap_bytes(ctx)} bytes of heap, and the host sizes the heap at "
                                 f"run time (cudaLimitMallocHeapSize = `{ctx.heap_expr}`): whether malloc returns NULL "
                                 "here is unknown to the emulator")
    if want <= 0 or room <= 0:
        return np.int64(0), None  # CUDA: NULL (malloc(0) may return NULL too)
    if room < sizes.size:
        raise HeapExhausted(f"device malloc: the heap ({heap_bytes(ctx)} bytes) holds {room} of this call's "
                            f"{sizes.size} blocks of {want} bytes, NULL in the rest: the emulator does not model a "
                            "pointer NULL in some threads only (raise cudaLimitMallocHeapSize or the sizes)",
                            g.ctx.path, *g.ctx.pos(node))
    if g.n * stride > _HOST_BYTES:  # (a region for every lane of the batch, active or not)
        raise ctx_error(g, node, f"device malloc of {want} bytes in each of {g.n} threads at once: past the "
                                 f"emulator's {_HOST_BYTES >> 20} MiB for one call (scale the sizes down)")
    ctx.heap_used = used + stride * sizes.size
    buf = Buffer(f"malloc@{line}", np.zeros(g.n * stride, U8), "local", stride, False, line)
    buf.heap = HeapBlock(stride, act.copy(), line)
    base = undefined.unwritten(buf, g.lane_idx * stride)
    return Pointer(buf, U8, base, np.int64(0), want), None


def free(g, ptr, m, node):
    """free(ptr) for the active lanes: NULL is nothing; a block malloc did not return, or one freed
    already, is a fault."""
    v = ptr[0]
    if not isinstance(v, Pointer):
        if np.all(np.asarray(v)[()] == 0) if np.ndim(v) == 0 else not np.any(np.asarray(v)[np.asarray(m, bool)]):
            return
        raise ctx_fault(g, node, "free of an integer that is not NULL")
    h = v.buf.heap
    if h is None:
        raise ctx_fault(g, node, f"free of `{v.buf.name}`, memory device malloc did not return")
    region, act = h.lanes(g, v, m)
    act = act & ~np.broadcast_to(null_lanes(v), (g.n,))  # (free(NULL) in those threads: nothing)
    off = np.broadcast_to(np.asarray(v.off, np.int64), (g.n,))
    if (act & (off != 0)).any():
        raise ctx_fault(g, node, "free of a pointer inside a block, not the start malloc returned")
    twice = act & ~h.live[region]
    if twice.any():
        raise ctx_fault(g, node, f"double free of the block malloc returned at line {h.line}")
    regions = np.unique(region[act])
    h.live[regions] = False
    h.freed_at = h.freed_at or (g.ctx.pos(node)[0])
    g.ctx.heap_used = getattr(g.ctx, "heap_used", 0) - h.stride * regions.size


def ctx_error(g, node, msg):
    from .errors import EmulatorError
    return EmulatorError(msg, g.ctx.path, *g.ctx.pos(node))


def ctx_fault(g, node, msg):
    return KernelFault(msg, g.ctx.path, *g.ctx.pos(node))

