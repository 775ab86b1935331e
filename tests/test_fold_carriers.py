"""fold_levels' flow runs only over functions that can meet a ladder step (kernelport/fold_levels.py `_carriers`).

Every fold tag is made at a ladder step, so a function with no ladder shuffle and no call of a helper that
(transitively, by name) has one keeps no width-dependent fold: its flow (each loop walked twice, each helper
per argument tags) is skipped.  On main every function of a file that mentions a ladder anywhere was walked.
The answers stay: a kernel reaching the ladder through two helpers is still found; a model of a changed text
(a function that now calls the ladder's helper) is judged again, not read from the first model's set."""
from __future__ import annotations

from kernelport import backends, fold_levels
from kernelport.model import build
from kernelport.source import SourceFile

LADDER = """\
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__device__ float twice(float v) { return warp_sum(v); }
__global__ void through_two(const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i] / twice(x[i]);
}
__device__ float scale(float v) { return 2.0f * v; }
__global__ void no_ladder(float* y, int n) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) y[i * n + j] += scale(y[k]);
}
void host_loop(float* h, int n) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) h[i] += CALL(h[j]);
}
"""


def _reads(text: str, monkeypatch) -> tuple[dict, list[str]]:
    m = build(SourceFile.from_text(text, "t.cu"))
    flowed: list[str] = []
    real = fold_levels._Flow.__init__

    def counting(self, module, read_as, f):
        flowed.append(f.name)
        real(self, module, read_as, f)
    monkeypatch.setattr(fold_levels._Flow, "__init__", counting)
    read_as = backends.source().name
    return {f.name: fold_levels.width_dependent_read(m, f, read_as) for f in m.functions.values()}, flowed


def test_functions_without_a_ladder_are_not_walked(monkeypatch):
    found, flowed = _reads(LADDER.replace("CALL", "scale"), monkeypatch)
    assert sorted(flowed) == ["through_two", "twice", "warp_sum"]  # main: every function (6)
    assert found["through_two"] is not None  # the ladder two helpers down: every lane keeps the fold
    assert found["no_ladder"] is None and found["host_loop"] is None


def test_a_changed_text_is_judged_again(monkeypatch):
    found, flowed = _reads(LADDER.replace("CALL", "scale"), monkeypatch)
    assert "host_loop" not in flowed
    found, flowed = _reads(LADDER.replace("CALL", "twice"), monkeypatch)  # now it reaches the ladder
    assert "host_loop" in flowed
    assert found["host_loop"] is not None  # h[i] += a warp's fold in every lane
