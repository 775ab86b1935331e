"""fold_levels' helpers (the functions a flow follows into) are listed once per model while its function
table holds the same functions: each `_Flow` listed every function of the file again, and warpwidth makes a
flow per function it reads, so a generated file's translate grew with its size squared (stop 61: 168 -> 336
flows for 6.8k -> 13.6k lines, each over all functions).  kernelport/function_table_memo.py."""
from __future__ import annotations

import textwrap

from kernelport import fold_levels, function_table_memo, shufflewrappers
from kernelport.model import build
from kernelport.source import SourceFile

_HELPER = "__device__ float warp_sum(float v) { for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o); return v; }\n"
_KERNEL = "__global__ void k{n}(const float *x, float *y) {{ float v = warp_sum(x[threadIdx.x]); y[threadIdx.x] = x[threadIdx.x] / v; }}\n"
_CODE = _HELPER + "".join(_KERNEL.format(n=n) for n in range(4))


def _flows(module):
    return [fold_levels.width_dependent_read(module, f, "cuda") for f in module.functions.values() if f.is_kernel]


def test_listed_once_for_every_function_it_follows(monkeypatch):
    module = build(SourceFile.from_text(_CODE, "fh.cu"))
    made = []
    real = fold_levels._helpers
    monkeypatch.setattr(fold_levels, "_helpers", lambda m: made.append(m) or real(m))
    found = _flows(module)
    assert len(found) == 4 and all(b is not None for b in found)  # every kernel keeps a width-dependent fold
    assert len(made) == 1  # (main: a listing per flow, here four)
    assert set(real(module)) == {"warp_sum"}


def test_a_changed_function_table_is_listed_again():
    # look-alike: a translator's own copy of the model from which a function is taken, or in which another
    # stands under the same name, is not answered from the table as it was
    src = SourceFile.from_text(_CODE, "fh.cu")
    module = build(src).own_copy(src)
    helpers = function_table_memo.kept(module, "fold helpers", fold_levels._helpers)
    assert set(helpers) == {"warp_sum"}
    assert function_table_memo.kept(module, "fold helpers", fold_levels._helpers) is helpers
    g = module.functions.pop("warp_sum")
    assert function_table_memo.kept(module, "fold helpers", fold_levels._helpers) == {}
    assert all(b is None for b in _flows(module))  # no helper to follow: no fold reached
    module.functions["warp_sum"] = module.functions["k0"]  # another function under the name (same count)
    assert function_table_memo.kept(module, "fold helpers", fold_levels._helpers) == {}
    module.functions["warp_sum"] = g
    assert set(function_table_memo.kept(module, "fold helpers", fold_levels._helpers)) == {"warp_sum"}


def test_each_table_its_own_answer():
    # two tables of one model (the fold helpers, the shuffle wrappers) do not answer for each other
    module = build(SourceFile.from_text(_CODE, "fh2.cu"))
    assert set(function_table_memo.kept(module, "fold helpers", fold_levels._helpers)) == {"warp_sum"}
    assert set(shufflewrappers.wrappers(module)) == set()  # (warp_sum forwards no parameter as a shuffle's lane)
    assert set(function_table_memo.kept(module, "fold helpers", fold_levels._helpers)) == {"warp_sum"}
