"""`// @kp` annotations (kernelport.annotations): every key's value as verify will use it, and every
error at its exact line and column."""
from __future__ import annotations

import pytest

from kernelport import backends

from kernelport.annotations import parse
from kernelport.errors import KernelportError
from kernelport.model import build
from kernelport.source import SourceFile

KERNEL = """\
__global__ void k(const float* x, float* y, int* flags, int n, float a) { }
void k_ref(const float* x, float* y, int* flags, int n, float a) { }
"""

FULL = [
    "kernel     k",
    "grid       ceil_div(n, 256), 2",
    "block      128, 2",
    "why        two rows of 128",
    "why        per block",
    "shared     block_bytes + 16",
    "arg        x  in     float[n]      uniform(-2, 3)",
    "arg        y  inout  float[n + 1]  normal(0.5, 2)",
    "arg        flags out int[4 * 8]",
    "scalar     n = 1 << 10",
    "scalar     block_bytes = n / 4 * sizeof(float)",
    "scalar     a = -1.5e-3",
    "reference  k_ref(x, y, flags, n, a)",
    "tolerance  abs=1e-5 rel=2e-4",
    "targets    metal",
    "seed       42",
]


def spec_of(lines, kernel=KERNEL):
    text = "".join(f"// @kp {ln}\n" for ln in lines) + kernel
    return parse(build(SourceFile.from_text(text, "k.cu")))


def error_of(lines, kernel=KERNEL) -> KernelportError:
    with pytest.raises(KernelportError) as ei:
        spec_of(lines, kernel)
    return ei.value


def test_every_key_is_read_and_evaluated():
    s = spec_of(FULL)["k"]
    assert s.kernel == "k" and s.loc.line == 1
    assert s.scalar_values() == {"n": 1024, "block_bytes": 1024, "a": -1.5e-3}
    assert s.dims("grid") == (4, 2, 1) and s.dims("block") == (128, 2, 1)
    assert s.shared_bytes() == 1040
    assert s.why == "two rows of 128 per block"
    assert [(a.name, a.role, a.type) for a in s.args.values()] == [
        ("x", "in", "float"), ("y", "inout", "float"), ("flags", "out", "int")]
    assert (s.args["x"].generator.kind, s.args["x"].generator.params) == ("uniform", (-2.0, 3.0))
    assert (s.args["y"].generator.kind, s.args["y"].generator.params) == ("normal", (0.5, 2.0))
    assert s.args["flags"].generator is None
    assert (s.length("x"), s.length("y"), s.length("flags")) == (1024, 1025, 32)
    assert s.reference[0] == "k_ref" and [t.text for t in s.reference[1]] == ["x", "y", "flags", "n", "a"]
    assert s.tolerance == "explicit" and s.tolerance_values == {"abs": 1e-5, "rel": 2e-4}
    assert s.targets == ("metal",) and s.seed == 42
    assert s.warnings == []


def test_defaults():
    s = spec_of([ln for ln in FULL if not ln.startswith(("tolerance", "targets", "seed", "shared", "why"))])["k"]
    assert s.tolerance == "auto" and s.tolerance_values == {}
    assert s.targets == backends.port_names() and s.seed == 0 and s.shared_bytes() == 0
    assert s.dims("grid") == (4, 2, 1)
    assert [msg for _, msg in s.warnings] == [
        "the block size has no reason: add '// @kp why ...' (a block size is a decision: say what it trades off)"]
    assert (s.warnings[0][0].line, s.warnings[0][0].column) == (3, len("// @kp block      ") + 1)


@pytest.mark.parametrize("tol,mode", [("exact", "exact"), ("auto", "auto")])
def test_tolerance_words(tol, mode):
    s = spec_of([ln if not ln.startswith("tolerance") else f"tolerance {tol}" for ln in FULL])["k"]
    assert (s.tolerance, s.tolerance_values) == (mode, {})


def test_generators_and_their_arities():
    for gen, kind, params in (("integers(-8, 8)", "integers", (-8.0, 8.0)), ("constant(3)", "constant", (3.0,)),
                              ("arange()", "arange", ()), ("arange(1, 2)", "arange", (1.0, 2.0)),
                              ("uniform(-1 - 1, 2 * 2)", "uniform", (-2.0, 4.0))):
        lines = [ln if not ln.startswith("arg        x") else f"arg x in float[n] {gen}" for ln in FULL]
        g = spec_of(lines)["k"].args["x"].generator
        assert (g.kind, g.params) == (kind, params), gen


# (the annotation line that replaces FULL's line of that key, message, the text the error points at)
ERRORS = [
    ("arg x in float[n] uniform(3, 2)", "uniform(3, 2): the upper bound must be above the lower one", "uniform"),
    ("arg x in float[n] integers(1, 1)", "integers(1, 1): the upper bound must be above the lower one", "integers"),
    ("arg x in float[n] uniform(1)", "uniform() takes 2 arguments, got 1", "uniform"),
    ("arg x in float[n] arange(1, 2, 3)", "arange() takes 0 to 2 arguments, got 3", "arange"),
    ("arg x in float[n] normal(1)", "normal() takes 2 arguments, got 1", "normal"),
    ("arg x in float[n] integers(1, 2, 3)", "integers() takes 2 arguments, got 3", "integers"),
    ("arg x in float[n] constant()", "constant() takes 1 argument, got 0", "constant"),
    ("arg x in float[n] constant(1, 2)", "constant() takes 1 argument, got 2", "constant"),
    ("arg x in float[n] monotone(1)", "monotone() takes 2 arguments, got 1", "monotone"),
    ("arg x in float[n] unifrom(0, 1)", "unknown generator 'unifrom'", "unifrom"),
    ("arg x in float[n] 7", "cannot read generator '7'", "7"),
    ("arg x in float[n] uniform(0, 1 +)", "expected a value before the end of the expression", ")"),
    # an error in a later generator argument: at that argument, counted from the generator's '('
    ("arg x in float[n] normal(0.5, 2 *)", "expected a value before the end of the expression", ")"),
    ("arg x in float[n] integers(0, 8 /)", "expected a value before the end of the expression", ")"),
    ("arg x io float[n] uniform(0, 1)", "unknown role 'io'", "io"),
    ("arg x in floatt[n] uniform(0, 1)", "unknown element type 'floatt'", "floatt"),
    ("arg x in float[n]", "'x' is an in buffer but has no generator", "x in"),
    ("arg x", "cannot read arg 'x'", "x"),
    ("arg z in float[n] uniform(0, 1)", "kernel 'k' has no parameter 'z'", "z in"),
    ("arg z.c in float[n] uniform(0, 1)", "kernel 'k' has no parameter 'z'", "z.c"),  # a field of no parameter
    ("arg n in int[4] integers(0, 2)", "'n' is a scalar parameter", "n in"),
    ("arg x in float[n - n] uniform(0, 1)", "length of 'x' evaluates to 0", "n - n"),
    ("shared 227 * 1024 + 1", "shared memory size '227 * 1024 + 1' is 232449 bytes", "227"),  # sm_90's opt-in most
    ("grid 0", "grid dimension x '0' is 0", "0"),
    ("grid 4, n - 1024", "grid dimension y 'n - 1024' is 0", "n - 1024"),
    ("grid 31 / warpSize", "grid dimension x '31 / warpSize' is 0 at warpSize 32", "31"),  # 32 first, then 64
    ("grid 1, 2, 3, 4", "'grid' takes 1 to 3 comma-separated expressions", "1, 2"),
    ("block 1024, 2", "block has 2048 threads", "1024"),
    ("block 1, 1025", "block dimension y '1025' is 1025", "1025"),
    ("block warpSize, 4", "unknown name 'warpSize'", "warpSize"),  # only a grid may follow the run's wave
    # a grid follows the run's wave: checked at both (64 lanes leave no block here)
    ("grid 2, 64 / warpSize - 1", "grid dimension y '64 / warpSize - 1' is 0 at warpSize 64", "64 / warpSize"),
    ("arg x in float[n] normal(0.5, 0)", "normal(0.5, 0): the standard deviation must be positive", "normal"),
    ("block 64, n +", "expected a value before the end of the expression", "<end>"),
    ("scalar n == 3", None, "= 3"),
    ("scalar 3 = n", "cannot read scalar '3 = n'", "3 = n"),
    ("tolerance abs=1e-5 rell=3", "cannot read tolerance 'rell=3'", "rell"),
    ("tolerance ab", "cannot read tolerance 'ab'", "ab"),
    ("tolerance abs=1e-5 rel=-3", "tolerance rel=-3 must be a finite value >= 0", "-3"),
    ("targets hip, cuda", "unknown target 'cuda'", "hip"),
    ("seed -1", "seed must be an integer from 0 to 2^64 - 1, got '-1'", "-1"),
    ("kernel q", "annotations name kernel 'q' but the next kernel is 'k'", "q"),
    ("reference k_ref(x, y)", "reference 'k_ref' takes 5 arguments, the annotation passes 2", "k_ref"),
    ("reference k_ref()", "reference 'k_ref' takes 5 arguments, the annotation passes 0", "k_ref"),
    ("reference nope(x)", "reference function 'nope' is not defined in this file", "nope"),
    ("reference k_ref", "cannot read reference 'k_ref'", "k_ref"),
    ("reference k_ref(x, y, flags, n, b)", None, "b)"),
]


@pytest.mark.parametrize("line,message,at", ERRORS, ids=[e[0] for e in ERRORS])
def test_error_points_at_the_annotation(line, message, at):
    key = line.split()[0]
    lines = list(FULL)
    idx = next(i for i, ln in enumerate(lines) if ln.split()[0] == key and
               (key != "arg" or ln.split()[1] == "x") and (key != "scalar" or ln.split()[1] == "n"))
    lines[idx] = line
    e = error_of(lines)
    if message is not None:
        assert e.message == message
    text = "// @kp " + line
    # "<end>": the error is where the missing operand would be, past the expression
    col = len(text) + 1 if at == "<end>" else \
        (text.rindex(at) if at == "b)" else text.index(at, len("// @kp ") + len(key))) + 1
    assert (e.location.line, e.location.column) == (idx + 1, col), str(e)


def test_shared_memory_up_to_the_largest_opt_in_of_any_target_is_accepted():
    lines = [ln if ln.split()[0] != "shared" else "shared 227 * 1024" for ln in FULL]
    assert spec_of(lines)["k"].shared.text == "227 * 1024"


def test_value_needs_text():
    e = error_of(FULL[:5] + ["shared"] + FULL[6:])
    assert e.message == "'shared' needs a value" and e.location.line == 6


def test_unknown_key_suggests_the_closest():
    e = error_of(FULL[:1] + ["blok 256"] + FULL[1:])
    assert e.message == "unknown annotation key 'blok'" and "did you mean 'block'?" in e.hint
    assert (e.location.line, e.location.column) == (2, 8)


@pytest.mark.parametrize("drop,message", [
    ("block", "kernel 'k' has annotations but no block size"),
    ("grid", "kernel 'k' has annotations but no grid"),
    ("arg        y", "pointer parameter 'y' of 'k' has no 'arg' annotation"),
    ("scalar     a", "scalar parameter 'a' of 'k' has no value"),
])
def test_missing_annotations_point_at_the_block(drop, message):
    e = error_of([ln for ln in FULL if not ln.startswith(drop)])
    # at the value of the block's first line
    assert e.message == message and (e.location.line, e.location.column) == (1, len("// @kp kernel     ") + 1)


def test_a_block_without_reference_is_valid_and_required_only_on_request():
    """No reference: verify takes the original at wave 32 as the oracle (issue 18)."""
    lines = [ln for ln in FULL if not ln.startswith("reference")]
    text = "".join(f"// @kp {ln}\n" for ln in lines) + KERNEL
    assert parse(build(SourceFile.from_text(text, "k.cu")))["k"].reference is None
    with pytest.raises(KernelportError, match="kernel 'k' has no reference"):
        parse(build(SourceFile.from_text(text, "k.cu")), reference=True)


def test_annotations_without_a_kernel():
    e = error_of(["grid 1"], "void plain(void) { }\n")
    assert e.message == "annotations are not followed by a __global__ kernel" and e.location.line == 1


def test_template_kernel_needs_instantiate():
    kern = "template <int B>\n__global__ void k(float* y) { }\nvoid k_ref(float* y) { }\n"
    base = ["grid 1", "block 32", "why w", "arg y out float[4]", "reference k_ref(y)"]
    e = error_of(base, kern)
    assert e.message == "template kernel 'k' needs 'instantiate'"
    s = spec_of(base + ["instantiate <64>"], kern)["k"]
    assert [t.text for t in s.instantiate] == ["<64>"]
    e = error_of(base + ["instantiate 64"], kern)
    assert e.message == "cannot read instantiate '64'"


def test_two_kernels_each_get_their_block():
    text = ("// @kp grid 2\n// @kp block 64\n// @kp why a\n// @kp arg y out float[8]\n// @kp reference r(y)\n"
            "__global__ void a(float* y) { }\n"
            "// @kp grid 3\n// @kp block 32\n// @kp why b\n// @kp arg y out float[9]\n// @kp reference r(y)\n"
            "__global__ void b(float* y) { }\nvoid r(float* y) { }\n")
    specs = parse(build(SourceFile.from_text(text, "k.cu")))
    assert {k: (s.dims("grid"), s.length("y"), s.why) for k, s in specs.items()} == {
        "a": ((2, 1, 1), 8, "a"), "b": ((3, 1, 1), 9, "b")}


BYTES = "__global__ void k(unsigned char* b, int n) { }\nvoid k_ref(unsigned char* b, int n) { }\n"


@pytest.mark.parametrize("gen,n,fits", [
    ("integers(0, 256)", 4, True), ("integers(0, 257)", 4, False),      # the upper bound is exclusive
    ("integers(-1, 8)", 4, False),
    ("normal(100, 1)", 4, True), ("normal(100, 20)", 4, False),       # mean +- 10 sigma
    ("normal(20, 1)", 4, True), ("normal(5, 1)", 4, False), ("normal(250, 1)", 4, False),
    ("normal(100.5, 1)", 4, True),  # draws are converted to the type: a fractional extreme in range fits
    ("monotone(0, 3)", 128, True), ("monotone(0, 3)", 129, False),    # (3 - 1) * (n - 1) at the last element
    ("monotone(0, 2)", 256, True), ("monotone(0, 2)", 257, False),
    ("arange(0, 2)", 128, True), ("arange(0, 2)", 129, False),
    ("arange(200)", 56, True), ("arange(200)", 57, False),
    # one element: only the start is generated
    ("arange(255, 1)", 1, True), ("arange(255, 1)", 2, False), ("monotone(0, 300)", 1, True),
    ("monotone(0, 300)", 2, False),
    ("uniform(0, 256)", 4, True), ("uniform(0, 256.5)", 4, False),
])
def test_a_generator_must_fit_the_element_type_at_both_ends(gen, n, fits):
    lines = ["kernel k", "grid 1", "block 32", f"arg b inout unsigned char[n] {gen}", f"scalar n = {n}",
             "reference k_ref(b, n)"]
    if fits:
        assert spec_of(lines, BYTES)["k"].args["b"].generator.kind == gen.split("(")[0]
    else:
        e = error_of(lines, BYTES)
        assert "does not fit the element type unsigned char" in e.message and e.hint == "unsigned char holds 0 to 255"


@pytest.mark.parametrize("seed,ok", [("18446744073709551615", True), ("18446744073709551616", False),
                                     ("18446744073709551617", False), ("99999999999999999999", False)])
def test_a_seed_is_at_most_64_bits(seed, ok):
    lines = [ln for ln in FULL if not ln.startswith("seed")] + [f"seed {seed}"]
    if ok:
        assert spec_of(lines)["k"].seed == 2 ** 64 - 1
    else:
        assert error_of(lines).message.startswith("seed must be an integer from 0 to 2^64 - 1")


def test_a_uniform_range_wider_than_a_double_is_refused():
    lines = [ln if not ln.startswith("arg        x") else "arg x in float[n] uniform(-1e308, 1e308)" for ln in FULL]
    assert error_of(lines).message == "uniform(-1e308, 1e308): the range is too wide to sample"


def test_buffer_sizes_read_with_binary_units():
    from kernelport.annotations import parse_size

    assert [parse_size(t) for t in ("4096", "256M", "256MiB", "1GiB", "2G", " 3k ", "1t")] == [
        4096, 256 << 20, 256 << 20, 1 << 30, 2 << 30, 3 << 10, 1 << 40]
    assert [parse_size(t) for t in ("", "M", "1.5G", "-1", "2X")] == [None] * 5


@pytest.mark.parametrize("grid,ok", [("2147483647, 65535, 65535", True), ("2147483648", False),
                                     ("1, 65536", False), ("1, 1, 65536", False)])
def test_grid_dimensions_up_to_the_hardware_limits(grid, ok):
    lines = [ln if not ln.startswith("grid") else f"grid {grid}" for ln in FULL]
    if ok:
        assert spec_of(lines)["k"].dims("grid") == (2 ** 31 - 1, 65535, 65535)
    else:
        assert "grid" in error_of(lines).message


def test_a_block_of_exactly_the_hardware_limit_is_accepted():
    """1024 threads is the most CUDA, HIP and Metal allow per block, and a valid block; one more is not."""
    lines = [ln if ln.split()[0] != "block" else "block 512, 2" for ln in FULL]
    assert spec_of(lines)["k"].dims("block") == (512, 2, 1)
    lines = [ln if ln.split()[0] != "block" else "block 1024" for ln in FULL]
    assert spec_of(lines)["k"].dims("block") == (1024, 1, 1)
    assert error_of([ln if ln.split()[0] != "block" else "block 513, 2" for ln in FULL]).message == \
        "block has 1026 threads"


def test_an_error_inside_a_tolerance_value_points_into_that_value():
    lines = [ln if ln.split()[0] != "tolerance" else "tolerance abs=(1 rel=2e-4" for ln in FULL]
    e = error_of(lines)
    text = "// @kp tolerance abs=(1 rel=2e-4"
    assert e.message == "expected ')' before the end"
    assert (e.location.line, e.location.column) == (14, text.index("(1") + 3)  # just past '(1'


def test_only_a_grid_reads_warpsize_as_the_run_s_wave():
    """A grid may name warpSize (the run's wave); a block is fixed by the launch, so there the name
    is only an annotated scalar's, whatever wave the run has."""
    lines = FULL[:9] + ["scalar warpSize = 64"] + FULL[9:]
    lines = [ln if ln.split()[0] != "block" else "block warpSize, 2" for ln in lines]
    s = spec_of(lines)["k"]
    assert s.dims("block") == (64, 2, 1) and s.dims("block", wave=32) == (64, 2, 1)


def test_a_buffer_of_a_cuda_vector_type_or_bools_is_annotated_by_its_type():
    kernel = ("__global__ void v(uchar4 *dst, const double4 *src, bool *hit) {\n"
              "  int i = threadIdx.x; dst[i] = make_uchar4(1, 2, 3, (unsigned char)src[i].w); hit[i] = true; }\n")
    s = spec_of(["kernel v", "arg dst out uchar4[64]", "arg src in double4[64] uniform(-1, 1)", "arg hit out bool[64]",
                 "grid 1", "block 64", "why one block of 64"], kernel)["v"]
    assert [(a.name, a.type) for a in s.args.values()] == [("dst", "uchar4"), ("src", "double4"), ("hit", "bool")]
    e = error_of(["kernel v", "arg dst out uchar5[64]", "grid 1", "block 64"], kernel)  # not a CUDA vector type
    assert "unknown element type 'uchar5'" in e.message


def test_an_annotation_without_a_key_is_located_and_warp_width_is_left_to_its_reader():
    """`// @kp` alone is an error at where the key should be; `// @kp warp-width 16` is about the
    next function and read elsewhere: a block holding it is read as if it were not there."""
    e = error_of(FULL[:2] + [""] + FULL[2:])
    assert e.message == "annotation without a key" and (e.location.line, e.location.column) == (3, 8)
    s = spec_of(FULL[:2] + ["warp-width 16"] + FULL[2:])["k"]
    assert s.dims("block") == (128, 2, 1) and s.warnings == []


STRUCT = """struct P { const float* a; int n; };
__global__ void k(P p, float* y) { }
void k_ref(P p, float* y) { }
"""


def test_the_fields_of_a_struct_parameter_are_given_one_by_one():
    s = spec_of(["grid 1", "block 32", "why w", "arg p.a in float[8] uniform(0, 1)", "scalar p.n = 8",
                 "arg y out float[8]"], STRUCT)["k"]
    assert list(s.args) == ["p.a", "y"] and s.scalar_values() == {"p.n": 8}
    from kernelport.annotations import struct_fields

    assert struct_fields(s, "p") == ["p.a", "p.n"] and struct_fields(s, "y") == []


@pytest.mark.parametrize("line", ["arg y.f in float[8] uniform(0, 1)", "scalar y.f = 1"])
def test_a_field_of_a_pointer_parameter_is_refused(line):
    e = error_of(["grid 1", "block 32", "why w", "arg p.a in float[8] uniform(0, 1)", "scalar p.n = 8", line,
                  "arg y out float[8]"], STRUCT)
    assert e.message == "'y' is a pointer: fields are given for a struct passed by value" and e.location.line == 6


def test_a_reference_must_be_host_code():
    kern = "__global__ void k(float* y) { }\n__device__ void k_ref(float* y) { }\n"
    e = error_of(["grid 1", "block 32", "why w", "arg y out float[4]", "reference k_ref(y)"], kern)
    assert e.message == "reference 'k_ref' is a device function" and e.location.line == 5


@pytest.mark.parametrize("shared, ok", [("0", True), ("-1", False)])
def test_shared_memory_is_at_least_zero_bytes(shared, ok):
    lines = [ln if ln.split()[0] != "shared" else f"shared {shared}" for ln in FULL]
    if ok:
        assert spec_of(lines)["k"].shared_bytes() == 0
    else:
        assert error_of(lines).message == "shared memory size '-1' is -1 bytes"


def test_an_empty_budget_setting_is_the_default(monkeypatch):
    from kernelport.annotations import BUDGET_ENV, DEFAULT_BUFFER_BUDGET, buffer_budget

    for raw in ("", "  "):
        monkeypatch.setenv(BUDGET_ENV, raw)
        assert buffer_budget() == DEFAULT_BUFFER_BUDGET
    monkeypatch.setenv(BUDGET_ENV, "2k")
    assert buffer_budget() == 2048


def test_the_budget_counts_each_buffer_s_bytes_by_its_type(monkeypatch):
    """8 floats and 8 doubles take 96 bytes: a budget of 95 stops at the second buffer."""
    from kernelport.annotations import BUDGET_ENV

    kern = "__global__ void k(float* a, double* b) { }\n"
    lines = ["grid 1", "block 32", "why w", "arg a out float[8]", "arg b out double[8]"]
    monkeypatch.setenv(BUDGET_ENV, "96")
    spec_of(lines, kern)
    monkeypatch.setenv(BUDGET_ENV, "95")
    e = error_of(lines, kern)
    assert e.message == "the buffers up to 'b' take 96 bytes, over the budget of 95 bytes" and e.location.line == 5


@pytest.mark.parametrize("typ, fits", [("float", True), ("float4", False), ("float2", True)])
def test_a_vector_buffer_s_generator_must_fit_every_lane(typ, fits):
    """float4[10] is 40 floats: arange(0, 1.5e37) reaches 5.85e38 there (beyond float's 3.4e38),
    2.85e38 in a float2[10] (20 floats; 30 would reach 4.35e38), 1.35e38 in a float[10]."""
    kern = f"__global__ void k({typ}* x) {{ }}\n"
    lines = ["grid 1", "block 32", "why w", f"arg x in {typ}[10] arange(0, 1.5e37)"]
    if fits:
        assert spec_of(lines, kern)["k"].args["x"].type == typ
    else:
        assert "does not fit the element type float4" in error_of(lines, kern).message


def test_a_dialect_s_bfloat16_buffer_is_an_element_type():
    kern = "__global__ void k(__nv_bfloat16* x) { }\n"
    s = spec_of(["grid 1", "block 32", "why w", "arg x in __nv_bfloat16[4] uniform(-1, 1)"], kern)["k"]
    assert s.args["x"].type == "__nv_bfloat16"
    assert "unknown element type '__nv_bfloatx'" in error_of(
        ["grid 1", "block 32", "why w", "arg x in __nv_bfloatx[4] uniform(-1, 1)"], kern).message


@pytest.mark.parametrize("grid, hint", [("n / 0", "the divisor must not be 0"), ("1 << 40", "use a wider left operand")])
def test_an_expression_error_keeps_the_evaluator_s_own_hint(grid, hint):
    e = error_of([ln if ln.split()[0] != "grid" else f"grid {grid}" for ln in FULL])
    assert e.hint.startswith(hint), e.hint


def test_ordinary_comments_between_and_around_annotation_lines_are_skipped():
    """A plain comment is no annotation: reading goes on past it to the lines and kernels after it."""
    text = ("// a file header\n// @kp grid 1\n// a note between the lines\n// @kp block 32\n// @kp scalar n = 3\n"
            "/* a block comment */\n__global__ void k(int n) { }\n// another note\n"
            "// @kp grid 2\n// @kp block 64\n// @kp scalar n = 3\n__global__ void j(int n) { }\n")
    specs = parse(build(SourceFile.from_text(text, "k.cu")))
    assert {n: (s.dims("grid"), s.dims("block")) for n, s in specs.items()} == {
        "k": ((1, 1, 1), (32, 1, 1)), "j": ((2, 1, 1), (64, 1, 1))}
