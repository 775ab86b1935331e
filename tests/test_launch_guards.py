"""Call-site block sizes less the calls that make a guard of the launch false (kernelport/launchguards.py).

heldout80's CUDA-MCGS prototype runs one of two kernels from `run_case(..., int threads, ..., SchedulerKind s)`:
`if (s == kWarpTicketBatch) warp_kernel<<<blocks, threads>>>(...)`, called with `(1, kGlobalTicket)` for a serial
baseline and `(128, kWarpTicketBatch)`; the 1-thread block is not the warp kernel's (WS015 reported it).  A call
is ruled out only where its argument is a constant of another value than the guard's (enumerators, literals);
a variable argument, a `!=` test, an `else` branch and a parameter the function assigns rule out nothing.
"""
from __future__ import annotations

from kernelport.blocksizes import launch_block_sizes
from kernelport.lint.engine import lint_text
from kernelport.model import build
from kernelport.source import SourceFile

RUN = """\
enum Kind { kPlain = 0, kWarp = 1 };
__global__ void plain(int* x) { x[threadIdx.x] = 1; }
__global__ void warp(int* x) {
    int v = __shfl_down_sync(0xffffffffu, x[threadIdx.x], 1);
    if ((threadIdx.x & (warpSize - 1)) == 0) x[threadIdx.x] = v;
}
void run(int* x, int blocks, int threads, Kind kind) {
    if (kind == kWarp) {
        warp<<<blocks, threads>>>(x);
    } else {
        plain<<<blocks, threads>>>(x);
    }
}
int main() {
    int* x = 0;
    run(x, 1, 1, kPlain);
    run(x, 8, 128, kWarp);
    return 0;
}
"""


def _sizes(text: str) -> dict[str, list[int]]:
    m = build(SourceFile.from_text(text, "t.cu"))
    return {la.kernel: sorted(v for v, _ in launch_block_sizes(m, la)) for la in m.launches}


def test_a_call_that_fails_the_guard_gives_no_size():
    assert _sizes(RUN) == {"warp": [128], "plain": [1, 128]}
    assert _sizes(RUN.replace("kind == kWarp", "kWarp == kind")) == {"warp": [128], "plain": [1, 128]}
    lit = RUN.replace("Kind kind", "int kind").replace("kind == kWarp", "kind == 1").replace("kPlain);", "0);")
    assert _sizes(lit)["warp"] == [128]


def test_look_alikes_keep_every_size():
    # a variable argument, a `!=` test, a parameter the function assigns, an enumerator two enums define
    var = RUN.replace("run(x, 1, 1, kPlain);", "Kind k = kPlain; run(x, 1, 1, k);")
    assert _sizes(var)["warp"] == [1, 128]
    ne = RUN.replace("kind == kWarp) {\n        warp", "kind != kPlain) {\n        warp")
    assert _sizes(ne)["warp"] == [1, 128]
    assigned = RUN.replace("    if (kind == kWarp)", "    kind = kWarp;\n    if (kind == kWarp)")
    assert _sizes(assigned)["warp"] == [1, 128]
    twice = RUN.replace("enum Kind { kPlain = 0, kWarp = 1 };", "enum Kind { kPlain = 0, kWarp = 1 };\nenum Other { kWarp2, kPlain2 };")
    assert _sizes(twice)["warp"] == [128]  # distinct names: still constants
    dup = "namespace a { enum E { kPlain = 5 }; }\n" + RUN
    assert _sizes(dup)["warp"] == [1, 128]  # kPlain is 0 in one enum, 5 in another: no constant


def test_ws015_reads_the_guarded_sizes():
    codes = [f.code for f in lint_text(RUN, "t.cu")]
    assert "WS015" not in codes
    assert "WS015" in [f.code for f in lint_text(RUN.replace("run(x, 8, 128, kWarp);", "run(x, 8, 16, kWarp);"), "t.cu")]
