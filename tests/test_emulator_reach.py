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


ASSERT = """
#include <assert.h>
__global__ void k(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("thread %d\\n", i);
    assert(i < n);
    out[i] = i;
}
"""


def test_device_assert_holds_and_printf_prints_nothing():
    r = run_kernel(ASSERT, "k", args={"out": np.zeros(64, np.int32), "n": 64}, grid=(2, 1, 1), block=(32, 1, 1))
    assert r.outputs["out"].tolist() == list(range(64))


def test_a_failed_device_assert_is_a_fault_of_the_kernel_at_its_line():
    from kernelport.emulator.errors import KernelFault
    with pytest.raises(KernelFault, match=r"<kernel>:6:\d+: assertion `i < n` failed \(in lane 40"):
        run_kernel(ASSERT, "k", args={"out": np.zeros(64, np.int32), "n": 40}, grid=(2, 1, 1), block=(32, 1, 1))


METAL_TABLE = """
#include <metal_stdlib>
using namespace metal;
kernel void k(device int* out [[buffer(0)]], constant int* table [[buffer(1)]],
              uint3 tid [[thread_position_in_threadgroup]]) {
    out[tid.x] = mul24(int(tid.x), 3) + table[tid.x];
}
"""


def test_a_port_parameter_the_arguments_lack_takes_the_originals_file_scope_variable():
    """Metal passes a __constant__ array of the original as a buffer (LargeKernelParameter): the
    port is given the contents the original's variable had; Metal's mul24 is a multiplication."""
    table = np.array([10, 20, 30, 40], np.int32)
    r = run_kernel(METAL_TABLE, "k", args={"out": np.zeros(4, np.int32)}, grid=(1, 1, 1), block=(4, 1, 1),
                   backend="metal", file_scope={"table": table, "other": np.zeros(2, np.int32)})
    assert r.outputs["out"].tolist() == [10, 23, 36, 49]
    with pytest.raises(EmulatorError, match="no value for kernel argument `table`"):
        run_kernel(METAL_TABLE, "k", args={"out": np.zeros(4, np.int32)}, grid=(1, 1, 1), block=(4, 1, 1),
                   backend="metal", file_scope={"other": table})


METAL_SCALAR = """
#include <metal_stdlib>
using namespace metal;
kernel void k(device float* out [[buffer(0)]], constant float& w0 [[buffer(1)]],
              uint3 tid [[thread_position_in_threadgroup]]) {
    out[tid.x] = w0 * float(tid.x);
}
"""


def test_a_scalar_port_parameter_takes_the_one_value_of_the_originals_file_scope_scalar():
    """Metal passes `__constant__ float w0;` by value (`constant float& w0`, the host's setBytes): the port
    is given the one element the original's variable held (verify failed: `a scalar parameter but got an
    array`). The look-alikes: a file-scope array of two, or an array the arguments pass, stays an error."""
    r = run_kernel(METAL_SCALAR, "k", args={"out": np.zeros(4, np.float32)}, grid=(1, 1, 1), block=(4, 1, 1),
                   backend="metal", file_scope={"w0": np.array([0.5], np.float32)})
    assert r.outputs["out"].tolist() == [0.0, 0.5, 1.0, 1.5]
    for args, scope in (({}, {"w0": np.array([0.5, 2.0], np.float32)}), ({"w0": np.array([0.5], np.float32)}, {})):
        with pytest.raises(EmulatorError, match="`w0` is a scalar parameter but got an array"):
            run_kernel(METAL_SCALAR, "k", args={"out": np.zeros(4, np.float32), **args}, grid=(1, 1, 1),
                       block=(4, 1, 1), backend="metal", file_scope=scope)


def test_the_original_reports_its_file_scope_variables_as_the_kernel_found_them():
    src = "__constant__ int table[4] = {1, 2};\n__device__ int count;\n" \
          "__global__ void k(int* out) { out[threadIdx.x] = table[threadIdx.x]; count = 5; }\n"
    r = run_kernel(src, "k", args={"out": np.zeros(4, np.int32)}, grid=(1, 1, 1), block=(4, 1, 1))
    assert r.globals["table"].tolist() == [1, 2, 0, 0] and r.globals["count"].tolist() == [0]


def _project(tmp_path, includes_kernels: bool):
    (tmp_path / "sizes.h").write_text("#define LOCAL 64\nstatic const int SCALE = 3;\n")
    (tmp_path / "kernels.cu").write_text(
        "__global__ void k(float* out, const float* in) {\n"
        "    __shared__ float s[LOCAL];\n"
        "    s[threadIdx.x] = in[threadIdx.x];\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = SCALE * s[LOCAL - 1 - threadIdx.x];\n"
        "}\n")
    # (without kernels.cu, main.cu declares k: stop 49's caller search binds another file's launch only where
    # that file sees a declaration of the kernel's signature, as a compiler does; this fixture had none)
    (tmp_path / "main.cu").write_text(
        '#include "sizes.h"\n' + ('#include "kernels.cu"\n' if includes_kernels else
                                  "__global__ void k(float* out, const float* in);\n") +
        "int main() {\n    float *a, *b;\n    cudaMalloc(&a, LOCAL * sizeof(float));\n"
        "    cudaMalloc(&b, LOCAL * sizeof(float));\n    k<<<1, LOCAL>>>(b, a);\n    return 0;\n}\n")
    rc, out, err = kp_inproc("verify", tmp_path / "kernels.cu", "--schedules", "block", "--format", "json",
                             "--no-cache")
    return json.loads(out)[0]["checks"]


def test_a_kernel_file_compiled_as_part_of_another_sees_what_its_includer_defines_first(tmp_path):
    """hecbench's ss-cuda: main.cu includes StringSearch.h (LOCAL_SIZE), then kernels.cu."""
    checks = _project(tmp_path, True)
    oracle = next(c for c in checks if c["kind"] == "oracle")
    assert oracle["status"] == "pass", oracle["detail"]
    hip = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "hip"]
    assert hip and all(c["status"] == "pass" for c in hip)


def test_a_file_no_other_includes_still_lacks_those_definitions(tmp_path):
    oracle = next(c for c in _project(tmp_path, False) if c["kind"] == "oracle")
    assert oracle["status"] == "skip" and "could not run on the emulator" in oracle["detail"]


def test_clock_t_is_a_type():
    src = "__global__ void k(clock_t* t, int* out) { clock_t c = 5; t[threadIdx.x] = c; out[threadIdx.x] = 1; }"
    r = run_kernel(src, "k", args={"t": np.zeros(4, np.int64), "out": np.zeros(4, np.int32)}, grid=(1, 1, 1),
                   block=(4, 1, 1))
    assert r.outputs["t"].tolist() == [5] * 4


def test_a_header_on_disk_is_read_beside_headers_given_in_memory(tmp_path):
    (tmp_path / "h.cuh").write_text("#define TWICE(v) (2 * (v))\n")
    src = '#include "h.cuh"\n__global__ void k(int* out) { out[threadIdx.x] = TWICE(threadIdx.x); }\n'
    r = run_kernel(src, "k", args={"out": np.zeros(4, np.int32)}, grid=(1, 1, 1), block=(4, 1, 1),
                   path=str(tmp_path / "k.cu"), headers={str(tmp_path / "other.cuh"): "#define X 1\n"})
    assert r.outputs["out"].tolist() == [0, 2, 4, 6]


OVERLOADED = """
__global__ void init(unsigned int seed, unsigned int *state) { state[threadIdx.x] = seed ^ threadIdx.x; }
__global__ void init(unsigned int seed, unsigned int *state, int size) {
    if (threadIdx.x < size) state[threadIdx.x] = seed + threadIdx.x;
}
"""


def test_an_overloaded_kernel_is_the_one_whose_parameters_the_arguments_name():
    def run(**args):
        return run_kernel(OVERLOADED, "init", args={"seed": 8, "state": np.zeros(4, np.uint32), **args},
                          grid=(1, 1, 1), block=(4, 1, 1)).outputs["state"].tolist()
    assert run() == [8, 9, 10, 11] and run(size=2) == [8, 9, 0, 0]
    with pytest.raises(EmulatorError, match="kernel `init` not found"):  # arguments neither one takes
        run(size=2, other=1)
