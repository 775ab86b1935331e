"""An index buffer whose element is an offset within a row (hecbench accuracy's `Xdata[row * D + label]`,
`label = labelData[row]`): the kernel assumes the offset below the row's length D, so the contents verify
generates are kept below D, not below the whole buffer's length (at chosen sizes the original read past
Xdata's end and verify's oracle did not run it).  Look-alikes: an element added to a plain index (no row
product) is bounded by the buffer's length as before; a product of two locals bounds nothing."""
from __future__ import annotations

from kernelport.infer_inputs import Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile

TEXT = """
__global__ void acc(const float* X, const int* lab, int* hits, int N, int D) {
    for (int row = blockIdx.x; row < N; row += gridDim.x) {
        const int label = lab[row];
        if (threadIdx.x == 0 && X[row * D + label] > 0.0f) atomicAdd(hits, 1);
    }
}
int main(int argc, char** argv) {
    int n = atoi(argv[1]);
    int d = atoi(argv[2]);
    float* X; int *lab, *hits;
    cudaMalloc(&X, n * d * sizeof(float));
    cudaMalloc(&lab, n * sizeof(int));
    cudaMalloc(&hits, sizeof(int));
    acc<<<64, 32>>>(X, lab, hits, n, d);
}
"""


def _gen(text):
    got = infer(build(SourceFile.from_text(text, "k.cu")), "acc")
    assert isinstance(got, Inferred), got
    return got, got.spec.args["lab"].generator.params


def test_an_element_added_to_a_row_start_stays_below_the_row_length():
    got, params = _gen(TEXT)
    d = got.spec.scalar_values()["D"]
    assert params == (0, d) and d < got.spec.length("X"), (params, d)


def test_an_element_added_to_a_plain_index_keeps_the_buffer_length():
    got, params = _gen(TEXT.replace("X[row * D + label]", "X[row + label]"))
    assert params == (0, got.spec.length("X"))


def test_a_product_of_locals_bounds_nothing():
    got, params = _gen(TEXT.replace("X[row * D + label]", "X[row * row + label]"))
    assert params == (0, got.spec.length("X"))
