"""One threadgroup array per template instance of a helper (kernelport/backends/metal/instance_shared.py).

CUDA gives `blockScaledSum<1>` and `blockScaledSum<3>` each its own static `__shared__ part[256]`.  Before
stop 49 the Metal port declared ONE `part` per kernel for every instance (hoisted per function), so the
second call's writes raced the first call's reads (verify's Metal races check failed on this file).  Now the
kernel declares one per instance its calls reach, directly or through a helper in between, and passes each
call its own; one instance called twice keeps one array, as in CUDA.  Ports are type-checked by kernelport's
Metal checker (no Metal compiler runs on Linux) and run by verify's emulator."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
    from .trust_support import verify_checks
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port
    from trust_support import verify_checks

HELPER = """#include <cuda_runtime.h>

template <int SCALE>
__device__ float blockScaledSum(float v) {
    __shared__ float part[256];
    part[threadIdx.x] = v * SCALE;
    __syncthreads();
    float s = 0.0f;
    for (int i = 0; i < blockDim.x; ++i) s += part[i];
    return s;
}
"""

TWO_INSTANCES = HELPER + """
__device__ float both(float a, float b) {
    return blockScaledSum<2>(a) + blockScaledSum<4>(b) * 100.0f;
}

__global__ void direct(const float* x, float* out) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    float a = blockScaledSum<1>(v);
    float b = blockScaledSum<3>(v + 1.0f);
    if (threadIdx.x == 0) out[blockIdx.x] = a + b * 1000.0f;
}

__global__ void nested(const float* x, float* out) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    float c = both(v, v - 1.0f);
    if (threadIdx.x == 0) out[blockIdx.x] = c;
}
"""

HOST = """
int main() {
    float *x, *out;
    cudaMalloc(&x, 4 * 256 * sizeof(float));
    cudaMalloc(&out, 4 * sizeof(float));
    %s
    cudaDeviceSynchronize();
    return 0;
}
"""


def metal_statuses(path) -> tuple[list[dict], str]:
    _, checks, text = verify_checks(path, compiles=False)
    return [c for c in checks if c["backend"] == "metal" and c["kind"] in ("numeric", "races")], text


def test_each_instance_reached_directly_or_through_a_helper_has_its_own_array(tmp_path):
    out = metal_checked(TWO_INSTANCES)
    assert out.count("threadgroup float part[256];") == 2 and "part_2" not in out, out  # one per kernel
    assert "threadgroup float part_1[256];" in out and "blockScaledSum<1>(v, part," in out, out
    assert "blockScaledSum<3>(v + 1.0f, part_1," in out, out
    # the helper in between receives one array per instance it calls and passes each its own
    assert "float both(float a, float b, threadgroup float* part, threadgroup float* part_1," in out, out
    assert "blockScaledSum<2>(a, part," in out and "blockScaledSum<4>(b, part_1," in out, out
    f = tmp_path / "k.cu"
    f.write_text(TWO_INSTANCES + HOST % "direct<<<4, 256>>>(x, out); nested<<<4, 256>>>(x, out);")
    metal, text = metal_statuses(f)
    assert {c["kind"] for c in metal} == {"numeric", "races"} and len({c["kernel"] for c in metal}) == 2, text
    assert all(c["status"] == "pass" for c in metal), text


def test_one_instance_called_twice_keeps_one_array(tmp_path):
    # Look-alike: CUDA has one static array per instance, so two calls of <1> share it (the helper's
    # trailing barrier keeps the original race-free): one declaration, both calls pass it.
    src = HELPER.replace("    return s;\n}", "    __syncthreads();\n    return s;\n}") + """
__global__ void twice(const float* x, float* out) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    float a = blockScaledSum<1>(v);
    float b = blockScaledSum<1>(a - v);
    if (threadIdx.x == 0) out[blockIdx.x] = a + b;
}
"""
    out = metal_checked(src)
    assert out.count("threadgroup float part[") == 1 and "part_1" not in out, out
    assert "blockScaledSum<1>(v, part," in out and "blockScaledSum<1>(a - v, part," in out, out
    f = tmp_path / "k.cu"
    f.write_text(src + HOST % "twice<<<4, 256>>>(x, out);")
    metal, text = metal_statuses(f)
    assert metal and all(c["status"] == "pass" for c in metal), text


def test_an_instance_sized_array_takes_its_instance_size():
    # `float buf[N]` for <64> and <128>: two arrays of their sizes (before: KP213, one declaration for two sizes)
    out = metal_checked("""
    template <int N>
    __device__ float first(float v) {
        __shared__ float buf[N];
        if (threadIdx.x < N) buf[threadIdx.x] = v;
        __syncthreads();
        return buf[0];
    }
    __global__ void k(float* out) { out[threadIdx.x] = first<64>(out[0]) + first<128>(out[1]); }
    """)
    assert "threadgroup float buf[64];" in out and "threadgroup float buf_1[128];" in out, out


def _codes(code: str) -> list[str]:
    port, _ = metal_port(code)
    return [d.code for d in port.diagnostics]


BIG = """
    template <int S>
    __device__ float big(float v) {
        __shared__ float tile[6144];
        tile[threadIdx.x] = v * S;
        __syncthreads();
        return tile[0];
    }
"""


def test_threadgroup_bytes_are_counted_per_instance():
    # two instances of a 24 KiB array are 48 KiB in the kernel: over the 32 KiB every Apple GPU guarantees
    assert "KP211" in _codes(BIG + "__global__ void k(float* o) { o[threadIdx.x] = big<1>(o[0]) + big<2>(o[1]); }")
    # look-alike: one instance twice is one 24 KiB array
    assert "KP211" not in _codes(BIG + "__global__ void k(float* o) { o[threadIdx.x] = big<1>(o[0]) + big<1>(o[1]); }")


BLOCK_MAX = """
    template <typename T>
    __device__ T blockMax(T v) {
        __shared__ T vals[32];
        if (threadIdx.x % 32 == 0) vals[threadIdx.x / 32] = v;
        __syncthreads();
        return vals[0];
    }
    __global__ void k(float* out, int* n) {
        out[threadIdx.x] = blockMax<float>(out[0]);
        n[threadIdx.x] = blockMax(ARG);
    }
    """


def test_an_instance_left_to_deduction_beside_a_written_one_is_refused_at_the_array():
    # blockMax(n[0] + 1u) deduces T from an expression of mixed types: which array it is cannot be shown, so no
    # guess (KP213)
    port, _ = metal_port(BLOCK_MAX.replace("ARG", "n[0] + 1u"))
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP213", 4)], \
        [d.format() for d in port.diagnostics]


def test_an_instance_deduced_from_an_element_gets_its_own_array():
    # `n[0] + 1` of `int *n` is an int (template_deduction reads an element's type, heldout64): blockMax<int>'s
    # array is an int array beside blockMax<float>'s float one
    text = metal_checked(BLOCK_MAX.replace("ARG", "n[0] + 1"))
    assert "threadgroup float vals[32];" in text and "threadgroup int vals_1[32];" in text
    assert "blockMax(n[0] + 1, vals_1, tid)" in text
