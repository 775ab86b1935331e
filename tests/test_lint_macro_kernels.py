"""A kernel that a function-like macro defines (`#define DEFINE_SUM(NAME, T) __global__ void NAME(...) { ... }`),
linted as the file's own definition in macrobodies.py's probe (stop 63 left "WS004 in a kernel a function-like macro
defines": the body was wrapped as statements, a nested definition that did not parse, and dropped).  Its uses at
file scope are blanked; two such macros' `NAME` are two functions; a message names the macro.  Look-alikes: the
same ladder at an explicit width of 32 (a logical row), a body that pastes tokens (`NAME##_k`, not read)."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

SUM = """\
#define DEFINE_SUM(NAME, T)                                              \\
__global__ void NAME(const T* x, T* out) {                               \\
    T v = x[blockIdx.x * blockDim.x + threadIdx.x];                      \\
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o); \\
    if (threadIdx.x % warpSize == 0) atomicAdd(out, v);                  \\
}
DEFINE_SUM(sum_f, float)
DEFINE_SUM(sum_d, double)
"""
ROWS = """\
#define DEFINE_ROWS(NAME, T)                                              \\
__global__ void NAME(const T* x, T* out) {                               \\
    T v = x[blockIdx.x * blockDim.x + threadIdx.x];                      \\
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o, 32); \\
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);                  \\
}
DEFINE_ROWS(rows_f, float)
"""


def _found(text: str) -> list[tuple[str, int, int]]:
    return sorted((f.code, f.line, f.column) for f in lint_text(text, "k.cu") if f.code not in ("WS007",))


def test_ladder_from_16_in_a_macro_defined_kernel():
    found = _found(SUM)
    assert ("WS004", 4, 18) in found
    assert not [f for f in found if f[0] == "KP001"]


def test_two_defining_macros_are_two_kernels():
    found = _found(SUM + ROWS.replace("DEFINE_ROWS", "DEFINE_R"))
    assert ("WS004", 4, 18) in found and not [f for f in found if f[1] > 8 and f[0].startswith("WS")]


def test_the_message_names_the_macro():
    msgs = [f.message for f in lint_text(SUM, "k.cu") if f.code == "WS016"]
    assert msgs and all("`DEFINE_SUM`" in m and "_000" not in m for m in msgs)


def test_width_32_rows_and_pasted_names_stay_quiet():
    assert [f for f in _found(ROWS) if f[0].startswith("WS")] == []
    pasted = SUM.replace("__global__ void NAME(", "__global__ void NAME##_k(")
    assert [f for f in _found(pasted) if f[0] == "WS004"] == []
