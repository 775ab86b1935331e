"""A kernel template whose parameter is a device function (llm.c's `trimul_global<matmul_tri>`,
launched inside `trimul_launcher<matmul_tri_naive>()`): the launch names the host template's own
parameter, which the call binds to a function; the kernel is instantiated with that function's
name (infer_templates.launch_template_args), said in the notes, for the original and every port.
A host template no call instantiates leaves the name as written (`<step>`), never a guessed function:
the emulator then refuses it at its line."""
from __future__ import annotations

from kernelport.infer_inputs import Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile
from trust_support import kp_inproc, verify_checks

PROGRAM = """
using step_fn = void(*)(float* y, const float* x, int i);

__device__ void twice(float* y, const float* x, int i) { y[i] = 2.0f * x[i]; }
__device__ void square(float* y, const float* x, int i) { y[i] = x[i] * x[i]; }

template<step_fn step>
__global__ void apply(float* y, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) step(y, x, i);
}

template<step_fn step>
void launch(float* y, const float* x, int n) {
    apply<step><<<n / 128, 128>>>(y, x, n);
}

int main() {
    int n = 1024;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    CALL
}
"""


def _infer(call: str):
    return infer(build(SourceFile.from_text(PROGRAM.replace("CALL", call), "k.cu")), "apply")


def test_the_launch_is_instantiated_with_the_function_the_call_binds():
    got = _infer("launch<square>(y, x, n);")
    assert isinstance(got, Inferred), got
    assert [t.text for t in got.spec.instantiate] == ["<square>"]
    assert any("step = square (the template argument of launch()" in note for note in got.inferred), got.inferred


def test_an_unbound_parameter_is_not_a_function():
    got = _infer("")  # no call: `step` stays the host template's parameter, never a guess
    assert isinstance(got, Inferred) and [t.text for t in got.spec.instantiate] == ["<step>"], got
    assert not any("the template argument of launch()" in note for note in got.inferred), got.inferred


def test_the_oracle_runs_the_bound_function_and_ports_match(tmp_path):
    """Re-pinned in stop 49: the Metal port's function object (`kp_fn_square`, MSL having no function
    pointers) was a 'not yet' skip; the emulator now reads it (emulator/frontend/functors.py), so the
    Metal port's checks run and pass, and a wrong Metal port fails."""
    f = tmp_path / "k.cu"
    f.write_text(PROGRAM.replace("CALL", "launch<square>(y, x, n);"))
    rc, checks, text = verify_checks(f)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "pass", text
    ports = [c for c in checks if c["kind"] == "numeric"]
    assert rc == 0 and ports and all(c["status"] == "pass" for c in ports) and {c["wave"] for c in ports} == {32, 64}
    assert {c["backend"] for c in ports} >= {"hip", "metal"}, text
    assert kp_inproc("translate", f, "--to", "metal")[0] == 0
    port = tmp_path / "k.metal"
    assert "struct kp_fn_square" in port.read_text()
    port.write_text(port.read_text().replace("y[i] = x[i] * x[i];", "y[i] = x[i] * x[i] + 1.0f;"))
    rc, checks, text = verify_checks(f)
    metal = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "metal"]
    assert rc == 1 and metal and all(c["status"] == "fail" for c in metal), text
