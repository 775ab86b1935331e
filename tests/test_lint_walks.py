"""Lint's analyses and rules read the node kinds they are about from the node index, not by walking
every node: counted, never timed (issue 15).

`source.walk` is a Python step per node.  Over tests/realcorpus the walks of one lint yielded 592,612
nodes, 316,392 of them declkeys' walk of every function for its declarations, the others rules and
passes that walk a subtree for its calls, init-declarators or assignments, or walk the file scope
for its declarations.  They now take those kinds from the node index (source.NodeIndex: one walk
per parse, grouped by kind, in pre-order), a pruned walk's through kernelport.reached: 24,369
nodes over the same tree, and lint's JSON byte-identical (bench/lint_json_same.py).
"""
from __future__ import annotations

import importlib
import pkgutil
import textwrap
from pathlib import Path

import pytest

import kernelport
from kernelport import source
from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile, walk

_CODE = textwrap.dedent("""\
    constexpr int kWarpSize = 32;
    struct Tile { static const int kLog2 = 5; int v; };
    __device__ unsigned ballot_of(bool p) { return __ballot_sync(0xffffffff, p); }
    __device__ unsigned votes(bool p) { unsigned b = ballot_of(p); return b; }
    __global__ void reduce(const float* in, float* out, int n) {
        __shared__ float s[256];
        unsigned tid = threadIdx.x;
        float v = in[blockIdx.x * blockDim.x + tid];
        s[tid] = v;
        __syncthreads();
        if (tid < 32) { s[tid] += s[tid + 16]; s[tid] += s[tid + 8]; }
        unsigned mask = 0xffffffff;
        for (int i = 0; i < 5; i++) { v += __shfl_down_sync(mask, v, 16 >> i); }
        for (int k = 16; k > 0; k >>= 1) { float w = __shfl_xor_sync(mask, v, k); v += w; }
        { int k = tid % kWarpSize; if (k == 0) out[blockIdx.x] = v + votes(v > 0.f); }
    }
    """)


def _walked(monkeypatch, text: str) -> tuple[int, int, list]:
    """(nodes every kernelport module's `walk` yielded, the file's nodes, the findings) of one lint."""
    for m in pkgutil.walk_packages(kernelport.__path__, "kernelport."):
        if not m.name.endswith("__main__") and ".emulator" not in m.name and ".bind" not in m.name:
            importlib.import_module(m.name)  # (a module imported later would keep the real walk)
    count = [0]

    def counted(node, descend=None):
        for n in walk(node, descend):
            count[0] += 1
            yield n
    import sys
    for name, mod in list(sys.modules.items()):
        if name.startswith("kernelport") and getattr(mod, "walk", None) is walk:
            monkeypatch.setattr(mod, "walk", counted)
    found = lint_text(text, "w.cu")
    return count[0], len(SourceFile.from_text(text, "w.cu").index.order), found


def test_lint_walks_a_small_part_of_the_tree(monkeypatch):
    walked, nodes, found = _walked(monkeypatch, _CODE)
    # declkeys alone walked every node of each function (~90% of this file's nodes), the full-mask
    # rule every node of the function for each mask's declaration, the vote helpers every node of
    # each return, the constants every node at file and class scope
    assert walked < nodes // 10, (walked, nodes)
    codes = {f.code for f in found}
    assert {"WS001", "SY002"} <= codes, codes  # and the rules that read those kinds still report


_TREES = sorted(Path(__file__).resolve().parent.parent.joinpath("examples").glob("*.cu"))


@pytest.mark.parametrize("path", _TREES[:6], ids=lambda p: p.name)
def test_reached_is_the_pruned_walk(path):
    """kernelport.reached gives what the walk it replaces gives, in the same order, from every node
    as its top: with the scopes a file-scope pass enters, and with a walk that stays out of loops."""
    from kernelport.reached import reached
    src = SourceFile.read(path)
    scopes = ("translation_unit", "namespace_definition", "declaration_list", "preproc_if", "preproc_ifdef",
              "preproc_else", "preproc_elif", "struct_specifier", "field_declaration_list")
    def no_loops(n):
        return n.type not in ("for_statement", "while_statement", "do_statement")
    for top in src.index.order[::7]:
        for kinds, enter in ((("declaration", "function_definition", "field_declaration"), scopes),
                             (("assignment_expression", "call_expression"), no_loops)):
            want = [n.id for n in walk(top, enter if callable(enter) else (lambda n: n.type in enter))
                    if n.type in kinds]
            assert [n.id for n in reached(src, top, kinds, enter)] == want


def test_declkeys_from_the_index_are_the_walks():
    """A name declared in two scopes gets a key per scope at each use, as the walk found them."""
    from kernelport import declkeys
    code = textwrap.dedent("""\
        __global__ void k(int* o) {
            { const unsigned tmp = __ballot_sync(~0u, o[0] > 0); o[1] = tmp; }
            for (int i = 1; i < 32; i *= 2) { const int tmp = __shfl_up_sync(~0u, o[2], i); o[3] += tmp; }
            int tmp = 0; o[4] = tmp;
        }
        """)
    src = SourceFile.from_text(code, "k.cu")
    fn = src.index.of_type("function_definition")[0]
    keys = declkeys.of(src, fn)
    uses = [(src.text_of(n), src.location(n.start_byte).line, keys.get(n.id))
            for n in src.index.under(fn, "identifier") if src.text_of(n) == "tmp"]
    assert len({k for _, _, k in uses}) == 3, uses  # three scopes, three keys
    assert [line for _, line, _ in uses] == [2, 2, 3, 3, 4, 4]
    assert uses[0][2] == uses[1][2] and uses[2][2] == uses[3][2] and uses[4][2] == uses[5][2]


def test_source_walk_is_unchanged():
    src = SourceFile.from_text(_CODE, "w.cu")
    assert [n.id for n in source.walk(src.root)] == [n.id for n in src.index.order]
