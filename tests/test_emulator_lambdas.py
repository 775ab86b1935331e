"""A lambda device code defines and calls as statements (llm.c's softmax_autoregressive_backward_kernel5:
`auto loop_step = [&](int t2) {...};`, then `loop_step(t2);` in two loops) runs on the emulator: each call is
the body inlined with its arguments bound to fresh locals (a `[&]` capture names the enclosing variables
themselves).  Before, the original could not be lowered ("Invalid expression") and verify's oracle did not run
it.  Look-alikes: a by-value capture (the value at the definition, not at the call), a lambda called inside an
expression, and one whose body returns, are refused at their line as before."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

SRC = """
__global__ void k(const float* x, float* out, int n) {
    float acc[2] = {0.0f, 0.0f};
    int t2 = threadIdx.x;
    auto step = [&](int t2, float w) {
        float p = x[t2] * w;
        for (int j = 0; j < 2; ++j) {
            acc[j] += p * (j + 1);
        }
    };
    for (; t2 < n; t2 += blockDim.x) step(t2, 2.0f);
    if (threadIdx.x == 0) { step(0, 1.0f); }
    out[2 * threadIdx.x] = acc[0];
    out[2 * threadIdx.x + 1] = acc[1] + t2;
}
"""


def _run(src=SRC, wave=32):
    x = np.arange(64, dtype=np.float32)
    return x, run_kernel(src, "k", args={"x": x, "out": np.zeros(64, np.float32), "n": np.int32(64)},
                         grid=(1, 1, 1), block=(32, 1, 1), wave=wave).outputs["out"].reshape(32, 2)


@pytest.mark.parametrize("wave", [32, 64])
def test_a_lambda_called_as_statements_runs_its_body_on_the_caller_s_variables(wave):
    x, out = _run(wave=wave)
    want = np.array([2 * (x[t] + x[t + 32]) for t in range(32)]) + np.array([x[0]] + [0] * 31)
    np.testing.assert_array_equal(out[:, 0], want)
    np.testing.assert_array_equal(out[:, 1], 2 * want + 64 + np.arange(32))  # t2: the caller's, stepped past n


@pytest.mark.parametrize("change", [("[&]", "[=]"), ("step(0, 1.0f);", "float q = (step(0, 1.0f), 1.0f);"),
                                    ("for (int j", "if (w < 0) return; for (int j")])
def test_what_inlining_could_change_is_refused_at_its_line(change):
    with pytest.raises(EmulatorError) as e:
        _run(SRC.replace(*change))
    assert e.value.line in (5, 12), e.value


SHADOW = """
__global__ void k(const float* x, float* out, int n) {
    int i = threadIdx.x;
    float s = x[i];
    auto add = [&](float v) { float w = v; s += w; };
    for (int j = 0; j < 3; ++j) {
        float s = 100.0f;
        add((float)j);
        s += 1.0f;
    }
    out[i] = s;
}
"""


def test_a_captured_name_declared_again_at_a_call_is_refused_not_read_as_the_call_site_s():
    # CUDA adds 0 + 1 + 2 to the captured s (out = x + 3); inlined, the body named the loop's own s and the
    # emulator gave out = x: a wrong oracle (review65e)
    with pytest.raises(EmulatorError) as e:
        _run(SHADOW)
    assert e.value.line == 5, e.value


@pytest.mark.parametrize("site", ["float t = 100.0f;", "float w = 100.0f;"])
def test_a_call_site_local_the_body_does_not_capture_leaves_the_lambda_inlined(site):
    # another name (t), or one the body declares itself before any use (w, as llm.c's kernel5's `float p`)
    x, out = _run(SHADOW.replace("float s = 100.0f;", site).replace("s += 1.0f;", "(void)0;"))
    np.testing.assert_array_equal(out.reshape(-1)[:32], x[:32] + 3)
