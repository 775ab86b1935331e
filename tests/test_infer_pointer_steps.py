"""Host code that steps a device pointer after allocating it (hecbench prna's `cudaMalloc(&w5, ...);
w5++;`, whose kernel writes `w5[-1]`): input inference gives the kernel the whole allocation with
its pointer that many elements in (kernelport.host_offsets), and the emulator runs it there
(run_kernel's `offsets`), so `w5[-1]` is the element before, as on the GPU.  On main the pointer
sat at element 0 and the original faulted (out-of-bounds write of w5[-1]): prna's init_w5_and_w3
was not run.  Look-alikes: an int's `n++`, a pointer re-assigned after its step, a new allocation."""
from __future__ import annotations

import numpy as np
import pytest
from trust_support import verify_checks

from kernelport.emulator import run_kernel
from kernelport.infer_inputs import SIZE_CHOICE, Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile

KERNEL = """#include <cuda_runtime.h>
__global__ void ends(int n, float* w, float* v) {
  int i = threadIdx.x;
  if (i == 0) w[-1] = 7.0f;
  if (i < n) w[i] = v[i] * 2.0f;
}
"""
HOST = KERNEL + """
int main() {
  int n = 64;
  float *w, *v, *other;
  cudaMalloc(&v, n * sizeof(float));
  cudaMemset(v, 0, n * sizeof(float));
  cudaMalloc(&other, (n + 4) * sizeof(float));
  cudaMalloc(&w, (n + 4) * sizeof(float));
  STEPS
  ends<<<1, 64>>>(n, w, v);
  return 0;
}
"""


def _spec(steps: str):
    got = infer(build(SourceFile.from_text(HOST.replace("STEPS", steps), "k.cu")), "ends")
    assert isinstance(got, Inferred), got
    return got


@pytest.mark.parametrize("steps,offset", [("w++;", 1), ("++w;", 1), ("w += 3;", 3), ("w += 4; w--;", 3),
                                          ("w++; n++;", 1), ("w++; w = other;", 0),
                                          ("w += 2; cudaMalloc(&w, (n + 4) * sizeof(float));", 0), ("", 0)])
def test_a_stepped_pointer_starts_that_many_elements_into_its_allocation(steps, offset):
    got = _spec(steps)
    w = got.spec.args["w"]
    assert (w.offset, got.spec.length("w")) == (offset, 68), got.inferred
    assert got.spec.args["v"].offset == 0
    note = next(line for line in got.inferred if line.startswith("w:"))
    assert (f"pointer at element {offset} of it" in note) == bool(offset), note


def test_a_stepped_pointer_without_a_shown_allocation_gets_its_elements_before_the_length_chosen():
    text = HOST.replace("cudaMalloc(&w, (n + 4) * sizeof(float));", "ALLOC(w);").replace("STEPS", "w++;")
    got = infer(build(SourceFile.from_text("#define ALLOC(p) cudaMalloc(&p, 68 * sizeof(float))\n" + text, "k.cu")),
                "ends")
    assert isinstance(got, Inferred), got
    w = got.spec.args["w"]
    assert w.offset == 1 and got.spec.length("w") == 1 + max(64, SIZE_CHOICE), got.inferred  # (as one not stepped)


@pytest.mark.parametrize("wave", [32, 64])
def test_the_emulator_runs_the_kernel_at_the_offset_as_a_scalar_reference_does(wave):
    v = np.arange(64, dtype=np.float32)
    res = run_kernel(KERNEL, "ends", args=dict(n=64, w=np.zeros(68, np.float32), v=v), grid=(1, 1, 1),
                     block=(64, 1, 1), wave=wave, offsets={"w": 3})
    want = np.zeros(68, np.float32)  # the reference: the host's allocation, the kernel's w at element 3
    want[3 - 1] = 7.0
    want[3:3 + 64] = v * 2.0
    assert np.array_equal(res.outputs["w"], want)


def test_verify_runs_the_original_whose_kernel_writes_before_its_pointer(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(HOST.replace("STEPS", "w++;"))
    rc, checks, out = verify_checks(f, compiles=False)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "pass", out
    assert "pointer at element 1 of it" in oracle[0]["detail"], out
