"""cuda-samples eigenvalues (bisect_small.cu with bisect_util.cu and bisect_kernel_small.cuh, tests/realcorpus):
two causes kept its Metal port refused (KP224).  C's frexp writes the exponent through an `int*` of any
space where MSL's frexp(x, exponent) writes a thread reference: the prologue's kp_frexp takes the pointer
(metal_polyfills.j2), over the argument's own type, so an integer (C's double overload) does not compile
rather than being rounded to float.  And of two overloads of one helper (storeIntervalConverged, 13 and
14 parameters) the address-space planning took every call for the first definition's: the overload that
takes as many arguments as the call passes is the one planned (kernelport/backends/metal/spaces.py)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port

FREXP = """\
    __device__ inline int ceilPow2(int n) {
        if (0 == (n & (n - 1))) return n;
        int exp;
        frexp((float)n, &exp);
        return (1 << exp);
    }
    __global__ void k(const float *x, int *e, float *m, int *p) {
        int i = threadIdx.x;
        m[i] = frexpf(x[i], &e[i]);
        p[i] = ceilPow2(i + 3);
    }
    """


def test_frexp_writes_its_exponent_through_a_pointer_of_any_space():
    text = metal_checked(FREXP)
    assert "template <typename T, typename P> inline T kp_frexp(T x, P exp) {" in text, text
    assert "kp_frexp((float)n, &exp);" in text and "m[i] = kp_frexp(x[i], &e[i]);" in text


def test_look_alike_frexp_of_an_integer_is_no_float_frexp_and_stays_refused():
    port, _ = metal_port("""\
        __global__ void k(const int *x, int *e, float *m) {
            int i = threadIdx.x;
            m[i] = frexp(x[i], &e[i]);
        }
        """)
    assert not port.ok and any(d.code == "KP224" and "frexp" in d.message for d in port.diagnostics)


OVERLOADS = """\
    __device__ void store(float *s, float &v) { s[threadIdx.x] = v; }
    __device__ void store(float *s, float &v, unsigned int &flag) { s[threadIdx.x] = v; flag = 1; }
    __global__ void k(float *out) {
        __shared__ float cache[64];
        float v = out[threadIdx.x];
        unsigned int flag = 0;
        store(cache, v, flag);
        __syncthreads();
        store(out, v);
        out[threadIdx.x] += cache[63 - threadIdx.x] + flag;
    }
    """


def test_each_overload_is_planned_from_the_calls_that_take_its_parameter_count():
    text = metal_checked(OVERLOADS)
    assert "void store(device float *s, float &v, uint3 tid) {" in text, text
    assert "void store(threadgroup float *s, float &v, unsigned int &flag, uint3 tid) {" in text


def test_look_alike_one_definition_keeps_one_plan_per_space():
    text = metal_checked("""\
        __device__ void store(float *s, float v) { s[threadIdx.x] = v; }
        __global__ void k(float *out) {
            __shared__ float cache[64];
            store(cache, 1.0f);
            __syncthreads();
            store(out, cache[63 - threadIdx.x]);
        }
        """)
    assert "void store(threadgroup float *s, float v, uint3 tid)" in text
    assert "void store(device float *s, float v, uint3 tid)" in text


REDUCE = """\
    typedef float (*reduction_t)(float);
    __device__ float sumOf(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
    __device__ float maxOf(float v) { return fmaxf(v, __shfl_xor_sync(0xffffffff, v, 1)); }
    template<reduction_t op>
    __device__ inline float blockReduce(float val, bool final_sync, float oob) {
        __shared__ float shared_val[32];
        float w = op(val);
        if (threadIdx.x % 32 == 0) shared_val[threadIdx.x / 32] = w;
        __syncthreads();
        w = (threadIdx.x < blockDim.x / 32) ? shared_val[threadIdx.x] : oob;
        if (final_sync) __syncthreads();
        return op(w);
    }
    template<reduction_t op>
    __device__ inline float blockReduce(float val) { return blockReduce<op>(val, false, 0.0f); }
    __global__ void k(const float *x, float *out) {
        float m = blockReduce<maxOf>(x[threadIdx.x], false, -1e30f);
        float s = blockReduce<sumOf>(x[threadIdx.x] - m);
        out[threadIdx.x] = s;
    }
    """


def test_look_alike_overloads_with_shared_memory_keep_an_array_per_instance():
    """llm.c's blockReduce<op>(v) overload calls blockReduce<op>(v, false, 0): each instance's __shared__
    array is its own in CUDA (the code skips a barrier for it), so the port keeps two arrays: the
    overload-by-count resolution is not applied where an overload declares __shared__ memory."""
    port, text = metal_port(REDUCE)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert text.count("threadgroup float shared_val") == 2, text
