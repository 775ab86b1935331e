"""Warpflow follows a lane index from `threadIdx.x % 32` to a warp-level use through every form
of assignment, and leaves the same arithmetic alone when it only addresses data.

Each form has a pair: the hazard (the value reaches a shuffle's source lane: at 64 lanes lanes
32-63 would read the first half) must become `% warpSize` / `& (warpSize - 1)` in the HIP port;
its look-alike (the same value only indexes memory, a 32-wide tile) must stay as written."""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from port_support import ported

HEAD = "__global__ void k(const float* x, float* out) {\n    float v = x[threadIdx.x];\n"
TAIL = "    out[threadIdx.x + 64] = v;\n}\n"
SINK = "    v = __shfl_sync(0xffffffff, v, {e});\n"
STORE = "    out[{e}] = v;\n"

# form: (text before the kernel, statements that compute {n}, the expression reaching the use,
#        the line that must be rewritten, what it must become)
FORMS = {
    "declaration": ("", "    int {n} = threadIdx.x % 32;\n", "{n} + 1",
                    "int {n} = threadIdx.x % 32;", "int {n} = threadIdx.x % warpSize;"),
    "assignment": ("", "    int {n};\n    {n} = threadIdx.x % 32;\n", "{n} + 1",
                   "{n} = threadIdx.x % 32;", "{n} = threadIdx.x % warpSize;"),
    "compound_mod": ("", "    int {n} = threadIdx.x;\n    {n} %= 32;\n", "{n} + 1",
                     "{n} %= 32;", "{n} %= warpSize;"),
    "compound_add": ("", "    int {n} = 1;\n    {n} += threadIdx.x % 32;\n", "{n}",
                     "{n} += threadIdx.x % 32;", "{n} += threadIdx.x % warpSize;"),
    "post_increment": ("", "    int {n} = threadIdx.x & 31;\n    int {n}2 = {n}++;\n", "{n}2",
                       "int {n} = threadIdx.x & 31;", "int {n} = threadIdx.x & (warpSize - 1);"),
    "pre_increment": ("", "    int {n} = threadIdx.x & 31;\n    int {n}2 = ++{n};\n", "{n}2",
                      "int {n} = threadIdx.x & 31;", "int {n} = threadIdx.x & (warpSize - 1);"),
    "xor_partner": ("", "    int {n} = threadIdx.x % 32;\n", "{n} ^ 1",
                    "int {n} = threadIdx.x % 32;", "int {n} = threadIdx.x % warpSize;"),
    "helper_return": ("__device__ int {n}_id() {{ return threadIdx.x % 32; }}\n", "", "{n}_id() + 1",
                      "return threadIdx.x % 32;", "return threadIdx.x % warpSize;"),
    "reference_out_parameter": ("__device__ void {n}_of(int& r) {{ r = threadIdx.x % 32; }}\n",
                                "    int {n};\n    {n}_of({n});\n", "{n} + 1",
                                "r = threadIdx.x % 32;", "r = threadIdx.x % warpSize;"),
    "functional_cast": ("", "    unsigned {n} = uint32_t(threadIdx.x % 32);\n", "{n} + 1",
                        "uint32_t(threadIdx.x % 32)", "uint32_t(threadIdx.x % warpSize)"),
    # a keyword type and a typedef: casts by name, not the unknown calls values pass through
    "functional_cast_unsigned": ("", "    unsigned {n} = unsigned(threadIdx.x % 32);\n", "{n} + 1",
                                 "unsigned(threadIdx.x % 32)", "unsigned(threadIdx.x % warpSize)"),
    "functional_cast_typedef": ("typedef unsigned lane_t;\n", "    unsigned {n} = lane_t(threadIdx.x % 32);\n",
                                "{n} + 1", "lane_t(threadIdx.x % 32)", "lane_t(threadIdx.x % warpSize)"),
    # the mask written first: `31 & tid` is the lane `tid & 31` is
    "mask_first": ("", "    int {n} = 31 & threadIdx.x;\n", "{n} + 1",
                   "int {n} = 31 & threadIdx.x;", "int {n} = (warpSize - 1) & threadIdx.x;"),
    # a unary minus passes its operand's lane on (twice here: the value reaching the shuffle is the lane)
    "negated": ("", "    int {n} = -(threadIdx.x % 32);\n", "-{n}",
                "int {n} = -(threadIdx.x % 32);", "int {n} = -(threadIdx.x % warpSize);"),
    "unary_plus": ("", "    int {n} = +(threadIdx.x % 32);\n", "+{n}",
                   "int {n} = +(threadIdx.x % 32);", "int {n} = +(threadIdx.x % warpSize);"),
    # a warp's first lane, `warp << 5`: the 5 is log2 of 32 lanes
    "warp_first_lane_shift": ("", "    int {n}w = threadIdx.x / 32;\n    int {n} = {n}w << 5;\n", "{n}",
                              "int {n} = {n}w << 5;", "int {n} = {n}w * warpSize;"),
    # a quotient of the thread index is still one (a lane of every other thread)
    "thread_quotient": ("", "    int {n} = (threadIdx.x / 2) % 32;\n", "{n} + 1",
                        "int {n} = (threadIdx.x / 2) % 32;", "int {n} = (threadIdx.x / 2) % warpSize;"),
    # a remainder of the thread index by a block-sized count is still the thread index (its lane bits)
    "thread_remainder": ("", "    int {n} = (threadIdx.x % 128) & 31;\n", "{n} + 1",
                         "int {n} = (threadIdx.x % 128) & 31;", "int {n} = (threadIdx.x % 128) & (warpSize - 1);"),
    "macro_constant": ("#define {N} 32\n", "    int {n} = threadIdx.x % {N};\n", "{n} + 1",
                       "#define {N} 32", "#define {N} KP_WAVE_SIZE"),
}


def port_of(form: str, hazard: bool) -> tuple[str, str, str]:
    pre, stmts, expr, before, after = FORMS[form]
    n, N = ("lane", "NLANES") if hazard else ("col", "TILE")
    f = lambda t: t.format(n=n, N=N)  # noqa: E731
    use = (SINK if hazard else STORE).format(e=f(expr))
    src = f(pre) + HEAD + f(stmts) + use + TAIL
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok
    return port.body, f(before), f(after)


@pytest.mark.parametrize("form", list(FORMS))
def test_lane_index_reaching_a_shuffle_is_rewritten(form):
    body, before, after = port_of(form, hazard=True)
    assert after in body, body
    assert before not in body, body


@pytest.mark.parametrize("form", list(FORMS))
def test_same_arithmetic_addressing_memory_is_left_alone(form):
    body, before, after = port_of(form, hazard=False)
    assert before in body, body
    assert "warpSize" not in body and "KP_WAVE_SIZE" not in body, body


def test_reference_parameter_keeps_the_positions_of_later_parameters():
    """A reference parameter is a parameter: `f(int& a, int b)` binds the second argument to b (it
    used to be skipped, shifting b onto the first argument)."""
    src = ("__device__ int pick(int& unused, int l) { return l; }\n" + HEAD
           + "    int z = 0;\n    int lane = threadIdx.x % 32;\n"
           + "    v = __shfl_sync(0xffffffff, v, pick(z, lane));\n" + TAIL)
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert "int lane = threadIdx.x % warpSize;" in port.body, port.body


def test_expression_macro_reaching_a_shuffle_is_rewritten():
    """An expression macro's value is read where it is written (kernelport/lane_macros.py): its `% 32` reaching a
    shuffle is rewritten in the `#define` (the file-scope wave constant, as `#define NLANES 32` becomes) and the
    shuffle takes the wave; lint reports WS002 on the `#define` line.  The look-alike, the same macro indexing
    memory, stays as written (and its kernel's shuffle-free code too)."""
    from kernelport.lint.engine import lint_text
    src = "#define LANE_ID (threadIdx.x % 32)\n" + HEAD + SINK.format(e="LANE_ID + 1") + TAIL
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok
    assert "#define LANE_ID (threadIdx.x % KP_WAVE_SIZE)" in port.body, port.body
    assert "__shfl(v, LANE_ID + 1)" in port.body, port.body
    assert [(f.code, f.line) for f in lint_text(src, "k.cu") if f.code == "WS002"] == [("WS002", 1)]
    look = "#define COL (threadIdx.x % 32)\n" + HEAD + STORE.format(e="COL") + TAIL
    port, _ = translate(SourceFile.from_text(look, "k.cu"), "hip")
    assert "#define COL (threadIdx.x % 32)" in port.body and "KP_WAVE_SIZE" not in port.body, port.body
    assert not [f for f in lint_text(look, "k.cu") if f.code.startswith("WS00") and f.code != "WS007"]


@pytest.mark.parametrize("body,want", [
    ("(threadIdx.x & 31)", "(threadIdx.x & (KP_WAVE_SIZE - 1))"),
    ("((threadIdx.x % 32))", "((threadIdx.x % KP_WAVE_SIZE))"),
])
def test_expression_macro_forms(body, want):
    src = f"#define LANE_ID {body}\n" + HEAD + SINK.format(e="LANE_ID ^ 1") + TAIL
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and f"#define LANE_ID {want}" in port.body and "__shfl(v, LANE_ID ^ 1)" in port.body, port.body


def test_expression_macro_used_in_two_kernels_is_one_rewrite():
    src = ("#define LANE_ID (threadIdx.x % 32)\n" + HEAD + SINK.format(e="LANE_ID + 1") + TAIL
           + HEAD.replace("void k(", "void k2(") + SINK.format(e="LANE_ID + 2") + TAIL)
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and port.body.count("KP_WAVE_SIZE)") == 1 and "% 32" not in port.body, port.body


PER_WARP = """__global__ void k(const float* x, float* out) {
    __shared__ float %(a)s[32];
    float v = x[threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 1);
    int w = threadIdx.x / warpSize;
    %(store)s
    __syncthreads();
    out[threadIdx.x] = %(load)s;
}
"""


def test_a_shared_array_of_one_slot_per_warp_is_sized_by_the_wave():
    """In warp-level code, a shared array indexed by the warp index holds one slot per warp (or lane):
    its literal 32 is the wave width.  The look-alike, a 32-wide tile indexed by the thread, stays 32."""
    per_warp = PER_WARP % dict(a="part", store="if (threadIdx.x % warpSize == 0) part[w] = v;", load="part[w]")
    tile = PER_WARP % dict(a="tile", store="tile[threadIdx.x] = v;", load="tile[31 - threadIdx.x]")
    for src, want in ((per_warp, "__shared__ float part[KP_WAVE_SIZE];"), (tile, "__shared__ float tile[32];")):
        port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
        assert port.ok and want in port.body, port.body


def test_a_lane_index_is_rewritten_unless_a_literal_width_fixes_the_segment():
    """A shuffle width known only at run time (read from memory) may be the whole wave: the lane
    index reaching it is the wave's.  A literal width of 32 makes 32-lane segments on any wave."""
    body = "__global__ void k(const float* x, float* out, const int* wd) {\n    float v = x[threadIdx.x];\n" \
           "    v += __shfl_sync(0xffffffff, v, threadIdx.x % 32, WIDTH);\n    out[threadIdx.x] = v;\n}\n"
    for width, want in (("wd[0]", "__shfl(v, threadIdx.x % warpSize, wd[0])"),
                        ("32", "__shfl(v, threadIdx.x % 32, 32)")):
        port, _ = translate(SourceFile.from_text(body.replace("WIDTH", width), "k.cu"), "hip")
        assert port.ok and want in port.body, port.body


@pytest.mark.parametrize("rest", ["", " >> 1", " | 1u", " ^ 2u", " & __activemask()"])
def test_a_ballot_stored_into_a_32_bit_shared_array_is_refused(rest):
    """Shifted or combined (with another mask too), a ballot is still a lane mask of the wave's width."""
    src = """__global__ void k(const float* x, float* out) {
    __shared__ TYPE masks[4];
    masks[threadIdx.x / 32] = __ballot_sync(0xffffffff, x[threadIdx.x] > 0)REST;
    out[threadIdx.x] = masks[0];
}
""".replace("REST", rest)
    port, _ = translate(SourceFile.from_text(src.replace("TYPE", "unsigned int"), "k.cu"), "hip")
    assert not port.ok and [d.code for d in port.diagnostics] == ["KP207"]
    port, _ = translate(SourceFile.from_text(src.replace("TYPE", "unsigned long long"), "k.cu"), "hip")
    assert port.ok and not port.diagnostics  # 64 bits hold every lane


def test_a_ladder_whose_counter_is_assigned_in_the_loop_head_starts_at_half_the_wave():
    src = """__global__ void k(const float* x, float* out) {
    float v = x[threadIdx.x];
    int off%s;
    for (%s; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
    if (threadIdx.x %% 32 == 0) atomicAdd(out, v);
}
"""
    # (each warp's leader adds its fold to one total: the wave port is right at 64. Until stop 48 every lane stored
    #  `out[threadIdx.x] = v`, whose lanes 1-31 hold partial folds of another span at 64: fold_levels keeps 32 there)
    for decl, init in (("", "off = 16"), (" = 16", "")):  # assigned in the head; set before the loop
        port, _ = translate(SourceFile.from_text(src % (decl, init), "k.cu"), "hip")
        assert port.ok
        want = "off = warpSize / 2;" if init else "int off = warpSize / 2;"
        assert want in port.body, port.body


@pytest.mark.parametrize("init", ["++i", "i = lane"])
def test_a_loop_head_that_assigns_no_counter_is_read_like_one_that_does(init):
    """`for (++i; ...)`: the initializer is an expression with no left side (it crashed the
    analysis once such a head was read as an assignment); the lane-strided loop is ported either way."""
    src = """__global__ void k(const float* x, float* out, int n) {
    float v = 0;
    int lane = threadIdx.x % 32;
    int i = lane - 1;
    for (INIT; i < n; i += 32) v += x[i];
    v += __shfl_down_sync(0xffffffff, v, 1);
    out[threadIdx.x] = v;
}
""".replace("INIT", init)
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and f"for ({init}; i < n; i += warpSize)" in port.body, port.body


@pytest.mark.parametrize("width, flagged", [("0", True), ("64", True), ("16", False), ("32", False)])
def test_only_a_literal_width_of_a_sub_warp_keeps_a_lane_share_test(width, flagged):
    """A literal shuffle width from 1 to 32 makes a logical group of that many lanes: `lane < 24`
    is then a share of it (no WS017).  A width that is no such count (0, or 64, the wave) fixes no
    group, and the lane test is a share of the wave's lanes."""
    from kernelport.lint.engine import lint_text

    src = """__global__ void k(const float* x, float* out) {
    float v = x[threadIdx.x];
    int lane = threadIdx.x % warpSize;
    v += __shfl_down_sync(0xffffffff, v, 1, WIDTH);
    if (lane < 24) out[threadIdx.x] = v;
}
""".replace("WIDTH", width)
    assert [f.line for f in lint_text(src, "k.cu", "cuda") if f.code == "WS017"] == ([5] if flagged else [])


HELPER_WIDTH = """
__device__ float sh(float v, int l, int width = warpSize) { return __shfl_sync(0xffffffff, v, l, width); }
__global__ void row_mean(const float* x, float* out, int n) {
    float v = x[blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o, 32);
    out[blockIdx.x * 8 + threadIdx.y] = CALL / n;
}
void launch(const float* x, float* out, int n) {
    const dim3 threads(32, 8, 1);
    row_mean<<<n, threads>>>(x, out, n);
}"""


@pytest.mark.parametrize("call, flagged", [("sh(v, 0)", True), ("sh(v)", True), ("sh(v, 0, 32)", False)])
def test_a_helper_called_without_its_width_shuffles_the_whole_wave(call, flagged):
    """A helper whose width parameter defaults to warpSize: a call that leaves the width out
    shuffles across the whole wave in rows of 32 lanes (WS018); a call that passes it does not."""
    from kernelport.lint.engine import lint_text

    found = [f.line for f in lint_text(HELPER_WIDTH.replace("CALL", call), "t.cu", "cuda") if f.code == "WS018"]
    assert found == ([6] if flagged else [])


def test_popc_of_a_thread_index_beside_a_widened_mask_stays_32_bit():
    """Only a lane mask's popcount widens to __popcll; a thread index counted next to one is data."""
    src = """__global__ void compact(const float* in, int* out) {
    int lane = threadIdx.x & 31;
    unsigned mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    int before = __popc(mask & ((1u << lane) - 1));
    out[threadIdx.x] = before + __popc(threadIdx.x) + __popc(blockDim.x);
}
"""
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and "__popcll(mask & ((1ull << lane) - 1))" in port.body
    assert "before + __popc(threadIdx.x) + __popc(blockDim.x);" in port.body


def test_a_loop_counter_named_like_a_field_the_shuffle_reads_is_no_ladder():
    """`__shfl_down_sync(m, v, s.o)` reads the field o, not the loop's o: that loop from 16 stores
    data and stays as written (only a variable the shuffle reads makes a ladder)."""
    src = """struct Step { int o; };
__global__ void k(const float* x, float* y, Step s) {
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) y[o] = v;
    y[threadIdx.x] = __shfl_down_sync(0xffffffff, v, s.o);
}
"""
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and "for (int o = 16; o > 0; o /= 2) y[o] = v;" in port.body
    ladder = """__global__ void k(const float* x, float* y) {
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0) atomicAdd(y, v);
}
"""  # (a total the wave port keeps right; every lane storing its partial fold keeps 32 lanes since stop 48)
    port, _ = translate(SourceFile.from_text(ladder, "k.cu"), "hip")
    assert port.ok and "for (int o = warpSize / 2; o > 0; o /= 2)" in port.body, port.body


@pytest.mark.parametrize("lane, code, why", [("31", "WS006", "the last lane of a warp"),
                                             ("32", "WS017", "it reaches the lane of __shfl_sync")])
def test_a_literal_source_lane_is_explained_by_its_value(lane, code, why):
    # 31 is the last lane of a 32-lane warp; any other warp-width literal just reaches the lane
    from kernelport.lint.engine import lint_text

    src = HEAD + SINK.format(e=lane) + TAIL
    msgs = [f.message for f in lint_text(src, "k.cu", "cuda") if f.code == code]
    assert len(msgs) == 1 and why in msgs[0], msgs


@pytest.mark.parametrize("call", ["__shfl_sync(0xffffffff, v, 5)", "__shfl_down_sync(0xffffffff, v, 5)",
                                  "__shfl_xor_sync(0xffffffff, v, 5)", "__shfl_down_sync(0xffffffff, v, 5, w)"])
def test_a_literal_5_given_as_a_shuffle_lane_or_delta_is_no_warp_index(call):
    """5 is log2 of 32 only where it shifts (`tid >> 5`, WS003); as a source lane or a delta it is
    lane 5 or 5 lanes on any wave: no finding, the port keeps it.  `tid >> 5` as the lane is one."""
    from kernelport.lint.engine import lint_text

    src = HEAD.replace("float* out)", "float* out, int w)") + f"    v = {call};\n" + TAIL
    assert [f.code for f in lint_text(src, "k.cu", "cuda") if f.code.startswith("WS0") and f.code != "WS007"] == []
    # (re-pinned, kernelport/abslanes.py: plain data from lane 5 is lane 5 of the 32-lane warp: `, 32`)
    width = ", 32)" if call.startswith("__shfl_sync") else ")"
    assert f"v = {call.replace('_sync(0xffffffff, ', '(')[:-1]}{width};" in hip_body(src)
    warp = src.replace(", 5", ", threadIdx.x >> 5")
    assert [f.line for f in lint_text(warp, "k.cu", "cuda") if f.code == "WS003"] == [3]


def hip_body(src: str) -> str:
    return ported(src, "k.cu", dedent=False)[0].body


@pytest.mark.parametrize("chunk", ["lane * 32", "32 * lane"])
def test_a_lanes_chunk_compared_in_warp_level_code_is_a_lane_test_in_either_order(chunk):
    # `lane * 32 < n`: the product keeps the lane (not the 32) whichever side the lane is on
    src = ("__global__ void k(const float* x, float* out, int n) {\n    int lane = threadIdx.x % 32;\n"
           "    float v = x[threadIdx.x];\n    v += __shfl_down_sync(0xffffffff, v, 1);\n"
           f"    if ({chunk} < n) out[lane] = v;\n}}\n")
    body = hip_body(src)
    assert "int lane = threadIdx.x % warpSize;" in body and f"if ({chunk} < n)" in body


@pytest.mark.parametrize("size, rewritten", [("32", False), ("WARP_SIZE", True)])
def test_a_warp_index_laid_out_in_global_data_keeps_rows_of_32(size, rewritten):
    # out[warp] with warp = tid / 32: the data is laid out in rows of 32, a logical 32-lane group;
    # the same index through a WARP_SIZE macro follows the macro (the port defines it per wave)
    src = (("#define WARP_SIZE 32\n" if size != "32" else "") + "__global__ void k(const float* x, float* out) {\n"
           f"    int warp = threadIdx.x / {size}, lane = threadIdx.x % {size};\n    float v = x[threadIdx.x];\n"
           "    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
           "    if (lane == 0) out[warp] = v;\n}\n")
    body = hip_body(src)
    assert ("for (int o = warpSize / 2;" in body) == rewritten
    assert ("__shfl_down(v, o, 32)" in body) != rewritten


@pytest.mark.parametrize("test", ["m == {ones}", "{ones} == m", "m != {ones}", "{ones} != m"])
@pytest.mark.parametrize("ones, flagged", [("~0u", False), ("-1", True), ("0xffffffff", True)])
def test_a_ballot_compared_with_all_ones_names_only_that_constant(ones, flagged, test):
    # the 32-bit full mask compared with a ballot is a wave-width site; the data index 32 beside
    # it is none, whichever spelling of all ones the comparison uses, on either side (`-1`, all
    # ones at any width, is no site: comparing it confirms nothing, neither another site; the comparison is
    # rewritten as the thread's warp's 32 bits, kernelport/literal_lanes.py, `m == -1` meaning 32 lanes)
    test = test.format(ones=ones)
    src = ("__global__ void k(const int* p, int* out) {\n    int a = p[32], b = p[32 + threadIdx.x];\n"
           "    unsigned m = __ballot_sync(0xffffffff, a > b);\n"
           f"    out[threadIdx.x] = ({test}) ? a : b;\n}}\n")
    body = hip_body(src)
    assert "int a = p[32], b = p[32 + threadIdx.x];" in body
    assert (f"({test})" not in body) == flagged


WARP_LEVEL_TEST = """__global__ void k(const float* x, float* out, int n) {
    float v = x[threadIdx.x];
    int lane = threadIdx.x % warpSize;
    v += __shfl_down_sync(0xffffffff, v, 1);
    if (lane < TEST) out[threadIdx.x] = v;
}
"""


@pytest.mark.parametrize("test, ported", [("(threadIdx.x >> 5)", "(threadIdx.x / warpSize)"),
                                          ("(n >> 5)", "(n >> 5)"),
                                          ("n * 32", "n * warpSize"), ("32 * 32", "32 * 32"),
                                          ("(threadIdx.x / 32)", "(threadIdx.x / warpSize)"), ("n / 32", "n / 32")])
def test_what_a_lane_is_compared_with_in_warp_level_code(test, ported):
    """`tid >> 5` is a warp index (its 5 is log2 of 32 lanes); the same shift of a count is data.
    `n * 32` counts the lanes of n warps (its 32 is the wave's); `32 * 32` counts elements.
    `tid / 32` is a warp index; `n / 32` (a count split in 32s) is data."""
    port, _ = translate(SourceFile.from_text(WARP_LEVEL_TEST.replace("TEST", test), "k.cu"), "hip")
    assert port.ok and f"if (lane < {ported}) out[threadIdx.x] = v;" in port.body, port.body


@pytest.mark.parametrize("head", ["int d = 1", "d = 1"])
def test_a_scan_bounded_by_32_lanes_runs_to_the_wave_declared_or_assigned_in_its_head(head):
    """`for (d = 1; d < 32; d *= 2)` around a shuffle_up scan: the 32 bounds the ladder, so it becomes
    warpSize, whether the head declares d or assigns one declared before."""
    src = """__global__ void scan(const float* x, float* out) {
    float v = x[threadIdx.x];
    int lane = threadIdx.x % warpSize;
    DECL
    for (HEAD; d < 32; d *= 2) {
        float y = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v += y;
    }
    out[threadIdx.x] = v;
}
""".replace("DECL", "" if head.startswith("int") else "int d;").replace("HEAD", head)
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and f"for ({head}; d < warpSize; d *= 2) {{" in port.body, port.body


@pytest.mark.parametrize("stored,partial", [("0xffffffff", False), ("0x0000ffffu", True)])
def test_a_mask_a_helper_stores_through_a_reference_is_read_as_that_mask(stored, partial):
    """`full_mask(mask)` with `void full_mask(unsigned& m) { m = 0xffffffff; }`: the caller's mask is
    the full one (the HIP port drops it, lint's WS007 says so), not a value from nowhere; a partial
    mask stored the same way is refused as one."""
    from kernelport.lint.engine import lint_text

    src = (f"__device__ void full_mask(unsigned& m) {{ m = {stored}; }}\n__global__ void k(float* x) {{\n"
           "    unsigned mask;\n    full_mask(mask);\n    float v = x[threadIdx.x];\n"
           "    v += __shfl_xor_sync(mask, v, 1);\n    x[threadIdx.x] = v;\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    if partial:  # HIP's mask-less shuffle would run lanes the mask leaves out: refused at the mask
        assert [(d.code, d.location.line) for d in port.diagnostics] == [("KP203", 6)]
    else:
        assert port.ok and "v += __shfl_xor(v, 1);" in port.body, port.body
    found = [(f.code, f.line) for f in lint_text(src, "t.cu", "cuda", targets={"hip-cdna"}) if f.code == "WS007"]
    assert found == ([] if partial else [("WS007", 6)])


@pytest.mark.parametrize("depth", [1, 14])
@pytest.mark.parametrize("sink,rewritten", [("__shfl_sync(0xffffffff, v, l)", True), ("v + x[l]", False)])
def test_a_lane_passed_down_a_chain_of_helpers_reaches_the_shuffle_at_any_depth(depth, sink, rewritten):
    """Helpers defined callee first pass the lane one hop a sweep: the analysis sweeps until nothing
    changes (a fixed count of 12 sweeps left the 32 of a 14-deep chain in the HIP port)."""
    hs = [f"__device__ float h0(const float* x, float v, int l) {{ return {sink}; }}"]
    hs += [f"__device__ float h{i}(const float* x, float v, int l) {{ return h{i - 1}(x, v, l); }}"
           for i in range(1, depth + 1)]
    src = "\n".join(hs) + (f"\n__global__ void k(float* x) {{\n    int lane = (threadIdx.x + 1) % 32;\n"
                           f"    x[threadIdx.x] = h{depth}(x, x[threadIdx.x], lane);\n}}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and ("(threadIdx.x + 1) % 32" in port.body) != rewritten, port.body


def test_a_value_initialized_type_is_read_like_a_zero_not_a_cast_of_nothing():
    """`unsigned()` and `float()` (zero) call a type with no argument: the port and lint read past
    them, and the lane beside them is still rewritten (a cast `unsigned(x)` passes x's facts)."""
    from kernelport.lint.engine import lint_text

    src = ("__global__ void k(float* x) {\n    unsigned z = unsigned();\n    int lane = threadIdx.x % 32;\n"
           "    x[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], lane) + float() + z;\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and "int lane = threadIdx.x % warpSize;" in port.body, port.body
    assert "unsigned z = unsigned();" in port.body and "+ float() + z;" in port.body
    assert [(f.code, f.line) for f in lint_text(src, "t.cu", "cuda", targets={"hip-cdna"})] == [("WS002", 3),
                                                                                                ("WS007", 4)]


@pytest.mark.parametrize("param,rewritten", [("int& l", True), ("int l", False)])
def test_only_a_reference_parameter_carries_what_the_helper_stores_back_to_the_caller(param, rewritten):
    """`lane_of(src)` with `void lane_of(int& l) { l = tid % 32; }` makes src a lane; with `int l` the
    helper assigns its own copy: src stays 3 and the helper's 32 reaches no shuffle."""
    src = (f"__device__ void lane_of({param}) {{ l = threadIdx.x % 32; }}\n__global__ void k(float* x) {{\n"
           "    int src = 3;\n    lane_of(src);\n    x[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], src);\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and ("l = threadIdx.x % warpSize;" in port.body) == rewritten, port.body


def test_a_lane_returned_through_helpers_defined_after_their_callers_reaches_the_shuffle():
    """Declared first, defined caller first: each sweep carries a return one caller up, and a sweep
    that only grows a return is a change (the next sweep must read it)."""
    src = ("__device__ int lane2();\n__device__ int lane1();\n__global__ void k(float* x) {\n"
           "    x[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], lane2());\n}\n"
           "__device__ int lane2() { return lane1(); }\n__device__ int lane1() { return (threadIdx.x + 1) % 32; }\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and "return (threadIdx.x + 1) % warpSize;" in port.body, port.body
    # the look-alike: the same helper whose value only addresses memory keeps its 32
    port, _ = translate(SourceFile.from_text(src.replace("__shfl_sync(0xffffffff, x[threadIdx.x], lane2())",
                                                         "x[lane2()]"), "k.cu"), "hip")
    assert port.ok and "return (threadIdx.x + 1) % 32;" in port.body, port.body


@pytest.mark.parametrize("base,rewritten", [("sums", True), ("out", False)])
def test_a_warp_index_through_a_pointer_into_a_shared_array_is_a_per_warp_slot(base, rewritten):
    """`float* s = sums + 0; s[threadIdx.x / 32]`: one slot per warp of the shared array, so the 32 is
    the wave; the same pointer into global memory (`out + 0`) is plain addressing, left alone."""
    src = ("__global__ void k(const float* x, float* out) {\n    __shared__ float sums[32];\n"
           f"    float* s = {base} + 0;\n    float v = x[threadIdx.x];\n    v += __shfl_down_sync(0xffffffff, v, 1);\n"
           "    s[threadIdx.x / 32] = v;\n    __syncthreads();\n    out[threadIdx.x] = sums[0];\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and ("s[threadIdx.x / warpSize] = v;" in port.body) == rewritten, port.body


@pytest.mark.parametrize("value,rewritten", [("k", False), ("threadIdx.x", True)])
def test_a_mask_reads_alike_on_either_side_of_the_value_it_masks(value, rewritten):
    """`31 & v` is `v & 31`: a lane (the 31 is the wave's) where v is the thread index, a value the
    analysis knows nothing of (a parameter k) where v is one, whichever side the mask is written."""
    for e, after in ((f"31 & {value}", f"(warpSize - 1) & {value}"), (f"{value} & 31", f"{value} & (warpSize - 1)")):
        src = ("__global__ void k0(float* x, int k) {\n    float v = x[threadIdx.x];\n"
               f"    v = __shfl_sync(0xffffffff, v, {e});\n    x[threadIdx.x] = v;\n}}\n")
        port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
        # (re-pinned, kernelport/abslanes.py: `31 & k` is a plain lane, k mod 32: the 32-lane warp's)
        assert port.ok and (f"v = __shfl(v, {after});" if rewritten else f"v = __shfl(v, {e}, 32);") in port.body, port.body


@pytest.mark.parametrize("op", ["|", "^"])
@pytest.mark.parametrize("ballot_first", [True, False])
def test_a_lane_bit_combined_with_a_ballot_is_a_64_bit_lane_mask(op, ballot_first):
    """`ballot | (1u << lane)`, either order: the bit joins a ballot's lane mask, so its 1u becomes
    1ull in the HIP port (lint: WS010); the same bit combined with data keeps its 1u."""
    from kernelport.lint.engine import lint_text

    def port_and_lint(other):
        e = f"{other} {op} (1u << lane)" if ballot_first else f"(1u << lane) {op} {other}"
        src = ("__global__ void k(const float* x, unsigned long long* out, unsigned d) {\n"
               f"    int lane = threadIdx.x % 32;\n    unsigned long long b = {e};\n    out[threadIdx.x] = b;\n}}\n")
        port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
        assert port.ok, [d.format() for d in port.diagnostics]
        return port.body, {f.code for f in lint_text(src, "t.cu", "cuda", targets={"hip-cdna"})}

    body, codes = port_and_lint("__ballot_sync(0xffffffff, x[threadIdx.x] > 0)")
    assert "(1ull << lane)" in body and "WS010" in codes, body
    body, codes = port_and_lint("d")
    assert "(1u << lane)" in body and "WS010" not in codes, body


@pytest.mark.parametrize("use, widened", [
    ("(bit << 1) | (__ballot_sync(0xffffffff, x[threadIdx.x] > 0.f) & bit)", True),  # combined with a ballot
    ("bit", False),  # a 32-bit word of the output, no lane mask
])
def test_a_lane_bit_held_in_a_32_bit_variable_is_widened_with_its_literal(use, widened):
    """`unsigned bit = 1u << lane;` combined with a ballot: the port's `1ull` needs a 64-bit holder,
    or lane 40's bit is 0 (the literal was widened, the variable kept 32 bits)."""
    body = hip_body("__global__ void k(const float* x, unsigned long long* out) {\n"
                    "    int lane = threadIdx.x % 32;\n"
                    "    unsigned bit = 1u << lane;\n"
                    f"    out[threadIdx.x] = {use};\n"
                    "}\n")
    assert ("unsigned long long bit = 1ull << lane;" in body) == widened, body
    assert widened or "unsigned bit = 1u << lane;" in body


def test_a_helpers_shuffle_at_the_wave_width_outlasts_sweeps_that_skip_the_helper():
    """The lane reaches the kernel through three helpers, so the fixpoint sweeps again for them only;
    the broadcast helper, not passed again, keeps its shuffle at the default width in the analysis
    (WS018 and the row-group rules read that list: it was emptied for every helper not passed last)."""
    from kernelport import warpflow
    from kernelport.model import build

    src = """
__device__ float bcast(float v) { return __shfl_sync(0xffffffffu, v, 0); }
__device__ int pass3(int l) { return l; }
__device__ int pass2(int l) { return pass3(l); }
__device__ int pass1(int l) { return pass2(l); }
__global__ void k(float* x) {
    int lane = pass1(threadIdx.x % 32);
    x[threadIdx.x] = bcast(x[threadIdx.x]) + (lane == 3);
}
"""
    a = warpflow.analyze(build(SourceFile.from_text(src, "t.cu")))
    assert [(f, key) for _, key, f in a.wave_shuffles] == [("bcast", "shfl")]
    one = src.replace("pass1(threadIdx.x % 32)", "threadIdx.x % 32")  # one sweep: it was found there too
    assert [f for _, _, f in warpflow.analyze(build(SourceFile.from_text(one, "t.cu"))).wave_shuffles] == ["bcast"]


@pytest.mark.parametrize("cast, refused", [("mask_t", True), ("unsigned", True), ("keep", False)])
def test_a_ballot_cast_through_a_typedef_is_still_a_lane_mask(cast, refused):
    """`mask_t(ballot)` with `typedef unsigned mask_t;` is a functional cast: the value is the ballot,
    and storing it in a 32-bit shared array is refused as the ballot itself is.  A call of an unknown
    function of the ballot (`keep`, defined elsewhere) returns data, not the mask."""
    src = ("typedef unsigned mask_t;\n__device__ unsigned keep(unsigned b);\n"
           "__global__ void k(const float* x, float* out) {\n    __shared__ unsigned int masks[4];\n"
           f"    masks[threadIdx.x / 32] = {cast}(__ballot_sync(0xffffffff, x[threadIdx.x] > 0));\n"
           "    out[threadIdx.x] = masks[0];\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert [d.code for d in port.diagnostics] == (["KP207"] if refused else []), port.diagnostics


def _assert_mask_port(src: str, full: bool, line: int) -> None:
    """A full mask: HIP's mask-less `__shfl_xor` is right and the port drops it; a partial one is
    refused at its line (KP203)."""
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    if full:
        assert port.ok and "v += __shfl_xor(v, 1);" in port.body, port.body
    else:
        assert [(d.code, d.location.line) for d in port.diagnostics] == [("KP203", line)]


def test_a_full_mask_cast_through_a_typedef_is_the_full_mask():
    """`__shfl_xor_sync(mask_t(0xffffffff), ...)`: the cast keeps the full mask, so HIP's mask-less
    shuffle is right (the port drops it); the same cast of a partial mask is refused at the mask."""
    for mask, ok in (("0xffffffff", True), ("0x0000ffff", False)):
        src = ("typedef unsigned mask_t;\n__global__ void k(float* x) {\n    float v = x[threadIdx.x];\n"
               f"    v += __shfl_xor_sync(mask_t({mask}), v, 1);\n    x[threadIdx.x] = v;\n}}\n")
        _assert_mask_port(src, ok, 4)


@pytest.mark.parametrize("value, widened", [("b << 32", True), ("d << 32", False)])
def test_a_ballot_shifted_into_the_upper_half_and_held_in_32_bits_is_widened(value, widened):
    """`w = b << 32` with b a ballot is a lane mask (the upper half of a 64-lane one): a 32-bit
    variable it reaches is widened in the port and flagged by lint (WS008); the same shift of data
    (d, a parameter) reaching a 32-bit variable is a plain value."""
    from kernelport.lint.engine import lint_text

    src = ("__global__ void k(const float* x, unsigned long long* out, unsigned long long d) {\n"
           "    unsigned long long b = __ballot_sync(0xffffffff, x[threadIdx.x] > 0);\n"
           f"    unsigned long long w = {value};\n    unsigned m = w;\n    out[threadIdx.x] = m + b;\n}}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    body = port.body
    assert ("unsigned long long m = w;" in body) == widened and ("unsigned m = w;" in body) != widened, body
    # the packing itself has no HIP port (KP226: no upper half on a 64-lane wave); a shift of data has one
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == \
        ([("KP226", 3)] if widened else [])
    found = [f.line for f in lint_text(src, "t.cu", "cuda", targets={"hip-cdna"}) if f.code == "WS008"]
    assert found == ([3, 4] if widened else [])


@pytest.mark.parametrize("expr, flagged", [("__ballot_sync(0xffffffff, x[threadIdx.x] > 0) || d", False),
                                           ("__ballot_sync(0xffffffff, x[threadIdx.x] > 0) && d", False),
                                           ("__ballot_sync(0xffffffff, x[threadIdx.x] > 0) | d", True)])
def test_a_ballot_s_truth_value_is_no_lane_mask(expr, flagged):
    """`ballot || d` is 0 or 1: an int holds it on any wave (no WS008, the port keeps the type);
    `ballot | d` is still the lane mask, and the 32-bit variable holding it is flagged and widened."""
    from kernelport.lint.engine import lint_text

    src = ("__global__ void k(const float* x, unsigned long long* out, unsigned d) {\n"
           f"    unsigned m = {expr};\n    out[threadIdx.x] = m;\n}}\n")
    assert [f.line for f in lint_text(src, "t.cu", "cuda", targets={"hip-cdna"}) if f.code == "WS008"] == \
        ([2] if flagged else [])
    assert ("unsigned long long m = " in hip_body(src)) == flagged


@pytest.mark.parametrize("expr, rewritten", [("(z++, threadIdx.x % 32)", True), ("(threadIdx.x % 32, z)", False)])
def test_a_comma_expression_is_the_value_of_its_right_operand(expr, rewritten):
    """`(z++, lane)` as a shuffle's source lane is the lane: its 32 is the wave's; on the left of
    the comma the same lane is discarded and its 32 stays."""
    src = ("__global__ void k(float* x, int z) {\n    float v = x[threadIdx.x];\n"
           f"    v = __shfl_sync(0xffffffff, v, {expr});\n    x[threadIdx.x] = v + z;\n}}\n")
    assert ("threadIdx.x % warpSize" in hip_body(src)) == rewritten


@pytest.mark.parametrize("mask, full", [("-1", True), ("- 1", True), ("~0", True), ("(unsigned)-1", True),
                                        ("-2", False), ("~1", False)])
def test_all_ones_spelled_as_minus_one_or_not_zero_is_the_full_mask(mask, full):
    """-1 (however spaced) and ~0 are all lanes: HIP's mask-less shuffle is right and the port drops
    the mask; -2 and ~1 leave a lane out and are refused at the mask (KP203)."""
    src = ("__global__ void k(float* x) {\n    float v = x[threadIdx.x];\n"
           f"    v += __shfl_xor_sync({mask}, v, 1);\n    x[threadIdx.x] = v;\n}}\n")
    _assert_mask_port(src, full, 3)


HELPERS = ("namespace util {\n__device__ int lane() { return (threadIdx.x + 1) % 32; }\n"
           "template <int S> __device__ int tlane() { return (threadIdx.x + S) % 32; }\n}\n"
           "template <int S> __device__ int wlane() { return (threadIdx.x + S) % 32; }\n")


@pytest.mark.parametrize("call, line", [("util::lane()", 1), ("wlane<1>()", 4), ("util::tlane<1>()", 2)])
def test_a_lane_returned_by_a_namespaced_or_template_helper_reaches_the_shuffle(call, line):
    """`util::lane()`, `wlane<1>()`, `util::tlane<1>()` call the helper on that line: the lane it
    returns reaches the shuffle, so its 32 is the wave's (and only its); the same call used as a
    data address keeps every 32."""
    for sink, rewritten in ((f"__shfl_sync(0xffffffff, v, {call})", True), (f"x[{call}]", False)):
        src = HELPERS + ("__global__ void k(float* x) {\n    float v = x[threadIdx.x];\n"
                         f"    v = {sink};\n    x[threadIdx.x] = v;\n}}\n")
        lines = hip_body(src).splitlines()
        assert [n for n in (1, 2, 4) if "% warpSize" in lines[n]] == ([line] if rewritten else []), lines


def test_a_local_array_of_shared_values_is_no_per_warp_shared_array():
    """`float local[8] = {part[0], ...}` copies shared values into the thread's own array: indexing it
    by `threadIdx.x / 32` is no per-warp slot.  A pointer into shared memory (`float* p = part + 0`)
    is one (warpflow follows a declaration into shared memory only through a pointer)."""
    from kernelport.lint.engine import lint_text

    src = """
__global__ void k(const float* x, float* out) {
    __shared__ float part[8];
    part[threadIdx.x & 7] = x[threadIdx.x];
    __syncthreads();
    float local[8] = {part[0], part[1], part[2], part[3], part[4], part[5], part[6], part[7]};
    int row = threadIdx.x / 32;
    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, local[row], 1);
}
"""
    assert not [f for f in lint_text(src, "k.cu") if f.code == "WS003"]
    pointer = src.replace("float local[8] = {part[0], part[1], part[2], part[3], part[4], part[5], part[6], part[7]};",
                          "float* local = part + 0;")
    assert [f.line for f in lint_text(pointer, "k.cu") if f.code == "WS003"] == [7]


@pytest.mark.parametrize("store, load", [("lanes[0]", "lanes[0]"), ("(lanes)[0]", "(lanes)[0]"),
                                         ("(lanes)[0]", "lanes[0]")])
def test_a_lane_stored_in_a_local_array_reaches_the_shuffle_however_the_array_is_parenthesized(store, load):
    """`(lanes)[0]` is `lanes[0]`: the lane stored there and read back as a shuffle's source lane
    is the wave's (its 32 becomes warpSize); stored and read back as data it keeps its 32."""
    for sink, rewritten in ((f"__shfl_sync(0xffffffff, v, {load})", True), (f"x[{load}]", False)):
        src = ("__global__ void k(float* x) {\n    float v = x[threadIdx.x];\n    int lanes[2];\n"
               f"    {store} = (threadIdx.x + 1) % 32;\n    v = {sink};\n    x[threadIdx.x] = v;\n}}\n")
        assert ("(threadIdx.x + 1) % warpSize;" in hip_body(src)) == rewritten


@pytest.mark.parametrize("call", ["__shfl_sync(0xffffffff, v)", "__shfl_down_sync(0xffffffff)"])
def test_a_shuffle_missing_arguments_is_read_without_an_internal_error(call):
    """A call with fewer arguments than the shuffle takes (no lane, no width) is ported and linted
    as written: no KP006 internal error, no traceback."""
    from kernelport.lint.engine import lint_text

    src = f"__global__ void k(float* x) {{\n    float v = x[threadIdx.x];\n    v += {call};\n    x[threadIdx.x] = v;\n}}\n"
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and [f.code for f in lint_text(src, "t.cu", "cuda")] == ["WS007"]


@pytest.mark.parametrize("mask, ported", [("0xffffffff", True), ("__activemask()", True), ("0x0000ffff", False)])
def test_a_syncwarp_mask_is_read_like_a_shuffle_s(mask, ported):
    """`__syncwarp(0xffffffff)` or of the active lanes: every lane, the port's kp_syncwarp(); a
    partial mask leaves lanes out, refused at the mask (KP203) as a shuffle's would be."""
    src = f"__global__ void k(float* x) {{\n    float v = x[threadIdx.x];\n    __syncwarp({mask});\n    x[threadIdx.x] = v;\n}}\n"
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    if ported:
        assert port.ok and "    kp_syncwarp();" in port.body.splitlines(), port.body
    else:
        assert [(d.code, d.location.line) for d in port.diagnostics] == [("KP203", 3)]


@pytest.mark.parametrize("width, ported", [("warpSize", "warpSize"), ("32", "warpSize")])
def test_a_lane_tested_against_a_ladder_step_s_threshold_as_the_first_literal(width, ported):
    """`if (lane < 2) v += __shfl_down_sync(__activemask(), v, 1);` where the 2 is the function's
    first literal: the threshold is the step's own (no finding on it), the port keeps it; the lane
    from `% 32` becomes `% warpSize`, the portable lane stays."""
    from kernelport.lint.engine import lint_text

    src = (f"__global__ void k(float* x) {{\n    int lane = threadIdx.x % {width};\n    float v = x[threadIdx.x];\n"
           "    if (lane < 2) v += __shfl_down_sync(__activemask(), v, 1);\n    x[threadIdx.x] = v;\n}\n")
    body = hip_body(src)
    assert f"int lane = threadIdx.x % {ported};" in body and "if (lane < 2) v += __shfl_down(v, 1);" in body
    assert [f.line for f in lint_text(src, "t.cu", "cuda") if f.line == 4] == []


def test_two_ballots_packed_in_one_word_have_no_port_to_a_64_lane_wave():
    """`((uint64_t)hi << 32) | lo` packs two 32-lane waves' ballots: on a 64-lane wave one ballot fills
    the word and `hi << warpSize` would shift a 64-bit value by 64 (undefined), so HIP refuses at the
    shift (KP226) and lint says why; Metal's SIMD-groups are 32 wide and keep the packing as written.
    A shift of the ballot by a lane count (`b << 1`) is no packing."""
    from kernelport.lint.engine import lint_text

    src = ("__global__ void k(const float* x, unsigned long long* out) {\n"
           "    unsigned long long lo = __ballot_sync(0xffffffff, x[threadIdx.x] > 0);\n"
           "    unsigned long long hi = __ballot_sync(0xffffffff, x[threadIdx.x] > 1);\n"
           "    out[threadIdx.x] = (hi << 32) | lo;\n}\n")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert [(d.code, d.location.line, d.location.column) for d in port.diagnostics] == [("KP226", 4, 25)]
    assert "warpSize" not in port.body
    metal, _ = translate(SourceFile.from_text(src, "k.cu"), "metal")
    assert metal.ok and "(hi << 32) | lo" in metal.body, metal.body
    lint = [(f.code, f.line) for f in lint_text(src, "t.cu", "cuda", targets={"hip-cdna"}) if f.line == 4]
    assert lint == [("WS008", 4)]
    shifted = src.replace("(hi << 32) | lo", "(hi << 1) | lo")
    assert hip_body(shifted)


def test_an_assignment_to_a_user_defined_literal_is_read_as_an_expression():
    """`1_slot = lane;` is valid C++ where the literal operator returns a reference (nvcc builds it):
    its left side is an expression, not a subscript, and the lane beside it is still rewritten."""
    src = ("__device__ int slots[64];\n"
           "__device__ int& operator\"\"_slot(unsigned long long i) { return slots[i]; }\n"
           + HEAD + "    int lane = threadIdx.x % 32;\n    1_slot = lane;\n" + SINK.format(e="lane + 1") + TAIL)
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok and "int lane = threadIdx.x % warpSize;" in port.body and "1_slot = lane;" in port.body, port.body


LAMBDA_MASK = """
template<int n, typename f_t> __device__ void iterate(f_t f) { for (int i = 0; i < n; ++i) f(i); }

__device__ int down(int x, int offset, int width) {
  int r = x;
  iterate<1>([&](int i) {
    if (i < width) {
      unsigned mask = {init};
      r = __shfl_down_sync(mask, x, offset);
    }
  });
  return r;
}
__global__ void k(int* x) { x[threadIdx.x] = down(x[threadIdx.x], 1, 32); }
"""


def test_a_mask_declared_in_a_lambda_body_is_known_by_where_it_comes_from():
    """moderngpu's shfl_down: `unsigned mask = __activemask();` inside a lambda passed to
    `iterate<n>`.  The lambda's statements were visited as expressions, so the declaration bound
    nothing and the mask was 'partial' (KP203, refusing every file that included the header); an
    active mask is what HIP's shuffle runs on.  The look-alike: a mask of a lane subset is still
    refused there."""
    port, _ = translate(SourceFile.from_text(LAMBDA_MASK.replace("{init}", "__activemask()"), "l.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "r = __shfl_down(x, offset);" in port.body
    port, _ = translate(SourceFile.from_text(LAMBDA_MASK.replace("{init}", "0x0000ffffu"), "l.cu"), "hip")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP203"]


# -- a mask is full only where every value it may take is all ones: facts are what a value MAY be,
#    so a full mask on one path and a narrower number on another (`all ? ~0u : 0xffff`, a full
#    mask ANDed with a number) was classified full and dropped, and HIP's __ballot counted lanes the
#    original left out -------------------------------------------------------------------------------
@pytest.mark.parametrize("mask, partial", [
    ("all ? 0xffffffffu : 0x0000ffffu", True),
    ("0xffffffffu & 0xffu", True),
    ("__activemask() & 0xff", True),
    ("all ? 0xffffffffu : ~0u", False),   # every value all ones: the full mask, dropped
    ("all ? 0xFFFFFFFF : -1", False),
])
def test_a_mask_full_on_only_some_paths_is_partial(mask, partial):
    src = SourceFile.from_text(f"""
__global__ void k(unsigned long long* x, int all) {{
    unsigned long long b = __ballot_sync({mask}, x[threadIdx.x] > 3);
    x[threadIdx.x] = b;
}}
""", "t.cu")
    port, _ = translate(src, "hip")
    assert ("KP203" in [d.code for d in port.diagnostics]) == partial, [d.format() for d in port.diagnostics]
    if not partial:
        assert "__ballot(x[threadIdx.x] > 3)" in port.body
