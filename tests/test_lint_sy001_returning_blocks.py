"""SY001 after an early return: a thread-dependent `return` inside a block that returns every thread
by its end (heldout24's mistralrs mmq_gguf.cuh: `if (!ids_dst) { ... if (need_check && i > i_max)
return; ... return; }` then `__syncthreads()`) takes no thread away from the code after the block:
that code is reached by the threads that did not enter it, which the block's (uniform) condition
decides (kernelport.lint.exits.returning_block_end).  A barrier inside the block after the early
return, one after a later early return, and blocks a thread may leave by `break` stay reported."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

SRC = """\
__global__ void k(float* dst, const float* ids, int n, int jmax) {
    __shared__ float s[256];
    int i = threadIdx.x;
    if (!ids) {
        if (i > n) {
            return;
        }
        for (int j = 0; j < 4; ++j) {
            if (j > jmax) return;
            dst[j * 256 + i] = 1.0f;
        }
        return;
    }
    s[i] = ids[i];
    __syncthreads();
    dst[i] = s[255 - i];
}
"""


def _sy001(text: str) -> list[int]:
    return [f.line for f in lint_text(text, "t.cu") if f.code == "SY001"]


def test_a_return_inside_a_returning_block_spares_the_barrier_after_it():
    assert _sy001(SRC) == []


def test_barriers_the_early_return_does_skip_stay_reported():
    inside = SRC.replace("        return;\n    }\n    s[i]", "        __syncthreads();\n        return;\n    }\n    s[i]")
    assert _sy001(inside) == [12]  # in the block, after `if (i > n) return;`
    later = SRC.replace("    s[i] = ids[i];\n", "    if (i > n) return;\n    s[i] = ids[i];\n")
    assert _sy001(later) == [16]  # the return after the block takes threads away
    no_final = SRC.replace("        return;\n    }\n    s[i]", "    }\n    s[i]")
    assert _sy001(no_final) == [14]  # the block falls through: its early return matters
    uniform_if_divergent = SRC.replace("if (!ids)", "if (i < 32)")
    assert _sy001(uniform_if_divergent) == [15]  # the block's own condition is thread-dependent
