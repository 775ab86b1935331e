"""Two instances of one template helper share its lines (oracle41): cuda-samples' Mandelbrot1 calls
`CalcMandelbrot(xPos, ...)` with T deduced as float, while Mandelbrot0, a template kernel the run does
not launch, is read with T unknown (`__kp_auto`), so its own `CalcMandelbrot<__kp_auto>` spells the
functional cast `T(4.0)` as `__kp_auto(4.0)`, which is not C.  A parse error located at those lines
was put on the last item there, the needed float instance, and the original could not run ("cannot
lower for the emulator: Invalid expression").  The instance the kernel does not need is dropped
first; an error in the needed one stays a located refusal."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from trust_support import verify_checks, assert_a_lane_hazard_fails_only_at_64, numeric_statuses

SOURCE = """
template <class T>
__device__ inline T damp(const T v, const T lim)
{
    T r = v;
    if (r > T(4.0))
        r = T(4.0);
    return r * T(0.5) + lim;
}

template <class T>
__global__ void scaled(const T *x, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = damp<T>(x[i], T(1.0));
}

template <class T>
__global__ void lanes(const T *x, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const T v = x[i] * T(8.0);
        const T lim = (i % 32 < 32) ? T(1.0) : T(-1.0);
        out[i] = damp(v, lim);
    }
}
"""

HOST = SOURCE + """
int main() {
    int n = 512;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    lanes<float><<<n / 128, 128>>>(x, out, n);
    scaled<float><<<n / 128, 128>>>(x, out, n);
}
"""


def _run(src: str, kernel: str = "lanes"):
    x = np.linspace(-1, 1, 256, dtype=np.float32)
    res = run_kernel(src, kernel, args={"x": x, "out": np.zeros(256, np.float32), "n": 256},
                     grid=(2, 1, 1), block=(128, 1, 1), template_args=["float"])
    return x, res.outputs["out"]


def test_a_deduced_instance_runs_beside_another_kernel_s_unread_instance():
    x, out = _run(SOURCE)
    v = x * np.float32(8)
    np.testing.assert_allclose(out, np.minimum(v, 4) * np.float32(0.5) + 1, rtol=1e-6)
    assert out.dtype == np.float32


def test_the_explicit_caller_runs_too():
    x, out = _run(SOURCE, "scaled")
    np.testing.assert_allclose(out, np.minimum(x, 4) * np.float32(0.5) + 1, rtol=1e-6)


def test_an_error_in_the_needed_instance_stays_a_located_refusal():
    bad = SOURCE.replace("if (r > T(4.0))", "if (r > T(4.0) +)")
    with pytest.raises(EmulatorError, match=r"cannot lower for the emulator") as e:
        _run(bad)
    assert "<kernel>:6:29:" in str(e.value), str(e.value)  # the helper's line, at the `)` after `+`


def test_the_oracle_runs_the_deduced_kernel_and_a_wave_64_hazard_in_its_port_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(HOST)
    rc, checks, text = verify_checks(f)
    oracles = {c.get("kernel"): c["status"] for c in checks if c["kind"] == "oracle"}
    assert rc == 0 and oracles == {"lanes": "pass", "scaled": "pass"}, text
    assert numeric_statuses(checks, kernel="lanes") == {32: "pass", 64: "pass"}, text
    assert_a_lane_hazard_fails_only_at_64(f, kernel="lanes")
