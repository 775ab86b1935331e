"""How deep kernelport follows nesting, and the stack its recursive analyses run on.

The analyses (warpflow, lint's divergence pass, rewrites, the translators, the emulator's front
end and compiler) recurse over the syntax tree, one or a few Python frames per level.  Rather
than rewrite each of them, nesting is bounded once where a file is parsed: `too_deep` measures
the tree without recursion, and a file deeper than MAX_DEPTH is refused with a located error.
Below the bound the analyses really work: `on_big_stack` runs them on a thread whose C stack
and recursion limit hold MAX_DEPTH levels with room to spare (tests/test_trust_depth.py runs
every construct just under the bound).

MAX_DEPTH is far beyond real code: of 2,220 CUDA files (HeCBench's CUDA and HIP benchmarks,
the CUDA samples, llm.c, Rodinia, PolyBench, kernelport's examples and corpus) the deepest
nests 87 levels, the 99th percentile 36 (bench/nesting_depth.py).  A nesting of N levels costs
the analyses time in N * nodes (ancestor walks), so the bound also keeps a hostile file's run
within seconds (translate to HIP and Metal at the bound: under 10 s on this 2-core machine).
"""
from __future__ import annotations

import os
import sys
import threading
from typing import Callable, TypeVar

MAX_DEPTH = 1000
# Python frames per syntax-tree level, at most, over every analysis (measured: about 12 in
# translate's Metal passes), plus the frames of the command around them.
_FRAMES_PER_LEVEL = 40
RECURSION_LIMIT = MAX_DEPTH * _FRAMES_PER_LEVEL + 10_000
STACK_BYTES = 512 << 20  # reserved address space; only the pages a deep run touches are used

T = TypeVar("T")
_local = threading.local()
_lock = threading.Lock()
_limit = [0, 0]  # deep threads running, the recursion limit before the first


def too_deep(tree, limit: int = MAX_DEPTH):
    """(depth, node) where the syntax tree first nests deeper than `limit` levels, else None.

    A tree cursor, no recursion: a 100,000-level file is measured like any other.  `depth` is
    the deepest level of the whole tree; `node` is the first node past the limit (its location
    is where the nesting becomes too deep).
    """
    cur = tree.walk()
    d = deepest = 0
    first = None
    while True:
        if cur.goto_first_child():
            d += 1
            if d > deepest:
                deepest = d
                if d > limit and first is None:
                    first = cur.node
            continue
        while not cur.goto_next_sibling():
            if not cur.goto_parent():
                return (deepest, first) if first is not None else None
            d -= 1


def message(depth: int) -> str:
    return f"too deeply nested ({depth} levels; kernelport supports {MAX_DEPTH})"


HINT = ("split the expression or the nested blocks into functions or named temporaries; real code nests "
        "far less (the deepest of 2,220 open-source CUDA files nests 87 levels)")


def on_big_stack(fn: Callable[..., T], *args, **kwargs) -> T:
    """fn(*args, **kwargs) on a thread with a stack and recursion limit for MAX_DEPTH levels.

    Its result is returned and its exception raised here.  Called from inside such a thread it
    simply calls fn.  Signals still reach the main thread, which waits in short slices, so
    Ctrl-C and SIGTERM handlers run as before.  The thread is kept for the next call (`_Deep`).
    """
    if getattr(_local, "deep", False):
        return fn(*args, **kwargs)
    with _lock:  # the limit is the interpreter's: raised while any deep thread runs, then restored
        _limit[0] += 1
        if _limit[0] == 1:
            _limit[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_limit[1], RECURSION_LIMIT))
        deep = _idle.pop() if _idle else None
    box: dict = {}
    try:
        if deep is None:
            deep = _Deep()
        deep.run(fn, args, kwargs, box)
        with _lock:  # (not on an interrupt: the thread is still busy with fn)
            _idle.append(deep)
    finally:
        with _lock:
            _limit[0] -= 1
            if _limit[0] == 0:
                sys.setrecursionlimit(_limit[1])
    if "error" in box:
        raise box["error"]
    return box["value"]


class _Deep:
    """A thread with the big stack that serves one call at a time and then waits for the next.

    A tree translate makes thousands of deep calls (every include walk, model build, lint and
    translation: 2,624 over tests/realcorpus), most of them short: a thread started for each cost
    its start, a fresh 512 MiB mapping and the page faults of the stack it touched again, and the
    caller's wait for the scheduler to run it, on a loaded machine more than the call itself."""

    def __init__(self) -> None:
        self.go, self.done = threading.Lock(), threading.Lock()
        self.go.acquire()
        self.done.acquire()
        self.call: tuple | None = None
        old = threading.stack_size()
        try:
            threading.stack_size(STACK_BYTES)
            threading.Thread(target=self._serve, name="kernelport-deep", daemon=True).start()
        finally:
            threading.stack_size(old)

    def run(self, fn, args, kwargs, box: dict) -> None:
        self.call = (fn, args, kwargs, box)
        self.go.release()
        while not self.done.acquire(timeout=0.25):  # short slices: the main thread's signal handlers run
            pass

    def _serve(self) -> None:
        _local.deep = True
        while True:
            self.go.acquire()
            fn, args, kwargs, box = self.call
            self.call = None
            try:
                box["value"] = fn(*args, **kwargs)
            except BaseException as e:  # noqa: BLE001 - handed to the caller as it is
                box["error"] = e
            del fn, args, kwargs, box  # (the result is the caller's: not kept alive by an idle thread)
            self.done.release()


_idle: list[_Deep] = []  # deep threads waiting for a call


def _forget_threads() -> None:
    """In a forked child (lint -j's pool) only the forking thread exists: the idle ones are not there."""
    _idle.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_threads)


def big_stack(fn: Callable[..., T]) -> Callable[..., T]:
    """Decorator: every call of fn runs through on_big_stack."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return on_big_stack(fn, *args, **kwargs)
    return wrapper
