"""A model's shuffle wrappers (kernelport/shufflewrappers.py `wrappers`) are read once per model while its functions
are the same: fold_levels asked for them per function it follows, and each ask read every function's calls again,
so a generated file's translate grew with its size squared (stop 61: 28,896 -> 114,240 parameter tables for
3.4k -> 6.8k lines)."""
from __future__ import annotations

import textwrap

from kernelport import shufflewrappers
from kernelport.model import build
from kernelport.source import SourceFile

_CODE = textwrap.dedent("""\
    __device__ float down(float v, int d) { return __shfl_down_sync(0xffffffff, v, d); }
    __device__ float plain(float v) { return v + 1.0f; }
    __global__ void k(float *p) { float v = p[threadIdx.x]; for (int d = 16; d > 0; d /= 2) v += down(v, d); p[0] = v; }
    """)


def test_read_once_per_model_and_the_same_answer(monkeypatch):
    module = build(SourceFile.from_text(_CODE, "w.cu"))
    made = []
    real = shufflewrappers._wrappers
    monkeypatch.setattr(shufflewrappers, "_wrappers", lambda m: made.append(m) or real(m))
    first = shufflewrappers.wrappers(module)
    assert set(first) == {"down"} and first["down"][0] == "shfl_down" and first["down"][1][:2] == ("value", "delta")
    assert shufflewrappers.wrappers(module) is first and len(made) == 1
    other = build(SourceFile.from_text(_CODE, "w2.cu"))  # another model of the same text: its own reading
    assert shufflewrappers.wrappers(other) == first and len(made) == 2


def test_a_model_whose_functions_changed_is_read_again(monkeypatch):
    # look-alike: a translator that takes a function out of its own copy of the model (Metal's host code),
    # or puts another in under the same name, is not answered from the model as it was
    src = SourceFile.from_text(_CODE, "w.cu")
    module = build(src).own_copy(src)
    assert set(shufflewrappers.wrappers(module)) == {"down"}
    down = module.functions.pop("down")
    assert shufflewrappers.wrappers(module) == {}
    module.functions["down"] = down  # the same function back: read again, the same answer
    assert set(shufflewrappers.wrappers(module)) == {"down"}
    module.functions["down"] = module.functions["plain"]  # another function in its place (same count)
    assert shufflewrappers.wrappers(module) == {}
