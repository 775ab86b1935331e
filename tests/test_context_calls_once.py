"""The lint context's calls by plain name (Context.calls) are read once per context (issue 15, stop 64): rules
and helpers ask for them again per function (ws_widths, segmentlanes, maskhelpers, rowsplits), and each ask read
every call's callee again.  What an ask returns is unchanged: the calls by plain name under the node asked about
(the whole file where none), in source order, template calls by their name; calls through a member, a pointer
or a parenthesised callee are not calls by plain name.  The ids that divergence and warpbinary read fields by
are those of the names they stand for."""
from __future__ import annotations

from tree_sitter import Node

from kernelport.lint import context as lint_context, divergence
from kernelport.lint.context import Context, Settings, Unit
from kernelport.lint.rule import TARGETS, selected
from kernelport import warpbinary

TEXT = """
template <int W> __device__ float red(float v) { return v; }
__device__ float twice(float v) { return red<32>(v) + red<32>(v); }
__global__ void k(float* x, S s, float (*fp)(float)) {
    float v = twice(x[0]);
    v += s.member(v) + fp(v) + (fp)(v) + __shfl_down_sync(0xffffffff, v, 1);
    x[threadIdx.x] = v;
}
"""


def _context(text: str = TEXT) -> Context:
    return Context(Unit("t.cu", "cuda", text), Settings(frozenset(TARGETS), selected(None)))


def _body(ctx: Context, name: str) -> Node:
    return ctx.module.functions[name].body


def test_calls_under_a_node_and_in_the_file_by_plain_name_in_source_order():
    ctx = _context()
    names = lambda got: [n for _, n in got]  # noqa: E731
    assert names(ctx.calls()) == ["red", "red", "twice", "fp", "__shfl_down_sync"]
    assert names(ctx.calls(_body(ctx, "twice"))) == ["red", "red"]
    # look-alikes: a member call, a parenthesised callee, a function's calls asked about another's body
    assert names(ctx.calls(_body(ctx, "k"))) == ["twice", "fp", "__shfl_down_sync"]
    assert all(call.type == "call_expression" for call, _ in ctx.calls())


def test_each_call_s_callee_is_read_once_per_context(monkeypatch):
    read: list = []
    real = lint_context._callee_name
    monkeypatch.setattr(lint_context, "_callee_name", lambda src, call: read.append(call) or real(src, call))
    ctx = _context()
    for _ in range(3):
        ctx.calls()
        ctx.calls(_body(ctx, "twice"))
        ctx.calls(_body(ctx, "k"))
    assert len(read) == len(ctx.src.index.of_type("call_expression")) == 7
    other = _context(TEXT.replace("twice(x[0])", "x[0]"))  # another context reads its own calls
    assert [n for _, n in other.calls()] == ["red", "red", "fp", "__shfl_down_sync"]


def test_field_ids_stand_for_their_names():
    ctx = _context("__global__ void k(int* x, int a, int b) { x[a] = a > b ? a + b : (a += b); }")
    ids = {name[3:].lower(): value for module in (divergence, warpbinary) for name, value in vars(module).items()
           if name.startswith("_F_")}
    assert set(ids) >= {"left", "right", "operator", "argument", "indices", "condition", "consequence", "alternative"}
    for n in ctx.src.index.order:
        for name, fid in ids.items():
            a, b = n.child_by_field_id(fid), n.child_by_field_name(name)
            assert (a is None and b is None) or (a is not None and b is not None and a.id == b.id), (n.type, name)
