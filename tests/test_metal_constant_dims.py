"""`__constant__` arrays of any rank the host fills become `constant T (*w)[B][C]...` buffer arguments
(kernelport/backends/metal/constants.py).  heldout61's ECE1782 CNN declares its filters
`__constant__ float device_cov1_filter[IN][OUT][N][N]` and fills them with cudaMemcpyToSymbol; main bound
only scalars and arrays of one or two dimensions and refused the rest (KP213, "declare it as a scalar or
an array of at most two dimensions"), though a pointer to an array of arrays indexes as the array does."""
from __future__ import annotations

from conftest import metal_checked, metal_port

_FILTERS = """
    #define IN_CH 2
    #define OUT_CH 3
    #define K 2
    __constant__ float filt[IN_CH][OUT_CH][K][K];
    __constant__ float bias[OUT_CH];
    __device__ float tap(int c, int o, int y, int x) { return filt[c][o][y][x]; }
    __global__ void conv(const float* in, float* out, int w) {
        int o = blockIdx.x, y = threadIdx.y, x = threadIdx.x;
        float s = bias[o];
        for (int c = 0; c < IN_CH; ++c)
            for (int i = 0; i < K; ++i)
                for (int j = 0; j < K; ++j)
                    s += tap(c, o, i, j) * in[(c * w + y + i) * w + x + j] + filt[c][o][i][j];
        out[(o * w + y) * w + x] = s;
    }
    void upload(const float* h, const float* b) {
        cudaMemcpyToSymbol(filt, h, sizeof(filt));
        cudaMemcpyToSymbol(bias, b, sizeof(bias));
    }
"""


def test_a_four_dimensional_constant_is_a_pointer_to_its_inner_arrays():
    text = metal_checked(_FILTERS)
    assert "constant float (*filt)[OUT_CH][K][K] [[buffer(" in text
    assert "float tap(int c, int o, int y, int x, constant float (*filt)[OUT_CH][K][K])" in text
    assert "filt[c][o][i][j]" in text and "tap(c, o, i, j, filt)" in text


def test_its_sidecar_counts_every_element():
    import json
    port, _ = metal_port(_FILTERS)
    assert port.ok, [d.format() for d in port.diagnostics]
    side = json.loads(port.extra_files[".json"])
    arg = next(a for k in side["kernels"] for a in k["arguments"] if a["name"] == "filt")
    assert (arg["role"], arg["count"]) == ("__constant__", "(IN_CH) * (OUT_CH) * (K) * (K)")


def test_lookalike_a_written_four_dimensional_constant_is_still_refused():
    port, _ = metal_port("""
        __constant__ float filt[2][3][2][2];
        __global__ void k(float* out) { filt[0][0][0][threadIdx.x] = 1.0f; out[threadIdx.x] = filt[0][1][0][0]; }
        void upload(const float* h) { cudaMemcpyToSymbol(filt, h, sizeof(filt)); }
    """)
    assert "KP213" in {d.code for d in port.diagnostics}


def test_lookalike_a_two_dimensional_constant_keeps_its_form():
    text = metal_checked("""
        __constant__ float w2[4][8];
        __global__ void k(float* out) { out[threadIdx.x] = w2[threadIdx.x & 3][threadIdx.x & 7]; }
        void upload(const float* h) { cudaMemcpyToSymbol(w2, h, sizeof(w2)); }
    """)
    assert "constant float (*w2)[8] [[buffer(" in text


def test_lookalike_an_array_of_device_pointers_in_constant_memory_is_still_refused_located():
    # convolutionMulti.cu's `__constant__ float *device_output[N];`: device addresses, not values
    port, _ = metal_port("""
        __constant__ float *tab[4];
        __global__ void k(float* o) { o[threadIdx.x] = tab[0][threadIdx.x]; }
    """)
    got = [(d.code, d.location.line) for d in port.diagnostics if d.code == "KP213"]
    assert got == [("KP213", 2)], [d.format() for d in port.diagnostics]
    assert "pass a device pointer to the kernel" in next(d.format() for d in port.diagnostics if d.code == "KP213")
