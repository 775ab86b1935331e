"""Which functions a fixpoint sweep must analyse again (warpflow's worklist).

warpflow sweeps every function until a sweep changes nothing.  A function's pass reads its own
variables (keyed by its key, kernelport.fnscopes: definitions that share one, the same function
in two `#if` branches, always pass), file-scope values, its callees' returns, the
shared-array names, and (at a popc/ffs/clz of a mask) whether sites are confirmed.  A function
none of whose inputs changed since its last pass would write exactly what it wrote then: joins
that change nothing.  So it is skipped, and what it recorded per pass (the shuffle masks it
classified) is replayed in its place: every sweep sees the states and produces the lists that a
sweep of every function would, in the same order, and the sweeps end at the same one.

A pass that changes one of its own variables needs another pass only where it read that variable
before the change (a later read saw the new value): every read of the environment during a pass goes
through `read`/`has`, which note the key, and `touch` re-queues the function only for a noted key
(or where it cannot tell: a change made outside the function's own pass).  Most first passes bind
their locals before reading them; their second pass would repeat the first.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .model import Function, Module


class Sweeps:
    def __init__(self, module: Module, functions: list[Function], key: Callable[[Function], str] = lambda f: f.name):
        src = module.source
        self._key = key  # a function's key: what its variables and its return are stored under
        self._all = {key(f) for f in functions}
        self._dirty = set(self._all)  # the first sweep analyses every function
        seen: set[str] = set()
        self._overloaded = {k for k in map(key, functions) if k in seen or seen.add(k)}
        keys: dict[str, set[str]] = {}  # a name -> the keys of the functions of that name
        for f in functions:
            keys.setdefault(f.name.split("::")[-1], set()).add(key(f))
        self._callers: dict[str, set[str]] = {}  # key -> keys of the functions that mention its name
        self.said: dict[str, set[str]] = {}  # name -> the identifiers its definitions mention
        for f in functions:  # the whole definition: a default argument may call a function too
            said = Counter(src.texts_under(f.node, "identifier"))
            self.said.setdefault(f.name, set()).update(said)
            own = f.name.split("::")[-1]
            for name in said.keys() & keys.keys():
                if name != own or said[name] > 1:  # its own name once is its declarator, not a call
                    for k in keys[name]:
                        self._callers.setdefault(k, set()).add(key(f))
        self._confirm_readers: set[str] = set()
        self._recorded: dict[int, object] = {}
        self._live = self._all
        self._passing: str | None = None  # the key of the function whose pass runs now (None: none)
        self._read: set = set()  # the environment keys that pass has read so far

    def limit(self, live: set[str]) -> None:
        """Only these functions ever pass: the others can change nothing that is read (warpreach.py)."""
        self._live = live

    # -- what changed ----------------------------------------------------------------------------
    def touch(self, fn: Function | None, key=None) -> None:
        """The variable `key` of `fn` changed (fn None: a file-scope one, which every function may read).
        In fn's own pass, a key that pass has not read yet needs no other pass."""
        if fn is None:
            self.touch_all()
        elif key is None or key in self._read or self._passing != self._key(fn):
            self.touch_name(self._key(fn))

    def read(self, env: dict, key) -> frozenset:
        """env[key] (empty where unset), noted as read by the pass that runs now."""
        self._read.add(key)
        return env.get(key, frozenset())

    def has(self, env: dict, key) -> bool:
        self._read.add(key)
        return key in env

    def touch_name(self, key: str) -> None:
        """A parameter of the function(s) of this key changed."""
        self._dirty.add(key)

    def touch_all(self) -> None:
        self._dirty |= self._all

    def grow(self, names: set[str], name: str) -> None:
        """`names` (read by every function) gains `name`."""
        if name not in names:
            names.add(name)
            self.touch_all()

    def returned(self, key: str) -> None:
        self._dirty |= self._callers.get(key, set())

    def reads_confirmed(self, fn: Function | None) -> None:
        if fn is not None:
            self._confirm_readers.add(self._key(fn))

    def confirmed(self) -> None:
        self._dirty |= self._confirm_readers

    # -- one sweep -------------------------------------------------------------------------------
    def due(self, f: Function) -> bool:
        """Whether f passes now: something it reads changed since its last pass (or its key is shared)."""
        self._passing = None  # (until a pass starts: no change is known to be its own)
        if f.name not in self._live:
            return False
        k = self._key(f)
        if k in self._dirty or k in self._overloaded:
            self._dirty.discard(k)
            self._passing, self._read = k, set()
            return True
        return False

    def record(self, f: Function, found) -> None:
        """What f's pass found that a sweep collects anew (warpflow: its shuffles' masks and its
        shuffles at the wave's width), given back by replay when f does not pass again."""
        self._recorded[id(f)] = found

    def replay(self, f: Function):
        return self._recorded.get(id(f))
