"""A member function declared with execution spaces in its class and defined out of the class with none
(heldout25, CudaTracerLib: `CUDA_FUNC_IN NormalizedT<S> normalized() const;` in VectorBase, with
`CUDA_FUNC_IN` = `__host__ __device__ inline`, defined `template <...> NormalizedT<S> VectorBase<T, L,
S>::normalized() const {...}`; and Spline.h's `CTL_EXPORT CUDA_DEVICE CUDA_HOST static float eval(...)`
defined in Spline.cu): nvcc gives the definition the declaration's spaces, hipcc (clang) refused the
port ("__host__ function cannot overload __host__ __device__ function").  The port's definition says them."""
from __future__ import annotations


from conftest import assert_hip_file_compiles, require_tool

SAME_FILE = """\
#define FUNC_IN __host__ __device__ inline
template <class S> struct Unit { S v; __host__ __device__ Unit(S x) : v(x) {} };
template <class T, int L, class S> struct VecBase {
    T x[L];
    FUNC_IN Unit<S> normalized() const;
    FUNC_IN T sum() const;
    T host_only() const;
};
struct V3 : VecBase<float, 3, V3> {};
template <class T, int L, class S> Unit<S> VecBase<T, L, S>::normalized() const { return Unit<S>(S()); }
template <class T, int L, class S> inline T VecBase<T, L, S>::sum() const { return x[0] + x[1] + x[L - 1]; }
template <class T, int L, class S> T VecBase<T, L, S>::host_only() const { return x[0]; }
__global__ void k(V3* v, float* o) { o[0] = v->sum() + v->normalized().v.x[0]; }
"""


def _port(tmp_path, name: str) -> str:
    from trust_support import kp_inproc
    out = tmp_path / "out"
    rc, _, err = kp_inproc("translate", str(tmp_path / name), "--to", "hip", "-o", str(out))
    assert rc == 0, err
    return (out / name.replace(".cu", ".hip")).read_text()


def _compiles(tmp_path, name: str) -> None:
    require_tool("hipcc")
    assert_hip_file_compiles(tmp_path / "out" / name, ["gfx90a", "gfx1030"], extra_args=("-std=c++17", f"-I{tmp_path}"))


def test_an_out_of_class_member_definition_takes_its_in_class_declarations_spaces(tmp_path):
    (tmp_path / "vec.cu").write_text(SAME_FILE)
    text = _port(tmp_path, "vec.cu")
    assert "template <class T, int L, class S> __host__ __device__ Unit<S> VecBase<T, L, S>::normalized() const {" in text
    assert "template <class T, int L, class S> __host__ __device__ inline T VecBase<T, L, S>::sum() const {" in text
    # the look-alike: a member declared with no space stays a host function, as written
    assert "\ntemplate <class T, int L, class S> T VecBase<T, L, S>::host_only() const {" in text
    _compiles(tmp_path, "vec.hip")


def test_a_member_declared_in_an_included_header_gives_its_definition_the_spaces(tmp_path):
    (tmp_path / "defs.h").write_text("#pragma once\n#define HD __host__ __device__\n#define EXPORT\n")
    (tmp_path / "spline.h").write_text(
        '#pragma once\n#include "defs.h"\nclass Spline {\npublic:\n'
        "    EXPORT HD static float eval(float x, const float* v, int n);\n"
        "    static float host_eval(float x);\n};\n")
    (tmp_path / "spline.cu").write_text(
        '#include "spline.h"\n'
        "float Spline::eval(float x, const float* v, int n) { return v[(int)x % n] * x; }\n"
        "float Spline::host_eval(float x) { return x; }\n"
        "__global__ void k(float* o, const float* v) { o[threadIdx.x] = Spline::eval(o[0], v, 4); }\n")
    text = _port(tmp_path, "spline.cu")
    assert "\n__host__ __device__ float Spline::eval(float x, const float* v, int n) {" in text
    assert "\nfloat Spline::host_eval(float x) { return x; }" in text  # declared with none: as written
    _compiles(tmp_path, "spline.hip")


def test_spaces_from_macros_defined_under_ifdef_cudacc_are_the_cuda_compiles(tmp_path):
    """CudaTracerLib's Defines.h: `#ifdef __CUDACC__` / `#define CUDA_HOST __host__` / `#else` / `#define
    CUDA_HOST` (empty): every compile of the CUDA source takes the first branch (nvcc and clang define
    __CUDACC__ on both passes; the port spells it __HIPCC__), so the include walk does too, and the
    definition in the unit takes `__host__ __device__` (was: the `#else`'s empty words, a host function
    that hipcc refused: "__host__ function 'eval' cannot overload __host__ __device__ function")."""
    (tmp_path / "defs.h").write_text(
        "#pragma once\n#ifdef __CUDACC__\n#define CUDA_HOST __host__\n#define CUDA_DEVICE __device__\n"
        "#define ALIGNED(n) __align__(n)\n#else\n#define CUDA_HOST\n#define CUDA_DEVICE\n"
        "#define ALIGNED(n) __declspec(align(n))\n#endif\n")
    (tmp_path / "spline.h").write_text(
        '#pragma once\n#include "defs.h"\nclass Spline {\npublic:\n'
        "    CUDA_DEVICE CUDA_HOST static float eval(float x, const float* v, int n);\n"
        "    CUDA_DEVICE static float dev(float x);\n"
        "    ALIGNED(16) float table[4];\n};\n")
    (tmp_path / "spline.cu").write_text(
        '#include "spline.h"\n'
        "float Spline::eval(float x, const float* v, int n) { return v[(int)x % n] * x; }\n"
        "float Spline::dev(float x) { return x + 1.0f; }\n"
        "__global__ void k(float* o, const float* v) { o[threadIdx.x] = Spline::eval(o[0], v, 4) + Spline::dev(1.0f); }\n")
    text = _port(tmp_path, "spline.cu")
    assert "\n__host__ __device__ float Spline::eval(float x, const float* v, int n) {" in text, text
    assert "\n__device__ float Spline::dev(float x) {" in text, text
    _compiles(tmp_path, "spline.hip")


def test_a_definition_in_the_branch_cuda_compiles_take_is_kept_over_its_else():
    """kernelport.macros.definitions (a file's own macros) takes the `#ifdef __CUDACC__` branch as the
    include walk does; a conditional on any other name keeps the last definition, as before."""
    from kernelport.macros import definitions
    got = definitions(
        "#ifdef __CUDACC__\n#define H __host__\n#else\n#define H\n#endif\n"
        "#ifndef __CUDACC__\n#define A 1\n#else\n#define A 2\n#endif\n"
        "#if defined(__CUDACC__) // NVCC\n#define B x\n#elif defined(_MSC_VER)\n#define B y\n#else\n#define B z\n#endif\n"
        "#if !defined(__CUDACC__)\n#define D host\n#elif defined(_MSC_VER)\n#define D msvc\n#endif\n"
        "#ifdef OTHER\n#define C 1\n#else\n#define C 2\n#endif\n")
    assert {n: m.body for n, m in got.items()} == {"H": "__host__", "A": "2", "B": "x", "D": "msvc", "C": "2"}


def test_a_free_function_declared_through_macros_in_a_header_gives_its_definition_the_spaces(tmp_path):
    """CudaTracerLib's Integrator.h: `CTL_EXPORT CUDA_DEVICE CUDA_HOST float legendreP(int l, float x);`,
    defined bare in Integrator.cu (hipcc: "__host__ function 'legendreP' cannot overload __host__ __device__
    function"); and a unit whose own `#ifdef __CUDACC__` macros give a member its spaces."""
    (tmp_path / "defs.h").write_text(
        "#pragma once\n#ifdef __CUDACC__\n#define CUDA_HOST __host__\n#define CUDA_DEVICE __device__\n#else\n"
        "#define CUDA_HOST\n#define CUDA_DEVICE\n#endif\n#define EXPORT\n")
    (tmp_path / "integ.h").write_text(
        '#pragma once\n#include "defs.h"\nEXPORT CUDA_DEVICE CUDA_HOST float legendre(int l, float x);\n'
        "EXPORT float host_sum(int n);\n")
    (tmp_path / "integ.cu").write_text(
        '#include "integ.h"\n'
        "#ifdef __CUDACC__\n#define HS __host__\n#else\n#define HS\n#endif\n"
        "struct Table { CUDA_DEVICE HS float at(int i) const; float v[4]; };\n"
        "float Table::at(int i) const { return v[i & 3]; }\n"
        "float legendre(int l, float x) { return l == 0 ? 1.0f : x; }\n"
        "float host_sum(int n) { return n * 0.5f; }\n"
        "__global__ void k(float* o, const Table* t) { o[threadIdx.x] = legendre(1, o[0]) + t->at(threadIdx.x); }\n")
    text = _port(tmp_path, "integ.cu")
    assert "\n__host__ __device__ float legendre(int l, float x) {" in text, text
    assert "\n__host__ __device__ float Table::at(int i) const {" in text, text
    assert "\nfloat host_sum(int n) {" in text, text  # declared with no space: as written
    _compiles(tmp_path, "integ.hip")


def test_overloads_of_one_arity_declared_under_one_macro_give_their_definitions_its_spaces(tmp_path):
    """heldout38, HiPIMS-CUDA's Vector.h: two constructors of one arity each under `HEMI_DEV_CALLABLE_INLINE_MEMBER`
    (`__host__ __device__ inline` under `#if defined(__CUDACC__)`), defined out of the class with none.  The
    grammar needed the first's macro masked and read the second's as a type name, so their head words
    differed (expansion and no expansion), the two read as declared differently and neither definition was
    given a space (hipcc, 10 of the set's files: "__host__ function 'Vector3' cannot overload __host__
    __device__ function 'Vector3'").  A macro the grammar did not mask is expanded the same."""
    (tmp_path / "hd.h").write_text(
        "#pragma once\n#if defined(__CUDACC__)\n#define HD_MEMBER __host__ __device__ inline\n#else\n"
        "#define HD_MEMBER inline\n#endif\n")
    (tmp_path / "vec.h").write_text(
        '#pragma once\n#include "hd.h"\nstruct V1;\nstruct V2;\nstruct V3 {\n'
        "    HD_MEMBER\n    V3(float x = 0, float y = 0, float z = 0) : x(x), y(y), z(z) {}\n"
        "    HD_MEMBER\n    V3(const V1& a);\n    HD_MEMBER\n    V3(const V2& a);\n    float len() const;\n"
        "    float x, y, z;\n};\n"
        "struct V2 {\n    HD_MEMBER\n    V2(float x = 0) : x(x) {}\n    float x;\n};\n"
        "struct V1 {\n    HD_MEMBER\n    V1(float x = 0) : x(x) {}\n    float x;\n};\n"
        "V3::V3(const V1& a) : x(a.x), y(0), z(0) {}\nV3::V3(const V2& a) : x(a.x), y(a.x), z(0) {}\n"
        "float V3::len() const { return x + y + z; }\n")
    (tmp_path / "k.cu").write_text(
        '#include "vec.h"\n__global__ void k(float* o) { V1 a(o[threadIdx.x]); V2 c(o[0]); V3 b(a), d(c);'
        " o[threadIdx.x] = b.x + d.y; }\n")
    from trust_support import kp_inproc
    out = tmp_path / "out"
    rc, _, err = kp_inproc("translate", str(tmp_path / "k.cu"), "--to", "hip", "-o", str(out))
    assert rc == 0, err
    text = (out / "vec.hip.h").read_text()
    assert "\n__host__ __device__ V3::V3(const V1& a) : x(a.x), y(0), z(0) {}" in text
    assert "\n__host__ __device__ V3::V3(const V2& a) : x(a.x), y(a.x), z(0) {}" in text
    assert "\nfloat V3::len() const {" in text  # declared with none: a host function, as written
    require_tool("hipcc")
    assert_hip_file_compiles(out / "k.hip", ["gfx90a", "gfx1030"], extra_args=("-std=c++17", f"-I{out}"))
