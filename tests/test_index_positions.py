"""A node's pre-order position in its parse's NodeIndex (what `span`, `under`, `bounds` and
`subtree` stand on) is found by a bisect on the nodes' start bytes, not read from a table of every
node's id: it must be each node's place in the walk, for nodes that share a start byte (a chain
of ancestors), zero-width nodes (what the grammar reports missing) and error nodes alike."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.source import SourceFile, walk

ROOT = Path(__file__).resolve().parent.parent

BROKEN = """
__global__ void k(float* a, int n) {
    int t = threadIdx.x
    if (t < n) a[t] = a[t] + 1.0f
    return
}
int g() { return (1 + (2 * (3 - f(x[0][1])))) }
"""


def _sources():
    yield SourceFile.from_text(BROKEN, "broken.cu")
    yield SourceFile.from_text("", "empty.cu")
    yield SourceFile.from_text("int x;", "one.cu")
    for p in sorted((ROOT / "examples").glob("*.cu"))[:6]:
        yield SourceFile.read(p)


def test_every_node_is_found_at_its_place_in_the_walk():
    for src in _sources():
        ix = src.index
        nodes = list(walk(src.root))
        assert [n.id for n in nodes] == [n.id for n in ix.order]
        for i, n in enumerate(nodes):
            assert ix.position(n) == i
            assert ix.span(n) == (i, i + n.descendant_count)
            if i % 7 == 0:  # (a sample: subtree walks are quadratic over a whole file)
                assert [m.id for m in ix.subtree(n)] == [m.id for m in walk(n)]


def test_zero_width_and_shared_starts_are_told_apart():
    src = SourceFile.from_text(BROKEN, "broken.cu")
    missing = [n for n in src.index.order if n.is_missing]
    assert missing and all(n.start_byte == n.end_byte for n in missing)
    starts = [n.start_byte for n in src.index.order]
    assert any(starts.count(s) >= 4 for s in set(starts))  # `(1 + (2 * ...`: chains that share a byte
    for n in missing:
        assert src.index.order[src.index.position(n)].id == n.id


def test_a_subtree_query_builds_no_table_of_every_node():
    # Work, not time: the lookup reads the nodes' start bytes (a list made once, in C) and steps
    # over the few that start at the same byte; a dict from every node's id was built per parse.
    src = SourceFile.read(ROOT / "examples" / "block_reduce.cu")
    ix = src.index
    functions = ix.of_type("function_definition")
    assert functions
    for f in functions:
        assert ix.under(f, "identifier")
        ix.span(f)
    assert ix._pos_map is None


def test_a_node_of_another_parse_is_not_found():
    src = SourceFile.from_text("int x;", "a.cu")
    other = SourceFile.from_text("int y; int z;", "b.cu")
    with pytest.raises(KeyError):
        src.index.position(other.index.of_type("declaration")[1])
