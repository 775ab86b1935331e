"""verify's oracle on kernels the emulator's inputs could not give before (oracle40): a CUDA vector
type passed by value (cuda-samples' Mandelbrot: `const uchar4 colors`), a size computed by a
header's one-line host function (its `iDivUp` in Mandelbrot_kernel.cuh) and a bool flag no call
gives (its `isJ`).  Before, each was "not run".  Every input is chosen once, for the original and
every port alike; a port with a hazard only a 64-lane wave shows still fails."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from kernelport.infer_inputs import Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile
from trust_support import assert_the_oracle_passes_and_catches_a_lane_hazard, verify_checks

KERNEL = """
__global__ void tint(const float *x, float *out, const float4 w, const uchar4 c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = w.x * x[i] + w.y + w.z * c.x + w.w * (c.y + c.z * c.w);
}
"""

HOST = KERNEL + """
void run(const float *x, float *out, uchar4 colors, int n) {
    float4 w = make_float4(0.5f, -1.0f, 0.25f, 2.0f);
    tint<<<(n + 127) / 128, 128>>>(x, out, w, colors, n);
}
int main() {
    int n = 1000;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    uchar4 c = make_uchar4(1, 2, 3, 4);
    run(x, out, c, n);
}
"""


def _infer(text: str, kernel: str = "tint"):
    return infer(build(SourceFile.from_text(text, "k.cu")), kernel)


def test_vectors_by_value_give_their_components_from_host_code():
    got = _infer(HOST)
    assert isinstance(got, Inferred), got
    assert got.spec.scalar_values() == {"w.x": 0.5, "w.y": -1.0, "w.z": 0.25, "w.w": 2.0,
                                        "c.x": 1, "c.y": 2, "c.z": 3, "c.w": 4, "n": 1000}
    text = "\n".join(got.inferred)
    assert "w.x = 0.5 (the launch's float4 gives '0.5f')" in text and "c.w = 4 (the launch's uchar4 gives '4')" in text


def test_a_component_host_code_does_not_give_is_generated_data_the_same_each_time():
    no_caller = HOST[: HOST.index("int main()")]  # `colors` is a parameter no call gives
    a, b = _infer(no_caller), _infer(no_caller)
    assert isinstance(a, Inferred), a
    vals = a.spec.scalar_values()
    assert all(isinstance(vals[f"c.{f}"], int) and 0 <= vals[f"c.{f}"] < 8 for f in "xyzw")
    assert vals == b.spec.scalar_values() and vals["w.y"] == -1.0
    assert any(n.startswith("c.x = ") and "generated (a component of a uchar4 is data" in n for n in a.inferred)


def test_the_fields_host_code_assigns_give_a_vector_variable():
    got = _infer(HOST.replace("uchar4 c = make_uchar4(1, 2, 3, 4);", "uchar4 c; c.x = 9; c.y = 8; c.z = 7; c.w = 6;"))
    assert isinstance(got, Inferred), got
    assert [got.spec.scalar_values()[f"c.{f}"] for f in "xyzw"] == [9, 8, 7, 6]


def test_the_emulator_binds_a_vector_argument_from_its_components():
    x = np.arange(256, dtype=np.float32)
    args = {"x": x, "out": np.zeros(256, np.float32), "w": {"x": 1, "y": 2, "z": 3, "w": 4},
            "c": {"x": 1, "y": 2, "z": 3, "w": 300}, "n": 256}  # 300 as an unsigned char: 44
    res = run_kernel(KERNEL, "tint", args=args, grid=(2, 1, 1), block=(128, 1, 1))
    np.testing.assert_array_equal(res.outputs["out"], x + 2 + 3 * 1 + 4 * (2 + 3 * 44))
    with pytest.raises(EmulatorError, match="is a vector of 4 uint8: pass a dict of its components"):
        run_kernel(KERNEL, "tint", args={**args, "c": {"x": 1, "y": 2}}, grid=(2, 1, 1), block=(128, 1, 1))


WARP = """
__global__ void lanes(const float *x, float *out, const float2 w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (i % 32 < 32 ? w.x : w.y) * x[i];
}
int main() {
    int n = 512;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    lanes<<<n / 128, 128>>>(x, out, make_float2(2.0f, -3.0f), n);
}
"""



def test_the_oracle_runs_and_a_port_with_a_wave_64_hazard_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(WARP)
    assert_the_oracle_passes_and_catches_a_lane_hazard(f)


PROJECT_HEADER = """#pragma once
inline int divUp(int a, int b) { return (a % b != 0) ? a / b + 1 : a / b; }
inline int roundUp(int a, int b) { int q = divUp(a, b); return q * b; }
"""

PROJECT_FILE = """#include "util.h"
__global__ void scale(const float *x, float *out, int n, bool neg) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = neg ? -x[i] : 2.0f * x[i];
}
void run(const float *x, float *out, int n, bool neg) {
    scale<<<LAUNCH, 128>>>(x, out, n, neg);
}
int main() {
    int n = 1000;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    run(x, out, n, NEG);
}
"""


def _project(tmp_path, launch: str, neg: str = "true"):
    (tmp_path / "util.h").write_text(PROJECT_HEADER)
    f = tmp_path / "k.cu"
    f.write_text(PROJECT_FILE.replace("LAUNCH", launch).replace("NEG", neg))
    return f


def _oracle_note(path) -> tuple[str, str]:
    rc, checks, text = verify_checks(path, compiles=False)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    return (oracle[0]["status"] if oracle else "none"), text


def test_a_header_s_one_return_host_function_gives_the_grid(tmp_path):
    status, text = _oracle_note(_project(tmp_path, "divUp(n, 128)"))
    assert status == "pass" and "grid (8, 1, 1)" in text, text


def test_a_header_function_of_more_than_a_return_stays_not_run_naming_it(tmp_path):
    status, text = _oracle_note(_project(tmp_path, "roundUp(n, 128) / 128"))
    assert status != "pass" and "'roundUp(n, 128)' is computed when the program runs" in text, text


def test_a_bool_flag_no_call_gives_is_chosen_false():
    text = PROJECT_FILE.replace("LAUNCH", "(n + 127) / 128")
    got = _infer(text[: text.index("int main()")], "scale")
    assert isinstance(got, Inferred), got
    assert got.spec.scalar_values()["neg"] == 0
    assert any(n.startswith("neg = 0 chosen (") and "false, a flag" in n for n in got.inferred), got.inferred
    given = _infer(text.replace("NEG", "true"), "scale")  # a call gives it: read, not chosen
    assert isinstance(given, Inferred) and given.spec.scalar_values()["neg"] == 1, given


def test_a_header_class_s_one_return_method_is_not_read_its_size_is_chosen(tmp_path):
    # hecbench cmp's `gather.ttraces()`, su_gather.hpp's `inline int ttraces() { return _ttraces; }`: the
    # method returns its object's field, which no argument gives; the size stays a chosen one, as before
    (tmp_path / "util.h").write_text(PROJECT_HEADER + "struct Gather { int _n; inline int count() { return _n; } };\n")
    f = tmp_path / "k.cu"
    f.write_text(PROJECT_FILE.replace('#include "util.h"', '#include "util.h"\nGather g;')
                 .replace("LAUNCH", "divUp(n, 128)").replace("NEG", "false").replace("int n = 1000;", "int n = g.count();"))
    status, text = _oracle_note(f)
    assert status == "pass" and "n = 1024 chosen ('count()' is computed when the program runs" in text, text
