"""KP225 (issue 11): translate never writes, silently, a port that keeps a wave-width hazard lint
reports in the original; the same lint decides, so its look-alikes and suppressions stay quiet."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

# shfl_scan's shape: the scan is written for the hardware wave (lane = threadIdx.x % warpSize; the
# width 32 the host passes is rewritten), but the host sizes the per-warp sums from 32 (WS015).
SCAN = """
__global__ void scan(int *data, int width)
{
    extern __shared__ int sums[];
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    int v = data[threadIdx.x];
    for (int i = 1; i <= width; i *= 2) {
        int n = __shfl_up_sync(0xffffffff, v, i, width);
        if (lane >= i) v += n;
    }
    if (lane == warpSize - 1) sums[warp] = v;
    __syncthreads();
    data[threadIdx.x] = v + (warp > 0 ? sums[warp - 1] : 0);
}

int main()
{
    int *d = 0;
    int block = 256;
    int nWarps = block / 32;
    scan<<<1, block, nWarps * sizeof(int)>>>(d, 32);
    return 0;
}
"""
NWARPS_LINE = 20


def kept(code: str, backend: str = "hip", **kw):
    port, text = translate(SourceFile.from_text(textwrap.dedent(code).lstrip("\n"), "t.cu"), backend, **kw)
    return port, text, [d for d in port.diagnostics if d.code == "KP225"]


def test_a_kept_hazard_stops_the_port_at_the_original_line():
    port, _, found = kept(SCAN)
    assert not port.ok
    assert [(d.location.path, d.location.line, d.location.column, d.severity) for d in found] == \
        [("t.cu", NWARPS_LINE, 26, "error")]
    d = found[0]
    assert "WS015" in d.message and "64-wide wave" in d.message and "block / 32" in d.message
    assert "kernelport: ignore[WS015]" in d.hint and "--allow-unported" in d.hint


def test_the_rewritten_findings_are_not_reported():
    # the width 32 passed at the launch (WS015) and the full mask (WS007) are rewritten by the port
    _, text, found = kept(SCAN, allow_unported=True)
    assert [d.location.line for d in found] == [NWARPS_LINE]
    assert "kp_device_warp_size()" in text


def test_allow_unported_writes_the_port_marked():
    port, text, found = kept(SCAN, allow_unported=True)
    assert port.ok and [d.severity for d in found] == ["warning"]
    marked = [l for l in text.splitlines() if "KERNELPORT-UNPORTED KP225" in l]
    assert len(marked) == 1 and "int nWarps = block / 32;" in marked[0]


def test_a_suppressed_finding_stays_quiet():
    code = SCAN.replace("int nWarps = block / 32;",
                        "int nWarps = block / 32;  // kernelport: ignore[WS015] 8 slots are enough on any wave")
    port, _, found = kept(code)
    assert port.ok and not found


def test_look_alikes_stay_quiet():
    logical = """
    #define TILE_DIM 32
    __global__ void groups(const float *in, float *out)
    {
        __shared__ float tile[TILE_DIM][TILE_DIM + 1];
        int lane = threadIdx.x % 32;
        float v = in[blockIdx.x * blockDim.x + threadIdx.x];
        tile[threadIdx.y][threadIdx.x % TILE_DIM] = v;
        for (int o = 16; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffff, v, o, 32);
        if (lane == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v + tile[0][0];
    }
    """
    port, _, found = kept(logical)
    assert port.ok and not found, [d.format() for d in port.diagnostics]


def test_a_hazard_the_port_rewrites_stays_quiet():
    # WS011 (32 per-warp slots) and WS016: the port sizes the array with the wave bound
    reduce = """
    __global__ void reduce(const float *in, float *out)
    {
        __shared__ float partial[32];
        int lane = threadIdx.x % warpSize;
        int warp = threadIdx.x / warpSize;
        float v = in[blockIdx.x * blockDim.x + threadIdx.x];
        for (int o = warpSize / 2; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffff, v, o);
        if (lane == 0) partial[warp] = v;
        __syncthreads();
        if (threadIdx.x == 0) {
            float s = 0;
            for (int w = 0; w < blockDim.x / warpSize; ++w) s += partial[w];
            out[blockIdx.x] = s;
        }
    }
    """
    from kernelport.lint.engine import lint_text
    codes = {f.code for f in lint_text(textwrap.dedent(reduce), "t.cu", targets=["hip-cdna"], select=["WS"])
             if f.severity == "error"}
    assert "WS011" in codes  # the original has the hazard
    port, _, found = kept(reduce)
    assert port.ok and not found


def test_only_backends_with_64_wide_waves():
    from kernelport import backends
    for name in backends.port_names():
        wide = any(r.wave > 32 for r in backends.get(name).runs)
        _, _, found = kept(SCAN, name, allow_unported=True)
        assert bool(found) == wide, name


def test_cli_refuses_and_check_sees_it(tmp_path: Path):
    src = tmp_path / "scan.cu"
    src.write_text(textwrap.dedent(SCAN).lstrip("\n"))

    def cli(*args):
        return subprocess.run([sys.executable, "-P", "-m", "kernelport", *map(str, args)], capture_output=True,
                              text=True, cwd=tmp_path)
    r = cli("translate", src, "--to", "hip")
    assert r.returncode == 1 and f"scan.cu:{NWARPS_LINE}:26: error: KP225" in r.stderr
    assert not (tmp_path / "scan.hip").exists()
    r = cli("translate", src, "--to", "hip", "--allow-unported")
    assert r.returncode == 0 and "warning: KP225" in r.stderr
    assert "KERNELPORT-UNPORTED KP225" in (tmp_path / "scan.hip").read_text()
    r = cli("translate", src, "--to", "hip", "--check")  # the CI gate: the port on disk is not a pass
    assert r.returncode == 1 and "KP225" in r.stderr


# hecbench radixsort's shape: `#define WARP_SIZE 32` names the warp, but it sizes a padded 32-lane
# scan that is right on every wave width (lint's WS001 judges the name); what the port keeps is
# judged by the uses, so the name alone stops nothing.  A use that computes wrong still does.
PADDED_SCAN = """
#define WARP_SIZE 32
__device__ unsigned scanwarp(unsigned val, volatile unsigned* s) {
    int idx = 2 * threadIdx.x - (threadIdx.x & (WARP_SIZE - 1));
    s[idx] = 0;
    idx += WARP_SIZE;
    s[idx] = val;
    s[idx] += s[idx - 1];
    return s[idx] - val;
}
"""


def test_a_warp_size_name_alone_is_not_a_kept_hazard():
    port, _, found = kept(PADDED_SCAN)
    assert port.ok and found == []
    # lint still reports the name (WS001) in the original: the finding is there, it is not a kept hazard
    from kernelport.lint.engine import lint_text
    codes = {f.code for f in lint_text(textwrap.dedent(PADDED_SCAN), "t.cu", targets=["gfx90a"], select=["WS"])}
    assert "WS001" in codes
