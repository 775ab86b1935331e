"""WS033: a launch whose block is sized from the device's warp size into a kernel whose shared arrays
indexed by the thread hold a fixed count (heldout49: ala_rtree's R-tree search, first/search2.cu, keeps
`m_warp_size2 = prop.warpSize * 2` from its init function and launches `dim3(m_warp_size2, 1, 1)` into
kernels with `__shared__ coord nd_x1[64]` and `temp_res[65]` indexed by `threadIdx.x`).  On main lint was
silent and translate wrote a HIP port that compiles and, on a 64-lane wave (128 threads), writes past the
arrays; now lint reports it and translate refuses the HIP port with KP225 at the launch."""
from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import hip_compiles
from trust_support import kp_inproc

from kernelport.lint.engine import lint_text

# the shape of search2.cu: a global copied from the device's warp size in one function, a dim3
# variable built from it (and given again) in another, the kernel's arrays at twice 32
SEARCH = """\
    typedef float coord;
    int m_warp_size2 = 64;
    __global__ void search_impl(const coord* xs, unsigned* out, unsigned n) {
        unsigned idxx = threadIdx.x;
        __shared__ coord nd_x1[SIZE];
        nd_x1[idxx] = xs[blockIdx.x * blockDim.x + idxx];
        __syncthreads();
        if (nd_x1[threadIdx.x] > 0.0f) {
            atomicAdd(out, 1u);
        }
    }
    bool init_device(int device_id) {
        cudaDeviceProp prop;
        cudaGetDeviceProperties(&prop, device_id);
        m_warp_size2 = prop.warpSize * 2;
        return true;
    }
    void search(const coord* xs, unsigned* out, unsigned n, cudaStream_t stream) {
        dim3 grid_size = dim3(4, 1, 1), block_size = dim3(m_warp_size2, 1, 1);
        search_impl<<<grid_size, block_size, 0, stream>>>(xs, out, n);
        block_size = dim3(BLOCK /*prop.warpSize * 2 */, 1, 1);
        search_impl<<<grid_size, block_size, 0, stream>>>(xs, out, n);
    }
    """


def _text(size: str = "64", block: str = "m_warp_size2") -> str:
    return textwrap.dedent(SEARCH).replace("SIZE", size).replace("BLOCK", block)


def _ws033(text: str) -> list[int]:
    return sorted(f.line for f in lint_text(text, "search2.cu", "cuda") if f.code == "WS033")


def test_a_block_from_the_devices_warp_size_into_fixed_thread_arrays_is_reported_at_each_launch():
    assert _ws033(_text()) == [20, 22]


def test_translate_refuses_the_hip_port_at_the_launch(tmp_path: Path):
    f = tmp_path / "search2.cu"
    f.write_text(_text())
    rc, out, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc != 0 and "search2.cu:20:" in err and "KP225 WS033" in err, err
    assert not (tmp_path / "out" / "search2.hip").exists()


def test_look_alikes_stay_silent_and_port(tmp_path: Path):
    # arrays that hold the block on every wave; a block from a literal; an array indexed by the block
    assert _ws033(_text(size="128")) == []
    assert _ws033(_text(block="64").replace("dim3(m_warp_size2, 1, 1)", "dim3(64, 1, 1)")) == []
    assert _ws033(_text().replace("nd_x1[idxx] =", "nd_x1[blockIdx.x % 64] =")
                  .replace("nd_x1[threadIdx.x]", "nd_x1[blockIdx.x % 64]")) == []
    f = tmp_path / "search2.cu"
    f.write_text(_text(size="128"))
    rc, out, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0, err
    hip_compiles(tmp_path / "out", (tmp_path / "out" / "search2.hip").read_text(), "search2.hip")
