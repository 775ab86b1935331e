"""`translate --statistics`: API names mapped by kind, headers, warp-width rewrites, refusals by
code, unmapped names; per port and in total."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate
from kernelport.translate_stats import Statistics, count

CODE = textwrap.dedent("""\
    #include <cuda_runtime.h>
    #include <curand.h>
    #include <cuda_awbarrier.h>
    __global__ void k(float* x) { int lane = threadIdx.x % 32; x[lane] = __shfl_down_sync(0xffffffff, x[lane], 16); }
    int main() {
        cudaDeviceProp p; cudaError_t e = cudaSuccess; float* d;
        cudaMalloc(&d, 4); cudaMalloc(&d, 8);
        cudaFooBar();
        cudaGraphNodeParams q;
        return 0;
    }
""")


def _port(code=CODE):
    port, _ = translate(SourceFile.from_text(code, "s.cu"), "hip", allow_unported=True)
    return port


def test_counts_of_one_port():
    c = count(_port())
    assert dict(c.api) == {"runtime-type": 3, "runtime-function": 2, "runtime-enum": 1}
    assert dict(c.headers) == {"header-rand": 1}
    assert c.names["cudaMalloc -> hipMalloc"] == 2
    assert c.warp == 1  # the ladder from 16 gets its step at 32 (lane % 32 only indexes x: kept)
    # --allow-unported: the refusals are warnings there, and are counted as such
    assert dict(c.warnings) == {"KP209": 1, "KP210": 2}
    assert dict(c.refused) == {} and dict(c.unmapped) == {}


def test_refusals_by_code_and_the_names_they_are_about():
    port, _ = translate(SourceFile.from_text(CODE, "s.cu"), "hip")
    c = count(port)
    assert dict(c.refused) == {"KP209": 1, "KP210": 1} and dict(c.warnings) == {"KP210": 1}
    assert sorted(c.unmapped) == ["cudaFooBar", "cuda_awbarrier.h"]  # the absent hipGraphNodeParams is no refusal


def test_a_kernel_without_api_names_counts_none():
    c = count(_port("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n"))
    assert sum(c.api.values()) == 0 and c.warp == 0 and not c.refused and not c.unmapped


def test_totals_add_up_over_ports():
    s = Statistics()
    s.add("a.cu", "hip", _port())
    s.add("b.cu", "hip", _port())
    assert s.total.api["runtime-function"] == 4 and s.total.warp == 2 and s.ports == 2
    lines = s.summary()
    assert lines[0] == "statistics: total (2 ports)"
    assert any(line.startswith("  API names mapped") and "12" in line for line in lines)


def test_cli_prints_each_file_and_the_total_only_when_asked(tmp_path):
    (tmp_path / "s.cu").write_text(CODE.replace("    cudaFooBar();\n", ""))
    (tmp_path / "t.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
    run = [sys.executable, "-m", "kernelport", "translate", "s.cu", "t.cu", "--to", "hip", "--stdout"]
    on = subprocess.run(run + ["--statistics"], cwd=tmp_path, capture_output=True, text=True)
    assert on.returncode == 1  # cuda_awbarrier.h: KP209
    assert "statistics: s.cu -> hip" in on.stderr and "statistics: t.cu -> hip" in on.stderr
    assert "statistics: total (2 ports)" in on.stderr
    assert "  unmapped names           1  (cuda_awbarrier.h)" in on.stderr
    off = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True)
    assert "statistics:" not in off.stderr + off.stdout
