"""`--to hip,metal`: the work one backend's port shares with another's.  A translator that changes its
model and analysis (Metal takes host code out of both) gets a private copy of the analysis the
project's plan made (`Analysis.private`), not a second warpflow run over the same text; the copy
gives the same port as a fresh analysis, and what Metal changes in it is never seen by another
backend's port.  (bench/port_hashes.py: the ports and diagnostics over tests/realcorpus and
examples, --to hip and --to metal, are unchanged.)"""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport import project_ports, warpflow
from kernelport.project_ports import make, single
from kernelport.source import SourceFile

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))
# a host function passes its `int warp_size = 32` to a kernel's votes: a confirmed site in host code,
# which Metal (leaving host code out) unconfirms in its analysis
VOTE = ROOT / "tests" / "corpus" / "cuda_samples_simple_vote.cu"

# device code with warp sites, and host code whose sites Metal unconfirms in its copy
KERNEL = """\
#include <cstdio>
__global__ void k(float *x) {
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0) x[threadIdx.x / 32] = v;
}
int main() {
    int lanes = 32;
    float *x = nullptr;
    k<<<1, 64>>>(x);
    printf("%d\\n", lanes);
    return 0;
}
"""


def _run(tmp_path: Path, text: str = KERNEL):
    f = tmp_path / "k.cu"
    f.write_text(text)
    return single(f, SourceFile.read(f))


def _said(made) -> list[tuple[str, str, list[str]]]:
    return [(m.backend, m.text, [d.format() for d in m.port.diagnostics]) for m in made if m.port is not None]


def test_metal_reads_a_copy_of_the_plans_analysis_instead_of_analysing_again(tmp_path, monkeypatch):
    run = _run(tmp_path)
    run.project.analysis(tmp_path / "k.cu")  # (the plan made it already)
    analysed = []
    real = warpflow.analyze
    monkeypatch.setattr(warpflow, "analyze", lambda m: analysed.append(m.visible is not None) or real(m))
    made = make(run, ["hip", "metal"], None, True)
    assert [m.backend for m in made] == ["hip", "metal"] and all(m.port.ok for m in made)
    # no model with the includes' view is analysed here: the plan's analysis serves both backends
    # (the remaining analyses are the self-check's lints of the ports, include-free)
    assert True not in analysed, analysed


def test_metals_changes_to_its_copy_are_not_seen_by_the_hip_port(tmp_path):
    text = VOTE.read_text()
    alone = _said(make(_run(tmp_path, text), ["hip"], None, True))
    after_metal = [s for s in _said(make(_run(tmp_path, text), ["metal", "hip"], None, True)) if s[0] == "hip"]
    assert after_metal == alone
    run = _run(tmp_path, text)
    shared = run.project.analysis(tmp_path / "k.cu")
    before = [(s.id, s.confirmed) for s in shared.sites]
    host = [s for s in shared.sites if s.confirmed and s.function == "run_vote_tests"]
    assert host  # (the case this test is about)
    made = make(run, ["metal"], None, True)
    assert made[0].port.ok
    assert [(s.id, s.confirmed) for s in shared.sites] == before  # Metal cleared its own copy's


@pytest.mark.parametrize("path", EXAMPLES + [VOTE, None], ids=[p.stem for p in EXAMPLES] + [VOTE.stem, "host_and_device"])
def test_the_copy_gives_the_same_metal_port_as_a_fresh_analysis(path, tmp_path, monkeypatch):
    text = path.read_text() if path is not None else KERNEL
    copied = _said(make(_run(tmp_path, text), ["metal"], None, True))
    monkeypatch.setattr(project_ports, "_private_analysis", lambda proj, key, m: None)  # the translator's own
    fresh = _said(make(_run(tmp_path, text), ["metal"], None, True))
    assert copied == fresh


WARP_HEADER = "#pragma once\n__device__ float down(float v, int o) { return __shfl_down_sync(0xffffffff, v, o); }\n"


def _chain(tmp_path: Path, cycle: bool = False) -> Path:
    """k.cu -> mid.cuh -> leaf.cuh (the shuffles); mid.cuh holds no CUDA of its own: it is ported only
    because it includes a ported header (its include rewritten).  `cycle`: leaf.cuh includes mid.cuh too."""
    (tmp_path / "leaf.cuh").write_text(('#include "mid.cuh"\n' if cycle else "") + WARP_HEADER)
    (tmp_path / "mid.cuh").write_text('#pragma once\n#include "leaf.cuh"\ninline int twice(int x) { return 2 * x; }\n')
    k = tmp_path / "k.cu"
    k.write_text('#include "mid.cuh"\n__global__ void k(float *x) {\n    float v = x[threadIdx.x];\n'
                 "    for (int o = 16; o > 0; o /= 2) v += down(v, o);\n    x[0] = v;\n}\n")
    return k


@pytest.mark.parametrize("cycle", [False, True], ids=["chain", "cycle"])
def test_a_header_that_includes_a_ported_header_is_translated_once(tmp_path, monkeypatch, cycle):
    k = _chain(tmp_path, cycle)
    from kernelport import translate
    seen: list[str] = []
    real = translate.port_file
    monkeypatch.setattr(translate, "port_file", lambda src, *a, **kw: seen.append(Path(src.path).name) or real(src, *a, **kw))
    made = make(single(k, SourceFile.read(k)), ["hip"], None, True)
    ports = {Path(m.origin).name: m.text for m in made}
    assert set(ports) == {"k.cu", "mid.cuh", "leaf.cuh"} and all(m.port.ok for m in made)
    assert '#include "leaf.hip.h"' in ports["mid.cuh"] and '#include "mid.hip.h"' in ports["k.cu"]
    assert "__shfl_down(" in ports["leaf.cuh"]
    if cycle:  # leaf.cuh includes mid.cuh, whose port exists only once leaf.cuh's does: translated again
        assert '#include "mid.hip.h"' in ports["leaf.cuh"]
        assert sorted(seen) == ["k.cu", "leaf.cuh", "leaf.cuh", "mid.cuh"]
    else:
        assert sorted(seen) == ["k.cu", "leaf.cuh", "mid.cuh"]  # mid.cuh: once, with leaf.cuh's port named


def test_the_self_check_refuses_a_port_that_gains_a_warp_size_hazard(monkeypatch):
    """KP220 is what the self-check's lint of the port is for: a port with a warp-size finding the
    original has not (here a translator made to start a shuffle ladder at NVIDIA's 16) is not
    written.  A cheaper self-check must still fail this test."""
    from kernelport import translate
    from kernelport.translate import Translator

    def wrong(self):  # a translator bug: half the wave spelt as NVIDIA's
        for n in self.src.index.of_type("binary_expression"):
            if self.src.text_of(n) == "warpSize / 2":
                self.rw.replace(n, "16")
    monkeypatch.setattr(Translator, "rewrite_constant_warp_size", wrong)
    src = SourceFile.from_text("__global__ void k(float *x) {\n    float v = x[threadIdx.x];\n"
                               "    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
                               "    if (threadIdx.x % warpSize == 0) x[threadIdx.x / warpSize] = v;\n}\n", "k.cu")
    port, _ = translate.translate(src, "hip")
    assert "for (int o = 16;" in port.body  # (the bug this test plants)
    kp220 = [d for d in port.diagnostics if d.code == "KP220"]
    assert kp220 and not port.ok and kp220[0].location.line == 3, [d.format() for d in port.diagnostics]
