"""verify's oracle where two sizes only the run gives bound a range (gpu4pyscf's `aux0`, `aux1`: a
host function called from Python, `(aux1 - aux0 + R - 1) / R` blocks): chosen equal, the grid was
empty and the kernel "not run"; the later of them is chosen 0 (a range's start), said in the notes,
the same for the original and every port."""
from __future__ import annotations

from kernelport.infer_inputs import Inferred, NotRun, infer
from kernelport.model import build
from kernelport.source import SourceFile
from trust_support import assert_a_broken_hip_port_fails, verify_checks

FILE = """#define R 64
__global__ void fill(float* out, const float* in, int aux0, int aux1) {
    int i = aux0 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < aux1) out[i] = 2.0f * in[i];
}

extern "C" int run(float* out, const float* in, int aux0, int aux1) {
    fill<<<(aux1 - aux0 + R - 1) / R, R>>>(out, in, aux0, aux1);
    return 0;
}
"""


def test_the_later_of_two_equal_chosen_sizes_is_zero():
    got = infer(build(SourceFile.from_text(FILE, "k.cu")), "fill")
    assert isinstance(got, Inferred), got
    assert got.spec.scalars["aux0"].text.strip("()") == "0" and int(got.spec.scalars["aux1"].text.strip("()")) > 0
    assert any("aux0 = 0 chosen" in line and "grid is empty" in line for line in got.inferred), got.inferred


def test_look_alike_an_empty_grid_from_the_program_itself_stays_not_run():
    # host code's own values make it empty: nothing chosen, nothing changed
    text = FILE.replace('extern "C" int run(float* out, const float* in, int aux0, int aux1) {',
                        "int run(float* out, const float* in) {\n    int aux0 = 8, aux1 = 8;")
    got = infer(build(SourceFile.from_text(text, "k.cu")), "fill")
    assert isinstance(got, NotRun) and "empty grid" in got.reason, got


def test_the_oracle_runs_and_a_wrong_port_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(FILE)
    rc, checks, text = verify_checks(f)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert rc == 0 and oracle and oracle[0]["status"] == "pass", text
    assert_a_broken_hip_port_fails(f, "if (i < aux1) out[i]", "if (i < aux1 && i % 64 < 32) out[i]")
