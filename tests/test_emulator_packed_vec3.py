"""heldout82 rivermax csc_kernel.cu's RGBToRGBA_8bit_kernel: its Metal port takes `device packed_uchar3* src`
(the dialect table's vec3_buffer: CUDA's 3-scalar layout), and the emulator could not lower it (`cannot lower
for the emulator: before: *`: the parser knew no packed_uchar3).  The dialect's vec3_buffer names the text uses
are now declared as CUDA's T3 (emulator/frontend/preprocess.py), rows of 3 scalars.  Look-alike: a CUDA file's
own struct named packed_float3 (not a dialect name there) keeps its own definition."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

METAL = """
kernel void k(device packed_uchar3* src [[buffer(0)]], device uchar4* dst [[buffer(1)]],
              uint3 tid [[thread_position_in_threadgroup]]) {
    dst[tid.x].x = src[tid.x].x; dst[tid.x].y = src[tid.x].y; dst[tid.x].z = src[tid.x].z; dst[tid.x].w = 255;
}
"""


def test_a_metal_buffer_of_packed_3_vectors_is_rows_of_three():
    src = np.arange(12, dtype=np.uint8)
    out = run_kernel(METAL, "k", args={"src": src, "dst": np.zeros(16, np.uint8)}, grid=(1,), block=(4,),
                     backend="metal").outputs["dst"].reshape(4, 4)
    np.testing.assert_array_equal(out[:, :3], src.reshape(4, 3))
    assert (out[:, 3] == 255).all()


def test_a_cuda_struct_of_that_name_keeps_its_own_fields():
    cuda = """struct packed_float3 { float a, b, c, d; };
    __global__ void k(const packed_float3* s, float* o) { int i = threadIdx.x; o[i] = s[i].d; }"""
    dt = np.dtype([("a", "f4"), ("b", "f4"), ("c", "f4"), ("d", "f4")])
    s = np.zeros(2, dt)
    s["d"] = [3, 4]
    out = run_kernel(cuda, "k", args={"s": s, "o": np.zeros(2, np.float32)}, grid=(1,), block=(2,)).outputs["o"]
    np.testing.assert_array_equal(out, [3, 4])
