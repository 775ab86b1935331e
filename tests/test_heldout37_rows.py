"""Rows of 32 threads as warps whose launch fixes only the row width (heldout37's Viterbi decoder:
`dim3 block(32, blockDimY, 1)`, one decoder per 32-thread row; its path-metric normalisation votes
over the row, folds a 16..1 min ladder and broadcasts lane 0).  The block's x alone says the rows
(kernelport/blockdims.row_width): the port keeps CUDA's 32-lane groups, where it used to read no
geometry and widen the ladder, the vote and the broadcast to the wave, folding two decoders' metrics
into one at wave 64.  A header's warp helper (ported on its own at the wave width) called by such a
group is refused at the call (KP219, kernelport/warpwidth.py), as a wmma group's already is; the
same helper in the file keeps the rows (a look-alike), and so does a 1-D launch of whole waves."""
from __future__ import annotations

from conftest import hip_compiles
from kernelport.source import SourceFile
from kernelport.translate import translate

HELPER = """\
__device__ void normalise_row(int& v)
{
    if (__any_sync(0xffffffff, v > 16000)) {
        int m = v;
        for (unsigned int delta = 16; delta > 0; delta /= 2)
            m = min(m, __shfl_down_sync(0xffffffff, m, delta));
        m = __shfl_sync(0xffffffff, m, 0);
        v -= m;
    }
}
"""
KERNEL = """\
__global__ void normalise(int* pm)
{
    int i = (blockIdx.x * blockDim.y + threadIdx.y) * 32 + threadIdx.x;
    int v = pm[i];
    normalise_row(v);
    pm[i] = v;
}
void run(int* pm, int decoders, int rows)
{
    dim3 grid(decoders / rows, 1, 1);
    dim3 block(32, rows, 1);
    normalise<<<grid, block>>>(pm);
}
"""


def test_a_row_width_launch_keeps_the_helper_s_32_lane_groups(tmp_path):
    port, text = translate(SourceFile.from_text(HELPER + KERNEL, "v.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "delta = 16;" in text and "__shfl_down(m, delta, 32)" in text and "__shfl(m, 0, 32)" in text, text
    assert "warpSize" not in text and "__any(" not in text, text  # the vote is the row's, not the wave's
    hip_compiles(tmp_path, text)


def test_whole_wave_rows_are_still_the_wave(tmp_path):  # look-alike: a 1-D launch of 256 threads
    port, text = translate(SourceFile.from_text(HELPER + KERNEL.replace("dim3 block(32, rows, 1);",
                                                                        "dim3 block(256, 1, 1);"), "v.cu"), "hip")
    assert port.ok and "warpSize / 2" in text, [d.format() for d in port.diagnostics]


def test_a_header_s_warp_helper_called_by_rows_of_32_is_refused_at_the_call(tmp_path):
    from trust_support import kp_inproc
    (tmp_path / "row.cuh").write_text(HELPER)
    path = tmp_path / "v.cu"
    path.write_text('#include "row.cuh"\n' + KERNEL)
    rc, _, err = kp_inproc("translate", path, "--to", "hip")
    assert rc != 0 and "v.cu:6:5: error: KP219 `normalise_row` is a header's warp helper" in err, err
    assert "(32, ?, ?): rows of 32 threads" in err, err
