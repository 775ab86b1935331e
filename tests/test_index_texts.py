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


def test_positions_where_asks_each_text_once_and_finds_every_node():
    src = SourceFile.from_text(MASKED, "a.cu")
    asked: list[str] = []

    def keep(text: str) -> bool:
        asked.append(text)
        return text.isupper()
    got = src.positions_where("identifier", keep)
    ix = src.index
    assert len(asked) == len(set(asked))
    assert ix.at(got) == [n for n in ix.of_type("identifier") if src.text_of(n).isupper()]
    assert ix.at(ix.positions("identifier", "number_literal")) == ix.of_types("identifier", "number_literal")


def test_model_uses_are_those_of_a_look_at_every_name():
    """The model looks up each distinct name once: its concept uses are those of a lookup per node."""
    from kernelport import backends, dialect
    from kernelport.model import build
    read_as = backends.source().name
    for src in _sources():
        m = build(src)
        callees = {c.child_by_field_name("function").id for c in src.index.of_type("call_expression")
                   if c.child_by_field_name("function") is not None}
        want = []
        for n in src.index.of_types("call_expression", "identifier", "type_identifier", "primitive_type"):
            if n.type == "call_expression":
                fn = n.child_by_field_name("function")
                c = dialect.lookup(read_as, src.text_of(fn)) if fn is not None and fn.type == "identifier" else None
            else:
                c = dialect.lookup(read_as, src.text_of(n))
                c = c if c is not None and c.kind in ("index", "type", "runtime") and n.id not in callees else None
            if c is not None:
                want.append((c.key, n.id))
        assert [(u.concept.key, u.node.id) for u in m.uses] == want
        assert want


def test_the_index_by_type_is_a_walk_grouped_by_type():
    """The index gathers positions by the grammar's symbol and names them after: a keyword and the
    node it begins share a type name (`decltype`, `noexcept`), and each type's positions are every
    node of that type, in pre-order, as a plain walk groups them (parse errors included)."""
    from kernelport.source import walk
    broken = SourceFile.from_text("decltype(a) b = 1;\nvoid f() noexcept(true) {}\nint g( { ]] x = ;\n"
                                  "struct S {\n#if A\n int f;\n#endif\n};\n", "e.cu")
    for src in [broken, *_sources()]:
        ix = src.index
        want: dict[str, list[int]] = {}
        for k, n in enumerate(walk(src.root)):
            want.setdefault(n.type, []).append(k)
        assert {t: ix.positions(t) for t in want} == want
        assert ix.positions("no_such_type") == []
    assert len({n.kind_id for n in broken.index.of_type("decltype")}) == 2  # the merge is exercised
