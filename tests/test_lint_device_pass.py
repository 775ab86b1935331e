"""Lint analyses the device branch of `#ifdef __CUDA_ARCH__` where the HIP port compiles it on AMD (stop 52).

nvcc defines `__CUDA_ARCH__` on its device pass only; hipcc's device pass does not, so translate respells a
device-pass test (`#ifdef __CUDA_ARCH__`, `#if defined(__CUDA_ARCH__)`, `#ifndef`'s `#else`) as
`__HIP_DEVICE_COMPILE__` where that is sound (kernelport/device_pass.py): the HIP port compiles the device
branch on AMD.  Lint read the original only as a build of the source as written, so the device branch was
NVIDIA's and a 32-bit ballot, `& 31` or a ladder from 16 there went to AMD in the port unflagged.  Now
device_pass.ported hands lint translate's own decision, test by test, valued on the AMD device pass
(guards.side_of's `ported`, beside stop 52's `#if __CUDA_ARCH__ >= N`).

Look-alikes keep today's reading: the host `#else` (the source-as-written build compiles it, findings as on
main), a `TILE_DIM 32` tile in the device branch, a user's macro spelled like it (`#ifdef KP_CUDA_ARCH`, -D
given), a device branch the port keeps as written (PTX inside: translate does not respell it), Metal alone."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint.config import Overrides
from kernelport.lint.engine import lint_paths, lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate as _translate
from test_lint_arch_branches import BOTH, tile_in_branch

BALLOT = """\
__global__ void count(const int *in, int *out) {
    int v = in[threadIdx.x];
#ifdef __CUDA_ARCH__
    unsigned int b = __ballot_sync(0xffffffffu, v > 0);
    if ((threadIdx.x & 31) == 0) out[threadIdx.x / warpSize] = __popc(b);
#endif
}
"""

# the device branch and the host `#else` of one test, each with a ladder from 16 (line 4, line 6)
SPLIT = BOTH.replace("#if __CUDA_ARCH__ >= 700", "#ifdef __CUDA_ARCH__")


def _ws(findings) -> list[tuple[str, int, int]]:
    return sorted((f.code, f.line, f.column) for f in findings if f.code.startswith(("WS", "PT")))


def _port(text: str) -> str:
    return _translate(SourceFile.from_text(text, "k.cu"), "hip")[1]


def _at(findings, line: int) -> list[str]:
    return sorted(c for c, ln, _ in _ws(findings) if ln == line)


def test_a_hazard_in_the_device_branch_is_reported():
    got = _ws(lint_text(BALLOT, "k.cu"))
    assert ("WS007", 4, 36) in got  # the 32-bit full mask (main: nothing)
    assert ("WS002", 5, 24) in got  # `& 31` as the lane
    for head in ("#if defined(__CUDA_ARCH__)", "#if defined __CUDA_ARCH__ && !defined(KP_NEVER)", "# ifdef __CUDA_ARCH__"):
        assert ("WS007", 4, 36) in _ws(lint_text(BALLOT.replace("#ifdef __CUDA_ARCH__", head), "k.cu")), head


def test_the_else_of_ifndef_is_the_device_branch():
    text = BALLOT.replace("#ifdef __CUDA_ARCH__", "#ifndef __CUDA_ARCH__\n    out[0] = v;\n#else")
    got = _ws(lint_text(text, "k.cu"))
    assert ("WS007", 6, 36) in got and ("WS002", 7, 24) in got  # main: nothing


def test_a_ladder_in_the_device_branch_beside_the_host_else():
    got = lint_text(SPLIT, "k.cu")
    assert "WS004" in _at(got, 4)  # the ladder from 16 the port compiles on AMD (main: nothing at line 4)
    assert _at(got, 6) == ["WS023"]  # the host `#else`, as the source-as-written build compiles it: as on main


def test_lint_reads_the_test_translate_respells():
    out = _port(BALLOT)
    assert "#ifdef __HIP_DEVICE_COMPILE__" in out and "#ifdef __CUDA_ARCH__" not in out


# -- look-alikes: today's reading ------------------------------------------------------------------
def test_the_host_else_of_a_host_device_function():
    hd = """\
__host__ __device__ int lane_of(int i) {
#ifdef __CUDA_ARCH__
    return threadIdx.x % warpSize;
#else
    return i & 31;
#endif
}
"""
    assert _ws(lint_text(hd, "k.cu")) == []  # host code: no lane, no device pass (as on main)
    both = SPLIT.replace("__global__ void k", "__host__ __device__ void k")
    got = lint_text(both, "k.cu")
    assert _at(got, 6) == ["WS023"] and "WS004" in _at(got, 4)  # the #else as on main; the device branch the port's


def test_a_tile_of_32_in_the_device_branch_stays_quiet():
    assert _ws(lint_text(tile_in_branch("#ifdef __CUDA_ARCH__"), "k.cu")) == []


def test_a_user_macro_spelled_like_it_keeps_todays_reading(tmp_path: Path):
    user = BALLOT.replace("__CUDA_ARCH__", "KP_CUDA_ARCH")
    want = [("WS002", 5, 24), ("WS007", 4, 36), ("WS008", 4, 5), ("WS009", 5, 64), ("WS016", 5, 24)]  # main's
    assert _ws(lint_text(user, "k.cu")) == want
    given = tmp_path / "k.cu"
    given.write_text(user)
    assert _ws(f for r in lint_paths([given], Overrides(defines=(("KP_CUDA_ARCH", "1"),)), jobs=1)
               for f in r.findings) == want


def test_a_device_branch_the_port_keeps_as_written_stays_nvidias():
    ptx = """\
__global__ void k(int *out) {
#ifdef __CUDA_ARCH__
    unsigned lane; asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned int b = __ballot_sync(0xffffffffu, lane > 3);
    out[threadIdx.x] = b;
#endif
}
"""
    assert "#ifdef __CUDA_ARCH__" in _port(ptx)  # kept: PTX inside
    assert "WS007" not in _at(lint_text(ptx, "k.cu"), 4)  # no AMD pass compiles it (as on main)


def test_metal_alone_reads_it_as_before():
    assert _ws(lint_text(BALLOT, "k.cu", targets=["metal"])) == []  # Metal's spelling is no AMD pass (main: [])
