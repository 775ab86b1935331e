"""A local pointer declared with no initialiser and given its value later (`float *p_dist; ...
p_dist = dist + j * n;`, pointnet2's and PU-Net's grouping ops on the thirty-sixth held-out set; the
cases here are synthetic) points where its assignments point: Metal's port declared it `thread` (an
unqualified pointer), and the checker refused `p = dist + j * n` (KP224: assigning 'device float *' to
'thread float *').  One space across its assignments is the pointer's (kernelport/backends/metal/
spaces.py `_assigned_values`); assignments from two spaces are refused at the declaration (KP215)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

LATER = """\
__global__ void sort_rows(int m, int n, float *dist, float *out) {
    float *p_dist;
    for (int j = threadIdx.x; j < m; j += blockDim.x) {
        p_dist = dist + j * n;
        float best = p_dist[0];
        for (int t = 1; t < n; ++t) best = fminf(best, p_dist[t]);
        out[j] = best;
    }
}
"""
TWO = """\
__global__ void pick(int n, const float *src, float *out) {
    __shared__ float tile[64];
    const float *p;
    tile[threadIdx.x % 64] = src[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 32) p = tile; else p = src;
    out[threadIdx.x] = p[threadIdx.x % 32];
}
"""
LOCAL = """\
__global__ void scratch(float *out) {
    float buf[4];
    float *q;
    q = buf;
    for (int i = 0; i < 4; ++i) q[i] = i;
    out[threadIdx.x] = buf[threadIdx.x % 4];
}
"""


def metal(code: str):
    port, _ = translate(SourceFile.from_text(code, "t.cu"), "metal")
    return port


def test_a_pointer_assigned_later_from_a_buffer_points_into_device_memory():
    port = metal(LATER)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "device float *p_dist;" in port.body


def test_a_pointer_assigned_from_two_address_spaces_is_refused_at_its_declaration():
    port = metal(TWO)
    got = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    assert got == [("KP215", 3)], [d.format() for d in port.diagnostics]
    assert "assigned pointers into device and threadgroup" in port.diagnostics[0].message


def test_a_pointer_assigned_a_local_array_stays_thread():
    port = metal(LOCAL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "thread float *q;" in port.body or "float *q;" in port.body
