"""CUDA texture references over linear memory in a Metal port: a device buffer and its length
(kernelport/backends/metal/texture_buffers.py).  The port is type-checked by kernelport's checker only
(no Metal compiler on Linux); the fetch helper is also compiled as C++ and run against CUDA's meaning
of tex1Dfetch (element i, zero outside the bound range).  What has no buffer meaning stays refused."""
from __future__ import annotations

import json
import subprocess


try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked as checked, metal_port as metal, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_checked as checked, metal_port as metal, require_tool
from port_support import refusal


def errors(code: str) -> list[str]:
    return [f"{d.location.line}:{d.code}" for d in refusal(code, to="metal")]


# rodinia kmeans / hybridsort: file-scope references bound with cudaBindTexture, read with tex1Dfetch,
# one through a helper
KERNEL = """\
    texture<float, 1, cudaReadModeElementType> t_features;
    static texture<uint4> nodes;
    __device__ uint4 node(int i) { return tex1Dfetch(nodes, i); }
    __global__ void k(float* out, uint4* o2, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = tex1Dfetch(t_features, i + 1) * 2.0f;
        o2[i] = node(i);
    }
    void run(float* d, uint4* d2, int n) {
        cudaBindTexture(NULL, &t_features, d, n * sizeof(float));
        cudaBindTexture(0, nodes, d2, n * sizeof(uint4));
        k<<<1, 32>>>(d, d2, n);
    }
    """


def test_a_linear_texture_reference_is_a_device_buffer_and_its_length():
    text = checked(KERNEL)
    body = text.split("using namespace metal;", 1)[1]
    assert "device const float* t_features [[buffer(3)]]" in body, body
    assert "constant uint& t_features_count [[buffer(4)]]" in body, body
    assert "device const uint4* nodes [[buffer(5)]]" in body and "constant uint& nodes_count [[buffer(6)]]" in body
    assert "out[i] = kp_tex1Dfetch(t_features, t_features_count, i + 1) * 2.0f;" in body
    assert "uint4 node(int i, device const uint4* nodes, constant uint& nodes_count) " \
           "{ return kp_tex1Dfetch(nodes, nodes_count, i); }" in body, body
    assert "o2[i] = node(i, nodes, nodes_count);" in body
    code = body.split("/* t_features", 1)[1]  # past the prologue's helper
    assert "texture<" not in code and "tex1Dfetch(" not in code.replace("kp_tex1Dfetch(", ""), code


def test_the_sidecar_says_what_binds_each_buffer_and_its_length():
    port, _ = metal(KERNEL)
    args = json.loads(port.extra_files[".json"])["kernels"][0]["arguments"]
    by = {a["name"]: a for a in args}
    assert by["t_features"]["role"] == "texture" and by["t_features"]["kind"] == "buffer"
    assert by["t_features"]["bound_by"] == ["cudaBindTexture(NULL, &t_features, d, n * sizeof(float))"]
    assert by["t_features_count"]["kind"] == "bytes" and by["t_features_count"]["type"] == "uint"
    assert "bytes / sizeof(float)" in by["t_features_count"]["from"]
    assert by["nodes"]["bound_by"] == ["cudaBindTexture(0, nodes, d2, n * sizeof(uint4))"]


def test_the_fetch_helper_reads_the_element_and_zero_outside_the_bound_range(tmp_path):
    """CUDA's tex1Dfetch of linear memory: element i; an index outside [0, count) reads 0."""
    gxx = require_tool("g++")
    text = checked(KERNEL)
    helper = text[text.index("template <typename T> inline T kp_tex1Dfetch"):].split("\n}\n", 1)[0] + "\n}\n"
    prog = tmp_path / "fetch.cpp"
    prog.write_text("#include <cstdio>\n#include <initializer_list>\n#define device\ntypedef unsigned int uint;\n" + helper +
                    "int main() { const float a[4] = {1.5f, 2.5f, 3.5f, 4.5f};\n"
                    "  for (int i : {-1, 0, 3, 4, 1 << 30}) printf(\"%g\\n\", kp_tex1Dfetch(a, 4u, i));\n"
                    "  const float b[4] = {9, 9, 9, 9};\n  printf(\"%g\\n\", kp_tex1Dfetch(b, 2u, 2)); }\n")
    exe = tmp_path / "fetch"
    subprocess.run([str(getattr(gxx, "path", gxx)), "-std=c++14", "-o", str(exe), str(prog)], check=True,
                   capture_output=True)
    got = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()
    assert got == ["0", "1.5", "4.5", "0", "0", "0"]


def test_what_has_no_buffer_meaning_stays_refused_at_its_line():
    # a normalised read converts the texel (uchar -> [0, 1] float): not a plain buffer read
    assert errors("""\
        texture<unsigned char, 1, cudaReadModeNormalizedFloat> t;
        __global__ void k(float* o) { o[threadIdx.x] = tex1Dfetch(t, threadIdx.x); }
        """) == ["1:KP213", "2:KP223"]
    # tex1D samples a CUDA array (filtering, addressing modes): the reference is not linear memory
    assert errors("""\
        texture<float, 1, cudaReadModeElementType> t;
        __global__ void k(float* o) { o[threadIdx.x] = tex1Dfetch(t, threadIdx.x) + tex1D(t, 0.5f); }
        """) == ["1:KP213", "2:KP223", "2:KP223"]
    # a 2-D reference
    assert errors("""\
        texture<float, 2, cudaReadModeElementType> t;
        __global__ void k(float* o) { o[threadIdx.x] = tex2D(t, 0.5f, 0.5f); }
        """) == ["1:KP213", "2:KP223"]
