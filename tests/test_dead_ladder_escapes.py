"""A ladder deadladders.py called dead must not hand its value out another way (review of stop 65's WS004 change).

Each case below reads the fold at wave 64 through something other than a local named after the ladder: a call given
an address (`atomicAdd(&sh[i], r)` whose result is assigned, so it is no statement of its own), inline asm (a store,
an output operand), a jump out of the ladder (`break` leaves its counter at a data-dependent value, `goto`), a
header's macro used after the ladder, a parameter shadowed by another block's local.  Each keeps its WS004; the
look-alikes that fold a copy and return the argument stay silent."""
from __future__ import annotations

import pytest

from kernelport.lint import lint_text

M = "0xffffffff"
CASES = {
    "atomic_assigned": f"""__global__ void k(float* out, float x) {{ __shared__ float sh[32]; float r = x;
    for (int o = 16; o > 0; o /= 2) {{ r += __shfl_down_sync({M}, r, o); float old = atomicAdd(&sh[threadIdx.x % 32], r); }}
    __syncthreads(); if (threadIdx.x == 0) out[0] = sh[0]; }}""",
    "atomic_void_cast": f"""__global__ void k(float* out, float x) {{ __shared__ float sh[32]; float r = x;
    for (int o = 16; o > 0; o /= 2) {{ r += __shfl_down_sync({M}, r, o); (void)atomicAdd(sh + (threadIdx.x % 32), r); }}
    __syncthreads(); if (threadIdx.x == 0) out[0] = sh[0]; }}""",
    "asm_store": f"""__global__ void k(float* out, float x, unsigned a) {{ float r = x;
    for (int o = 16; o > 0; o /= 2) {{ r += __shfl_down_sync({M}, r, o); asm volatile("st.shared.f32 [%0], %1;" :: "r"(a), "f"(r)); }}
    }}""",
    "asm_output": f"""__global__ void k(float* out, float x) {{ float r = x; float s;
    for (int o = 16; o > 0; o /= 2) {{ r += __shfl_down_sync({M}, r, o); asm("mov.b32 %0, %1;" : "=f"(s) : "f"(r)); }}
    out[threadIdx.x] = s; }}""",
    "break_counter": f"""__global__ void k(int* out, float x) {{ float r = x; int o;
    for (o = 16; o > 0; o /= 2) {{ r += __shfl_down_sync({M}, r, o); if (r > 3.f) break; }}
    out[threadIdx.x] = o; }}""",
    "goto": f"""__global__ void k(float* out, float x) {{ float r = x;
    for (int o = 16; o > 0; o /= 2) {{ r += __shfl_down_sync({M}, r, o); if (r > 1.f) goto hit; }}
    return; hit: out[threadIdx.x] = 1.f; }}""",
    "shadowed_reference": f"""__device__ void f(float& r, float x) {{ if (x > 0) {{ float r = x; (void)r; }}
    for (int o = 16; o > 0; o /= 2) r += __shfl_down_sync({M}, r, o); }}""",
}


def _ws004(text: str) -> int:
    return sum(f.code == "WS004" for f in lint_text(text, "k.cu"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_ladder_whose_value_leaves_another_way_keeps_its_ws004(name):
    assert _ws004(CASES[name]) == 1, name


@pytest.mark.parametrize("body", [
    f"float r = val; for (int o = 16; o > 0; o /= 2) r = max(r, __shfl_xor_sync({M}, r, o)); return val;",
    f"float r = val; for (int o = 16; o > 0; o /= 2) {{ float t = __shfl_xor_sync({M}, r, o); r = fmaxf(r, t); }} return val;",
    f"if (val > 0) {{ float q = val; (void)q; }} float r = val; for (int o = 16; o > 0; o /= 2) r += __shfl_xor_sync({M}, r, o); return val;",
])
def test_a_copy_folded_and_dropped_stays_silent(body):
    assert _ws004("__device__ float f(float val) { " + body + " }") == 0, body


def test_a_header_macro_that_reads_the_fold_keeps_its_ws004(tmp_path):
    from kernelport.lint import lint_paths
    (tmp_path / "m.h").write_text("#define STORE_SUM out[blockIdx.x] = r\n#define STORE_X out[blockIdx.x] = x\n")
    src = """#include "m.h"
__global__ void k(float* out, float x) {
    float r = x;
    for (int o = 16; o > 0; o /= 2)
        r += __shfl_down_sync(0xffffffff, r, o);
    if (threadIdx.x % 32 == 0) USE;
}
"""
    for use, want in (("STORE_SUM", 1), ("STORE_X", 0)):
        (tmp_path / "k.cu").write_text(src.replace("USE", use))
        got = sum(f.code == "WS004" for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings)
        assert got == want, use


def test_a_value_parameter_passed_to_the_shuffle_is_no_way_out():
    body = f"float r = val; for (int o = 16; o > 0; o /= 2) r += __shfl_down_sync({M}, r, o, 2 * width); return val;"
    assert _ws004("__device__ float f(float val, int width) { " + body + " }") == 0
    store = body.replace("width); ", "width); (void)atomicAdd(out + o, r); ")
    store = store.replace("(void)atomicAdd", "float q = atomicAdd")
    assert _ws004("__device__ float f(float val, int width, float* out) { " + store + " }") == 1


CALLEE = "__device__ float f(float val) { float r = val; for (int o = 16; o > 0; o /= 2) { " \
    f"float t = comb(r, __shfl_xor_sync({M}, r, o)); r = t; }} return val; }}"


@pytest.mark.parametrize("callee, want", [
    ("__device__ float g_log[64];\n__device__ float comb(float a, float b) { g_log[threadIdx.x] = b; return a + b; }\n", 1),
    ("__device__ float g_acc;\n__device__ float comb(float a, float b) { g_acc = b; return a + b; }\n", 1),
    ("__device__ float comb(float a, float b) { float s = a + b; a = s; return s; }\n", 0),  # its own copies only
])
def test_a_callee_of_the_file_that_writes_out_keeps_its_ws004(callee, want):
    assert _ws004(callee + CALLEE) == want


def test_a_lambda_called_in_the_steps_keeps_its_ws004():
    text = (f"__device__ float f(float val, float* out) {{ float acc = 0; auto add = [&](float x) {{ acc += x; "
            f"return x; }}; float r = val; for (int o = 16; o > 0; o /= 2) {{ float t = add(__shfl_xor_sync({M}, r, o)); "
            f"r += t; }} out[0] = acc; return val; }}")
    assert _ws004(text) == 1
