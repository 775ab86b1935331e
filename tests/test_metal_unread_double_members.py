"""A struct's `double` members no device code names (backends/metal/unread_double_members.py;
heldout83's cuda_interop histgram_normalize.cu reads `stats->max_y_axis` of a host-filled struct whose
`double avg_r, avg_g, avg_b;` come first): the Metal port declares them `ulong` (double's size and
alignment: max_y_axis keeps its offset) instead of refusing (KP214); a kernel that names one is still
refused.  And `max(1u, stats->max_y_axis)` with an int member of what a pointer parameter points to
gets CUDA's overload's cast (Metal's max is one type: the checker refused `max(uint, int)`); an
unsigned member needs none."""
from __future__ import annotations

from trust_support import kp_inproc

SRC = """struct Stats {
    int lo, hi;
    double mean, spread[2];
    int top;
    unsigned count;
};
__global__ void norm(float* out, const unsigned* hist, const Stats* stats, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= n) return;
    float inv = 1.0f / max(1u, stats->TOP);
    out[x] = hist[x] * inv;
}
"""


def _translate(tmp_path, text: str):
    src = tmp_path / "k.cu"
    src.write_text(text)
    rc, out, err = kp_inproc("translate", src, "--to", "metal", "-o", tmp_path / "out")
    port = tmp_path / "out" / "k.metal"
    return rc, port.read_text() if port.exists() else "", out + err


def test_double_members_no_kernel_names_keep_the_layout_as_ulong(tmp_path):
    rc, text, log = _translate(tmp_path, SRC.replace("TOP", "top"))
    assert rc == 0, log
    assert "ulong mean, spread[2];" in text and "double" not in text.split("kernel void")[0], text
    assert "max(1u, uint(stats->top))" in text, text


def test_a_kernel_that_reads_a_double_member_is_still_refused(tmp_path):
    rc, text, log = _translate(tmp_path, SRC.replace("max(1u, stats->TOP)", "(float)stats->mean"))
    assert rc != 0 and "KP214" in log and not text, log


def test_a_member_read_through_a_macro_or_a_method_is_still_refused(tmp_path):
    """`#define MEAN(s) (s)->mean`: the kernel's text spells no `mean`, the macro reads it; an in-class
    method that reads it: both leave the double a double (KP214), never integer bits computed on."""
    macro = SRC.replace("struct Stats", "#define MEAN(s) ((float)(s)->mean)\nstruct Stats").replace(
        "max(1u, stats->TOP)", "MEAN(stats)")
    method = SRC.replace("unsigned count;", "unsigned count;\n    __device__ float m() const { return (float)mean; }")
    for text in (macro, method.replace("TOP", "top")):
        rc, port, log = _translate(tmp_path, text)
        assert rc != 0 and "KP214" in log and not port, log


def test_an_unsigned_member_of_a_pointed_to_struct_needs_no_cast(tmp_path):
    rc, text, log = _translate(tmp_path, SRC.replace("TOP", "count"))
    assert rc == 0 and "max(1u, stats->count)" in text, log + text


FILLED = """struct P {
    int id;
    double w;
    int tag;
};
__global__ void mk(P* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    FILL
    out[i] = p;
}
"""


def test_a_struct_filled_by_position_keeps_its_double_refused(tmp_path):
    """`P p = {i, 1, i + 1};` names no member, yet stores 1 into `w`: as ulong the host would read the
    integer 1's bits (4.9e-324), not CUDA's 1.0, a port that compiles and computes something else (main
    wrote it).  A positional list of a user type in device code keeps the double (KP214)."""
    for fill in ("P p = {i, 1, i + 1};", "P p = P{i, 1, i + 1};", "P p; p = {i, 1, i + 1};"):
        rc, text, log = _translate(tmp_path, FILLED.replace("FILL", fill))
        assert rc != 0 and "KP214" in log and not text, fill + log


def test_a_vector_braced_list_beside_the_struct_keeps_the_ulong(tmp_path):
    """The look-alike: a `float4` braced list and members set by name fill no double."""
    fill = "float4 v = {1.f, 2.f, 3.f, 4.f}; int a[2] = {1, 2}; P p; p.id = i + a[1]; p.tag = (int)v.y;"
    rc, text, log = _translate(tmp_path, FILLED.replace("FILL", fill))
    assert rc == 0 and "ulong w;" in text, log + text
