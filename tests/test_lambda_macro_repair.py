"""A macro that opens the statement an extended lambda ends (ppf-contact-solver's dispatcher,
heldout40: `DISPATCH_START(n)` expands to `{ const unsigned n_threads(n); auto kernel =`,
`DISPATCH_END` launches the lambda): neither the macro's mask nor the lambda's `__device__` mask
alone makes the parse better, so both are tried together (kernelport/lambda_words.py).  Before,
the file was a parse error ("expected ';'") at the `__device__` after the capture list."""
from __future__ import annotations

import textwrap

from conftest import hip_compiles
from kernelport.source import SourceFile
from kernelport.translate import translate

HEAD = """
template <typename F> __global__ void indexed_apply(unsigned n, F f) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) f(i);
}
#define DISPATCH_START(n) { const unsigned n_threads(n); auto kernel =
#define DISPATCH_END ; if (n_threads > 0) { indexed_apply<<<(n_threads + 255) / 256, 256>>>(n_threads, kernel); } }
"""

# the capture list over two lines, as clang-format writes a long one
DISPATCH = HEAD + """
void blend(float *x, const float *y, unsigned count, float dt) {
    DISPATCH_START(count)
    [x, y,
     dt] __device__(unsigned i) mutable {
        x[i] += dt * y[i];
    }
    DISPATCH_END;
}
"""

# look-alike: `[[nodiscard]] __device__` is an attribute's `]]`, the qualifier the function's own
NODISCARD = """
[[nodiscard]] __device__ int twice(int v) { return 2 * v; }
__global__ void k(int *x) { x[threadIdx.x] = twice(x[threadIdx.x]); }
"""


def src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "m.cu")


def test_a_macro_opened_extended_lambda_parses_and_keeps_its_qualifier(tmp_path):
    s = src(DISPATCH)
    assert s.syntax_errors() == []
    names = {(m.name, m.reason) for m in s.masks}
    assert ("__device__", "attribute") in names and any(n == "DISPATCH_START" for n, _ in names)
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "    [x, y,\n     dt] __device__(unsigned i) mutable {\n" in text  # the user's text, qualifier and all
    hip_compiles(tmp_path, text, extra_args=["-std=c++17"])


def test_an_attribute_before_a_device_function_is_not_a_capture():
    s = src(NODISCARD)
    assert s.syntax_errors() == []
    assert not any(m.name == "__device__" for m in s.masks)
