"""`__constant__` arrays of device pointers the host fills from cudaMalloc'd buffers bind as `device T * constant *`
buffer arguments (kernelport/backends/metal/constant_pointers.py).  heldout61's ECE1782 CNN declares
`__constant__ float *device_output[N];` and fills each element with `cudaMemcpyToSymbol(device_output[0],
&d_output[ch], sizeof(float*), ch * sizeof(float*))`; main refused it (KP213) though Metal 3's gpuAddress lets a
buffer hold device addresses, as pointer_members.py already binds a kernel struct's pointer members."""
from __future__ import annotations

import json

from conftest import metal_checked, metal_port

_CNN = """
    #define CH 3
    __constant__ float *outs[CH];
    __constant__ int *counts;
    __device__ float twice(int c, int i) { return 2.0f * outs[c][i]; }
    __global__ void fill(const float *in, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        for (int c = 0; c < CH; ++c) {
            float *o = &outs[c][i];
            *o = in[i] * c;
            outs[c][i] += twice(c, i);
        }
        counts[i] = 1;
    }
    int main() {
        float *d_out[CH]; int *d_cnt;
        for (int c = 0; c < CH; ++c) {
            cudaMalloc((void **)&d_out[c], 64 * sizeof(float));
            cudaMemcpyToSymbol(outs[0], &d_out[c], sizeof(float *), c * sizeof(float *), cudaMemcpyHostToDevice);
        }
        cudaMalloc(&d_cnt, 64 * sizeof(int));
        cudaMemcpyToSymbol(counts, &d_cnt, sizeof(int *));
        fill<<<1, 64>>>(0, 64);
    }
"""


def _kp213(code: str) -> list[tuple[int, str]]:
    port, _ = metal_port(code)
    return [(d.location.line, d.format()) for d in port.diagnostics if d.code == "KP213"]


def test_an_array_of_device_pointers_in_constant_memory_is_a_buffer_of_device_pointers():
    text = metal_checked(_CNN)
    assert "device float * constant* outs [[buffer(" in text
    assert "device int * constant& counts [[buffer(" in text
    assert "device float *o = &outs[c][i];" in text  # a stored pointer's element is in device memory
    assert "float twice(int c, int i, device float * constant* outs)" in text


def test_its_sidecar_says_the_host_stores_gpu_addresses():
    port, _ = metal_port(_CNN)
    side = json.loads(port.extra_files[".json"])
    assert side["msl_version"] == "3.0"
    arg = next(a for k in side["kernels"] for a in k["arguments"] if a["name"] == "outs")
    assert arg["device_pointer_elements"] is True and "gpuAddress" in arg["pointer_elements_host"]
    assert (arg["type"], arg["bytes"]) == ("device float*", "(CH) * sizeof(uint64_t)")
    assert arg["filled_by"] == ["cudaMemcpyToSymbol(outs[0], &d_out[c], sizeof(float *), c * sizeof(float *), "
                                "cudaMemcpyHostToDevice)"]


def test_lookalike_filled_from_host_memory_is_refused_at_the_declaration_naming_the_copy():
    got = _kp213("""
        __constant__ float *outs[2];
        __global__ void k(float *o) { o[threadIdx.x] = outs[0][threadIdx.x]; }
        int main() {
            float *h[2]; h[0] = (float *)malloc(64); h[1] = h[0];
            cudaMemcpyToSymbol(outs, h, sizeof(h));
        }
    """)
    assert len(got) == 1 and got[0][0] == 2, got
    assert "line 6" in got[0][1] and "does not cudaMalloc" in got[0][1]


def test_lookalike_device_code_storing_a_pointer_into_it_is_refused_located():
    got = _kp213("""
        __constant__ float *outs[2];
        __global__ void k(float *o) { outs[1] = o; o[threadIdx.x] = outs[0][threadIdx.x]; }
        int main() { float *d; cudaMalloc(&d, 64); cudaMemcpyToSymbol(outs, &d, sizeof(float *)); }
    """)
    assert [line for line, _ in got] == [3] and "written" in got[0][1], got


def test_lookalike_an_elements_address_is_refused_located():
    got = _kp213("""
        __constant__ float *outs[2];
        __global__ void k(float *o) { float **pp = &outs[1]; o[threadIdx.x] = (*pp)[threadIdx.x]; }
        int main() { float *d; cudaMalloc(&d, 64); cudaMemcpyToSymbol(outs, &d, sizeof(float *)); }
    """)
    assert [line for line, _ in got] == [3] and "addressed" in got[0][1], got


def test_lookalike_a_pointer_to_pointer_constant_keeps_its_refusal():
    got = _kp213("""
        __constant__ float **rows;
        __global__ void k(float *o) { o[threadIdx.x] = rows[0][threadIdx.x]; }
        int main() { float **d; cudaMalloc(&d, 64); cudaMemcpyToSymbol(rows, &d, sizeof(float **)); }
    """)
    assert [line for line, _ in got] == [2], got
