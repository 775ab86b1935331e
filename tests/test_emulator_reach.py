"""What the emulator needs of a real file to run its original and its ports (issue 18, the
oracle's "the emulator cannot run the original"): helpers the kernel never calls, the ports of
headers verify checks in memory.  Each with a look-alike that must stay as it was."""
from __future__ import annotations

import json

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from trust_support import kp_inproc

# A helper pycparser cannot read (a type of a header it does not see, as shfl_scan's
# uint_to_uchar4) next to a kernel that does not call it.
UNREAD = """
__device__ Packed unpack(unsigned in) { return make_packed(in & 0xff, in >> 8); }
__device__ int inc(int v) { return v + 1; }
__global__ void k(int* out) { out[threadIdx.x] = inc(threadIdx.x); }
"""


def _run(src, n=8, kernel="k"):
    return run_kernel(src, kernel, args={"out": np.zeros(n, np.int32)}, grid=(1, 1, 1), block=(n, 1, 1))


def test_a_helper_the_kernel_never_calls_is_left_out_when_it_cannot_be_read():
    assert _run(UNREAD).outputs["out"].tolist() == list(range(1, 9))


def test_a_helper_the_kernel_calls_through_another_is_still_needed():
    calls = UNREAD.replace("return v + 1;", "return v + unpack(v).x;")
    with pytest.raises(EmulatorError, match="cannot lower for the emulator"):
        _run(calls)


HEADER = """#include <cuda_bf16.h>
typedef __nv_bfloat16 floatX;
__device__ float twice(float v) { return 2.0f * v; }
"""
KERNEL = """#include "h.cuh"
__global__ void scale(floatX* out, const floatX* inp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (floatX)twice((float)inp[i]);
}
int main() {
    int n = 256;
    floatX *a, *b;
    cudaMalloc(&a, n * sizeof(floatX));
    cudaMalloc(&b, n * sizeof(floatX));
    scale<<<n / 64, 64>>>(b, a, n);
    return 0;
}
"""


def test_a_port_not_written_yet_runs_with_the_ports_of_its_headers(tmp_path):
    """verify checks a port translate has not written in memory: the HIP port includes `h.hip.h`
    (its header's port, with hip_bfloat16), which is on no disk either."""
    (tmp_path / "h.cuh").write_text(HEADER)
    (tmp_path / "k.cu").write_text(KERNEL)
    rc, out, err = kp_inproc("verify", tmp_path / "k.cu", "--schedules", "block", "--format", "json", "--no-cache")
    checks = json.loads(out)[0]["checks"]
    hip = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "hip"]
    assert hip and all(c["status"] == "pass" for c in hip), hip
    assert not list(tmp_path.glob("*.hip*"))  # nothing was written


def test_a_header_on_no_disk_and_in_no_port_is_still_missing(tmp_path):
    (tmp_path / "k.cu").write_text(KERNEL)
    with pytest.raises(EmulatorError, match="before: \\*"):
        run_kernel(KERNEL, "scale", args={"out": np.zeros(64, np.uint16), "inp": np.zeros(64, np.uint16), "n": 64},
                   grid=(1, 1, 1), block=(64, 1, 1), path=str(tmp_path / "k.cu"),
                   headers={str(tmp_path / "other.cuh"): HEADER})
