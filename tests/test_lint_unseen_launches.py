"""A kernel whose launches the run cannot see stays flagged, and the finding says where its block would
come from (issue 11, stop 49; kernelport/lint/unseen_launches.py).

labelled25's `k_residuals_finalize_K` is launched `<<<n, 32>>>` only from a file outside the set: its
16-start ladder is flagged (no launch the run reads bounds the block; its comment "TPB must be <= 32"
binds nothing).  The verdict stays; the message names the kernel, the header that declares it in a
run of several files, and the two ways to give the block (the launching file in the run,
`__launch_bounds__(32)`).  Each case has a look-alike: a launch in the run (64 threads: flagged with no
such clause, since the block is known; 32: quiet), `__launch_bounds__(32)` (quiet), a helper no kernel
of the file calls (flagged, no kernel to name), a 32-bit mask (WS007: any block breaks it, no clause)."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import engine

KERNEL = """\
__global__ void k_sum(const float* __restrict__ x, float* out, const int n) {
    float v = threadIdx.x < n ? x[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffffffffffull, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
"""
CLAUSE = "is launched in no file of this run"


def _findings(tmp_path: Path, files: dict[str, str], given: list[str] | None = None, code: str = "WS004"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return [f for r in engine.lint_paths([tmp_path / n for n in (given or list(files))], jobs=1)
            for f in r.findings if f.code == code]


def test_a_kernel_launched_nowhere_in_the_run_stays_flagged_and_says_where_its_block_would_come_from(tmp_path):
    got = _findings(tmp_path, {"a.cu": KERNEL})
    assert [(Path(f.path).name, f.line, f.severity) for f in got] == [("a.cu", 3, "error")]
    m = got[0].message
    assert "`k_sum` " + CLAUSE in m and "its block taken as whole 64-lane waves" in m
    assert "lint the file that launches it with this one" in m and "`__launch_bounds__(32)`" in m
    assert m.startswith("a shuffle ladder starts at 16")  # the rule's own message first, its fix kept
    assert got[0].fix is not None
    from kernelport.lint.formats import short_message
    assert CLAUSE not in short_message(m)  # in the hardware explanation (--format full, SARIF), not the concise line


def test_in_a_run_of_several_files_it_names_the_header_that_declares_the_kernel(tmp_path):
    files = {"k.cuh": "#pragma once\n__global__ void k_sum(const float* x, float* out, int n);\n",
             "a.cu": '#include "k.cuh"\n' + KERNEL,
             "c.cu": '#include "k.cuh"\nvoid other() {}\n'}
    got = _findings(tmp_path, files, given=["a.cu", "c.cu"])
    assert len(got) == 1 and "`k_sum` " + CLAUSE + " (declared in k.cuh)" in got[0].message


def test_a_launch_in_the_run_gives_the_block_no_clause(tmp_path):
    for block, flagged in (("64", True), ("32", False)):
        d = tmp_path / block
        d.mkdir()
        got = _findings(d, {"a.cu": KERNEL + f"void run(const float* x, float* o, int n) {{ k_sum<<<8, {block}>>>(x, o, n); }}\n"})
        assert bool(got) == flagged, block
        assert all(CLAUSE not in f.message for f in got)


def test_a_stated_bound_is_evidence(tmp_path):
    assert _findings(tmp_path, {"a.cu": KERNEL.replace("__global__ void", "__global__ void __launch_bounds__(32)")}) == []


def test_a_helper_no_kernel_calls_and_a_32_bit_mask_get_no_clause(tmp_path):
    helper = "__device__ float warp_sum(float v) {\n    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);\n    return v;\n}\n"
    got = _findings(tmp_path, {"h.cu": helper})
    assert len(got) == 1 and CLAUSE not in got[0].message
    masks = _findings(tmp_path, {"m.cu": KERNEL.replace("0xffffffffffffffffull", "0xffffffffu")}, code="WS007")
    assert masks and all(CLAUSE not in f.message for f in masks)
