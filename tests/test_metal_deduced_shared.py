"""Two DEDUCED template instances of a helper whose threadgroup array names no template parameter
(`blockReduce(v, Sum())` and `blockReduce(v, Max{})`, `template <typename Op>`, `__shared__ float s[32]`):
CUDA gives each instance its own array.  On main (aaa38f0) the instance of a temporary `Sum()` was not
deduced, both calls shared one Metal array and verify's emulator found the race.  A temporary of a class
the file defines now names its instance (template_deduction.argument_type), so each call gets its own
array; where an instance stays unknown and another call reaches the same array, KP213 at the call."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
    from .trust_support import verify_checks
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port
    from trust_support import verify_checks

HELPER = """#include <cuda_runtime.h>
struct Sum { __device__ float operator()(float a, float b) const { return a + b; } };
struct Max { __device__ float operator()(float a, float b) const { return fmaxf(a, b); } };

template <typename Op>
__device__ float blockReduce(float v, Op op) {
    __shared__ float s[256];
    s[threadIdx.x] = v;
    __syncthreads();
    float r = s[0];
    for (int i = 1; i < blockDim.x; ++i) r = op(r, s[i]);
    return r;
}
"""

KERNEL = HELPER + """
__global__ void k(const float* x, float* out) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    float a = blockReduce(v, Sum());
    float b = blockReduce(v * 2.0f, Max{});
    if (threadIdx.x == 0) { out[blockIdx.x] = a; out[gridDim.x + blockIdx.x] = b; }
}
"""

HOST = """
int main() {
    float *x, *out;
    cudaMalloc(&x, 4 * 256 * sizeof(float));
    cudaMalloc(&out, 8 * sizeof(float));
    k<<<4, 256>>>(x, out);
    cudaDeviceSynchronize();
    return 0;
}
"""


# The emulator's shape of the same hazard (it runs no function object deduced from a temporary): instances
# deduced from arithmetic over one scalar type (`n + 1` is int, `v * v` float)
SCALED = """#include <cuda_runtime.h>
template <typename S>
__device__ float blockScaledSum(float v, S scale) {
    __shared__ float part[256];
    part[threadIdx.x] = v * scale;
    __syncthreads();
    float r = 0.0f;
    for (int i = 0; i < blockDim.x; ++i) r += part[i];
    return r;
}

__global__ void k(const float* x, float* out, int n) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    float a = blockScaledSum(v, n + 1);
    float b = blockScaledSum(v, v * v);
    if (threadIdx.x == 0) { out[blockIdx.x] = a; out[gridDim.x + blockIdx.x] = b; }
}
"""


def test_two_deduced_instances_get_two_arrays():
    out = metal_checked(KERNEL)
    assert "threadgroup float s[256];" in out and "threadgroup float s_1[256];" in out, out
    assert "blockReduce(v, Sum(), s," in out and "blockReduce(v * 2.0f, Max{}, s_1," in out, out


def test_instances_deduced_from_arithmetic_get_two_arrays_and_verify_finds_no_race(tmp_path):
    """On main both calls wrote one Metal array: verify's Metal races check failed."""
    out = metal_checked(SCALED)
    assert "blockScaledSum(v, n + 1, part," in out and "blockScaledSum(v, v * v, part_1," in out, out
    f = tmp_path / "k.cu"
    f.write_text(SCALED + HOST.replace("k<<<4, 256>>>(x, out);", "k<<<4, 256>>>(x, out, 3);"))
    _, checks, text = verify_checks(f, compiles=False)
    metal = [c for c in checks if c["backend"] == "metal" and c["kind"] in ("numeric", "races")]
    assert {c["kind"] for c in metal} == {"numeric", "races"}, text
    assert all(c["status"] == "pass" for c in metal), text


def test_one_deduced_instance_called_twice_keeps_one_array():
    """The look-alike: `Sum()` twice is one instance, one array in CUDA: one declaration."""
    out = metal_checked(KERNEL.replace("Max{}", "Sum{}"))
    assert out.count("threadgroup float s") == 1 and "s_1" not in out, out


def test_an_instance_not_deduced_beside_another_call_is_refused_at_the_call():
    """`ops.sum` / `ops.max`: a member's type is not read; whether the two calls are one instance is not
    shown, so KP213 at the second call (never one shared array that may race)."""
    code = KERNEL.replace("__global__ void k(const float* x, float* out) {",
                          "struct Ops { Sum sum; Max max; };\n__global__ void k(const float* x, float* out) {\n    Ops ops;")
    code = code.replace("Sum())", "ops.sum)").replace("Max{})", "ops.max)")
    port, _ = metal_port(code)
    errors = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    line = code.splitlines().index("    float b = blockReduce(v * 2.0f, ops.max);") + 1
    assert errors == [("KP213", line)], [d.format() for d in port.diagnostics]


def test_a_single_call_of_an_unknown_instance_is_ported():
    """The look-alike: one call reaches the array once; there is nothing to share it with."""
    code = KERNEL.replace("__global__ void k(const float* x, float* out) {",
                          "struct Ops { Sum sum; Max max; };\n__global__ void k(const float* x, float* out) {\n    Ops ops;")
    code = code.replace("blockReduce(v, Sum())", "blockReduce(v, ops.sum)").replace("blockReduce(v * 2.0f, Max{})", "v")
    out = metal_checked(code)
    assert out.count("threadgroup float s") == 1, out
