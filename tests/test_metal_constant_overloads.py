"""`const T&` parameters given `constant` memory where constant_refs.py cannot copy the argument (its type
is a template parameter, or the helper is overloaded with as many parameters: gpumembench's
`add_vector(sum, constant_data_p[j+i])` in a template kernel, with `add_vector(int&, const int&)`,
`(int2&, const int2&)`, ...): the helper gets a `const constant T&` overload beside its thread one, as
hand-written MSL has it.  Look-alikes: device and thread arguments leave the parameter as written."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port as metal, require_tool
    from .port_support import metal_checker as checker, metal_errors as errors, metal_numeric_checks
except ImportError:  # pragma: no cover
    from conftest import metal_port as metal, require_tool
    from port_support import metal_checker as checker, metal_errors as errors, metal_numeric_checks


OVERLOADS = """\
    __constant__ int table[64];
    __device__ void add_vector(int &target, const int &v) { target += v; }
    __device__ void add_vector(int2 &target, const int2 &v) { target.x += v.x; target.y += v.y; }
    template <class T>
    __device__ int reduce(T v);
    template <>
    __device__ int reduce(int v) { return v; }
    template <>
    __device__ int reduce(int2 v) { return v.x + v.y; }
    template <class T>
    __global__ void bench(int *out)
    {
        T *p = (T *)table;
        T sum = p[0];
        for (int j = 1; j < 8; j++)
            add_vector(sum, p[j]);
        out[threadIdx.x] = reduce(sum);
    }
    template __global__ void bench<int>(int *);
    template __global__ void bench<int2>(int *);
"""


def test_overloads_a_template_kernel_may_call_get_constant_ones():
    require_tool("clang")
    port, text = metal(OVERLOADS)
    assert errors(port) == []
    for t in ("int", "int2"):  # C++ picks one per instance of bench: each gets its constant overload
        assert f"void add_vector({t} &target, const constant {t} &v)" in text
    assert "void add_vector(int2 &target, const int2 &v)" in text  # beside its thread one
    assert checker(text) == []


def test_a_template_const_reference_given_constant_memory():
    require_tool("clang")
    port, text = metal("""\
        __constant__ float coef[4] = {0.5f, 1.5f, -2.0f, 3.0f};
        template <typename T>
        __device__ T twice(const T &v) { return v + v; }
        __global__ void k(const float *x, float *out)
        {
            float s = x[threadIdx.x];
            out[threadIdx.x] = twice(coef[threadIdx.x % 4]) + twice(s) + twice(x[0]);
        }
    """)
    assert errors(port) == []
    assert "T twice(const constant T &v)" in text and "T twice(const T &v)" in text
    assert checker(text) == []


def test_device_and_thread_arguments_leave_the_const_reference_as_written():
    require_tool("clang")
    port, text = metal("""\
        template <typename T>
        __device__ T twice(const T &v) { return v + v; }
        __device__ void acc(float &t, const float &v) { t += v; }
        __device__ void acc(int &t, const int &v) { t += v; }
        __global__ void k(const float *x, float *out, const int *m, int *c)
        {
            float s = x[threadIdx.x];
            int n = m[threadIdx.x];
            acc(s, x[0]);
            acc(n, m[1]);
            c[threadIdx.x] = n;
            out[threadIdx.x] = twice(s) + twice(x[1]);
        }
    """)
    assert errors(port) == []
    assert "constant T" not in text and "const constant" not in text
    assert text.count("void acc(") == 2 and text.count("T twice(") == 1
    # a device element given to an overload's `const float&` is a thread copy (MSL binds no thread
    # reference to device memory: h/metal61b), the overload picked by the element's type
    assert "acc(s, float(x[0]));" in text and "acc(n, int(m[1]));" in text and "twice(x[1])" in text
    assert checker(text) == []


def test_the_constant_overload_computes_what_cuda_computes(tmp_path):
    """verify runs the port's own text on the emulator beside the original (Metal at wave 32)."""
    require_tool("clang")
    checks = metal_numeric_checks(tmp_path, "cref.cu", """\
        // @kp kernel     k
        // @kp grid       ceil_div(n, 64)
        // @kp block      64
        // @kp why        one element a thread; 64 is a whole wave of every backend
        // @kp arg        x     in   float[n]   uniform(0, 1)
        // @kp arg        out   out  float[n]
        // @kp scalar     n = 256
        __constant__ float coef[4] = {0.5f, 1.5f, -2.0f, 3.0f};

        template <typename T>
        __device__ T twice(const T &v) { return v + v; }

        __global__ void k(const float *x, float *out, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i >= n) return;
            float s = x[i];
            for (int j = 0; j < 4; j++)
                s += twice(coef[(i + j) % 4]);
            out[i] = s + twice(s);
        }
    """)
    assert "const constant T &v" in (tmp_path / "cref.metal").read_text()
    assert all(c["status"] == "pass" for c in checks), checks
