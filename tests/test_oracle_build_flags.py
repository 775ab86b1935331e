"""bench/oracle_corpus.py reads each corpus project as its build does: the manifest's include dirs and
defines, and a source's own `source_defines` (hecbench's prna.cu is built with -DFLOAT by its Makefile;
its `real_t` is a typedef chosen by that flag, and without it every buffer of `real_t` was "not numbers
the emulator can generate").  Checked on a small project whose kernel needs both flags."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from kernelport import verify_oracle
from kernelport.lint import config

ROOT = Path(__file__).resolve().parent.parent

KERNEL = """#if defined FLOAT
typedef float real_t;
#elif defined DOUBLE
typedef double real_t;
#else
#error Must define one of FLOAT or DOUBLE
#endif
__global__ void scale(int n, const real_t* x, real_t* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = FACTOR * x[i];
}

int main() {
    int n = 1000;
    real_t *dx, *dy;
    cudaMalloc(&dx, n * sizeof(real_t));
    cudaMalloc(&dy, n * sizeof(real_t));
    scale<<<(n + 127) / 128, 128>>>(n, dx, dy);
    return 0;
}
"""

MANIFEST = """[project."demo"]
repo = "example/demo"
commit = "0000000000000000000000000000000000000000"
include_dirs = [
]
defines = [
  "FACTOR=3.0f",
]
sources = [
  "src/k.cu",
]

[project."demo".source_defines]
"src/k.cu" = [
  "FLOAT",
]
"""


def _bench():
    spec = importlib.util.spec_from_file_location("oracle_corpus", ROOT / "bench" / "oracle_corpus.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _tree(tmp_path):
    (tmp_path / "demo" / "src").mkdir(parents=True)
    (tmp_path / "demo" / "src" / "k.cu").write_text(KERNEL)
    (tmp_path / "manifest.toml").write_text(MANIFEST)
    return tmp_path / "demo" / "src" / "k.cu"


def test_the_manifest_names_each_projects_flags_and_each_sources_own(tmp_path):
    _tree(tmp_path)
    flags = _bench().build_flags(tmp_path)
    assert flags == [(str(tmp_path / "demo"), [], ["FACTOR=3.0f"], {"src/k.cu": ["FLOAT"]})]


def test_a_typedef_chosen_by_a_build_flag_runs_with_the_manifests_flags(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "includes_for", config.includes_for)  # the worker's patches, undone after
    monkeypatch.setattr(verify_oracle, "run_oracle", verify_oracle.run_oracle)  # (--oracle-only's)
    bench, k = _bench(), _tree(tmp_path)
    without = bench.one((k, ("block",), 30, True, []))["kernels"]
    assert without.get("scale", {}).get("oracle") != "pass"  # no FLOAT: real_t is no type, FACTOR no value
    got = bench.one((k, ("block",), 30, True, bench.build_flags(tmp_path)))
    assert got["kernels"]["scale"]["oracle"] == "pass", got


def test_the_corpus_manifest_records_prnas_makefile_flag():
    flags = {Path(root).name: own for root, _, _, own in _bench().build_flags(ROOT / "tests" / "realcorpus")}
    assert flags["hecbench"]["src/prna-cuda/prna.cu"] == ["FLOAT"]
    assert flags["llm.c"] == {"profile_gpt2.cu": ["ENABLE_BF16"], "test_gpt2.cu": ["ENABLE_BF16"]}  # not dev/cuda's
