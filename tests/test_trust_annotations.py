"""Annotation expressions are C, evaluated with checked arithmetic; every value is range-checked;
every problem is one located line with a hint and exit 2 (issue 16's reproducers)."""
from __future__ import annotations

import pytest

from kernelport import cexpr
from trust_support import kernel, kp, kp_inproc, line_of

# (template fields, annotation key whose line the error is on, column or None, message part)
BAD = [
    (dict(grid="ceil_div(n, 0)"), "grid", "0)", "ceil_div by zero"),
    (dict(grid="ceil_div(n)"), "grid", "ceil_div", "ceil_div() takes 2 arguments, got 1"),
    (dict(grid="min(n)"), "grid", "min", "min() takes 2 arguments, got 1"),
    (dict(grid="max(n, 1, 2)"), "grid", "max", "max() takes 2 arguments, got 3"),
    (dict(grid="1 << -1"), "grid", "-1", "shift count -1 is out of range"),
    (dict(grid="1 << 100000000000"), "grid", "1000", "shift count 100000000000 is out of range for int"),
    (dict(grid="1<<62"), "grid", "62", "shift count 62 is out of range for int"),
    (dict(grid="1 << 31"), "grid", "<<", "'<<' overflows int"),
    (dict(grid="2147483647 + 1"), "grid", "+", "'+' overflows int"),
    (dict(grid="1LL << 40"), "grid", "1LL", "grid dimension x '1LL << 40' is 1099511627776"),
    (dict(grid="1, 65536"), "grid", "65536", "grid dimension y '65536' is 65536"),
    (dict(grid="0"), "grid", "0", "grid dimension x '0' is 0"),
    (dict(grid="2.5"), "grid", "2.5", "is a double (2.5), not an integer"),
    (dict(grid="64 // 2"), "grid", "//", "'//' is not a C operator"),
    (dict(grid="1 if 1 else 2"), "grid", "if", "Python's 'x if c else y' is not C"),
    (dict(grid="2 ** 10"), "grid", "**", "'**' is not a C operator"),
    (dict(grid="n and 1"), "grid", "and", "Python's 'and' is not C"),
    (dict(grid="n / (n - 1000)"), "grid", "(", "division by zero"),
    (dict(grid="n % 0"), "grid", "0", "remainder by zero"),
    (dict(grid="1.5 % 2"), "grid", "1.5", "the operands of '%' must be integers"),
    (dict(grid="(" * 150 + "1" + ")" * 150), "grid", None, "nested too deeply"),
    (dict(grid="+".join(["1"] * 1000)), "grid", None, "nested too deeply"),
    (dict(grid="+".join(["1"] * 5000)), "grid", None, "expression longer than 4096 characters"),
    (dict(grid="foo(n)"), "grid", "foo", "unknown function 'foo'"),
    (dict(grid="m"), "grid", "m", "unknown name 'm'"),
    (dict(grid="99999999999999999999999"), "grid", "9", "too large"),
    (dict(block="2048"), "block", "2048", "block dimension x '2048' is 2048"),
    (dict(block="32, 64"), "block", "32", "block has 2048 threads"),
    (dict(block="1, 1, 65"), "block", "65", "block dimension z '65' is 65"),
    (dict(n="1e400"), "scalar    n", "1e400", "floating literal 1e400 is out of the range of double"),
    (dict(n="2147483648"), "scalar    n", "2147483648", "scalar 'n': 2147483648 does not fit int"),
    (dict(n="1 << 80"), "scalar    n", "80", "shift count 80 is out of range"),
    (dict(n="2.5"), "scalar    n", "2.5", "2.5 is not an integer, but int is an integer type"),
    (dict(a="1e39"), "scalar    a", "1e39", "out of the range of float"),
    (dict(a="0x1p99999"), "scalar    a", "0x1p", "floating literal 0x1p99999 is out of the range of double"),
    (dict(xlen="n - 2000"), "arg       x", "n -", "length of 'x' evaluates to -1000"),
    (dict(xgen="normal(0, -1)"), "arg       x", "normal", "the standard deviation must be positive"),
    (dict(xgen="normal(0, 0)"), "arg       x", "normal", "the standard deviation must be positive"),
    (dict(xgen="uniform(0, 1e400)"), "arg       x", "1e400", "floating literal 1e400 is out of the range of double"),
    (dict(xgen="uniform(-1e308, 1e308)"), "arg       x", "uniform", "the range is too wide"),
    (dict(xgen="uniform(1, 0)"), "arg       x", "uniform", "the upper bound must be above the lower one"),
    (dict(xgen="uniform(-1e39, 0)"), "arg       x", "uniform", "does not fit the element type float"),
    (dict(xgen="constant(1e39)"), "arg       x", "constant", "does not fit the element type float"),
    (dict(xgen="normal(0, 1e38)"), "arg       x", "normal", "does not fit the element type float"),
    (dict(xtype="int", xgen="integers(0, 10000000000)"), "arg       x", "integers", "does not fit the element type int"),
    (dict(xtype="int", xgen="integers(0, 2.5)"), "arg       x", "integers", "the bounds must be integers"),
    (dict(xtype="unsigned char", xgen="arange(0, 1)"), "arg       x", "arange", "gives 999, which does not fit"),
    (dict(xlen="1 << 40"), "arg       x", "40", "shift count 40 is out of range for int"),
    (dict(xlen="1LL << 40"), "arg       x", "1LL", "over the budget of 268435456 bytes"),
    (dict(tol="abs=1e400"), "tolerance", "1e400", "floating literal 1e400 is out of the range of double"),
    (dict(tol="abs=-1"), "tolerance", "-1", "must be a finite value >= 0"),
    (dict(tol="abs=e"), "tolerance", "e", "unknown name 'e'"),
]


@pytest.mark.parametrize("fields, key, anchor, what", BAD, ids=[f"{k}:{w[:30]}" for _, k, _, w in BAD])
def test_bad_annotation_value_is_located_exit_2(tmp_path, fields, key, anchor, what):
    """One line, `file:line:col: error: ... (hint: ...)`, the column at `anchor` (the first
    occurrence after the key), exit 2."""
    text = kernel(**fields)
    f = tmp_path / "k.cu"
    f.write_text(text)
    rc, out, err = kp_inproc("translate", f, "--stdout")
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and what in lines[0] and "(hint: " in lines[0], err
    n = line_of(text, key)
    where = f"{f}:{n}:"
    if anchor is not None:
        src = text.splitlines()[n - 1]
        where += f"{src.index(anchor, src.index(key) + len(key)) + 1}: error: "
    assert lines[0].startswith(where), (where, lines[0])


GOOD = [
    dict(grid="n > 500 ? 4 : 2"),
    dict(grid="ceil_div(n, 256), 1, 1", block="256, 1, 1"),
    dict(grid="(1 << 18) / 256"),
    dict(n="(1 << 18) + 7"),
    dict(n="0x400"),
    dict(n="1000u"),  # fits int: unsigned 1000 converts exactly
    dict(a="2.5f"),
    dict(a="-0x1.8p1"),
    dict(xlen="n * sizeof(float) / 4"),
    dict(block="32, 32"),
    dict(xtype="int", xgen="integers(-8, 8)"),
    dict(tol="abs=1e-6 rel=1e-5"),
]


@pytest.mark.parametrize("fields", GOOD, ids=[str(g) for g in GOOD])
def test_good_c_expressions_are_accepted(tmp_path, fields):
    f = tmp_path / "k.cu"
    f.write_text(kernel(**fields))
    rc, out, err = kp_inproc("translate", f, "--stdout")
    assert rc == 0, err
    assert "error" not in err


def test_buffer_budget_can_be_raised(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(kernel(xlen="1LL << 40"))
    assert kp_inproc("translate", f, "--stdout")[0] == 2
    rc, _, err = kp_inproc("translate", f, "--stdout", env={"KERNELPORT_MAX_BUFFER_BYTES": "8T"})
    assert rc == 0, err
    rc, _, err = kp_inproc("translate", f, "--stdout", env={"KERNELPORT_MAX_BUFFER_BYTES": "lots"})
    assert rc == 2 and "KERNELPORT_MAX_BUFFER_BYTES='lots' is not a size" in err
    # verify's option says the same; the budget is checked before anything is allocated
    f.write_text(kernel(n="1 << 20"))
    rc, out, err = kp_inproc("verify", f, "--max-buffer-bytes", "1M")
    assert rc == 2 and "over the budget of 1048576 bytes" in out and "--max-buffer-bytes" in out
    rc, _, err = kp_inproc("verify", f, "--max-buffer-bytes", "huge")
    assert rc == 2 and "--max-buffer-bytes" in err


def test_lint_reports_invalid_annotations_exit_2(tmp_path):
    f = tmp_path / "k.cu"
    text = kernel(grid="ceil_div(n, 0)")
    f.write_text(text)
    r = kp("lint", f, "--format", "concise")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{f}:{line_of(text, 'grid')}:30: KP007" in r.stdout and "ceil_div by zero" in r.stdout
    f.write_text(kernel())
    r = kp("lint", f, "--format", "concise")
    assert "KP007" not in r.stdout


def test_verify_stops_on_an_invalid_annotation_exit_2(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(kernel(n="2147483648"))
    rc, out, err = kp_inproc("verify", f, "--format", "json")
    assert rc == 2, out + err
    assert "does not fit int" in out + err


# The evaluator's C semantics, value by value (what a C compiler's constant folder gives).
VALUES = [
    ("-7 / 2", -3, "int"), ("-7 % 2", -1, "int"), ("7 / -2", -3, "int"), ("1u - 2", 4294967295, "unsigned int"),
    ("-1 < 0u", 0, "int"), ("-1 < 0", 1, "int"), ("0xffffffff", 4294967295, "unsigned int"),
    ("2147483648", 2147483648, "long"), ("1LL << 62", 1 << 62, "long long"), ("~0u", 4294967295, "unsigned int"),
    ("(unsigned char)300", 44, "int"), ("(int)3.9", 3, "int"), ("(int)-3.9", -3, "int"), ("0 ? 1 / 0 : 5", 5, "int"),
    ("1 || 1 / 0", 1, "int"), ("0 && 1 / 0", 0, "int"), ("1 ? 2 : 3.0", 2.0, "double"), ("3 > 2 > 1", 0, "int"),
    ("256 * sizeof(float)", 1024, "unsigned long"), ("ceil_div(-7, 2)", -3, "int"), ("ceil_div(7, 2)", 4, "int"),
    ("min(-1, 1u)", 1, "unsigned int"), ("2.5f", 2.5, "float"), ("0x1p-2", 0.25, "double"),
    ("1 + 2 * 3 << 1", 14, "int"), ("5 & 3 | 8 ^ 1", 9, "int"), ("-2147483647 - 1", -2147483648, "int"),
    ("2147483646 + 1", 2147483647, "int"), ("9223372036854775806LL + 1", 9223372036854775807, "long long"),
    ("(float)1 / 3", 0.3333333432674408, "float"), ("!5", 0, "int"), ("-(-128 >> 1)", 64, "int"),
    ("3.4028235e38f", 3.4028234663852886e38, "float"), ("(half)65519.0", 65504.0, "half"),
    ("(float)1e-50", 0.0, "float"), ("-1 / 1", -1, "int"), ("-1 / -1", 1, "int"), ("1 / -1", -1, "int"),
    # values beyond CPython's small-int cache: comparisons by value, never by identity
    ("100000 != 100000", 0, "int"), ("100000 <= 100000", 1, "int"), ("100000 == 100000", 1, "int"),
    ("100000 >= 100000", 1, "int"), ("max(1, 2)", 2, "int"), ("max(2, 1)", 2, "int"), ("min(2, 1)", 1, "int"),
    ("0 && 0 | 1", 0, "int"), ("1 || 1 & 0", 1, "int"), ("3 != 4", 1, "int"), ("100000 != 100001", 1, "int"),
    # a conditional's type is its two results' common type; the condition's type plays no part
    ("1.5 ? 2 : 3", 2, "int"), ("1.5 ? 2u : 3", 2, "unsigned int"),
    # any non-zero condition is true, a negative one too
    ("-1 ? 2 : 3", 2, "int"), ("-0.5 ? 2 : 3", 2, "int"), ("0.0 ? 2 : 3", 3, "int"),
    ("sizeof(double) + sizeof(unsigned long long) + sizeof(char)", 17, "unsigned long"),
    ("sizeof(unsigned long) + sizeof(long) + sizeof(size_t)", 24, "unsigned long"),
    # relational operators bind tighter than equality ones (clang-15 prints these values)
    ("2 == 3 < 4", 0, "int"), ("2 == 3 <= 4", 0, "int"), ("1 == 3 > 1", 1, "int"), ("1 == 3 >= 1", 1, "int"),
    ("0 != 3 > 1", 1, "int"),
    # every level of C's precedence against its neighbours, left to right within one (clang-15's values)
    ("1 >= 0 << 1", 1, "int"), ("3 > 1 << 1", 1, "int"), ("1 < 1 << 1", 1, "int"), ("2 <= 1 << 1", 1, "int"),
    ("1 & 2 == 2", 1, "int"), ("6 ^ 2 == 2", 7, "int"), ("1 | 2 ^ 3", 1, "int"), ("6 & 3 ^ 1", 3, "int"),
    ("1 || 1 && 0", 1, "int"), ("2 | 1 && 0", 0, "int"), ("8 >> 1 + 1", 2, "int"), ("1 << 2 * 2", 16, "int"),
    ("7 - 2 - 1", 4, "int"), ("16 / 4 / 2", 2, "int"), ("7 % 4 * 2", 6, "int"), ("1 != 2 == 1", 1, "int"),
    ("1 ^ 3 & 2", 3, "int"), ("1 & 2 != 0", 1, "int"), ("1 << 2 + 1", 8, "int"), ("1 < 8 >> 2", 1, "int"),
    ("1 << 3 - 1", 4, "int"), ("7 - 2 * 3", 1, "int"), ("7 * 3 / 2", 10, "int"), ("1 + 6 / 3", 3, "int"),
    ("7 * 5 % 3", 2, "int"),
    # each comparison where it is false (a true one can hide a comparison by identity)
    ("2 < 1", 0, "int"), ("3 <= 2", 0, "int"), ("1 > 2", 0, "int"), ("1 >= 2", 0, "int"),
    # && and || give 1 for any non-zero second operand, 0 for a zero one
    ("1 && 1", 1, "int"), ("0 || 1", 1, "int"), ("2 && -3", 1, "int"), ("0 || 0.5", 1, "int"), ("1 && 0", 0, "int"),
    ("0 || 0", 0, "int"),
    # literals: every base and suffix, typed as C types them
    ("0b101", 5, "int"), ("017", 15, "int"), ("0", 0, "int"), ("0x80000000", 2147483648, "unsigned int"),
    ("0xffffffffffffffff", 18446744073709551615, "unsigned long"), ("4294967296", 4294967296, "long"),
    ("1l", 1, "long"), ("1ul", 1, "unsigned long"), ("1LL", 1, "long long"), ("1LLU", 1, "unsigned long long"),
    (".5", 0.5, "double"), ("1e3", 1000.0, "double"), ("0x1.8p1f", 3.0, "float"),
    # shifts, casts and unary operators in the promoted type
    ("-8 >> 1", -4, "int"), ("0xf0u >> 4", 15, "unsigned int"), ("1 << 0", 1, "int"), ("(char)200", -56, "int"),
    ("~(unsigned char)0", -1, "int"), ("(bool)5", 1, "int"), ("(unsigned)-1", 4294967295, "unsigned int"),
    ("-1u", 4294967295, "unsigned int"), ("+3u", 3, "unsigned int"), ("(const int)3.5", 3, "int"),
    ("(float)16777217", 16777216.0, "float"), ("!0.0", 1, "int"), ("5 ^ 3", 6, "int"), ("6 & 3", 2, "int"),
    ("6 | 3", 7, "int"), ("7 % -2", 1, "int"), ("-7 % -2", -1, "int"), ("ceil_div(-7, -2)", 4, "int"),
    ("ceil_div(8u, 3)", 3, "unsigned int"), ("min(-1, 2)", -1, "int"), ("max(1.5, 2)", 2.0, "double"),
    ("sizeof(int4)", 16, "unsigned long"), ("sizeof(const float)", 4, "unsigned long"),
    ("1.5f * 2", 3.0, "float"), ("1 + 2.5f", 3.5, "float"), ("2.5 < 3", 1, "int"), ("1.5 == 1.5f", 1, "int"),
    # floating arithmetic, rounded to its type
    ("2.5 - 0.75", 1.75, "double"), ("0.1f + 0.2f", 0.30000001192092896, "float"),
    ("1.5 * 0.1", 0.15000000000000002, "double"),
]


@pytest.mark.parametrize("expr, value, type_", VALUES, ids=[v[0] for v in VALUES])
def test_c_semantics(expr, value, type_):
    v = cexpr.evaluate_typed(expr, {})
    assert (v.v, v.type.name) == (value, type_)


@pytest.mark.parametrize("expr", ["(-2147483647 - 1) / -1", "-(-2147483647 - 1)", "-1 << 1", "65536 * 65536",
                                  "9223372036854775807LL + 1", "1e308 * 10", "1.0 / 0", "(int)1e10", "sizeof(x)",
                                  "1 ? 2", "1 +", "()", "'a'", "a = 1", "x[1]", "3.4028235677973366e38f",
                                  "(float)3.4028235677973366e38", "(half)65520.0", "3e38f * 2",
                                  "ceil_div(7.5, 2)", "ceil_div(8, 2.0f)"])
def test_invalid_c_is_an_error_not_a_python_value(expr):
    with pytest.raises(cexpr.CExprError) as e:
        cexpr.evaluate_typed(expr, {})
    assert e.value.hint


@pytest.mark.parametrize("bits", [8, 16, 32, 64])
def test_sizeof_a_fixed_width_integer_is_its_width_in_bytes(bits):
    for name in (f"int{bits}_t", f"uint{bits}_t"):
        assert cexpr.evaluate(f"sizeof({name})", {}) == bits // 8, name


# clang-15's sizeof on x86-64 (LP64, as nvcc's and hipcc's hosts), and CUDA's for its half and vector types
SIZES = {"char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "short": 2, "unsigned short": 2, "int": 4,
         "unsigned": 4, "unsigned int": 4, "uint": 4, "float": 4, "long long": 8, "unsigned long long": 8, "long": 8,
         "unsigned long": 8, "double": 8, "size_t": 8, "half": 2, "__half": 2, "__nv_bfloat16": 2, "float2": 8,
         "float4": 16, "int2": 8, "int4": 16, "uint2": 8, "uint4": 16}


@pytest.mark.parametrize("name, size", list(SIZES.items()))
def test_sizeof_a_type_is_its_size_on_the_host(name, size):
    v = cexpr.evaluate_typed(f"sizeof({name})", {})
    assert (v.v, v.type.name) == (size, "unsigned long")


@pytest.mark.parametrize("value, type_", [(5, "int"), (-(1 << 31), "int"), (1 << 31, "long long"),
                                         (1 << 40, "long long"), (1 << 63, "unsigned long long")])
def test_a_python_number_given_for_a_name_is_typed_as_c_types_that_literal(value, type_):
    """A scalar handed in as a Python int takes the first of int, long long, unsigned long long that
    holds it (as a C literal without suffix would)."""
    v = cexpr.evaluate_typed("n", {"n": value})
    assert (v.v, v.type.name) == (value, type_)


def test_a_shift_count_error_names_the_range_of_its_type():
    for expr, rng in (("1 << 32", "0 to 31"), ("1LL << 64", "0 to 63"), ("1 << -1", "0 to 31")):
        with pytest.raises(cexpr.CExprError) as e:
            cexpr.evaluate_typed(expr, {})
        assert "is out of range for" in str(e.value) and f"({rng})" in str(e.value), str(e.value)


def test_an_error_in_an_operand_points_where_that_operand_starts():
    """The offending operand is itself an operation: the error points at its first character (the
    annotation's error column), not at its last operand."""
    for expr, at in (("1 << 16 * 4", "16 * 4"), ("ceil_div(8, 2 - 2)", "2 - 2"), ("1.5 * 2 % 3", "1.5 * 2")):
        with pytest.raises(cexpr.CExprError) as e:
            cexpr.evaluate_typed(expr, {})
        assert e.value.offset == expr.index(at), (expr, str(e.value), e.value.offset)


def test_an_overflow_hint_names_the_wider_type_only_where_there_is_one():
    for expr, hint in (("65536 * 65536", "compute in long long (suffix LL), e.g. 1LL << 40"),
                       ("2147483647 + 1", "compute in long long (suffix LL), e.g. 1LL << 40"),
                       ("9223372036854775807LL + 1", "use smaller values")):
        with pytest.raises(cexpr.CExprError) as e:
            cexpr.evaluate_typed(expr, {})
        assert "overflows" in str(e.value) and e.value.hint == hint, (expr, e.value.hint)


def test_a_missing_operand_names_the_operator_found_in_its_place():
    for expr, where in (("*3", "*"), ("1 + < 2", "<"), ("min(1,)", ")"), ("1 ? : 2", ":"), ("2 * % 3", "%"),
                        ("1 + & 2", "&")):
        with pytest.raises(cexpr.CExprError) as e:
            cexpr.evaluate_typed(expr, {})
        assert str(e.value) == f"expected a value before '{where}'" and e.value.offset == expr.index(where)


def test_an_empty_expression_is_an_error_where_the_expression_should_start():
    """Its offset is the annotation's error column: the start, after any leading blanks."""
    for expr in ("", "   "):
        with pytest.raises(cexpr.CExprError) as e:
            cexpr.evaluate_typed(expr, {})
        assert str(e.value) == "empty expression" and e.value.offset == len(expr) and e.value.hint


def test_a_name_after_a_complete_expression_is_unexpected_unless_it_is_a_python_word():
    """`1 x` is an unexpected token (located at x); `1 and 2` names Python's word and its C spelling."""
    for expr, at, msg, hint in (("1 x", "x", "unexpected 'x' after a complete expression", None),
                                ("2 * 3 n", "n", "unexpected 'n' after a complete expression", None),
                                ("1 and 2", "and", "Python's 'and' is not C", "write &&")):
        with pytest.raises(cexpr.CExprError) as e:
            cexpr.evaluate_typed(expr, {"n": 4})
        assert (str(e.value), e.value.offset) == (msg, expr.index(at))
        assert hint is None or e.value.hint == hint


def test_a_missing_close_names_what_came_instead():
    for expr, where in (("(1", "the end"), ("(1 2", "'2'"), ("min(1, 2", "the end"), ("min(1 2)", "'2'")):
        with pytest.raises(cexpr.CExprError) as e:
            cexpr.evaluate_typed(expr, {})
        assert str(e.value).startswith("expected ") and f"before {where}" in str(e.value), (expr, str(e.value))


# form: (its expression of k levels, the value at k = MAX_DEPTH)
NESTED = {"parentheses": (lambda k: "(" * k + "1" + ")" * k, 1), "unary minus": (lambda k: "- " * k + "1", 1),
          "operators": (lambda k: " + ".join(["1"] * (k + 1)), cexpr.MAX_DEPTH + 1),
          "conditionals": (lambda k: "1 ? " * k + "1" + " : 0" * k, 1)}


@pytest.mark.parametrize("form", list(NESTED))
def test_an_expression_nested_to_the_limit_is_read_and_one_level_more_is_refused(form):
    """MAX_DEPTH levels of parentheses or operators around an operand are read; one more is the
    located "nested too deeply" error the message counts, not a Python recursion error."""
    nest, value = NESTED[form]
    assert cexpr.evaluate_typed(nest(cexpr.MAX_DEPTH), {}).v == value
    with pytest.raises(cexpr.CExprError, match=rf"nested too deeply \(more than {cexpr.MAX_DEPTH} levels"):
        cexpr.evaluate_typed(nest(cexpr.MAX_DEPTH + 1), {})


@pytest.mark.parametrize("expr, message", [
    ("0b102", "cannot read number '0b102'"), ("1.5L", "long double literal 1.5L is not supported"),
    ("9223372036854775808", "integer literal 9223372036854775808 is too large for its type"),
    ("1" * 71, "integer literal 11111111111111111111... is too large for any C integer type"),
    ("1 @ 2", "unexpected character '@'"), ("sizeof float", "sizeof needs a parenthesised type name"),
    ("sizeof()", "sizeof needs a type name"), ("sizeof(n)", "unknown type in sizeof: n"),
    ("~1.5", "the operands of '~' must be integers, not double"),
    ("1 << 1.5f", "the operands of '<<' must be integers, not float"),
    ("-2 << 1", "left shift of the negative value -2 is undefined in C"),
    ("ceil_div(1.5, 1)", "the operands of ceil_div() must be integers, not double"),
    ("1e308 * 10", "'*' gives a non-finite or out-of-range double (inf)"),
])
def test_an_invalid_expression_is_named_in_its_error(expr, message):
    with pytest.raises(cexpr.CExprError) as e:
        cexpr.evaluate_typed(expr, {"n": 4})
    assert str(e.value) == message and e.value.hint


def test_an_integer_literal_is_sized_by_its_significant_digits_not_its_leading_zeros():
    """C reads 0x0...01 of any length as 1; past 64 significant digits no base fits unsigned long long."""
    assert cexpr.evaluate_typed("0x" + "0" * 100 + "1", {}).v == 1
    assert cexpr.evaluate_typed("0" * 80 + "17", {}).v == 15
    v = cexpr.evaluate_typed("0b1" + "0" * 63, {})   # 64 binary digits: 2**63, unsigned
    assert (v.v, v.type.signed) == (1 << 63, False)
    with pytest.raises(cexpr.CExprError, match="too large for any C integer type"):
        cexpr.evaluate_typed("0b1" + "0" * 64, {})

def test_names_are_read_whatever_their_spelling():
    """A scalar's name is any identifier (`tile`, `z`, one after `sizeof` in the alphabet too); the
    hint of an unknown one lists the names there are."""
    assert cexpr.evaluate_typed("tile * warps + z", {"tile": 4, "warps": 2, "z": 1}).v == 9
    with pytest.raises(cexpr.CExprError) as e:
        cexpr.evaluate_typed("tiles", {"tile": 4, "warps": 2})
    assert str(e.value) == "unknown name 'tiles'" and e.value.hint.endswith("; known: tile, warps")
    with pytest.raises(cexpr.CExprError) as e:
        cexpr.evaluate_typed("tiles", {})
    assert "known" not in e.value.hint


@pytest.mark.parametrize("value, c", [(True, (1, "int")), (5, (5, "int")), (2.5, (2.5, "double")),
                                      (1 << 40, (1 << 40, "long long"))])
def test_a_python_value_given_for_a_name_is_typed_as_c_would_type_it(value, c):
    import numpy as np

    v = cexpr.evaluate_typed("n", {"n": value})
    assert (v.v, v.type.name) == c
    v = cexpr.evaluate_typed("n", {"n": np.array([value]).astype(type(value))[0]})  # a numpy scalar alike
    assert (v.v, v.type.name) == c
    with pytest.raises(cexpr.CExprError, match="too large for any C integer type"):
        cexpr.evaluate_typed("n", {"n": 1 << 64})


@pytest.mark.parametrize("text, parts", [
    ("a, f(b, c), d[1, 2]", [("a", 0), ("f(b, c)", 3), ("d[1, 2]", 12)]),
    ("  x ,y", [("x", 2), ("y", 5)]), ("", [("", 0)]),
])
def test_a_list_is_split_at_its_top_level_commas_with_the_offset_of_each_part(text, parts):
    assert cexpr.split_top_level(text) == parts


def test_template_arguments_nest_only_where_angle_brackets_are_asked_for():
    assert cexpr.split_top_level("A<1, 2>, B", brackets="(<[{") == [("A<1, 2>", 0), ("B", 9)]
    assert cexpr.split_top_level("A<1, 2>, B") == [("A<1", 0), ("2>", 5), ("B", 9)]
    assert cexpr.split_top_level("x; y ", sep=";", strip=False) == [("x", 0), (" y ", 2)]
