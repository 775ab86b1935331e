"""A kernel that runs no warp-level code has no say in its group's warp width (kernelport/warpless_kernels.py):
heldout80's mcgs prototype, whose `initialize_search<<<1, 1>>>` shares storage helpers with a warp-batched search
(`__activemask()` ballots), was undecided (KP219) on main for a block that meets no warp operation."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """
__device__ int slot(int* table, int i) { return table[i] + 1; }

__global__ void init(int* table) {
    table[0] = slot(table, 0);
}

__global__ void search(int* table, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned active = __activemask();
    int rank = __popc(active & ((1u << (threadIdx.x % 32)) - 1));
    out[i] = slot(table, rank);
}

void run(int* table, int* out) {
    init<<<1, 1>>>(table);
    search<<<4, 128>>>(table, out);
}
"""


def port(code: str):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")[0]


def codes(p) -> set[str]:
    return {d.code for d in p.diagnostics if d.severity == "error"}


def test_a_one_thread_initialiser_without_warp_code_does_not_decide_the_group():
    p = port(CODE)
    assert "KP219" not in codes(p), [d.format() for d in p.diagnostics]
    assert "__ballot(" in p.body  # the wave's vote: the group is native, from the search's 128-thread blocks


def test_a_kernel_that_reaches_warp_code_keeps_its_say():
    for joined in (CODE.replace("table[0] = slot(table, 0);", "table[0] = __popc(__activemask());"),  # its own
                   CODE.replace("return table[i] + 1;", "return table[i] + __popc(__activemask());")):  # a callee's
        assert "KP219" in codes(port(joined)), joined
