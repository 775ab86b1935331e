"""Each call of a module is named and looked up once (kernelport/fnscopes.py): warpflow's call scan,
warpwidth's groups, the project's warp helpers and lint's rules ask about the same call nodes, and
the memo must answer what a fresh lookup answers."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from kernelport import fnscopes, warpflow
from kernelport.model import build
from kernelport.source import SourceFile, call_args

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests/realcorpus/cuda-samples/Samples/2_Concepts_and_Techniques"
FILES = sorted((ROOT / "examples").glob("*.cu")) + sorted(SAMPLES.rglob("*.cu"))[:6]

NAMESPACED = """
namespace util { __device__ int lane(int t) { return t % 32; } }
namespace u2 = util;
using namespace util;
__device__ int f(int t) { return ::util::lane(t) + u2::lane(t) + lane(t); }
__global__ void k(int* x) { int t = threadIdx.x; x[t] = __shfl_sync(0xffffffff, x[t], f(t)); }
"""


def _calls(m):
    for f in m.functions.values():
        for c in (m.source.index.under(f.body, "call_expression") if f.body is not None else ()):
            yield f, c


def test_each_callee_is_spelled_once_per_module(monkeypatch):
    """The analyses ask about each call several times; its name is read from the text once."""
    spelled: Counter = Counter()
    real = fnscopes.Scopes._spelled

    def counting(self, fn):
        spelled[(id(self), fn.id)] += 1
        return real(self, fn)
    monkeypatch.setattr(fnscopes.Scopes, "_spelled", counting)
    for text in [NAMESPACED] + [p.read_text() for p in FILES]:
        m = build(SourceFile.from_text(text))
        warpflow.analyze(m)
        sc = fnscopes.of(m)
        for f, c in _calls(m):  # a second round of questions, as lint's rules ask
            fn = c.child_by_field_name("function")
            sc.candidates(f, fn)
            sc.resolve(f, fn, call_args(c))
    assert spelled and max(spelled.values()) == 1


def test_memo_answers_as_a_fresh_lookup():
    """Asked twice, or after warpflow asked, the answers are those of a Scopes that never asked."""
    for text in [NAMESPACED] + [p.read_text() for p in FILES]:
        m = build(SourceFile.from_text(text))
        warpflow.analyze(m)  # fills the module's Scopes
        warm, fresh = fnscopes.of(m), fnscopes.Scopes(m)
        for f, c in _calls(m):
            fn = c.child_by_field_name("function")
            assert warm.candidates(f, fn) == warm.candidates(f, fn) == fresh._candidates_of(f, fn)
            assert [id(g) for g in warm.resolve(f, fn, call_args(c))] == \
                [id(g) for g in fresh.resolve(f, fn, call_args(c))]
    m = build(SourceFile.from_text(NAMESPACED))
    sc = fnscopes.of(m)
    f = m.functions["f"]
    names = [sc.candidates(f, c.child_by_field_name("function")) for c in m.source.index.under(f.body, "call_expression")]
    # (as before the memo: `u2::lane` also names `util::util::lane` through the `using namespace`)
    assert names == [("util::lane",), ("util::lane", "util::util::lane"), ("lane", "util::lane")]


OVERLOADED = """
__device__ int pick(int a) { return a; }
__device__ int pick(int a, int b) { return a + b; }
__device__ int pick(int a, int b, int c = 0, ...) { return a + b + c; }
__device__ int pick(void* p) { return 0; }
__global__ void k(int* x) {
    int t = threadIdx.x;
""" + "".join(f"    x[t + {i}] = pick(t) + pick(t, {i}) + pick(t, {i}, t) + pick(x);\n" for i in range(40)) + "}\n"


def test_each_overloads_arity_is_read_once(monkeypatch):
    """Every call of an overloaded name narrows its candidates by their arity, on every sweep: each
    function's parameter list is read once (the 160 calls here read them 1,929 times before, one
    function's 482 times), the same answer."""
    reads: Counter = Counter()
    real = fnscopes._arity_of

    def counting(f):
        reads[id(f)] += 1
        return real(f)
    monkeypatch.setattr(fnscopes, "_arity_of", counting)
    m = build(SourceFile.from_text(OVERLOADED))
    warpflow.analyze(m)
    sc = fnscopes.of(m)
    k = m.functions["k"]
    found = [sc.resolve(k, c.child_by_field_name("function"), call_args(c))
             for c in m.source.index.under(k.body, "call_expression")]
    assert len(found) == 160 and all(len(f) >= 1 for f in found)
    assert reads and max(reads.values()) == 1
    for f in fnscopes.of(m).by_key.values():
        assert fnscopes._arity(f[0]) == real(f[0])


def test_a_name_defined_once_reads_no_parameter_list(monkeypatch):
    """A function's key tells overloads apart; a name with one definition (most of them) is its key
    without reading its parameters (Scopes read every function's arity and signature: ~3% of a
    profile of translate over tests/realcorpus)."""
    reads: list = []
    real = fnscopes._arity_of
    monkeypatch.setattr(fnscopes, "_arity_of", lambda f: reads.append(f) or real(f))
    text = "".join(f"__device__ int f{i}(int a, int b = {i}) {{ return a + b; }}\n" for i in range(50))
    m = build(SourceFile.from_text(text + OVERLOADED))
    sc = fnscopes.Scopes(m)
    assert {f.name for f in reads} == {"pick"}
    assert sc.key(m.functions["f7"]) == "f7" and sc.function("f7") is m.functions["f7"]
    assert sorted(k for k in sc.by_key if k.startswith("pick")) == ["pick/1(int)", "pick/1(void*)", "pick/2", "pick/2-"]
