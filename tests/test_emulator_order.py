"""emulator.order: a block run watched says whether any thread depended on another's order between
barriers; where none did, the warp and thread schedules compute exactly the block run's result,
and verify reports that run for them instead of running the kernel again."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel

N = 128


def _run(body: str, schedule: str = "block", watch: bool = True, wave: int = 32):
    src = ("__global__ void k(float* out, const float* x)\n{\n    __shared__ float s[130];\n"
           "    int t = threadIdx.x;\n" + body + "\n}\n")
    return run_kernel(src, "k", args={"out": np.zeros(2 * N, np.float32),
                                      "x": np.arange(2 * N, dtype=np.float32)},
                      grid=(2,), block=(N,), wave=wave, schedule=schedule, seed=3, watch=watch)


INDEPENDENT = {
    "own slots, then a neighbour's after the barrier": """
    s[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[(t + 1) % 128] + s[t];""",
    "every thread reads one location nobody writes before the barrier": """
    if (t == 0) s[0] = 5.0f;
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[0] * x[t];""",
    "a tree reduction with a barrier per step": """
    s[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    for (int k = 64; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
    out[blockIdx.x * 128 + t] = s[0];""",
}

DEPENDENT = {
    "a warp-synchronous reduction without a barrier": """
    s[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    if (t < 32) { s[t] += s[t + 16]; s[t] += s[t + 8]; }
    out[blockIdx.x * 128 + t] = s[t];""",
    "a read of another thread's slot before that thread writes it": """
    s[t] = x[t];
    __syncthreads();
    float v = s[(t + 1) % 128];
    s[t] = v * 2.0f;
    out[blockIdx.x * 128 + t] = v;""",
    "many readers, then one of them writes": """
    if (t == 0) s[0] = 1.0f;
    __syncthreads();
    float v = s[0];
    if (t == 5) s[0] = 7.0f;
    out[blockIdx.x * 128 + t] = v;""",
    "two threads write one global location": """
    out[t / 2] = x[t];""",
    "an atomic on one location": """
    atomicAdd(&out[0], x[t]);""",
    "a warp collective": """
    out[blockIdx.x * 128 + t] = __shfl_down_sync(0xffffffffu, x[t], 1);""",
}


@pytest.mark.parametrize("what", sorted(INDEPENDENT))
def test_an_order_free_kernel_computes_the_same_in_every_schedule(what):
    block = _run(INDEPENDENT[what])
    assert block.independent
    for schedule in ("warp", "thread"):
        other = _run(INDEPENDENT[what], schedule, watch=False)
        assert not other.independent  # (only a watched block run is ever said to be)
        assert np.array_equal(block.outputs["out"], other.outputs["out"])
        assert np.array_equal(block.bounds["out"], other.bounds["out"])
        assert [str(r) for r in block.races] == [str(r) for r in other.races] == []


@pytest.mark.parametrize("what", sorted(DEPENDENT))
def test_a_kernel_whose_threads_see_one_another_between_barriers_is_dependent(what):
    assert not _run(DEPENDENT[what]).independent


def test_unwatched_or_past_the_thread_schedule_s_budget_is_never_independent():
    assert not _run(INDEPENDENT["own slots, then a neighbour's after the barrier"], watch=False).independent
    src = ("__global__ void k(float* out)\n{\n    float a = 0.0f;\n"
           "    for (int i = 0; i < 20000; i++) a += 1.0f;\n    out[threadIdx.x] = a;\n}\n")
    run = run_kernel(src, "k", args={"out": np.zeros(128, np.float32)}, grid=(1,), block=(128,), watch=True,
                     max_steps=1_000_000)  # 20k iterations of the block: within; 128 threads x 20k: not
    assert run.outputs["out"][0] == 20000 and not run.independent


def test_verify_reports_the_block_run_for_the_other_schedules_where_it_stands_for_them(monkeypatch):
    from pathlib import Path

    from kernelport.verify import Verifier
    examples = Path(__file__).resolve().parent.parent / "examples"
    monkeypatch.setattr(Verifier, "_compile", lambda *a, **k: None)  # the numeric checks are the point
    monkeypatch.setattr(Verifier, "_lint", lambda *a, **k: None)
    for name, order_free in (("transpose.cu", True), ("histogram.cu", False)):  # histogram: shared atomics
        rep = Verifier(cache=False).verify(examples / name)
        others = [c for c in rep.checks if c.kind in ("numeric", "races") and c.schedule in ("warp", "thread")]
        assert len(others) == 16 and all(c.status == "pass" for c in others)
        assert all(("the block schedule's run" in c.detail) == order_free for c in others), name


def test_verify_without_annotations_reports_the_block_run_for_the_other_schedules(tmp_path, monkeypatch):
    """The oracle path (inputs from the host code, the original as the oracle) does the same."""
    from kernelport.verify import Verifier
    kernel = """
__global__ void scale(int n, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

int main() {
    int n = 1000;
    float *dx, *dy;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    scale<<<(n + 127) / 128, 128>>>(n, dx, dy);
    return 0;
}
"""
    path = tmp_path / "scale.cu"
    path.write_text(kernel, encoding="utf-8")
    from kernelport.source import SourceFile
    from kernelport.translate import destination, port_file
    _, text = port_file(SourceFile.read(path), "hip", tmp_path)
    destination(path, "hip").write_text(text, encoding="utf-8")  # one port on disk (its drift checked)
    monkeypatch.setattr(Verifier, "_compile", lambda *a, **k: None)
    rep = Verifier(cache=False).verify(path)
    others = [c for c in rep.checks if c.kind in ("numeric", "races") and c.schedule in ("warp", "thread")]
    assert others and all(c.status == "pass" and "the block schedule's run" in c.detail for c in others)
    # every check's seconds measured (the drift check of a port on disk said 0.0)
    assert any(c.kind == "drift" for c in rep.checks) and all(c.seconds > 0 for c in rep.checks)


def test_a_buffer_too_large_to_watch_leaves_the_run_dependent(monkeypatch):
    from kernelport.emulator import order
    body = INDEPENDENT["own slots, then a neighbour's after the barrier"]
    assert _run(body).independent
    monkeypatch.setattr(order, "MAX_WATCHED", 2 * N - 1)  # `out` and `x` hold 2 * N elements
    assert not _run(body).independent
