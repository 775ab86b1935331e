"""Translate's work grows with the file, not with its square: counted, not timed (issue 15).

A generated file of N units (a warp-sum helper, a kernel with per-warp slots that calls it, the host
function that launches it) is translated to HIP, self-check included, for a small and a 4x larger N.
Each count below grew with N * N before: every rule that asked which kernel a launch runs resolved
every launch of the file once per kernel (WS029's block size, WS015's launches by owner), the wave
branch test read the whole text for each group it was asked about, and the lane-output pass built
its set of warp operations per function.  Now a launch is resolved a bounded number of times, and the
text scan and the set are made once per model.
The ports are byte-identical (bench/port_hashes.py over tests/realcorpus, examples and generated
files of 1k and 6.8k lines).
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from kernelport import dialect, fnscopes, project_ports, wavebranches
from kernelport.project import Project
from kernelport.source import SourceFile
from kernelport.translate import translate

_UNIT = textwrap.dedent("""\
    #define WS_{i} 32
    __device__ float wsum_{i}(float v) {{
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
        return v;
    }}
    __global__ void k_{i}(const float* x, float* out, int n) {{
        __shared__ float part[256 / 32];
        int t = threadIdx.x, lane = t % 32, w = t / WS_{i};
        float v = t < n ? x[t] : 0.0f;
        v = wsum_{i}(v);
        if (lane == 0) part[w] = v;
        __syncthreads();
        if (t < 256 / 32) out[blockIdx.x * 8 + t] = part[t];
    }}
    void run_{i}(const float* x, float* out, int n) {{
        k_{i}<<<(n + 255) / 256, 256>>>(x, out, n);
    }}
    """)


def _counted(monkeypatch, n: int) -> dict[str, int]:
    counts = {"launch resolutions": 0, "selector scans": 0, "warp operation sets": 0}
    for mod, name, what in ((fnscopes, "launched", "launch resolutions"), (wavebranches, "selectors", "selector scans"),
                            (dialect, "warp_level_names", "warp operation sets")):
        real = getattr(mod, name)

        def counted(*a, _r=real, _w=what, **k):
            counts[_w] += 1
            return _r(*a, **k)
        monkeypatch.setattr(mod, name, counted)
    code = "".join(_UNIT.format(i=i) for i in range(n))
    port, _ = translate(SourceFile.from_text(code, f"linear{n}.cu"), "hip", allow_unported=True)
    monkeypatch.undo()
    assert port.body  # a port was made (its rewrites are the realcorpus hashes' business)
    return counts


def test_translate_counts_grow_with_the_file_not_its_square(monkeypatch):
    small, large = _counted(monkeypatch, 3), _counted(monkeypatch, 12)
    assert all(small.values()), small  # each pass ran on this file (else the test shows nothing)
    # a launch is resolved a bounded number of times (N launches); the text is scanned for wave selectors
    # and the warp operations gathered once per model, whatever N (main: 60 -> 888, 4 -> 13, 6 -> 24)
    assert large["launch resolutions"] <= 5 * small["launch resolutions"], (small, large)
    assert (large["selector scans"], large["warp operation sets"]) == \
        (small["selector scans"], small["warp operation sets"]), (small, large)


def test_each_header_port_finds_its_includer_once_per_run(tmp_path: Path, monkeypatch):
    """A header's port names the command of the first source that includes it: the run's headers by
    includer are read once, where each header port asked every source for its headers."""
    def run(sources: int) -> int:
        d = tmp_path / f"t{sources}"
        d.mkdir()
        for s in range(sources):  # each source includes a header of its own (found after all sources before it)
            (d / f"h{s}.cuh").write_text(f"__device__ int f{s}(int x) {{ return __shfl_xor_sync(0xffffffff, x, 1); }}\n")
            (d / f"s{s}.cu").write_text(f'#include "h{s}.cuh"\n'
                                        f"__global__ void k{s}(int* o) {{ o[threadIdx.x] = f{s}(threadIdx.x); }}\n")
        calls = [0]
        real = Project.headers

        def counted(self, *a, **k):
            calls[0] += 1
            return real(self, *a, **k)
        monkeypatch.setattr(Project, "headers", counted)
        files = project_ports.expand([d])
        r = project_ports.plan(files, [d], project_ports.configured, {p.resolve(): SourceFile.read(p) for p in files
                                                                       if p.suffix == ".cu"})
        made = project_ports.make(r, ["hip"], None, True, allow_unported=True)
        monkeypatch.undo()
        headers = [m for m in made if m.header]
        assert sorted(m.origin.stem[1:] for m in headers) == sorted(str(s) for s in range(sources))
        for m in headers:  # its provenance names the source that includes it
            assert f"s{m.origin.stem[1:]}.cu" in m.text.split("\n", 3)[1], m.text[:300]
        return calls[0]
    small, large = run(2), run(8)
    assert large <= 5 * small, (small, large)  # sources x headers grew 16x
