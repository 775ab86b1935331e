"""SY002 quiet on shared-memory steps one thread runs alone (kernelport/lint/loneguards.py).

gpu-samplesort's scan.h (heldout60): `if (id == 0) { a[2] = a[1] + a[0]; a[1] = a[0]; a[0] = 0; }` with
`id = threadIdx.x`, and the serial scan of the first thread (`if (threadIdx.x == 0) for (...) s[i] += s[i - 1];`):
each step reads what the same thread wrote a statement before.  Look-alikes that stay flagged: a lane test
(`lane == 0` of `threadIdx.x % 32`: one thread per warp), a `tid < 32` half-block, an index that reads another
thread index (`threadIdx.y`: one thread per row passes an x test), a reassigned copy of the index, the `else`
branch of the test.
"""
from __future__ import annotations

from kernelport.lint.engine import lint_text

KERNEL = """\
__global__ void k(unsigned *out, int n) {
    __shared__ unsigned s[512];
    int id = threadIdx.x;
    int lane = threadIdx.x % 32;
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    if (GUARD) {
        BODY
    }
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
"""
RUN = "s[2] = s[1] + s[0]; s[1] = s[0]; s[0] = 0;"
SERIAL = "for (int i = 1; i < n; i++) s[i] += s[i - 1];"


def _sy002(guard: str, body: str) -> list[int]:
    src = KERNEL.replace("GUARD", guard).replace("BODY", body)
    return [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"]


def test_steps_of_the_one_thread_that_passes_an_x_index_test_are_quiet():
    for guard in ("id == 0", "threadIdx.x == 0", "0 == id", "!id", "n > 1 && threadIdx.x == 3"):
        assert _sy002(guard, RUN) == [], guard
        assert _sy002(guard, SERIAL) == [], guard


def test_a_test_that_passes_many_threads_keeps_the_finding():
    for guard in ("lane == 0", "id < 32", "threadIdx.y == 0", "id == 0 || n > 1"):
        assert _sy002(guard, RUN) == [8], guard
        assert _sy002(guard, SERIAL) == [8], guard


def test_an_index_read_from_another_thread_index_keeps_the_finding():
    assert _sy002("id == 0", "s[threadIdx.y + 1] = s[threadIdx.y] + 1; s[threadIdx.y] = s[threadIdx.y + 2];") == [8]
    assert _sy002("id == 0", "for (int i = threadIdx.y + 1; i < n; i++) s[i] += s[i - 1];") == [8]
    assert _sy002("id == 0", "for (int i = 1; i < n; i++) s[i + lane] += s[i - 1];") == [8]


def test_a_reassigned_copy_or_the_else_branch_keeps_the_finding():
    src = KERNEL.replace("GUARD", "id == 0").replace("BODY", RUN)
    moved = src.replace("    int lane", "    id = id ^ 1;\n    int lane")
    assert [f.line for f in lint_text(moved, "k.cu") if f.code == "SY002"] == [9]
    other = src.replace(f"        {RUN}\n    }}", f"        out[0] = 1;\n    }} else {{\n        {RUN}\n    }}")
    assert "} else {" in other
    assert [f.line for f in lint_text(other, "k.cu") if f.code == "SY002"] == [10]
