"""Bugs the long mutation runs (bench/fuzz_cli.py) found, each a regression test with its
look-alike: the emulator's literals and constant expressions overflowed into Python exceptions
(an internal error of verify, exit 3) instead of C's value or a located error."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel


def run(body: str, n: int = 32):
    src = "__global__ void k(float* y) {\n" + body + "\n}\n"
    return run_kernel(src, "k", args=dict(y=np.zeros(n, np.float32)), grid=(1,), block=(32,), path="k.cu")


@pytest.mark.parametrize("literal, value", [("0x1p99999f", np.inf), ("0x1p99999", np.inf), ("1e400f", np.inf),
                                            ("0x1p4f", 16.0), ("0x1.8p1", 3.0)])
def test_a_float_literal_too_large_for_its_type_is_infinity(literal, value):
    # verify of softmax_warp_row.cu with `threadIdx.x / 0x1p99999f`: OverflowError from float.fromhex
    r = run(f"y[threadIdx.x] = {literal};")
    assert (r.outputs["y"] == np.float32(value)).all()


@pytest.mark.parametrize("dim, why", [
    ("1e400", "an array size must be a positive integer constant below 2^31, not inf"),  # softmax.cu's red[1e400]
    ("2.5", "an array size must be a positive integer constant below 2^31, not 2.5"),
    ("0", "an array size must be a positive integer constant below 2^31, not 0"),
    ("1 << 100", "shift count 100 is out of range"),
    ("1 << 40", "an array size must be a positive integer constant below 2^31"),
    ("32 / 0", "this constant expression cannot be evaluated (ZeroDivisionError"),
])
def test_a_bad_array_size_is_a_located_error(dim, why):
    with pytest.raises(EmulatorError) as ei:
        run(f"__shared__ float red[{dim}];\nred[threadIdx.x % 32] = 1.0f; y[threadIdx.x] = red[0];")
    assert why in ei.value.message and ei.value.line == 2 and ei.value.path == "k.cu"


def test_the_look_alike_array_sizes_work():
    r = run("__shared__ float red[(1 << 5) * 2 - 32];\nred[threadIdx.x] = 2.0f;\n__syncthreads();\n"
            "y[threadIdx.x] = red[31 - threadIdx.x];")
    assert (r.outputs["y"] == 2).all()


@pytest.mark.parametrize("args", [("translate", "--to", "hip", "--stdout"), ("lint", "--format", "full"),
                                  ("lint", "--format", "concise"), ("verify", "--no-cache")])
def test_a_location_on_line_100_is_printed_as_written(tmp_path, args):
    # translate of a mutated warp_vote.cu printed `warp_vote.cu💯16: error`: rich read `:100:` as an emoji code
    from trust_support import kp_inproc
    f = tmp_path / "k.cu"
    f.write_text("\n" * 99 + "__global__ void k(float* x) { x[0] = ` ; }\n")
    rc, out, err = kp_inproc(args[0], f, *args[1:])
    text = out + err
    assert rc in (1, 2) and f"{f}:100:" in text and "\U0001f4af" not in text, text[-1500:]


@pytest.mark.parametrize("call, ok", [("acc(x, n);", True),  # the look-alike: a default argument (legal C++)
                                      ("acc(x);", False)])   # the fuzz's deleted comma: nvcc rejects it
def test_a_helper_called_with_fewer_pointer_arguments_than_parameters(tmp_path, call, ok):
    # translate of a mutated apex_layernorm_welford.cu (`f(valsn1, ...)`): IndexError in the Metal
    # signatures, the call's address-space tuple shorter than the helper's pointer parameters
    from trust_support import kp_inproc
    f = tmp_path / "k.cu"
    f.write_text("__device__ void acc(float* a, int n, float* b = nullptr) { if (b) b[0] = a[0]; a[0] += n; }\n"
                 f"__global__ void k(float* x, int n) {{ {call} }}\n")
    rc, out, err = kp_inproc("translate", f, "--to", "metal", "--stdout")
    assert rc in (0, 1, 2) and "internal error" not in out + err, (out + err)[-1500:]
    if ok:
        assert rc == 0 and "device float* b" in out, (out + err)[-1500:]
