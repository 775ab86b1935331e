"""The emulator's front end parses only the prelude typedefs a file uses (parse._used_prelude): the
prelude declares every vector and 16-bit type a kernel may name, and parsing them all was most of a
small kernel's lowering."""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

from kernelport.emulator import run_kernel
from kernelport.emulator.frontend import lower


def _typedefs(low) -> set[str]:
    return {e.name for e in low.ast.ext if isinstance(e, c_ast.Typedef)}


def test_unused_vector_types_are_not_parsed_and_used_ones_are():
    plain = lower("__global__ void k(float* y) { y[threadIdx.x] = 1.0f; }\n", path="<plain>")
    assert not {"float4", "double2", "uchar4", "half2"} & _typedefs(plain)
    # named through a macro (seen after cpp) and through another typedef (dim3 needs uint3)
    src = ("#define VEC(n) float##n\n"
           "__global__ void k(float* y) { VEC(4) v = make_float4(1.0f, 2.0f, 3.0f, 4.0f); dim3 d = blockDim;\n"
           "    y[threadIdx.x] = v.x + v.w + d.x; }\n")
    low = lower(src, path="<vec>")
    assert {"float4", "dim3", "uint3"} <= _typedefs(low)
    out = run_kernel(src, "k", args={"y": np.zeros(32, np.float32)}, grid=(1,), block=(32,)).outputs["y"]
    assert set(out.tolist()) == {37.0}
