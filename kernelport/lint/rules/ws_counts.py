"""WS rule on a block's wave count (`blockDim.x / warpSize`) for blocks that are not whole waves.

llm.c's matmul_backward_bias_kernel4 steps its rows by `vstep = blockDim.x / warpSize` and its
test launches it with blocks of 32 to 1024 threads: on a 64-lane wave the 32-thread block's `vstep`
is 0 and the loop never ends (found by verify's differential oracle, stop 36).  Beside it,
`wave_tiled_kernels`: kernels whose block owns `blockIdx.x * warpSize` elements, which WS015 reads
(the same kernel's grid is `OC / 32` blocks: twice the blocks a 64-lane wave needs, half of them
past the data).
"""
from __future__ import annotations

from tree_sitter import Node

from ... import dialect
from ...blocksizes import partial_wave_block, reads_builtin
from ..rule import Rule, ex, register


def _wave_names(ctx) -> set[str]:
    """Names whose value is the run-time wave width: `warpSize` and macros that are it."""
    ws = dialect.concept("warp_size").spelling(ctx.lang) or "warpSize"
    names = {ws}
    vis = ctx.module.visible
    for macros in (ctx.module.macros, vis.macros if vis is not None else {}):
        names |= {m.name for m in macros.values() if m.value.strip().strip("()").strip() == ws}
    return names


def _is_wave(ctx, n: Node | None, names: set[str]) -> bool:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n is not None and n.type == "identifier" and ctx.text(n) in names


def wave_tiled_kernels(ctx) -> set[str]:
    """Keys of kernels whose block owns a wave's width of elements (`blockIdx.x * warpSize`): how many
    blocks the host needs depends on the device's wave width."""
    names, out = _wave_names(ctx), set()
    for f in ctx.module.kernels:
        for b in ctx.src.index.under(f.body, "binary_expression"):
            if ctx.text(b.child_by_field_name("operator")) != "*":
                continue
            l, r = b.child_by_field_name("left"), b.child_by_field_name("right")
            if (_is_wave(ctx, r, names) and reads_builtin(ctx.src, l, "block_idx", ctx.lang)) or \
                    (_is_wave(ctx, l, names) and reads_builtin(ctx.src, r, "block_idx", ctx.lang)):
                out.add(ctx.key(f))
                break
    return out


@register
class WaveCountTruncates(Rule):
    code, name = "WS031", "wave-count-of-partial-block"
    summary = "A block's wave count `blockDim.x / warpSize` is 0, or drops a partial wave, for a block size the host launches."
    docs = """\
`int nwarps = blockDim.x / warpSize;` counts the block's waves only when the block is a whole
number of waves.  A block of 32 threads is one NVIDIA warp and one RDNA or Apple SIMD-group, but
half a 64-lane CDNA wave: the count is 0, so a loop stepping by it never ends, a loop bounded by it
never runs (the block's partial sums are dropped), and a division by it is undefined.  A block of
96 threads counts 1 wave of 64 where 2 run.

Reported at the division when a launch of the kernel in the file may have such a block: a literal
or constant block size, a host local, a dim3, an element of a block-size list the host sweeps
(`int block_sizes[] = {32, 64, 128}`), or a parameter of the launching function followed through
its callers.  A kernel whose launches are all whole 64-lane waves (128, 256, 1024 threads), or
whose block size the file does not say, stays silent.

**Fix**: launch whole waves (a multiple of the device's wave width: query it on the host), or
count partial waves too: `(blockDim.x + warpSize - 1) / warpSize`, with the last wave's missing
lanes masked."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
__global__ void col_sum(float* out, const float* x, int rows) {
    extern __shared__ float smem[];
    const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
    const int vstep = blockDim.x / warpSize;  // !
    float s = 0.0f;
    for (int r = warp; r < rows; r += vstep) s += x[r * warpSize + lane];
    smem[threadIdx.x] = s;
}
void run(float* out, const float* x, int rows, int block_size) {
    col_sum<<<1, block_size, block_size * sizeof(float)>>>(out, x, rows);
}
int main() {
    int block_sizes[] = {32, 64, 128, 256};
    for (int j = 0; j < 4; j++) run(0, 0, 64, block_sizes[j]);
}""", note="the 32-thread block's step is 0 on a 64-lane wave: the loop never ends"),
        ex("""
__global__ void block_sum(const float* x, float* out) {
    __shared__ float part[32];
    int nwarps = blockDim.x / warpSize;  // !
    if (threadIdx.x < nwarps) out[blockIdx.x] += part[threadIdx.x];
}
void launch(const float* x, float* out) {
    dim3 block(96, 1);
    block_sum<<<8, block>>>(x, out);
}""", note="96 threads are 1 wave of 64 by this count, where 2 run"),
    )
    passes = (
        ex("""
__global__ void block_sum(const float* x, float* out) {
    __shared__ float part[32];
    int nwarps = blockDim.x / warpSize;
    if (threadIdx.x < nwarps) out[blockIdx.x] += part[threadIdx.x];
}
void launch(const float* x, float* out) {
    block_sum<<<8, 256>>>(x, out);
}""", note="256 threads: 4 waves of 64, 8 of 32"),
        ex("""
__global__ void block_sum(const float* x, float* out, int n) {
    int nwarps = blockDim.x / warpSize;
    for (int i = threadIdx.x / warpSize; i < n; i += nwarps) out[i] = x[i];
}
void launch(const float* x, float* out, int n, int threads) {
    block_sum<<<8, threads>>>(x, out, n);
}""", note="the block size is the caller's: the file does not say it"),
        ex("""
__global__ void rows(const float* x, float* out) {
    int nrows = blockDim.x / 32;
    out[blockIdx.x] = x[threadIdx.x % nrows];
}
void launch(const float* x, float* out) {
    rows<<<8, 32>>>(x, out);
}""", note="rows of 32 threads, not waves: WS003's question, not this rule's"),
    )

    def check(self, ctx) -> None:
        wide = ctx.widest_wave
        if wide <= 32:
            return
        names = _wave_names(ctx)
        for f in ctx.module.kernels:
            divs = [b for b in ctx.src.index.under(f.body, "binary_expression")
                    if ctx.text(b.child_by_field_name("operator")) == "/"
                    and _is_wave(ctx, b.child_by_field_name("right"), names)
                    and reads_builtin(ctx.src, b.child_by_field_name("left"), "block_dim", ctx.lang) and not ctx.guarded(b)]
            if not divs:
                continue
            bad = partial_wave_block(ctx.module, f, wide)
            if bad is None:
                continue
            v, at = bad
            what = (f"is 0 for the {v}-thread block" if v < wide
                    else f"counts {v // wide} where {-(-v // wide)} run for the {v}-thread block")
            for d in divs:
                ctx.report(self, d, f"this wave count `{' '.join(ctx.text(d).split())}` {what} a launch may have "
                           f"{ctx.breaks}: a block of {v} threads is not a whole {wide}-lane wave; launch whole waves "
                           f"(a multiple of the device's wave width) or count the partial wave, "
                           f"`(blockDim.x + {ctx.wave.strip('`')} - 1) / {ctx.wave.strip('`')}`",
                           related=(ctx.related(at, f"a block of {v} threads", site=True),))
