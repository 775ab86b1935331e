"""The translator's side of a helper's `const T&` given device or threadgroup memory: MSL binds no
`thread` reference there (check/thread_params.py), so the argument becomes a thread copy `T(arg)`, as
constant objects already did (constant_refs.py): CUDA's meaning while the callee only reads through the
reference, which `const` promises.  Not copied: a helper that returns the reference (the copy would
dangle), a class template's `T`, temporaries, thread locals, by-value parameters.  Found on
tests/realcorpus llm.c train_gpt2_fp32.cu (`add_float4(wte[...], wpe[...])`, `const float4&` given
device elements) and held-out gpu-hdbscan _merge.cu; the snippets are written for the test."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

CUDA = """
struct S { float a; float b; };
__device__ float sum(const S& s) { return s.a + s.b; }
__device__ float twice(const float& x) { return 2.0f * x; }
__device__ float byval(S s, float x) { return s.a * x; }
__device__ const float& pick(const float& x) { return x; }
__device__ float4 add4(const float4& a, const float4& b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
__global__ void k(const S* in, const float4* v, float4* w, float* out, int n) {
    __shared__ float tile[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = in[i].a;
    __syncthreads();
    float t = in[i].b;
    S loc = in[i];
    w[i] = add4(v[i], v[(i + 1) & 63]);
    out[i] = sum(in[i]) + twice(tile[63 - threadIdx.x]) + twice(t) + twice(1.0f) + sum(loc) + byval(in[i], t)
             + pick(t);
}
"""


# the emulator lowers no function returning a reference, nor a struct's copy `S(x)` (C has no such
# cast): the run leaves `pick` and `sum(in[i])` out
RUN = CUDA.replace("__device__ const float& pick(const float& x) { return x; }\n", "").replace(
    "\n             + pick(t);", ";").replace("out[i] = sum(in[i]) + ", "out[i] = ")


def _port(tmp_path: Path, cuda: str = CUDA) -> str:
    port, text = translate(SourceFile.from_text(cuda, str(tmp_path / "k.cu")), "metal")
    assert [d.format() for d in port.diagnostics if d.severity == "error"] == []
    return port.body


def test_device_and_threadgroup_lvalues_given_a_const_reference_are_copied(tmp_path: Path):
    require_tool("clang")
    body = _port(tmp_path)
    assert "sum(S(in[i]))" in body and "twice(float(tile[63 - tid.x]))" in body
    assert "add4(float4(v[i]), float4(v[(i + 1) & 63]))" in body
    # look-alikes as written: a thread local, a temporary, a by-value parameter, a reference returned
    assert "twice(t)" in body and "twice(1.0f)" in body and "sum(loc)" in body and "byval(in[i], t)" in body
    assert "pick(t)" in body


def test_the_copies_compute_what_the_original_computes(tmp_path: Path):
    require_tool("clang")
    assert "pick" not in RUN and "sum(in[i])" not in RUN
    body = _port(tmp_path, RUN)
    rng = np.random.default_rng(61)
    s = np.zeros(64, dtype=[("a", np.float32), ("b", np.float32)])
    s["a"], s["b"] = rng.standard_normal(64), rng.standard_normal(64)
    v = rng.standard_normal(256).astype(np.float32)
    args = {"in": s, "v": v, "w": np.zeros(256, np.float32), "out": np.zeros(64, np.float32), "n": 64}
    want = run_kernel(RUN, "k", args=args, grid=(1,), block=(64,), backend="cuda").outputs
    got = run_kernel(body, "k", args=args, grid=(1,), block=(64,), backend="metal").outputs
    np.testing.assert_array_equal(got["out"], want["out"])
    np.testing.assert_array_equal(got["w"], want["w"])
