"""cub's (hipCUB's) BlockReduce over the whole block, lowered to what it computes (hecbench's
accuracy, all-pairs-distance and gd kernels):

    typedef cub::BlockReduce<T, BLOCK_DIM_X[, ALGORITHM, BLOCK_DIM_Y, BLOCK_DIM_Z]> BR;
    __shared__ typename BR::TempStorage tmp;          ->  __shared__ T tmp[X * Y * Z];
    BR(tmp).Sum(v)  /  .Sum(v, num_valid)              ->  __kp_cub_block_sum<T>(v, tmp, n)
    BR(tmp).Reduce(v, cub::Max()) (Sum, Min)[, num_valid]

The helper (a template item the front end instantiates with the caller's T): each thread stores its
value at its rank in the block, a barrier, each folds the first n values in rank order, a barrier.
The aggregate is cub's in thread 0; cub leaves the other threads' undefined, so here they get a
poison (a NaN, or 0xDEADBEEF for an integer T): a port that reads it in another thread is caught.
The namespace is the backend's `Lowering.cub_namespaces` (the original's `cub`, a HIP port's
`hipcub`: the same lowering for both).  Other uses (BlockScan, a typedef this does not read, an
operator object of the file's own) are left as written: the parse then says where.
"""
from __future__ import annotations

import re

from ... import dialect
from ...cexpr import split_top_level
from .items import Item, balanced

_OPS = {"Sum": "a + b", "Max": "a < b ? b : a", "Min": "b < a ? b : a"}
# What every thread but the first gets: cub defines the aggregate in thread 0 only.  A value no sum
# of the inputs looks like (a NaN where T is floating, 0xDEADBEEF's bits where it is an integer), so
# that a port reading the aggregate in another thread differs from the original that does not.
_POISON = ("    T u = (T)-559038737;\n"
           "    if ((T)0.5 != (T)0) u = (T)(1e999f * 0.0f);\n")


class BlockReduce:
    """One backend's spellings of the helpers' block index, size and barrier, and the helpers made."""

    def __init__(self, backend: str, namespaces: tuple[str, ...]):
        self.backend = backend
        self.ns = "|".join(map(re.escape, namespaces))
        self.helpers: dict[str, str] = {}  # name -> template definition

    def helper(self, op: str) -> str:
        name = f"__kp_cub_block_{op.lower()}"
        if name not in self.helpers:
            t, d = (dialect.concept(k).name(self.backend) for k in ("thread_idx", "block_dim"))
            sync = dialect.render(dialect.concept("syncthreads"), self.backend, {})
            rank = f"{t}.x + {d}.x * ({t}.y + {d}.y * {t}.z)"
            self.helpers[name] = (
                f"T {name}(T v, T* tmp, int n) {{\n"
                f"    int rank = {rank};\n    tmp[rank] = v;\n    {sync};\n"
                f"    T s = tmp[0];\n    for (int i = 1; i < n; ++i) {{ T a = s; T b = tmp[i]; s = {_OPS[op]}; }}\n"
                f"    {sync};\n    if (rank == 0) return s;\n{_POISON}    return u;\n}}\n")
        return name

    def items(self, path: str) -> list[Item]:
        """The helpers made, as template items (T: the element type a call names)."""
        return [Item(text, path, 1, "device", name, [("type", "T", None)]) for name, text in self.helpers.items()]


def lower_block_reduce(text: str, br: BlockReduce) -> str:
    """One item's BlockReduce typedefs, temp storage and reductions."""
    typedef = re.compile(rf"\btypedef\s+(?:typename\s+)?(?:::\s*)?(?:{br.ns})\s*::\s*BlockReduce\s*<")
    types: dict[str, tuple[str, str]] = {}  # alias -> (T, threads)
    out, pos = [], 0
    for m in typedef.finditer(text):
        end = balanced(text, m.end() - 1, "<", ">")
        alias = re.match(r"\s*([A-Za-z_]\w*)\s*;", text[end:])
        args = [a for a, _ in split_top_level(text[m.end(): end - 1], brackets="(<[{")]
        if alias is None or not 2 <= len(args) <= 5 or len(args) == 4:
            continue
        dims = [args[1]] + args[3:]
        types[alias.group(1)] = (args[0], " * ".join(f"({d})" for d in dims))
        stop = end + alias.end()
        out.append(text[pos: m.start()] + re.sub(r"[^\n]", " ", text[m.start(): stop]))
        pos = stop
    if not types:
        return text
    text = "".join(out) + text[pos:]
    names = "|".join(map(re.escape, types))
    storage = re.compile(rf"(?:\btypename\s+)?\b({names})\s*::\s*TempStorage\s+([A-Za-z_]\w*)")
    text = storage.sub(lambda m: f"{types[m.group(1)][0]} {m.group(2)}[{types[m.group(1)][1]}]", text)
    call = re.compile(rf"\b({names})\s*\(\s*([A-Za-z_]\w*)\s*\)\s*\.\s*(Sum|Reduce)\s*\(")
    op_obj = re.compile(rf"\s*(?:(?:::\s*)?(?:{br.ns})\s*::\s*)(Sum|Max|Min)\s*(?:\(\s*\)|\{{\s*\}})\s*")
    pos = 0
    while (m := call.search(text, pos)) is not None:
        end = balanced(text, m.end() - 1)
        args = [a for a, _ in split_top_level(text[m.end(): end - 1], brackets="(<[{")]
        op = "Sum" if m.group(3) == "Sum" else None
        if m.group(3) == "Reduce" and len(args) >= 2 and (o := op_obj.fullmatch(args[1])):
            op, args = o.group(1), [args[0]] + args[2:]
        if op is None or not 1 <= len(args) <= 2:
            pos = m.end()
            continue
        t, n = types[m.group(1)]
        new = f"{br.helper(op)}<{t}>({args[0]}, {m.group(2)}, {args[1] if len(args) == 2 else n})"
        text = text[: m.start()] + new + text[end:]
        pos = m.start() + len(new)
    return text
