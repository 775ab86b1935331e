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
    # (stop 50: a warp collective no longer makes a run dependent by itself; order.py says when the
    # thread schedule's collectives gather the lanes the block's do)
    "a warp collective": """
    out[blockIdx.x * 128 + t] = __shfl_down_sync(0xffffffffu, x[t], 1);""",
    "a float butterfly with bounds, then through shared memory across a barrier": """
    float v = x[blockIdx.x * 128 + t] * 1.1f;
    for (int k = 16; k > 0; k >>= 1) v += __shfl_xor_sync(0xffffffffu, v, k);
    if (t % 32 == 0) s[t / 32] = v;
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[0] + s[1] + s[2] + s[3] + __shfl_sync(0xffffffffu, v, 3);""",
    "votes under a branch, each side at its own collective": """
    unsigned b;
    if (t & 1) b = __ballot_sync(0xaaaaaaaau, x[t] > 3.0f); else b = __ballot_sync(0x55555555u, x[t] > 9.0f);
    __syncwarp();
    out[blockIdx.x * 128 + t] = (float)__popc(b) + (__any_sync(0xffffffffu, b != 0u) ? 0.5f : 0.0f);""",
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
}

# Collectives the thread schedule gathers otherwise than the block's lockstep calls: the block and
# thread runs really differ on each (test_the_thread_schedule_differs_where_collectives_are_dependent)
COLLECTIVE_DEPENDENT = {
    "one collective reached by a warp's lanes in different iterations": """
    unsigned a = 0u;
    for (int i = 0; i < 2; i++) { if (i == (t & 1)) a = __activemask(); }
    out[blockIdx.x * 128 + t] = (float)(a & 0xffffu);""",
    "lanes of a warp at their first and second collective meet at one": """
    unsigned a = 0u;
    if (t & 1) a = __activemask();
    unsigned b = __activemask();
    out[blockIdx.x * 128 + t] = (float)((a ^ b) & 0xffffu);""",
    "a shuffle that reads an inactive lane (undefined on the GPU)": """
    float v = 7.0f;
    if (t & 1) v = __shfl_xor_sync(0xaaaaaaaau, x[t], 1);
    out[blockIdx.x * 128 + t] = v;""",
}
DEPENDENT.update(COLLECTIVE_DEPENDENT)


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


@pytest.mark.parametrize("what", sorted(COLLECTIVE_DEPENDENT))
def test_the_thread_schedule_differs_where_collectives_are_dependent(what):
    """Each dependent collective case matters: its thread run computes another result (or says
    something else) than its block run, which therefore cannot stand for it."""
    block, thread = _run(COLLECTIVE_DEPENDENT[what]), _run(COLLECTIVE_DEPENDENT[what], "thread", watch=False)
    assert not block.independent
    assert not np.array_equal(block.outputs["out"], thread.outputs["out"]) or \
        [str(d) for d in block.diagnostics] != [str(d) for d in thread.diagnostics]


def test_a_collective_argument_stands_only_as_both_schedules_hold_it():
    """A shuffle widens a bound the same for every lane (0-d) to float64 in lockstep, while one
    thread at a time keeps each lane's type: such a float32 bound, or a vector or struct value,
    makes the run dependent; a per-lane bound of any type, or a float64 one, does not."""
    from kernelport.emulator.order import _plain_bound
    from kernelport.emulator.vectors import VecVal
    v = np.float32(1.5)
    assert _plain_bound((v, None)) and _plain_bound((v, np.float64(1e-7)))
    assert _plain_bound((np.ones(4, np.float32), np.full(4, 1e-7, np.float32)))
    assert not _plain_bound((v, np.float32(1e-7)))
    assert not _plain_bound(VecVal(((v, None), (v, None))))


def test_a_kernel_the_thread_schedule_cannot_compile_stays_dependent(monkeypatch):
    from kernelport.emulator import run as R
    from kernelport.emulator.errors import EmulatorError
    body = INDEPENDENT["a warp collective"]
    assert _run(body).independent
    compile_ = R._compile

    def refuse(low, mode, kernel):
        if mode == "thread":
            raise EmulatorError("warp collective in an unsupported position", "<kernel>", 1)
        return compile_(low, mode, kernel)
    monkeypatch.setattr(R, "_compile", refuse)
    assert not _run(body.replace("1);", "2);")).independent  # (another text: not the compiled one)


@pytest.mark.parametrize("wave", [32, 64])
def test_every_independent_warp_primitive_run_is_the_thread_and_warp_runs(wave):
    """Every warp primitive case (tests/warp_cases.py: shuffles of every kind and width, votes, under
    full and partial activity): where the watched block run is independent, the warp and thread runs
    compute exactly its outputs and say exactly its diagnostics."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import warp_cases as C
    independent = dependent = 0
    for case in C.CASES:
        for partial in (False, True):
            lo, P = C.param_range(case, wave, "cuda")
            step = max(1, P // (6 if len(C.widths(case, wave)) > 1 else 12)) | 1
            text = C.kernel_text(case, "cuda", wave, step=step)
            x, act, src, B, G, nout = C.inputs(case, wave, "cuda", partial)

            def run(schedule, watch=False):
                return run_kernel(text, "k", args=dict(x=x, act=act, src=src, out=np.zeros(nout, np.uint64), n=B * G),
                                  grid=(G,), block=(B,), wave=wave, schedule=schedule, watch=watch)
            block = run("block", True)
            if not block.independent:
                dependent += 1
                continue
            independent += 1
            for schedule in ("warp", "thread"):
                other = run(schedule)
                assert np.array_equal(block.outputs["out"], other.outputs["out"]), (case, partial, schedule)
                assert sorted(map(str, block.diagnostics)) == sorted(map(str, other.diagnostics)), (case, partial)
    assert independent >= 10 and dependent >= 10  # (both sides of the proof are exercised)


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
