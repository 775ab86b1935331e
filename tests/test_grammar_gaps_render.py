"""C++ that a path-tracing library's math headers write and tree-sitter's grammar lacks (heldout25:
every CudaTracerLib unit stopped at a parse error before any port): each is masked in the copy the
grammar sees, the port keeps the source's text, and the port compiles with hipcc."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool


def src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "m.cu")


def compiles(text: str) -> None:
    """The port compiles with hipcc for gfx90a and gfx1030."""
    require_tool("hipcc")
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "m.hip"
        f.write_text(text)
        assert_hip_file_compiles(f, ["gfx90a", "gfx1030"])


def hip(code: str) -> str:
    s = src(code)
    assert s.syntax_errors() == [], s.syntax_errors()
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    return text


# A definition macro given a qualifier as an argument (`K` in `K T& a`): `const;` would not parse, so the
# argument is blank to the grammar, as an expression argument is; a type argument stays visible.
QUALIFIER_ARG = """
#define FUNC_IN __host__ __device__ inline
#define MINMAX(TEMPLATE, T, K, MIN, MAX) \\
    TEMPLATE FUNC_IN T lo(K T& a, K T& b) { return MIN; } \\
    TEMPLATE FUNC_IN T hi(K T& a, K T& b) { return MAX; } \\

MINMAX(template <class T>, T, , (a < b) ? a : b, (a > b) ? a : b)
MINMAX(template <class T>, T, const, (a < b) ? a : b, (a > b) ? a : b)
MINMAX(, float, volatile, a, b)
__global__ void k(float* x) { x[threadIdx.x] = lo(x[0], x[1]) + hi(x[2], x[3]); }
"""


def test_a_definition_macro_given_a_qualifier_parses_at_file_scope():
    text = hip(QUALIFIER_ARG)
    assert "MINMAX(template <class T>, T, const, (a < b) ? a : b, (a > b) ? a : b)\n" in text
    s = src(QUALIFIER_ARG)
    data = textwrap.dedent(QUALIFIER_ARG).encode()
    blanked = {data[m.start:m.end] for m in s.masks if m.name == "MINMAX"}
    assert b"const" in blanked and b"volatile" in blanked
    assert b"float" not in blanked and b"T" not in blanked  # the look-alikes: types stay visible


# A member template declared deleted, and a member calling the object's own call operator as a statement.
MEMBERS = """
template <typename T, int L> struct VecBase { T v[L]; };
template <typename T> struct Norm {
    T x;
    Norm& operator+=(const T& a) = delete;
    template <int L> Norm& operator+=(const VecBase<T, L>& v) = delete;
    template <int L> Norm& operator-=(const VecBase<T, L>& v) { return *this; }
};
struct Mat {
    float d[16];
    __host__ __device__ float& operator()(int i, int j) { return d[i * 4 + j]; }
    __host__ __device__ void row(int i, float x) {
        operator()(i, 0) = x;
        operator()(i, 1) = x + operator()(i, 0);
    }
    Mat() = default;
};
__global__ void k(Mat* m, Norm<float>* n) { m->row(threadIdx.x, n->x); }
"""


def test_a_deleted_member_template_and_a_call_operator_statement_parse():
    text = hip(MEMBERS)
    assert "template <int L> Norm& operator+=(const VecBase<T, L>& v) = delete;" in text
    assert "        operator()(i, 0) = x;" in text
    masks = {m.name for m in src(MEMBERS).masks}
    assert masks == {"= delete", "operator()"}, masks  # `Mat() = default;` and the plain members: no mask
    compiles(text)


# A using-declaration of a dependent base's type (heldout28: gpuATTRACT's IntrplGrid.h, included by
# three of its units, each a parse error): `typename` is blank to the grammar, the port keeps it.
USING_TYPENAME = """
template <typename R> struct Grid { typedef R real_t; R* _pos; };
template <typename R>
class Intrpl : public Grid<R> {
    using grid_t = Grid<R>;
    using typename grid_t::real_t;
    using grid_t::_pos;
public:
    __host__ __device__ real_t first() const { return _pos[0]; }
};
template <typename R>
__global__ void k(Intrpl<R> g, R* out) { out[threadIdx.x] = g.first(); }
template __global__ void k<float>(Intrpl<float>, float*);
template <typename T> using Ptr = T*;
"""


def test_a_using_typename_declaration_parses_and_stays():
    text = hip(USING_TYPENAME)
    assert "    using typename grid_t::real_t;\n" in text
    assert [m.name for m in src(USING_TYPENAME).masks] == ["typename"]  # the template heads' and alias's: none
    compiles(text)


# A statement that assigns through the object's own subscript operator by its function name
# (heldout33: GpuShareSat's CorrespArr.cuh, `operator[](i) = val;` in a host array class's setAllTo,
# a parse error that left the header unported in seven of its eleven units): seen as
# `(*this)[   i] = val;`, the port keeps the source's text.
SUBSCRIPT = """
template <typename T> struct Arr {
    T* p; int n;
    __host__ __device__ T& operator[](int i) { return p[i]; }
    __host__ __device__ void setAllTo(T val) {
        for (int i = 0; i < n; i++) {
            operator[](i) = val;
        }
    }
    __host__ __device__ T first() { return operator[](0); }
};
__global__ void k(Arr<float>* a) { if (threadIdx.x == 0) a->setAllTo(a->first()); }
"""


def test_a_subscript_operator_statement_parses_and_the_port_compiles():
    text = hip(SUBSCRIPT)
    assert "            operator[](i) = val;" in text
    assert "return operator[](0);" in text
    masks = {m.name for m in src(SUBSCRIPT).masks}
    assert masks == {"operator[]"}, masks  # the expression `return operator[](0);` needs none
    compiles(text)


# C++17's using-declaration of several names (heldout53: cuinterval's tests/tests_rounding.cu, `using
# cu::intrinsic::round_down, cu::intrinsic::round_up;` in a function object's operator(), a parse error):
# the names after the first comma are blank to the grammar, the port keeps the whole declaration.
USING_LIST = """
namespace cu { namespace intrinsic {
template <int N> __device__ double round_down(double x) { return x - N; }
template <int N> __device__ double round_up(double x) { return x + N; }
} }
struct I { double lb, ub; };
struct rounding_fn {
    template <typename T, int N = 2>
    __device__ T operator()(const T &x, int n) const
    {
        using cu::intrinsic::round_down, cu::intrinsic::round_up;
        return { round_down<N>(x.lb), round_up<N>(x.ub) };
    }
};
__global__ void k(I* v) { v[0] = rounding_fn{}(v[1], 2); }
"""


def test_a_using_declaration_of_several_names_parses_and_stays():
    text = hip(USING_LIST)
    assert "        using cu::intrinsic::round_down, cu::intrinsic::round_up;\n" in text
    assert [m.name for m in src(USING_LIST).masks] == ["using list"]
    compiles(text)


def test_a_single_using_declaration_alias_and_directive_are_not_masked():
    look_alike = USING_LIST.replace("using cu::intrinsic::round_down, cu::intrinsic::round_up;",
                                    "using cu::intrinsic::round_down; using namespace cu::intrinsic; using F = double;")
    text = hip(look_alike)
    assert "using cu::intrinsic::round_down; using namespace cu::intrinsic; using F = double;" in text
    assert list(src(look_alike).masks) == []


def test_many_using_declarations_of_several_names_all_parse():
    """cuinterval's operations.cuh writes 54 of them: each an error site, more than the repair's parses reach
    one at a time (its header was left unported); they are masked together."""
    many = USING_LIST + "".join(
        f"__device__ double f{k}(double x) {{ using cu::intrinsic::round_down, cu::intrinsic::round_up; "
        f"return round_down<{k}>(x) + round_up<{k}>(x); }}\n" for k in range(200))
    s = src(many)
    assert s.syntax_errors() == [] and [m.name for m in s.masks] == ["using list"] * 201


# A constrained template parameter's default (heldout53: cuinterval's intrinsics.cuh, `template<std::floating_point
# T = double>`, a parse error that left the header, and so its directed-rounding calls, unported)
CONSTRAINED_DEFAULT = """
#include <concepts>
template<std::floating_point T = double>
__device__ T twice(T x) { return x + x; }
template<std::integral I>
__device__ I thrice(I x) { return 3 * x; }
__global__ void k(double* v, int* w) { v[0] = twice(v[1]) + twice<>(v[2]); w[0] = thrice(w[1]); }
"""


def test_a_constrained_template_parameters_default_parses_and_stays(tmp_path):
    text = hip(CONSTRAINED_DEFAULT)
    assert "template<std::floating_point T = double>\n" in text
    assert [m.name for m in src(CONSTRAINED_DEFAULT).masks] == ["constrained default"]
    require_tool("hipcc")
    f = tmp_path / "m.hip"
    f.write_text(text)
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"], extra_args=["-std=c++20"])
    # look-alike: a plain type parameter's default is the grammar's own
    assert list(src(CONSTRAINED_DEFAULT.replace("std::floating_point T", "typename T")).masks) == []
