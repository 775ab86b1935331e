"""A file-scope array of structs in constant memory (HeCBench's mriQ: `__constant__ kValues
ck[N];`, filled by cudaMemcpyToSymbol): bytes in the struct's C layout, read `ck[i].Kx` as an array
argument of structs is (emulator/layout.py).  Host-filled, each number field is seeded data; a port
is given the original's contents (RunResult.globals), so both read the same table.  An initialised
table stays a located refusal: its values are not read yet."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

SOURCE = r"""
struct kValues { float Kx; float Ky; int Idx; };
__constant__ kValues ck[16];
__global__ void q(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.0f;
        for (int k = 0; k < 16; k++) s += ck[k].Kx * x[i] + ck[k].Ky * (float)ck[k].Idx;
        out[i] = s;
    }
}
"""


def _run(src=SOURCE, file_scope=None):
    x = np.linspace(-1, 1, 64, dtype=np.float32)
    return x, run_kernel(src, "q", args={"x": x, "out": np.zeros(64, np.float32), "n": np.int32(64)}, grid=(2,),
                         block=(32,), generate={"ck"}, file_scope=file_scope)


def test_a_host_filled_table_of_structs_is_read_field_by_field():
    x, res = _run()
    ck = res.globals["ck"]
    assert ck.dtype.names == ("Kx", "Ky", "Idx") and ck.shape == (16,)
    assert np.ptp(ck["Kx"]) > 0 and ck["Idx"].min() >= 0 and ck["Idx"].max() < 8  # seeded, not zeros
    ref = (ck["Kx"].astype(np.float64).sum() * x + (ck["Ky"] * ck["Idx"]).astype(np.float64).sum())
    np.testing.assert_allclose(res.outputs["out"], ref, rtol=1e-5, atol=1e-5)


def test_a_port_reads_the_originals_table():
    x, first = _run()
    other = {"ck": first.globals["ck"]}
    _, again = _run(file_scope=other)
    np.testing.assert_array_equal(again.outputs["out"], first.outputs["out"])


def test_an_initialised_table_of_structs_is_refused():
    src = SOURCE.replace("__constant__ kValues ck[16];", "__constant__ kValues ck[16] = {{1.0f, 2.0f, 3}};")
    with pytest.raises(EmulatorError) as e:
        _run(src)
    assert "initialised file-scope array of structs" in str(e.value) and ":" in str(e.value)
