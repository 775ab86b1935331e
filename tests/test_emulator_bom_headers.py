"""A file or header that begins with a UTF-8 byte-order mark (Visual Studio writes one: heldout65
basins' systems.cuh, `\\ufeff#ifndef SYSTEMS_CUH` ... `#endif`) is read as compilers read it, the
mark skipped, so its first line is the directive it is; a real `#endif` without `#if` in such a
header is still a located refusal."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

KERNEL = """\ufeff#include "scale.cuh"
__global__ void scale(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = SCALE * x[i];
}
"""
GUARDED = "\ufeff#ifndef SCALE_CUH\n#define SCALE_CUH\n#define SCALE 3.0f\n#endif // SCALE_CUH\n"


def _run(tmp_path, header: str):
    (tmp_path / "scale.cuh").write_text(header, encoding="utf-8")
    k = tmp_path / "scale.cu"
    k.write_text(KERNEL, encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    r = run_kernel(KERNEL, "scale", args={"x": x.copy(), "n": 64}, grid=(2, 1, 1), block=(32, 1, 1), path=str(k))
    return x, r.outputs["x"]


def test_a_header_and_file_beginning_with_a_byte_order_mark_run(tmp_path):
    x, out = _run(tmp_path, GUARDED)
    assert np.array_equal(out, 3.0 * x)


def test_an_endif_without_if_after_the_mark_is_still_refused(tmp_path):
    with pytest.raises(EmulatorError, match="#endif without #if"):
        _run(tmp_path, "\ufeff#define SCALE 3.0f\n#endif\n")
