"""`return;` in `int main` (an option-pricing benchmark's early exit): nvcc takes it, its front end
writing `return 0;` (cudafe's output says so), while clang rejects it ("non-void function 'main'
should return a value"; heldout26: the only hipcc error of a port).  The HIP port writes `return 0;`
there (lexing.bare_returns_of_main).  Look-alikes kept as written: a lambda's `return;` inside main
and `return;` in a void function."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

CODE = """
#include <cstdio>
__global__ void fill(float* p) { p[threadIdx.x] = 1.0f; }
static void helper() { return; }
int main(int argc, char** argv) {
    auto f = [&]() { if (argc > 9) return; printf("more\\n"); };
    f();
    helper();
    if (argc > 5) {
        return;
    }
    float* d;
    cudaMalloc(&d, 64 * sizeof(float));
    fill<<<1, 64>>>(d);
    return 0;
}
"""


def test_a_bare_return_of_main_is_return_0_and_the_port_compiles(tmp_path):
    port, text = translate(SourceFile.from_text(textwrap.dedent(CODE), "m.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "if (argc > 5) {\n        return 0;\n    }" in text
    assert "static void helper() { return; }" in text  # a void function's: as written
    assert "if (argc > 9) return; printf" in text  # the lambda's own return: as written
    hip_compiles(tmp_path, text, "m.hip")
