"""`(col*(stride))`: a product tree-sitter reads as a cast (kernelport/product_casts.py).

heldout61's cuda-c-dl LIB/conv2d.cu indexes `input[... + (col*(stride)) + kw + ...]` with `int col`; main's Metal
pass took it for a pointer cast and wrote `(thread col*(stride))`, which the checker refused (KP224, `unknown
type name 'col'`): a refusal where a port is due."""
from __future__ import annotations

from conftest import metal_checked, metal_port


def test_a_parenthesised_product_of_a_local_stays_a_product_in_metal():
    text = metal_checked("""
        __global__ void conv(const float* in, float* out, int n, int stride) {
            int col = blockIdx.x * blockDim.x + threadIdx.x;
            if (col < n) out[col] = in[(col*(stride))+1];
        }
    """)
    assert "in[(col*(stride))+1]" in text
    assert "thread col" not in text


def test_a_parameter_times_a_parenthesised_value_stays_a_product():
    port, text = metal_port("""
        __global__ void scale(float* out, int stride, int n) {
            int i = threadIdx.x;
            if (i < n) out[(stride*(i))+1] = 1.0f;
        }
    """)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "out[(stride*(i))+1]" in text


def test_lookalike_a_cast_to_a_typedef_pointer_still_gets_its_address_space():
    # `real` names a type, no variable: `(real*)(in)` is a cast, and Metal needs the space of `in` on it
    text = metal_checked("""
        typedef float real;
        __global__ void copy(const float* in, float* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) out[i] = ((const real*)(in))[i];
        }
    """)
    assert "(const device real*)(in)" in text or "(device const real*)(in)" in text, text
