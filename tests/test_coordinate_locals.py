"""A host function's own `dim3 gridDim(...), blockDim(...)` (or parameters of those names), passed
whole to a timing helper (heldout24's sgemm drivers: `testPerformance(gpuSgemm, gridDim, blockDim,
...)`), are the user's variables, not CUDA's built-ins: the HIP port keeps them as written, where it
spelled them `make_uint3(gridDim.x, ...)` (a uint3 that no dim3 parameter takes; hipcc: no matching
function).  A built-in read whole in device code is still spelled so, also beside a function that
declares a local of the same name (kernelport/api_names.rewrite_whole_coordinates,
template_deduction.local_named)."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text

SOURCE = r"""#include <cstdio>
__global__ void k(float *c) { c[blockIdx.x * blockDim.x + threadIdx.x] = 1.f; }
__device__ unsigned int sum(uint3 v) { return v.x + v.y + v.z; }
__global__ void whole(unsigned int *o) { o[threadIdx.x] = sum(blockDim) + sum(blockIdx); }
float timeit(void (*f)(float *), dim3 gridDim, dim3 blockDim) {
    f<<<gridDim, blockDim>>>(nullptr);
    return (float)(gridDim.x * blockDim.x);
}
float twice(dim3 blockDim) { return timeit(k, dim3(2), blockDim); }
void run(float *c, int n) {
    dim3 blockDim(256);
    dim3 gridDim((n + 255) / 256);
    printf("%f %f\n", timeit(k, gridDim, blockDim), twice(blockDim));
    k<<<gridDim, blockDim>>>(c);
}
"""


def _port():
    return port_text(SOURCE, "s.cu", dedent=False).splitlines()


def test_host_locals_and_parameters_named_like_coordinates_are_kept():
    lines = _port()
    body = "\n".join(lines)
    assert 'printf("%f %f\\n", timeit(k, gridDim, blockDim), twice(blockDim));' in body
    assert "float twice(dim3 blockDim) { return timeit(k, dim3(2), blockDim); }" in body


def test_a_built_in_read_whole_in_device_code_is_still_spelled_as_a_uint3():
    body = "\n".join(_port())
    assert "sum(make_uint3(blockDim.x, blockDim.y, blockDim.z)) + sum(make_uint3(blockIdx.x, blockIdx.y, blockIdx.z))" in body


def test_the_port_compiles_for_gfx90a_and_gfx1030(tmp_path):
    hip_compiles(tmp_path, "\n".join(_port()) + "\n", "s.hip")
