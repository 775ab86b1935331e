"""References the grammar misreads take their object's address space (metal66, item 1).

`float& q(tile[i]);` parses as a function's declaration (a parameter of type `tile`) and `float (&row)[8] =
t2[i];` as an expression statement, so the Metal port wrote both unqualified: `thread` references bound to
threadgroup memory, which Metal rejects (main: KP224 at the line).  Hand-written MSL says
`threadgroup float& q(tile[i]);` / `threadgroup float (&row)[8] = t2[i];`: the port now does
(metal/reference_spaces.py, metal/alias_pointers.py), and the emulator lowers both forms
(emulator/frontend/local_refs.py), so the port verifies against the original at Apple's width, 32."""
from __future__ import annotations

import numpy as np

from conftest import require_tool
from kernelport.emulator import run_kernel
from port_support import metal_checker, ported

CUDA = """struct Tile { float v; };
__device__ float addhalf(float* p, int i) { float& e(p[i]); e += 0.5f; return e; }
__global__ void k(float* out, const float* in, int n) {
    __shared__ float tile[64];
    __shared__ float t2[4][16];
    int i = threadIdx.x;
    tile[i] = in[i];
    t2[i / 16][i % 16] = in[(i + 7) % n];
    __syncthreads();
    float& q(tile[(i + 1) % 64]);
    float (&row)[16] = t2[i % 4];
    float loc[4] = {1, 2, 3, 4};
    float& l(loc[i % 4]);
    float (&whole)[4] = loc;
    __syncthreads();
    out[i] = q + row[i % 16] + l + whole[3] + addhalf(out, i);
}
"""


def test_paren_bound_and_array_references_take_their_objects_space():
    require_tool("clang")
    text = ported(CUDA, to="metal", dedent=False)[1]
    assert "    threadgroup float& q(tile[(i + 1) % 64]);" in text, text
    assert "    threadgroup float (&row)[16] = t2[tid.x % 4];" in text or \
        "    threadgroup float (&row)[16] = t2[i % 4];" in text, text
    assert "float& e(p[i]);" in text  # per specialisation: the helper's device overload says device
    assert "device float& e(p[i]);" in text, text
    # look-alikes: thread objects stay thread references, written as they were
    assert "    float& l(loc[i % 4]);" in text and "    float (&whole)[4] = loc;" in text
    assert metal_checker(text) == [], metal_checker(text)
    wrong = text.replace("threadgroup float& q(", "float& q(")
    assert any("changes address space" in d for d in metal_checker(wrong)), metal_checker(wrong)


def test_a_prototype_inside_a_body_is_no_reference_binding():
    # look-alike: `float& g(Tile);` names a type, `float& h(int)` a primitive: prototypes, left as written
    text = ported(CUDA.replace("    float& l(loc[i % 4]);", "    float& g(Tile);\n    float& l(loc[i % 4]);"),
                  to="metal", dedent=False)[1]
    assert "    float& g(Tile);" in text


def _args():
    rng = np.random.default_rng(66)
    return {"out": rng.standard_normal(64).astype(np.float32), "in": rng.standard_normal(64).astype(np.float32),
            "n": 64}


def test_the_port_and_the_original_compute_the_same_at_32():
    metal = ported(CUDA, to="metal", dedent=False)[1]
    want = run_kernel(CUDA, "k", args=_args(), grid=(1,), block=(64,), backend="cuda").outputs["out"]
    got = run_kernel(metal, "k", args=_args(), grid=(1,), block=(64,), backend="metal").outputs["out"]
    np.testing.assert_array_equal(got, want)
    a = _args()
    i = np.arange(64)
    t2 = np.empty((4, 16), np.float32)
    t2[i // 16, i % 16] = a["in"][(i + 7) % 64]
    expect = a["in"][(i + 1) % 64] + t2[i % 4, i % 16] + np.float32([1, 2, 3, 4])[i % 4] + 4 + (a["out"] + 0.5)
    np.testing.assert_allclose(want, expect.astype(np.float32), rtol=1e-6)


def test_the_emulator_leaves_a_prototype_and_a_non_element_array_reference_alone():
    from kernelport.emulator.frontend.items import Item
    from kernelport.emulator.frontend.local_refs import lower_local_references
    it = Item("void f(float* p) { float& g(int); float (&a)[4] = *(float (*)[4])p; float s = sizeof(a); }",
              "k.cu", 1, "device", "f")
    lower_local_references(it)
    assert "float& g(int);" in it.text and "float (&a)[4] =" in it.text  # `sizeof(a)`: not an element
