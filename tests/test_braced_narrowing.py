"""A braced initializer's element narrowed from a value that is no constant (heldout43, GPU-PF's
param-manager.cu: `REAL Aalpha[2] = {AngleA1 * PI / 180., AngleA2 * PI / 180.};`, REAL #defined as
float and PI a float variable): g++ (nvcc's host compiler) converts it with a warning, hipcc (clang)
refused the port ("non-constant-expression cannot be narrowed from type 'double' to 'float' in
initializer list").  The HIP port writes the conversion, `static_cast<REAL>(...)`, kernelport/braced_narrowing.py."""
from __future__ import annotations

import textwrap

from kernelport import toolchains

from conftest import hip_compiles, require_tool
from port_support import port_text

CODE = """
#include <cmath>
#define REAL float
#define ANGLE (30.)
#define HALF 0.5
void setup(REAL* out, int n) {
    REAL PI = 4. * atan(1.);
    REAL angles[2] = {ANGLE * PI / 180., 2.0 * PI};
    float scaled{n * 0.25};
    int steps[2] = {n * 1.5, n};
    REAL consts[2] = {0.5, HALF * 3.0};
    double wide[2] = {PI * 2.0, 1.0};
    REAL single[1] = {PI * 2.0f};
    float* ptrs[1] = {out};
    out[0] = angles[0] + angles[1] + scaled + steps[0] + steps[1] + consts[0] + consts[1] + (REAL)wide[0] + single[0] + *ptrs[0];
}
__global__ void k(float* o) { o[threadIdx.x] *= 2.0f; }
"""


def hip(code: str, to: str = "hip") -> str:
    return port_text(code, "b.cu", to)


def test_a_non_constant_element_narrowed_in_braces_gets_the_conversion_written():
    text = hip(CODE)
    assert "REAL angles[2] = {static_cast<REAL>(ANGLE * PI / 180.), static_cast<REAL>(2.0 * PI)};" in text
    assert "float scaled{static_cast<float>(n * 0.25)};" in text
    assert "int steps[2] = {static_cast<int>(n * 1.5), n};" in text
    # look-alikes, as written: constants (narrowed by neither compiler), a wider target, a float
    # literal into float, a pointer
    assert "REAL consts[2] = {0.5, HALF * 3.0};" in text
    assert "double wide[2] = {PI * 2.0, 1.0};" in text
    assert "REAL single[1] = {PI * 2.0f};" in text
    assert "float* ptrs[1] = {out};" in text


def test_the_port_compiles_with_hipcc(tmp_path):
    hip_compiles(tmp_path, hip(CODE), "b.hip")


def test_the_original_compiles_with_nvcc(tmp_path):
    """What the port keeps: g++ (nvcc's host compiler) takes the narrowing elements as they are."""
    require_tool("nvcc")
    src = tmp_path / "b.cu"
    src.write_text(textwrap.dedent(CODE))
    res = toolchains.compile_cuda(src)
    assert res.ok, res.output or res.reason
