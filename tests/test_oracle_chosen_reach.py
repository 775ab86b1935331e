"""An original that reaches past a buffer whose length verify chose, at sizes verify chose, by more
than the emulator's byte cap lets the length grow (a W x H image of `dim` channels, every size a
parameter no call gives) runs once more at sizes 64 times smaller (verify_oracle.capped); a buffer
host code allocates too short for the kernel's reach is the program's fault and stays one."""
from __future__ import annotations

from pathlib import Path

from kernelport.verify import Verifier

KERNEL = """__global__ void last_channel(const float* in, float* out, int W, int H, int dim) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < W && y < H) out[x + y * W] = 2.0f * in[(x + y * W) * dim + dim - 1];
}
void launch(const float* in, float* out, int W, int H, int dim) {
    ALLOC
    dim3 block(16, 16);
    dim3 grid((W + 15) / 16, (H + 15) / 16);
    last_channel<<<grid, block>>>(in, out, W, H, dim);
}
"""


def _checks(tmp_path, alloc: str):
    f = tmp_path / "channels.cu"
    f.write_text(KERNEL.replace("ALLOC", alloc))
    rep = Verifier(schedules=("block",), cache=False).verify(Path(f))
    return [c for c in rep.checks if c.kind == "oracle"], [c for c in rep.checks if c.kind == "numeric"]


def test_a_reach_past_the_cap_at_chosen_sizes_runs_again_smaller(tmp_path):
    # W = H = dim = 256 chosen: the kernel reaches in[16777215], past 64 MiB; at 32 x 32 x 32 it fits
    oracle, numeric = _checks(tmp_path, "")
    assert [c.status for c in oracle] == ["pass"], oracle
    assert "scaled down 64 times further" in oracle[0].detail and "byte cap" in oracle[0].detail
    ran = [c for c in numeric if c.status != "skip"]
    assert ran and all(c.status == "pass" for c in ran), numeric
    assert {c.wave for c in ran} == {32, 64}


def test_a_buffer_host_code_sizes_too_short_stays_the_programs_fault(tmp_path):
    # the host allocates W * H floats for a reach of W * H * dim: the program's own out-of-bounds read
    oracle, numeric = _checks(tmp_path, "cudaMalloc((void**)&in, W * H * sizeof(float));")
    assert [c.status for c in oracle] == ["skip"], oracle
    assert "out-of-bounds read" in oracle[0].detail and "scaled down 64 times further" not in oracle[0].detail
    assert not [c for c in numeric if c.status in ("pass", "fail")]
