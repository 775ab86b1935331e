"""The cheap gates in front of lint's costly passes (the divergence fixpoint, SY002's statement
walks) skip only code that cannot produce a finding: each case here must still be reported, each
look-alike must stay silent."""
from __future__ import annotations

from kernelport.lint.engine import lint_text


def codes(src: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint_text(src) if f.code in ("SY001", "SY002", "WS012")]


def test_a_hazard_in_the_first_of_two_same_named_functions_is_reported():
    # overloads share a name: the gate must not read "has a barrier / full-mask op" by name only
    src = """
__device__ float k(float v, int n) {
    if (threadIdx.x < n) v += __shfl_sync(0xffffffff, v, 0);
    return v;
}
__device__ float k(float v) { return v; }
__device__ void s(float* x, int n) {
    if (threadIdx.x < n) __syncthreads();
}
__device__ void s(float* x) { x[0] = 1.0f; }
"""
    assert codes(src) == [("WS012", 3), ("SY001", 8)]


def test_a_call_of_a_helper_that_holds_the_barrier_is_reported_where_it_is_called():
    src = """
__global__ void k(float* x, int n) {
    if (threadIdx.x < n) stage(x);
}
__device__ void stage(float* s) { __syncthreads(); }
"""
    assert codes(src) == [("SY001", 3)]


def test_thread_dependent_control_without_barriers_or_full_masks_is_silent():
    src = """
__device__ float half(float v) { return v * 0.5f; }
__global__ void k(float* x, int n) {
    if (threadIdx.x < n) x[threadIdx.x] = half(x[threadIdx.x]);
    for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] += __shfl_sync(__activemask(), x[i], 0);
}
"""
    assert codes(src) == []


def test_lockstep_steps_behind_nested_ifs_are_found_and_reads_alone_are_not():
    src = """
template <int N>
__global__ void k(float* y) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = y[tid];
    __syncthreads();
    if (tid < 32) {
        if (N > 16) { s[tid] += s[tid + 16]; }
        if (N > 8) { s[tid] += s[tid + 8]; }
    }
    float a = s[tid + 16], b = s[tid + 8];
    y[tid] = a + b;
}
"""
    assert codes(src) == [("SY002", 9)]
    reads_only = """
__global__ void k(float* y) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    float a = s[tid + 16];
    float b = s[tid + 8];
    y[tid] = a + b;
}
"""
    assert codes(reads_only) == []


def test_a_run_computes_only_the_divergence_outputs_its_enabled_rules_read():
    # translate's self-check selects the WS rules: the barrier hazards (SY001's) are not computed,
    # and a file with barriers but no full-mask warp operation skips the thread-tag fixpoint
    from kernelport.lint.context import Context, Settings
    from kernelport.lint.rule import TARGETS, selected
    from kernelport.lint.units import unit
    from kernelport import backends
    src = """
__global__ void k(float* x, int n) {
    if (threadIdx.x < n) __syncthreads();
    if (threadIdx.x < n) x[0] += __shfl_sync(0xffffffff, x[0], 0);
}
__global__ void b(float* x, int n) {
    if (threadIdx.x < n) __syncthreads();
}
"""

    def divergence(text, select):
        ctx = Context(unit(backends.source(), "k.cu", text), Settings(frozenset(TARGETS), selected(select)))
        return ctx.divergence

    ws = divergence(src, ["WS"])
    assert ws.barrier_hazards is None and [h.node.start_point[0] for h in ws.partial_warp_ops] == [3]
    both = divergence(src, None)
    assert [h.node.start_point[0] for h in both.barrier_hazards] == [2, 6]
    assert [h.node.start_point[0] for h in both.partial_warp_ops] == [3]
    barriers_only = src.split("__global__ void b")[0].replace("__shfl_sync(0xffffffff, x[0], 0)", "1")
    assert not divergence(barriers_only, ["WS"])._resolved  # nothing WS012 reads: no fixpoint
    assert divergence(barriers_only, None)._resolved
    assert codes(src) == [("SY001", 3), ("WS012", 4), ("SY001", 7)]


def test_only_the_comments_that_suppress_are_positioned_and_each_still_suppresses():
    from kernelport import backends
    from kernelport.lint import suppress
    from kernelport.lint.context import Context, Settings
    from kernelport.lint.rule import TARGETS, selected
    from kernelport.lint.units import unit
    src = """// a kernel
__global__ void k(float* x) {
    /* one block */
    // kernelport: ignore[WS001] rows of 32 by design
    x[threadIdx.x % 32] = 1;  // NOLINT(WS002)
    x[0] = 2;  // NOLINT(readability-x)
}
"""
    ctx = Context(unit(backends.source(), "k.cu", src), Settings(frozenset(TARGETS), selected(None)))
    asked = []
    real = ctx.position
    ctx.position = lambda b: asked.append(b) or real(b)
    sups = suppress.parse(ctx)
    assert [(s.line, s.first, s.last, s.codes, s.style) for s in sups] == [
        (4, 5, 5, ("WS001",), "kernelport"), (5, 5, 5, ("WS002",), "nolint")]
    assert len(asked) == 6  # start and end of the three that name a suppression; plain comments are not positioned


def test_the_nodes_of_several_types_under_a_node_are_its_subtree_filtered():
    from kernelport.source import SourceFile
    s = SourceFile.from_text("void f() { int a = 1; dim3 b(2, 3); a = 4; { int c = a = 5; } }\nint d = 6;\n")
    body = s.index.of_type("compound_statement")[0]
    types = ("init_declarator", "function_declarator", "assignment_expression")
    got = s.index.under_types(body, *types)
    assert got == [n for n in s.index.subtree(body) if n.type in types]
    assert [s.text_of(n) for n in got] == ["a = 1", "b(2, 3)", "a = 4", "c = a = 5", "a = 5"]
