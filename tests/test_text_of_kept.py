"""`SourceFile.text_of` keeps each node's text (a lint asked ~4 times for every node it read: 994k
asks of 227k nodes over tests/realcorpus, each a slice and a decode).  What it answers must stay what
the bytes of the node's span decode to: per parse (a node's text is its own file's), per node (two
nodes of one text are two entries), with masked macros and non-ASCII names, and a decode error still
raised where the span is not UTF-8."""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile

TEXT = """
#define HD __host__ __device__
#define WARP_SIZE 32
HD inline int lane(int t) { return t % WARP_SIZE; }
__global__ void k(float* größe, int n) {  // a non-ASCII name: byte offsets are not characters
    int t = threadIdx.x; if (t < n) größe[t] = lane(t) + WARP_SIZE + warpSize;
}
"""


def _decoded(src: SourceFile, node) -> str:
    return src.data[node.start_byte:node.end_byte].decode("utf-8")


def test_each_node_is_decoded_once_and_answers_its_bytes():
    src = SourceFile.from_text(TEXT, "kept.cu")
    nodes = src.index.order
    first = [src.text_of(n) for n in nodes]
    assert first == [_decoded(src, n) for n in nodes]
    # the same str object on a second ask: kept, not decoded again (main decoded on every ask)
    again = [src.text_of(n) for n in nodes]
    assert all(a is b for a, b in zip(first, again))
    assert "größe" in first and first.count("WARP_SIZE") == 3


def test_nodes_of_one_text_are_kept_apart_and_a_fresh_node_object_hits():
    src = SourceFile.from_text(TEXT, "kept2.cu")
    ids = [n for n in src.index.of_type("identifier") if src.text_of(n) == "WARP_SIZE"]
    assert len(ids) == 3 and len({(n.start_byte, n.end_byte) for n in ids}) == 3
    # a node reached again through the tree is another Python object for the same node: the same entry
    fn = src.index.of_type("function_definition")[0]
    via_tree = fn.child_by_field_name("declarator")
    assert src.text_of(via_tree) is src.text_of(via_tree.parent.child_by_field_name("declarator"))


def test_a_look_alike_parse_answers_its_own_text():
    a = SourceFile.from_text("__global__ void k(int n) { int abc = n; }\n", "a.cu")
    b = SourceFile.from_text("__global__ void k(int n) { int xyz = n; }\n", "b.cu")
    na = a.index.of_type("identifier")
    nb = b.index.of_type("identifier")
    assert [a.text_of(n) for n in na] == ["k", "n", "abc", "n"]
    assert [b.text_of(n) for n in nb] == ["k", "n", "xyz", "n"]
    # a node asked of the other parse reads that parse's bytes at its span, as before the memo
    assert b.text_of(na[2]) == "xyz" and a.text_of(nb[2]) == "abc"
    twin = a.named("c.cu")  # a display twin shares the parse, and its texts
    assert twin.text_of(na[2]) is a.text_of(na[2])


def test_a_span_that_is_not_utf8_still_raises():
    src = SourceFile.from_text("int größe;\n", "u.cu")
    ident = src.index.of_type("identifier")[0]
    start = ident.start_byte

    class Half:  # a span cut inside `ö` (two bytes): the decode's error, raised on every ask
        start_byte, end_byte = start, start + 3

    for _ in range(2):
        with pytest.raises(UnicodeDecodeError):
            src.text_of(Half())
