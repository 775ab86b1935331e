"""A kernel that takes a texture object (`cudaTextureObject_t`) is not run by the oracle: no value
stands for the handle cudaCreateTextureObject fills and the emulator has no tex1Dfetch/tex2D yet.
Before stop 48 the reason read "scalar 'tex' is a 'cudaTextureObject_t', which the emulator's inputs
cannot hold" with the hint "pass --arg tex=VALUE if it is a number" (no number makes it run), and
bench/oracle_corpus.py counted the seven realcorpus texture kernels as "a struct or class argument"."""
from __future__ import annotations

from kernelport.infer_inputs import NotRun, infer
from kernelport.model import build
from kernelport.source import SourceFile

FILE = """__global__ void fetch(float* out, cudaTextureObject_t tex, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, i);
}

int main() {
    const int n = 256;
    float* out;
    cudaMalloc(&out, n * sizeof(float));
    cudaTextureObject_t tex = 0;
    fetch<<<n / 64, 64>>>(out, tex, n);
    return 0;
}
"""


def test_a_texture_object_is_not_run_and_says_textures_are_not_emulated():
    got = infer(build(SourceFile.from_text(FILE, "k.cu")), "fetch")
    assert isinstance(got, NotRun), got
    assert "'tex' is a cudaTextureObject_t: the emulator has no texture or surface fetches yet" in got.reason
    assert "--arg" not in got.hint


def test_look_alike_an_unknown_scalar_type_keeps_its_number_hint():
    got = infer(build(SourceFile.from_text(FILE.replace("cudaTextureObject_t", "myhandle_t"), "k.cu")), "fetch")
    assert isinstance(got, NotRun) and "which the emulator's inputs cannot hold" in got.reason, got
    assert "--arg tex=VALUE" in got.hint
