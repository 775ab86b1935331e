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


_GUARDED = "    if (kind == kWarp) {\n        warp<<<blocks, threads>>>(x);\n    }"


def _body(text: str) -> str:
    return RUN.replace(_GUARDED, text + "\n    if (0) {\n    }")


def test_a_guard_on_another_variable_of_the_name_rules_out_nothing():
    # the tested `kind` is a block's local or a lambda's parameter: the warp kernel runs at 1 thread too
    local = _body("    {\n        Kind kind = threads < 64 ? kWarp : kPlain;\n"
                  "        if (kind == kWarp) {\n            warp<<<blocks, threads>>>(x);\n        }\n    }")
    assert _sizes(local)["warp"] == [1, 128]
    lam = _body("    auto go = [&](Kind kind) {\n        if (kind == kWarp) {\n            warp<<<blocks, threads>>>(x);\n"
                "        }\n    };\n    go(kWarp);")
    assert _sizes(lam)["warp"] == [1, 128]
    # look-alike: a local of another name leaves the parameter's guard as it was
    other = _body("    {\n        Kind k2 = threads < 64 ? kWarp : kPlain;\n"
                  "        if (kind == kWarp && k2 == kWarp) {\n            warp<<<blocks, threads>>>(x);\n        }\n    }")
    assert _sizes(other)["warp"] == [128]


def test_a_parameter_a_callee_may_write_or_a_narrow_type_rules_out_nothing():
    pick = "void pick(Kind& k, int t) { if (t < 64) k = kWarp; }\nvoid run"
    byref = RUN.replace("void run", pick).replace("    if (kind == kWarp)", "    pick(kind, threads);\n    if (kind == kWarp)")
    assert _sizes(byref)["warp"] == [1, 128]
    unknown = RUN.replace("    if (kind == kWarp)", "    configure(kind);\n    if (kind == kWarp)")
    assert _sizes(unknown)["warp"] == [1, 128]  # a callee the file does not define may take a reference
    # look-alike: a callee of the file that takes it by value changes nothing
    show = RUN.replace("void run", "const char* show(Kind k) { return k == kWarp ? \"w\" : \"p\"; }\nvoid run").replace(
        "    if (kind == kWarp)", "    show(kind);\n    if (kind == kWarp)")
    assert _sizes(show)["warp"] == [128]
    # a bool parameter is true for 2, which `kind == 1` passes: the 2's call keeps its sizes
    flag = RUN.replace("Kind kind", "bool kind").replace("kind == kWarp", "kind == 1").replace(
        "run(x, 1, 1, kPlain);", "run(x, 1, 1, 0);").replace("run(x, 8, 128, kWarp);", "run(x, 8, 128, 2);")
    assert _sizes(flag)["warp"] == [1, 128]
    assert _sizes(flag.replace("bool kind", "int kind"))["warp"] == []  # an int 2 is not 1: no call runs it


def test_a_shadowed_guard_keeps_the_32_thread_block_of_a_warp_count():
    # `blockDim.x / 32` of a kernel a 32-thread block runs (the guard tests a local, not the parameter): on
    # main the call was ruled out and the port counted `blockDim.x / warpSize` = 0 waves at wave 64
    from kernelport.translate import translate
    red = """\
enum Kind { kPlain = 0, kWarp = 1 };
__global__ void bsum(const float* in, float* out) {
    __shared__ float part[32];
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    if (lane == 0) part[w] = v;
    __syncthreads();
    int nw = blockDim.x / 32;
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int i = 0; i < nw; ++i) s += part[i];
        out[blockIdx.x] = s;
    }
}
void run(const float* in, float* out, int blocks, int threads, Kind kind) {
    {
        Kind kind = threads < 64 ? kWarp : kPlain;
        if (kind == kWarp) {
            bsum<<<blocks, threads>>>(in, out);
        }
    }
}
int main() {
    run(0, 0, 1, 32, kPlain);
    run(0, 0, 8, 128, kPlain);
    return 0;
}
"""
    _, out = translate(SourceFile.from_text(red, "t.cu"), "hip")
    assert "blockDim.x / warpSize" not in out and "KP_WAVE_SIZE" not in out
    # look-alike: the guard on the parameter itself rules the 32-thread call out; the 128-thread one is whole waves
    _, plain = translate(SourceFile.from_text(red.replace("        Kind kind = threads < 64 ? kWarp : kPlain;\n", "").replace(
        "run(0, 0, 8, 128, kPlain);", "run(0, 0, 8, 128, kWarp);"), "t.cu"), "hip")
    assert "blockDim.x / warpSize" in plain


def test_a_typedef_enum_parameter_is_ruled_on_as_an_enum():
    typed = RUN.replace("enum Kind { kPlain = 0, kWarp = 1 };", "typedef enum { kPlain = 0, kWarp = 1 } Kind;")
    assert _sizes(typed)["warp"] == [128]
    # look-alike: a typedef of bool named so rules out nothing (true for every nonzero argument)
    flag = RUN.replace("enum Kind { kPlain = 0, kWarp = 1 };", "typedef bool Kind;\nenum { kPlain = 0, kWarp = 1 };")
    assert _sizes(flag)["warp"] == [1, 128]
