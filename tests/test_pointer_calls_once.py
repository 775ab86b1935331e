"""Calls through a function pointer (kernelport/pointer_calls.py) resolved with each function's pointer
parameters and locals read once per group-width decision, not once per call: `Pointers` keeps them per
function, so two functions that name their pointers alike keep their own arities."""
from __future__ import annotations

from kernelport import model, pointer_calls, warpflow
from kernelport.source import SourceFile


def _unit(calls: int) -> str:
    many = " ".join(f"(*op)(p, {i});" for i in range(calls))
    return f"""
__device__ void add1(int* p, int v) {{ p[threadIdx.x] += __shfl_down_sync(0xffffffff, v, 1); }}
__device__ void add2(int* p, int v) {{ p[threadIdx.x] -= v; }}
__device__ void neg(int* p) {{ p[threadIdx.x] = -p[threadIdx.x]; }}
__device__ void apply(int* p, void (*op)(int*, int)) {{ {many} __syncthreads(); atomicAdd(p, 1); }}
__device__ void apply1(int* p, void (*op)(int*)) {{ (*op)(p); __syncthreads(); }}
__device__ void local2(int* p, int op) {{ void (*q)(int*, int) = add1; (*q)(p, op); q(p, op); }}
__global__ void k(int* p) {{ apply(p, add1); apply(p, add2); apply1(p, neg); local2(p, 3); }}
"""


def _module(text: str):
    return model.plain(SourceFile.from_text(text, "ptr.cu"))


def _calls(m, name):
    f = m.functions[name]
    return f, list(m.source.index.under(f.body, "call_expression"))


def test_each_function_keeps_its_own_pointer_arities():
    m = _module(_unit(2))
    shared = pointer_calls.Pointers(m)  # one for the whole model, asked of every function in turn
    got = {}
    for name in ("apply", "apply1", "local2", "k"):
        f, calls = _calls(m, name)
        for c in calls:
            one = [g.name for g in shared.targets(f, c)]
            assert one == [g.name for g in pointer_calls.targets(m, f, c)]  # a fresh look-up per call
            got.setdefault(name, set()).update(one)
    # `op` is a 2-argument pointer in apply and a 1-argument one in apply1: neither takes the other's
    assert got == {"apply": {"add1", "add2"}, "apply1": {"neg"}, "local2": {"add1", "add2"}, "k": set()}


def test_a_name_of_the_file_or_no_pointer_is_no_pointer_call():
    m = _module(_unit(1) + "__device__ void op(int* p, int v) {}\n__device__ void g(int* p, void (*op)(int*, int)) { op(p, 1); }\n")
    f, calls = _calls(m, "g")
    assert [pointer_calls.Pointers(m).targets(f, c) for c in calls] == [[]]  # `op` names the file's function
    f, calls = _calls(m, "k")
    assert all(pointer_calls.Pointers(m).targets(f, c) == [] for c in calls)


def test_pointer_declarations_are_read_once_per_function_not_per_call(monkeypatch):
    seen = []
    arity = pointer_calls._arity
    monkeypatch.setattr(pointer_calls, "_arity", lambda d: seen.append(d) or arity(d))
    counts = []
    for n in (2, 16):
        seen.clear()
        warpflow.analyze(_module(_unit(n)))
        counts.append(len(seen))
    # main read apply's `op` again for each of its n calls through it (2 -> 16 grew with them)
    assert counts[0] == counts[1] > 0, counts


def test_a_function_without_a_pointer_declarator_reads_no_declaration(monkeypatch):
    """A pointer's arity comes from a function declarator in its declaration: a function whose only one
    is its own (most: `sqrtf(x)`, `printf(...)` call no pointer) is not read at all; its look-alike,
    a function declaring a pointer local among plain ones, still is."""
    seen = []
    real = pointer_calls._pointer_arities
    monkeypatch.setattr(pointer_calls, "_pointer_arities", lambda f: seen.append(f.name) or real(f))
    m = _module(_unit(1) + "__device__ float plain(float* p, int n) { float s = 0; for (int i = 0; i < n; i++) "
                "s += sqrtf(p[i]); printf(\"%f\", s); return s; }\n")
    ptr = pointer_calls.Pointers(m)
    for name in ("plain", "local2", "apply"):
        f, calls = _calls(m, name)
        for c in calls:
            ptr.targets(f, c)
    assert "plain" not in seen  # main: read for its calls of sqrtf and printf
    assert {"local2", "apply"} <= set(seen)
    f, calls = _calls(m, "local2")
    assert {g.name for c in calls for g in ptr.targets(f, c)} == {"add1", "add2"}
