"""copy_observers.py follows a `const T&` into the helpers it is handed to; writes_memory is memoised;
the atomic prefixes come from backend data (issue 11, Metal part; snippets written for the test).

`outer(out[0])` with `outer(const float &x) { return next(x); }` and `next` reading `(&y)[1]` reads
out[1] in CUDA; main copied out[0] into the thread at the call (`outer(float(out[0]))`), and `next` read
the thread's neighbour: a port that computes something else.  It is refused at the call now (KP224); a
helper that only reads its argument's value, or hands it on by value, keeps the copy.
"""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

CUDA = """
__device__ float next(const float &y) { const float *p = &y; return p[1]; }
__device__ float outer(const float &x) { return next(x) + 1.0f; }
__device__ float deep(const float &x) { return outer((x)) * 2.0f; }
__device__ float val(const float &y) { return y * 2.0f; }
__device__ float readsOnly(const float &x) { return val(x) + reinterpret_cast<const float*>(&x)[0]; }
__device__ float byValue(float y) { const float *q = &y; return q[0]; }
__device__ float passesValue(const float &x) { return byValue(x) + next(1.0f); }
__global__ void k(float *out) {
  out[1] = outer(out[0]);
  out[2] = deep(out[0]);
  out[3] = readsOnly(out[0]) + passesValue(out[0]);
}
"""


def test_an_inner_helper_taking_the_address_refuses_the_copy(tmp_path: Path):
    require_tool("clang")
    port, _ = translate(SourceFile.from_text(CUDA, str(tmp_path / "k.cu")), "metal")
    errors = [(d.location.line, d.code) for d in port.diagnostics if d.severity == "error"]
    assert errors == [(10, "KP224"), (11, "KP224")], [d.format() for d in port.diagnostics]
    assert "readsOnly(float(out[0])) + passesValue(float(out[0]))" in port.body, port.body


def test_atomic_prefixes_are_backend_data():
    from kernelport import backends
    from kernelport.backends.metal.copy_observers import _atomic_prefixes
    assert set(_atomic_prefixes()) == {p for b in backends.all() for p in b.atomic_prefixes}
    assert "__hip_atomic" in backends.get("hip").atomic_prefixes
    assert all("__hip" not in p for p in backends.get("cuda").atomic_prefixes + backends.get("metal").atomic_prefixes)


def test_writes_memory_is_memoised_and_a_cut_false_is_not_kept(monkeypatch):
    from kernelport.backends.metal import callee_writes
    from kernelport.model import build
    src = SourceFile.from_text("""
__device__ void b(float *o);
__device__ void a(float *o) { b(o); }
__device__ void b(float *o) { a(o); o[0] = 1.0f; }
__device__ float c(const float &x) { return x; }
""", "m.cu")
    fns = {f.name: f for f in build(src).functions.values() if f.body is not None}
    calls = []
    real = callee_writes._writes
    monkeypatch.setattr(callee_writes, "_writes", lambda *a: calls.append(a[1].name) or real(*a))
    assert callee_writes.writes_memory(src, fns["b"], fns)  # b writes; its call of a asked a, cut off at b
    assert callee_writes.writes_memory(src, fns["a"], fns)  # so a's False then was not kept: a -> b writes
    assert not callee_writes.writes_memory(src, fns["c"], fns)
    n = len(calls)
    assert callee_writes.writes_memory(src, fns["b"], fns) and not callee_writes.writes_memory(src, fns["c"], fns)
    assert len(calls) == n  # answered from the memo
