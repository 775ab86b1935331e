"""WS033: a launch whose block is sized from the device's warp size, into a kernel whose shared arrays
indexed by the thread (or its 32-lane warp) hold a fixed count (heldout49: ala_rtree's R-tree search launches
`prop.warpSize * 2` threads, kept in a global, into kernels with `__shared__ coord nd_x1[64]` indexed by
`threadIdx.x`: 64 threads on NVIDIA, 128 on a 64-lane wave, which write past the arrays' ends)."""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import cexpr, dialect
from ...source import walk
from ..rule import Rule, ex, register

_CHAIN = 4  # names copied from names: `ws = prop.warpSize; m_block = ws * 2;`


class _WaveValues:
    """The file's names assigned from the device's warp size (`m_warp_size2 = prop.warpSize * 2`, in
    any function or at file scope) and what an expression over them is for a given wave width."""

    def __init__(self, ctx):
        self.ctx, self.word = ctx, dialect.concept("warp_size").spelling(ctx.lang)
        self.values: dict[str, list[Node]] = {}  # name -> the values assigned to it that read the wave
        pairs = [p for p in _assignments(ctx, ctx.src.root)]
        for _ in range(_CHAIN):
            grown = False
            for name, value in pairs:
                if self._reads_wave(value) and value not in self.values.setdefault(name, []):
                    self.values[name].append(value)
                    grown = True
            if not grown:
                break
        self.values = {k: v for k, v in self.values.items() if v}

    def _reads_wave(self, node: Node) -> bool:
        return any(self._wave_field(n) or n.type == "identifier" and self.ctx.text(n) in self.values
                   for n in walk(node, lambda n: True))

    def _wave_field(self, n: Node) -> bool:
        return n.type == "field_expression" and self.ctx.text(n.child_by_field_name("field")) == self.word

    def at(self, node: Node, wave: int, depth: int = 0) -> int | None:
        """`node`'s value where the device's warp size is `wave` (None: not known from the file)."""
        if depth > _CHAIN:
            return None
        if self._wave_field(node):
            return wave
        if node.type == "identifier":
            got = {self.at(v, wave, depth + 1) for v in self.values.get(self.ctx.text(node), [])}
            if not got:  # a count of the file's (`#define WARPS 4`): the same at every width
                return _number(self.ctx, self.ctx.text(node))
            return got.pop() if len(got) == 1 else None
        if node.type == "number_literal":
            try:
                return int(cexpr.evaluate(self.ctx.text(node), {}))
            except (cexpr.CExprError, ValueError, TypeError):
                return None
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            return self.at(node.named_children[0], wave, depth)
        if node.type == "binary_expression":
            a, b = node.child_by_field_name("left"), node.child_by_field_name("right")
            va = self.at(a, wave, depth) if a is not None else None
            vb = self.at(b, wave, depth) if b is not None else None
            op = self.ctx.text(node.child_by_field_name("operator"))
            if va is None or vb is None or op not in ("*", "+", "-", "/", "<<"):
                return None
            try:
                return int(cexpr.evaluate(f"{va} {op} {vb}", {}))
            except (cexpr.CExprError, ValueError, TypeError):
                return None
        return None


def _number(ctx, text: str) -> int | None:
    """`text`'s value over the file's numeric object-like macros (`WARPS` of `#define WARPS 4`), None: not a
    constant of the file."""
    names = {}
    for m in ctx.module.macros.values():
        try:
            names[m.name] = int(cexpr.evaluate(m.value, {}))
        except (cexpr.CExprError, ValueError, TypeError):
            continue
    try:
        return int(cexpr.evaluate(text, names))
    except (cexpr.CExprError, ValueError, TypeError):
        return None


def _assignments(ctx, scope: Node):
    """(name, value) of each `T name = value` and `name = value` under scope."""
    for n in walk(scope, lambda n: True):
        if n.type == "init_declarator":
            left, right = n.child_by_field_name("declarator"), n.child_by_field_name("value")
        elif n.type == "assignment_expression" and ctx.text(n.child_by_field_name("operator")) == "=":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        else:
            continue
        if left is not None and left.type == "identifier" and right is not None:
            yield ctx.text(left), right


def _x(ctx, node: Node) -> Node | None:
    """The x extent of a block given as `dim3(x, ...)`, `{x, ...}`, `(x, ...)` or a scalar."""
    if node.type == "call_expression" and ctx.text(node.child_by_field_name("function")) == "dim3":
        node = node.child_by_field_name("arguments")
    if node is not None and node.type in ("argument_list", "initializer_list"):
        return node.named_children[0] if node.named_child_count else None
    return node


def _blocks(ctx, launch) -> list[Node]:
    """The x extents a launch's block may have: its block argument, or each value the launching
    function gives the variable it names (`dim3 block(m_warp_size2, 1, 1)`, `block = dim3(...)`)."""
    if len(launch.config) < 2:
        return []
    block = launch.config[1]
    if block.type != "identifier":
        return [x for x in (_x(ctx, block),) if x is not None]
    f = ctx.function_at(launch.node)
    if f is None:
        return [block]
    name = ctx.text(block)
    got = [x for n, v in _assignments(ctx, f.body) if n == name and (x := _x(ctx, v)) is not None]
    for d in walk(f.body, lambda n: True):  # `dim3 block(x, 1, 1)`: a declarator with arguments
        if d.type == "init_declarator" and ctx.text(d.child_by_field_name("declarator")) == name and \
                d.child_by_field_name("value") is None:
            args = next((c for c in d.children if c.type == "argument_list"), None)
            if args is not None and (x := _x(ctx, args)) is not None:
                got.append(x)
    return got or [block]


def _thread_indexed(ctx, body: Node, name: str, per: int = 1) -> Node | None:
    """The first `name[threadIdx.x]` in body (or through a local copied from threadIdx.x); `per` 32: the
    first `name[threadIdx.x / 32]` (`>> 5`, or a local copied from it: the thread's 32-lane warp)."""
    tid = dialect.concept("thread_idx").spelling(ctx.lang)
    forms = {f"{tid}.x"} if per == 1 else {f"{tid}.x/32", f"{tid}.x>>5", f"({tid}.x)/32", f"({tid}.x)>>5"}
    copies = {n for n, v in _assignments(ctx, body) if ctx.text(v).replace(" ", "").strip("()") in forms}
    for n in walk(body, lambda n: True):
        if n.type != "subscript_expression" or ctx.text(n.child_by_field_name("argument")) != name:
            continue
        idx = n.child_by_field_name("indices") or n.child_by_field_name("index")
        text = ctx.text(idx).strip("[] ").replace(" ", "") if idx is not None else ""
        if text in forms or text in copies:
            return n
    return None


@register
class BlockFromDeviceWarpSize(Rule):
    code, name = "WS033", "block-from-device-warp-size"
    summary = "A block sized from the device's warp size runs a kernel whose shared arrays hold a fixed count of threads."
    docs = """\
Host code that asks the device for its warp size and sizes a launch's block from it
(`m_warp_size2 = prop.warpSize * 2; ... k<<<grid, dim3(m_warp_size2, 1, 1)>>>`), where the kernel keeps a
`__shared__` array of a fixed count indexed by the thread (`__shared__ float s[64]; s[threadIdx.x] = ...`):
the array holds the block on 32-lane warps (64 threads) and not on a 64-lane wave (128 threads), whose
threads 64.. write past its end into the other shared arrays.  The same for a per-warp array indexed by the
thread's 32-lane warp (`__shared__ float part[4]; part[threadIdx.x / 32] = ...` under a block of
`4 * prop.warpSize`: warps 4..7 of the 256 threads a 64-lane wave gets write past it).

**Fix**: size the block and the array from one constant (`#define BLOCK 64`), or the array from the
largest block (`2 * 64`).  A block from a literal, an array as large as the block on every wave, and an
array indexed by something other than the thread stay silent."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
int m_block = 64;
__global__ void search(const float* x, float* out) {
    __shared__ float s[64];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
void init(int dev) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, dev);
    m_block = prop.warpSize * 2;
}
void run(const float* x, float* out) {
    dim3 block = dim3(m_block, 1, 1);
    search<<<1, block>>>(x, out);  // !
}"""),
        ex("""
#define WARPS 4
__global__ void sums(const float* x, float* out) {
    __shared__ float part[WARPS];
    int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0) part[warp] = x[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[0] = part[0] + part[WARPS - 1];
}
void run(const float* x, float* out, const cudaDeviceProp& prop) {
    dim3 block(WARPS * prop.warpSize);
    sums<<<1, block>>>(x, out);  // !
}"""),
    )
    passes = (
        ex("""
__global__ void search(const float* x, float* out) {
    __shared__ float s[128];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
void run(const float* x, float* out, const cudaDeviceProp& prop) {
    search<<<1, prop.warpSize * 2>>>(x, out);
}"""),
        ex("""
__global__ void search(const float* x, float* out) {
    __shared__ float s[64];
    s[threadIdx.x] = x[threadIdx.x];
    out[threadIdx.x] = s[threadIdx.x];
}
void run(const float* x, float* out) {
    search<<<1, 64>>>(x, out);
}"""),
        ex("""
#define WARPS 4
__global__ void sums(const float* x, float* out) {
    __shared__ float part[WARPS];
    int warp = threadIdx.x / warpSize;
    if (threadIdx.x % warpSize == 0) part[warp] = x[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[0] = part[0] + part[WARPS - 1];
}
void run(const float* x, float* out, const cudaDeviceProp& prop) {
    dim3 block(WARPS * prop.warpSize);
    sums<<<1, block>>>(x, out);
}"""),
    )

    def check(self, ctx) -> None:
        word = dialect.concept("warp_size").spelling(ctx.lang)
        if not ctx.module.launches or re.search(rf"(\.|->)\s*{word}\b", ctx.src.text) is None:
            return  # (no launch, or no device-properties field of the warp size: one search, no walk)
        waves = _WaveValues(ctx)
        for launch in ctx.module.launches:
            sizes = [(x, waves.at(x, 32), waves.at(x, 64)) for x in _blocks(ctx, launch)]
            sizes = [(x, a, b) for x, a, b in sizes if a is not None and b is not None and a != b]
            if not sizes:
                continue
            x, at32, at64 = max(sizes, key=lambda s: s[2])
            for key in ctx.launched(launch):
                f = ctx.function_of(key)
                if f is None or not f.is_kernel:
                    continue
                for sa in ctx.module.shared:
                    if sa.dynamic or len(sa.dims) != 1 or not f.body.start_byte <= sa.node.start_byte < f.body.end_byte:
                        continue
                    count = _number(ctx, ctx.text(sa.dims[0]))
                    if count is None:
                        continue
                    per = next((p for p in (1, 32) if at32 <= count * p < at64 and _thread_indexed(ctx, f.body, sa.name, p)),
                               None)  # a slot per thread, or per 32-lane warp (`slots[threadIdx.x / 32]`)
                    if per is None:
                        continue
                    use, who = _thread_indexed(ctx, f.body, sa.name, per), "threads" if per == 1 else "32-lane warps"
                    ctx.report(self, launch.config[1],
                               f"the block is sized from the device's warp size (`{ctx.text(x)}`: {at32} threads on "
                               f"32-lane warps, {at64} on a 64-lane wave) and '{f.name}' indexes `{sa.name}[{count}]` "
                               f"by the thread{'' if per == 1 else chr(39) + 's 32-lane warp'}: {ctx.breaks}, {who} "
                               f"{count}.. write past its end; size the block and the array from one constant",
                               related=(ctx.related(use, f"`{sa.name}` holds {count} {who}"),))
                    break
