"""verify's oracle on a launch sized by the device's properties (oracle41): llm.c's global_norm launches
`deviceProp.maxThreadsPerMultiProcessor * deviceProp.multiProcessorCount / block_size` blocks after
`cudaGetDeviceProperties(&deviceProp, 0)`.  Before, "needs sizes: 'deviceProp.maxThreadsPerMultiProcessor'
has no value kernelport can read".  The inputs now take one reference device's (an A100's: 108 SMs,
2048 threads each), chosen once for the original and every port; `warpSize` is never such an input."""
from __future__ import annotations

from kernelport.device_props import DEVICE_PROPS
from kernelport.infer_inputs import Inferred, NotRun, infer
from kernelport.model import build
from kernelport.source import SourceFile
from trust_support import assert_the_oracle_passes_and_catches_a_lane_hazard

SOURCE = """
cudaDeviceProp deviceProp;

__global__ void lanes(const float *x, float *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = (i % 32 < 32 ? 2.0f : -3.0f) * x[i];
}

int main() {
    cudaGetDeviceProperties(&deviceProp, 0);
    int n = 4096;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    const int grid = deviceProp.maxThreadsPerMultiProcessor * deviceProp.multiProcessorCount / (512 * 64);
    lanes<<<grid, 512>>>(x, out, n);
}
"""


def _infer(text: str):
    return infer(build(SourceFile.from_text(text, "k.cu")), "lanes")


def test_a_grid_of_the_device_s_properties_takes_a_reference_device_s():
    got = _infer(SOURCE)
    assert isinstance(got, Inferred), got
    props = DEVICE_PROPS["cudaDeviceProp"]
    want = props["maxThreadsPerMultiProcessor"][1] * props["multiProcessorCount"][1] // (512 * 64)
    assert want == 6 and got.spec.dims("grid") == (6, 1, 1), got.inferred
    text = "\n".join(got.inferred)
    assert "the device's multiProcessorCount: an A100's (sm_80)" in text, text


def test_the_wave_a_property_gives_is_not_chosen():
    got = _infer(SOURCE.replace("deviceProp.maxThreadsPerMultiProcessor", "deviceProp.warpSize * 64"))
    assert isinstance(got, NotRun) and "deviceProp.warpSize" in got.reason, got


def test_the_same_fields_of_a_project_s_own_struct_are_chosen_sizes_not_the_device_s():
    got = _infer(SOURCE.replace("cudaDeviceProp deviceProp;", "struct Props { int maxThreadsPerMultiProcessor, "
                                "multiProcessorCount; };\nProps deviceProp;"))
    assert isinstance(got, Inferred), got  # each the usual chosen size (1024), as before
    assert got.spec.dims("grid") == (32, 1, 1) and "A100" not in "\n".join(got.inferred), got.inferred



def test_the_oracle_runs_and_a_port_with_a_wave_64_hazard_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(SOURCE)
    assert_the_oracle_passes_and_catches_a_lane_hazard(f)
