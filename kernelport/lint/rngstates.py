"""A random-number state seeded in each thread is as thread-dependent as its seed.

`curand_init(seed, threadIdx.x, 0, &st)` gives every thread its own sequence, so
`if (curand_uniform(&st) < p) { __syncthreads(); }` is a barrier some threads skip; rtp-llm's
sampling kernels seed one state per block (`curand_init(seed[bx], bx, off[bx], &st)`): the draws
are the same in every thread and the barrier under them is fine.  A call of dialect.RNG_INITS
writes its state argument (through `&st`, `&st[i]` or a pointer `p`) with the join of its other
arguments' tags (and of the control it runs under: Divergence._store).  A draw (`curand(&st)`,
`curand_normal`, `hiprand_uniform`, ...) is no concept of the dialect, so its tag is already the
join of its arguments', the state's among them; as the draw advances the state with itself, the
state keeps its tag.  `&st` spoils `st` for overwrites.py: every read takes the joined tag.
"""
from __future__ import annotations

from .. import dialect
from .tags import UNIFORM


def init(d, name: str, args: list, tags: list[int], frames) -> None:
    """Where `name(args)` seeds an RNG state, bind the state to the join of the other arguments' tags."""
    at = dialect.RNG_INITS.get(name)
    if at is None or not args or not -len(args) <= at < len(args):
        return
    at %= len(args)
    state = args[at]
    while state.type == "parenthesized_expression" and state.named_child_count == 1:
        state = state.named_children[0]
    if state.type == "pointer_expression" and d.src.text_of(state.child_by_field_name("operator")) == "&":
        state = state.child_by_field_name("argument")  # `&st`, `&st[i]`, `&s.rng`: the state itself
    d._store(state, max((t for i, t in enumerate(tags) if i != at), default=UNIFORM), frames)
