"""warpflow's binary expressions (kernelport/warpbinary.py): two operands without facts make no
facts, so the operator of such an expression (data: `x[t] * y[t] + z[t]`) is not read; an operand
with facts (`t % 32`, `t / 32`, `1u << lane`) is read as before and its sinks confirm its sites."""
from __future__ import annotations

import sys

from kernelport import warpflow
from kernelport.model import build
from kernelport.source import SourceFile

TEXT = """
__global__ void k(const float* x, const float* y, const float* z, float* out, unsigned* masks) {
    __shared__ float sums[8];
    int t = threadIdx.x;
    float v = x[t] * y[t] + z[t];
    int lane = t % 32;
    v += __shfl_down_sync(0xffffffff, v, 16);
    if (lane == 0) sums[t / 32] = v;
    out[t] = sums[0];
    masks[t] = 1u << lane;
}
"""


def _analysis(monkeypatch=None):
    src = SourceFile.from_text(TEXT, "t.cu")
    read: list[str] = []
    if monkeypatch is not None:
        real = src.text_of

        def text_of(node):  # (the operators warpflow's binary expressions read: not warpwidth's)
            if sys._getframe(1).f_code.co_name == "binary" and node is not None and node.parent is not None and \
                    node.parent.type == "binary_expression" and node == node.parent.child_by_field_name("operator"):
                read.append(real(node.parent))
            return real(node)
        monkeypatch.setattr(src, "text_of", text_of)
    return warpflow.analyze(build(src)), read


def test_the_operator_of_fact_free_operands_is_not_read(monkeypatch):
    _, read = _analysis(monkeypatch)
    assert "x[t] * y[t]" not in read and "x[t] * y[t] + z[t]" not in read  # main: both read, every pass
    assert {"t % 32", "t / 32", "1u << lane", "lane == 0"} <= set(read)  # the look-alikes: operands with facts


def test_the_sites_of_operands_with_facts_are_confirmed():
    a, _ = _analysis()
    assert sorted((s.role, s.node.text.decode(), s.why) for s in a.confirmed()) == [
        ("ladder", "16", "an unrolled shuffle ladder starts at 16"),
        ("ws", "32", "indexes the per-warp shared array 'sums'"),  # `t / 32`
        ("ws", "32", "leader or lane test in warp-level code"),  # `t % 32` reaches `lane == 0`
    ]
