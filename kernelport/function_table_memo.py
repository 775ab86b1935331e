"""Per-model tables read from its function table, kept while that table holds the same functions.

A per-file table that per-function asks read (fold_levels' helpers by name for each function it follows,
shufflewrappers' wrappers) made a file's cost its size squared when each ask listed every function again.
It is kept on the model with the function table it was read from: the same dict object, the same names in
the same order, each the same Function object (a translator that takes a function out of its own copy of the
model, or puts another in under a name, is read again).  The check is a C-speed comparison of identities."""
from __future__ import annotations

from operator import is_
from typing import Callable, TypeVar

T = TypeVar("T")


def kept(module, name: str, make: Callable[[object], T]) -> T:
    """make(module), once per model while its function table is unchanged (see the module's docstring);
    `name`: the table's key on the model.  The answer is shared: read-only."""
    fs = module.functions
    memo = module.__dict__.setdefault("_kp_function_tables", {})
    got = memo.get(name)
    if got is not None and got[0] is fs and len(got[1]) == len(fs) and list(fs) == got[2] and \
            all(map(is_, fs.values(), got[1])):
        return got[3]
    answer = make(module)
    memo[name] = (fs, list(fs.values()), list(fs), answer)
    return answer
