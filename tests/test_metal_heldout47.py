"""Metal ports that held-out set 47 (bench/heldout47.toml) showed refused where the source has a Metal port.
Each port is type-checked by kernelport's Metal checker (a clang model of MSL; no Metal compiler on Linux).

- A prototype above its definition (cuTimeWarp's soft_dtw_tiled.cuh declares softdtw_tiled_wavefront, the
  kernel below calls it, the body follows): the definition takes Metal's extras (its __shared__ arrays, the
  built-ins it reads) and so must the prototype, or the call sees a list without them
  (kernelport/backends/metal/prototype_extras.py).
- `void __global__ k(`: Metal's `kernel` goes before the return type (topk's kernels; signatures.py).
- `const __restrict__ uint16_t *docs`: Metal's compiler is clang's and refuses restrict on the scalar
  (attribute_order.drop_scalar_restricts, now Metal's backend data too).
- `max(query_len, doc_lens[i])` of an int and a uint16_t element: C++ promotes the uint16_t to int (CUDA's
  max(int, int)); Metal's one-type max needs the cast (scalars.mixed_min_max).
"""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port

PROTOTYPE = """
    __device__ void wave(float *a, int n);

    __global__ void k(float *a, int n)
    {
        wave(a, n);
    }

    __device__ void wave(float *a, int n)
    {
        __shared__ float s[16];
        int t = threadIdx.x;
        s[t % 16] = a[t];
        __syncthreads();
        if (t < n) a[t] = s[(t + 1) % 16];
    }
"""


def test_a_prototype_above_the_call_declares_the_extras_its_definition_takes():
    text = metal_checked(PROTOTYPE)
    assert "void wave(device float *a, int n, threadgroup float* s, uint3 tid);" in text, text
    assert "wave(a, n, s, tid);" in text, text


def test_a_prototype_of_a_helper_without_extras_is_as_before():
    """The look-alike: a helper that reads no built-in and declares no __shared__ keeps its prototype's list."""
    src = PROTOTYPE.replace("__shared__ float s[16];\n        int t = threadIdx.x;\n        s[t % 16] = a[t];\n"
                            "        __syncthreads();\n        if (t < n) a[t] = s[(t + 1) % 16];",
                            "if (n > 0) a[0] = 1.0f;")
    text = metal_checked(src)
    assert "void wave(device float *a, int n);" in text, text
    assert "wave(a, n);" in text, text


def test_a_prototype_with_a_default_argument_takes_the_extras_before_it():
    src = PROTOTYPE.replace("__device__ void wave(float *a, int n);", "__device__ void wave(float *a, int n = 4);") \
                   .replace("        wave(a, n);", "        wave(a);")
    text = metal_checked(src)
    assert "void wave(device float *a, threadgroup float* s, uint3 tid, int n = 4);" in text, text


KERNEL_AFTER_TYPE = """
    void __global__ scale(float *a, int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) a[i] = 2.0f * a[i];
    }
"""


def test_a_global_after_the_return_type_becomes_a_leading_kernel():
    text = metal_checked(KERNEL_AFTER_TYPE)
    assert "kernel void scale(device float *a [[buffer(0)]]" in text, text


def test_a_global_before_the_return_type_is_as_before():
    text = metal_checked(KERNEL_AFTER_TYPE.replace("void __global__", "__global__ void"))
    assert "kernel void scale(device float *a [[buffer(0)]]" in text, text


RESTRICT = """
    __global__ void score(const __restrict__ unsigned short *docs, float* __restrict__ out, int n)
    {
        int i = threadIdx.x;
        if (i < n) out[i] = docs[i];
    }
"""


def test_a_restrict_on_a_scalar_is_dropped_in_the_metal_port_too():
    text = metal_checked(RESTRICT)
    assert "__restrict__ unsigned short" not in text and "restrict" not in text.split("score(")[1].split(",")[0], text
    assert "float* __restrict__ out" in text or "device float* __restrict__ out" in text, text


MINMAX = """
    __global__ void score(const unsigned short *lens, float *out, int n, unsigned short w, short s)
    {
        int i = threadIdx.x;
        out[i] = 1.0f / max(n, lens[i]);
        out[i] += min(w, blockDim.x);
        out[i] += max(s, n);
        out[i] += max(n, i);
    }
"""


def test_a_narrow_integer_argument_of_min_max_is_cast_to_its_promoted_type():
    text = metal_checked(MINMAX)
    assert "max(n, int(lens[i]))" in text, text  # int and a promoted uint16_t: max(int, int)
    assert "min(uint(w), bdim.x)" in text, text  # a promoted ushort and an unsigned: max(unsigned, unsigned)
    assert "max(int(s), n)" in text, text
    assert "max(n, i)" in text, text  # the look-alike: two ints, as written


def test_a_narrow_argument_beside_a_64_bit_one_is_left_to_the_checker():
    """`max(long long, uint16_t)` is not int's: no int cast (that would truncate the 64-bit value)."""
    port, text = metal_port(MINMAX.replace("int n, unsigned short w", "long long n, unsigned short w")
                            .replace("out[i] += max(s, n);\n", "").replace("out[i] += max(n, i);\n", ""))
    assert "int(lens[i])" not in text and "int(n)" not in text, text


SOFTDTW = """
    __device__ float softmin(float a, float b, float c, const float gamma);

    __global__ void naive(float *D, float *R, float *cost, unsigned int m, unsigned int n, float gamma)
    {
        const unsigned int tx = threadIdx.x;
        for (unsigned int p = 0; p < m + n - 1; p++)
        {
            unsigned int jj = max(0, min(p - tx, n - 1));
            unsigned int i = tx + 1, j = jj + 1;
            if (tx + jj == p && (tx < m && jj < n))
            {
                float cost = D[(i - 1) * n + j - 1];
                float r1 = R[(i - 1) * (n + 2) + j];
                double prev_min = softmin(r1, r1, r1, gamma);
                R[i * (n + 2) + j] = cost + prev_min;
            }
            __syncthreads();
        }
        if (tx == 0) *cost = R[(m + 1) * (n + 2) + n + 1];
    }
"""


def test_a_double_local_holding_a_float_rounded_once_to_float_ports_as_float():
    """cuTimeWarp's soft-DTW kernels: the double holds softmin's float; `cost + prev_min` is computed in double
    and stored to a float, which equals the float sum (53 >= 2*24+2).  `cost` the local shadows the parameter."""
    port, text = metal_port(SOFTDTW)
    assert port.ok, [d.format() for d in port.diagnostics]
    metal_checked(SOFTDTW)
    assert "float prev_min = softmin(r1, r1, r1, gamma);" in text and "double" not in text, text
    assert any(n.after == "float" and "float-rounded" in n.why for n in port.notes), port.notes
    assert "max(uint(0), min(p - tx, n - 1))" in text, text  # CUDA's max(int, unsigned) is unsigned's


def _kp214(src: str) -> list[int]:
    port, _ = metal_port(src)
    return [d.location.line for d in port.diagnostics if d.code == "KP214"]


def test_a_double_local_used_otherwise_is_still_refused_located():
    """The look-alikes, each with a result float arithmetic would change (or that kernelport cannot show
    unchanged): refused at the double (KP214), as before."""
    line = 1 + next(i for i, t in enumerate(SOFTDTW.splitlines()) if "double prev_min" in t)
    two_ops = SOFTDTW.replace("cost + prev_min;", "cost + prev_min + r1;")  # two roundings in double
    compound = SOFTDTW.replace("R[i * (n + 2) + j] = cost + prev_min;", "prev_min += cost; R[i] = prev_min;")
    to_double = SOFTDTW.replace("float *R,", "double *R,")  # a double destination (and a double source)
    wide_source = SOFTDTW.replace("__device__ float softmin", "__device__ double softmin")
    for src in (two_ops, compound, to_double, wide_source):
        assert line in _kp214(src), src
