"""The texts of a parse's nodes by type, decoded once (SourceFile.texts_under / named_under): the
analyses and rules read them instead of decoding every identifier of each function again; they
must answer what `text_of` over `index.under` answers, masked macros and non-ASCII text included."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "examples").glob("*.cu")) + \
    sorted((ROOT / "tests/realcorpus/cuda-samples/Samples/2_Concepts_and_Techniques").rglob("*.cu"))[:4]

MASKED = """
#define HD __host__ __device__
#define WARP_SIZE 32
HD inline int lane(int t) { return t % WARP_SIZE; }
__global__ void k(float* größe, int n) {  // a non-ASCII name: byte offsets are not characters
    int t = threadIdx.x; if (t < n) größe[t] = lane(t) + WARP_SIZE + warpSize;
}
"""


def _sources():
    yield SourceFile.from_text(MASKED, "masked.cu", macros=None)
    for p in FILES:
        yield SourceFile.read(p)


def test_texts_under_is_text_of_each_node_under():
    for src in _sources():
        ix = src.index
        scopes = [src.root] + ix.of_type("function_definition") + ix.of_type("compound_statement")[:40]
        for node in scopes:
            for t in ("identifier", "type_identifier", "number_literal", "no_such_type"):
                assert src.texts_under(node, t) == [src.text_of(n) for n in ix.under(node, t)]


def test_named_under_is_a_filter_of_under_in_source_order():
    for src in _sources():
        ix = src.index
        words = sorted(set(src.texts_under(src.root, "identifier")))
        picks = [set(), {"WARP_SIZE"}, {"warpSize", "WARP_SIZE", "threadIdx", "nothing"}, set(words[::3]), set(words)]
        for node in [src.root] + ix.of_type("function_definition"):
            for names in picks:
                got = src.named_under(node, "identifier", names)
                assert [n.id for n in got] == [n.id for n in ix.under(node, "identifier") if src.text_of(n) in names]


def test_a_twin_under_another_path_shares_the_texts():
    src = SourceFile.from_text(MASKED, "a.cu")
    first = src.texts_under(src.root, "identifier")
    twin = src.named("b.cu")
    assert twin.texts_under(twin.root, "identifier") == first
    assert "größe" in first and first.count("WARP_SIZE") == 3
