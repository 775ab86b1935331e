"""WS014 on a source file's wave-width definition that nothing in the file reads (kernelport/lint/unreadmacros.py).

tree-free-nbody's tree_free_fmm_kernel.cu (heldout100) defines `WARP_SIZE` 64 under `__HIPCC__` and never reads
it: no width is wrong for it, and WS014 was a false finding.  A read anywhere (a kernel, another macro's body)
keeps the finding, and so does a header's definition (its reads are in its includers)."""
from __future__ import annotations

import pytest

from kernelport.lint import engine

GUARD = """\
#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
#define WARP_SIZE 64
#else
#define WARP_SIZE 32
#endif
#ifndef WARP_SIZE
#error no width
#endif
{rest}
"""


def _ws014(tmp_path, text: str, name: str = "k.cu") -> set[int]:
    p = tmp_path / name
    p.write_text(text)
    return {f.line for r in engine.lint_paths([p], jobs=1) for f in r.findings if f.code == "WS014"}


UNREAD = {
    "no mention": "__global__ void k(float* x) { x[threadIdx.x] = 0.0f; }",
    "a comment only": "// lanes: WARP_SIZE\n__global__ void k(float* x) { /* WARP_SIZE */ x[threadIdx.x] = 0.0f; }",
    "a definedness test only": "#if defined(WARP_SIZE)\n#endif\n__global__ void k(float* x) { x[threadIdx.x] = 0.0f; }",
}
READ = {
    "a kernel": "__global__ void k(float* x) { x[threadIdx.x % WARP_SIZE] = 0.0f; }",
    "another macro's body": "#define LAST_LANE (WARP_SIZE - 1)\n__global__ void k(int* x) { x[0] = LAST_LANE; }",
    "a pasted name": "#define CAT(a, b) a##b\n__global__ void k(int* x) { x[threadIdx.x % CAT(WARP_, SIZE)] = 0; }",
}


@pytest.mark.parametrize("rest", UNREAD.values(), ids=UNREAD.keys())
def test_unread_definition_in_a_source_file_is_quiet(tmp_path, rest):
    assert not _ws014(tmp_path, GUARD.format(rest=rest))


@pytest.mark.parametrize("rest", READ.values(), ids=READ.keys())
def test_read_definition_is_named(tmp_path, rest):
    assert _ws014(tmp_path, GUARD.format(rest=rest)) == {2}


def test_header_definition_is_named_unread(tmp_path):
    assert _ws014(tmp_path, GUARD.format(rest=UNREAD["no mention"]), "wave.cuh") == {2}


HEADER_READS = {
    "a function of the header": "__device__ inline float lane_sum(float v) {\n"
                                "    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_xor(v, o);\n    return v;\n}\n",
    "a macro of the header": "#define LANE(x) ((x) % WARP_SIZE)\n",
}


@pytest.mark.parametrize("header", HEADER_READS.values(), ids=HEADER_READS.keys())
def test_definition_a_quoted_header_may_read_is_named(tmp_path, header):
    """review66e: `#include "lanes.cuh"` after (or before) the definition: the header's ladder or macro reads the
    64 the file defines (on RDNA a 32-lane wave sums with an xor of 32), so WS014 stays; an angle-bracket include
    (a system header) leaves an unread definition quiet."""
    (tmp_path / "lanes.cuh").write_text("#pragma once\n" + header)
    assert _ws014(tmp_path, GUARD.format(rest='#include "lanes.cuh"\n' + UNREAD["no mention"])) == {2}
    assert not _ws014(tmp_path, GUARD.format(rest="#include <stdio.h>\n" + UNREAD["no mention"]), "s.cu")
