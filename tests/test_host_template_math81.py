"""A grid size computed with an explicit template argument on the host math (heldout81's gpu-2025
gelu_cuda.cu: `size_t blocks = std::min<size_t>(blocks_needed, 65535);`): main's host-value reader
took `min` for an unknown name, so inference stopped ("'min' has no value kernelport can read") and
`verify` could not run the kernel at wave 32 and 64.  The call is now read as `min((size_t)(a),
(size_t)(b))` (kernelport/host_template_math.py): the arguments converted to the written type first, as
C++ does (`min<size_t>(-1, 5)` is 5).  Look-alikes: a template parameter as the argument, and a user
function of another name with template arguments, stay unknown as before."""
from __future__ import annotations

from kernelport.host_template_math import explicit_arguments
from kernelport.infer_inputs import Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile

MATH = ("min", "max", "ceil")
GELU = """
__global__ void kernel(const float* in, float* out, size_t n) {
    size_t idx = blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = idx; i < n; i += stride) out[i] = in[i] * 0.5f;
}
void run(const float* h, size_t n) {
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    const int threads = 256;
    size_t blocks_needed = (n + threads - 1) / threads;
    size_t blocks = std::min<size_t>(blocks_needed, BOUND);
    kernel<<<blocks, threads>>>(d_in, d_out, n);
}
int main() { run(0, 4096); return 0; }
"""


def _infer(text: str):
    return infer(build(SourceFile.from_text(text, "g.cu")), "kernel")


def test_the_grid_of_an_explicitly_typed_min_is_read():
    got = _infer(GELU.replace("BOUND", "65535"))
    assert isinstance(got, Inferred), got
    assert got.spec.dims("grid")[0] == 16 and got.spec.dims("block")[0] == 256
    # the bound smaller than what is needed: the min is the bound
    got = _infer(GELU.replace("BOUND", "4"))
    assert isinstance(got, Inferred) and got.spec.dims("grid")[0] == 4, got


def test_the_arguments_are_converted_to_the_written_type():
    assert explicit_arguments("min<size_t>(a, max<int>(b, 3))", MATH) == \
        "min((size_t)(a), (size_t)(max((int)(b), (int)(3))))"
    assert explicit_arguments("max<unsigned int>(n - 1, 4)", MATH) == "max((unsigned int)(n - 1), (unsigned int)(4))"
    assert explicit_arguments("min<long unsigned int>(a, b)", MATH) == "min((unsigned long)(a), (unsigned long)(b))"


def test_look_alikes_stay_as_written():
    for text in ("min<T>(x, y)", "min(a, b)", "my_min<int>(a, b)", "a.min<int>(b)", "min < 3 > (x)"):
        assert explicit_arguments(text, MATH) == text, text
    got = _infer(GELU.replace("std::min<size_t>(blocks_needed, BOUND)", "clamp_to<size_t>(blocks_needed)"))
    assert not isinstance(got, Inferred)  # a function the reader does not know: unknown, as before
