"""C code under `#if __CUDA_ARCH__ >= N` / `#elif` / `#else` ported as the branch current NVIDIA GPUs run
(kernelport/arch_branches.py, stop 51).  Off NVIDIA `__CUDA_ARCH__` is undefined, so a port that kept the
conditional compiled the branch for `__CUDA_ARCH__` = 0 (a pre-Pascal `atomicCAS` loop, pre-Volta `__shfl`,
`__ballot` into a 32-bit word), which the original never runs on a GPU CUDA 13 builds for; the emulator's
original takes the newest architecture's branch (stop 50), so such a port failed verify where the branches
differ, and where they only differ at 64 lanes it was silently wrong.  Each port here runs on the emulator at
wave 64 against the original at 32 and compiles with hipcc for gfx90a and gfx1030; look-alikes (a build's
own macro, a test reading another macro, a `__host__ __device__` function, `#ifdef __CUDA_ARCH__`) keep
their text."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles
from port_support import ported

ATOMIC = """\
__device__ double add(double* address, double val)
{
#if __CUDA_ARCH__ >= 600
    return atomicAdd(address, val);
#else
    unsigned long long int* p = (unsigned long long int*)address;
    unsigned long long int old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
#endif
}

__global__ void k(const double* x, double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) add(&out[i % 4], x[i]);
}
"""

DIFFER = """\
__device__ float scale(float v)
{
#if __CUDA_ARCH__ >= 700
    return v * 2.0f;
#else
    return v + 1.0f;
#endif
}

__global__ void k(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = scale(x[i]);
}
"""

SHFL = """\
__global__ void k(const int* x, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    for (int o = warpSize / 2; o > 0; o >>= 1) {
    #if __CUDA_ARCH__ >= 700
        v += __shfl_down_sync(0xffffffff, v, o);
    #else
        v += __shfl_down(v, o);
    #endif
    }
    if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(out, v);
}
"""

BALLOT = """\
__global__ void k(const float* x, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = i < n && x[i] > 0.0f;
#if __CUDA_ARCH__ >= 700
    unsigned m = __ballot_sync(0xffffffffu, p);
#else
    unsigned m = __ballot(p);
#endif
    if ((threadIdx.x & 31) == 0) out[i / 32] = __popc(m);
}
"""

CHAIN = DIFFER.replace("""#if __CUDA_ARCH__ >= 700
    return v * 2.0f;
#else""", """#if __CUDA_ARCH__ >= 900
    return v * 2.0f;
#elif __CUDA_ARCH__ >= 800
    return v * 3.0f;
#else""")

OLD_ONLY = DIFFER.replace("""#if __CUDA_ARCH__ >= 700
    return v * 2.0f;
#else
    return v + 1.0f;
#endif""", """#if __CUDA_ARCH__ < 700
    v = v + 1.0f;
#endif
    return v * 2.0f;""")

FILE_SCOPE = DIFFER.replace("""__device__ float scale(float v)
{
#if __CUDA_ARCH__ >= 700
    return v * 2.0f;
#else
    return v + 1.0f;
#endif
}""", """#if __CUDA_ARCH__ >= 700
__device__ float scale(float v) { return v * 2.0f; }
#else
__device__ float scale(float v) { return v + 1.0f; }
#endif""")


SPECIALIZED = """\
template <class T> __device__ T twice(T v) { return v * 2; }
#if __CUDA_ARCH__ >= 800
template <> __device__ int twice<int>(int v) { return v << 1; }
#else
#endif
__global__ void k(const int* x, int* out) { out[threadIdx.x] = twice(x[threadIdx.x]); }
"""


def _same_at_64(original: str, port: str, args: dict) -> None:
    grid, block = (4, 1, 1), (256, 1, 1)
    want = run_kernel(original, "k", args=args, grid=grid, block=block, wave=32).outputs
    got = run_kernel(port, "k", args=args, grid=grid, block=block, wave=64, backend="hip").outputs
    for name in want:
        assert np.allclose(got[name], want[name], rtol=1e-6, atol=1e-9), (name, got[name][:8], want[name][:8])


def _floats(n: int = 1000) -> np.ndarray:
    return np.random.default_rng(51).uniform(-1, 1, n).astype(np.float32)


def test_a_cas_fallback_ports_as_the_atomic_current_gpus_run(tmp_path):
    port, out = ported(ATOMIC, dedent=False)
    assert "__CUDA_ARCH__" not in port.body and "atomicCAS" not in port.body and "#else" not in port.body
    assert "\n    return atomicAdd(address, val);\n}" in port.body, port.body  # the line as written, once indented
    warn = [d for d in port.diagnostics if d.code == "KP237"]
    assert [(d.line, d.column, d.severity) for d in warn] == [(3, 1, "warning")], port.diagnostics
    assert "line 3 (`#if __CUDA_ARCH__ >= 600`)" in warn[0].message and "line 5 (`#else`)" in warn[0].message
    assert "sm_75 and later" in warn[0].message
    x = np.random.default_rng(5).uniform(-1, 1, 1000)
    _same_at_64(ATOMIC, out, {"x": x, "out": np.zeros(4), "n": 1000})
    hip_compiles(tmp_path, out)


def test_branches_that_compute_differently_port_the_newest_architectures(tmp_path):
    """The port that kept the conditional computed `v + 1` (verify: FAIL at 64 and 32); the original `v * 2`."""
    port, out = ported(DIFFER, dedent=False)
    assert "v * 2.0f" in port.body and "v + 1.0f" not in port.body
    assert [d.code for d in port.diagnostics] == ["KP237"]
    _same_at_64(DIFFER, out, {"x": _floats(), "out": np.zeros(1000, np.float32), "n": 1000})
    hip_compiles(tmp_path, out)


def test_a_pre_volta_shuffle_that_ports_alike_is_taken_without_a_word(tmp_path):
    port, out = ported(SHFL, dedent=False)
    assert not port.diagnostics and "__CUDA_ARCH__" not in port.body and port.body.count("__shfl_down") == 1
    assert "\n        v += __shfl_down(v, o);\n    }" in port.body, port.body
    x = np.arange(1000, dtype=np.int32) % 7
    _same_at_64(SHFL, out, {"x": x, "out": np.zeros(1, np.int32), "n": 1000})
    hip_compiles(tmp_path, out)


def test_a_pre_volta_ballot_into_32_bits_is_not_what_the_port_reads():
    """The kept conditional compiled `unsigned m = __ballot(p)` at 64 lanes (the emulator: out[0] 33 where CUDA
    gives 20); the branch current GPUs run is the analysed one: its warp index from a hardcoded 32 beside a
    vote is refused where the width cannot be decided (KP219 at the `__ballot_sync`), never ported silently."""
    port, _ = translate(SourceFile.from_text(BALLOT, "t.cu"), "hip")
    assert not port.ok and [(d.code, d.line) for d in port.diagnostics if d.severity == "error"] == [("KP219", 6)]
    assert not any(d.line == 8 for d in port.diagnostics)  # the `#else`'s `__ballot(p)` is left out, unread


def test_an_elif_chain_takes_the_newest_and_names_the_architectures_that_differ(tmp_path):
    port, out = ported(CHAIN, dedent=False)
    assert "v * 2.0f" in port.body and "v * 3.0f" not in port.body and "v + 1.0f" not in port.body
    (warn,) = [d for d in port.diagnostics if d.code == "KP237"]
    assert "line 5 (`#elif __CUDA_ARCH__ >= 800`), line 7 (`#else`)" in warn.message
    assert "CUDA's sm_75, sm_80, sm_86, sm_87, sm_88, sm_89 take another" in warn.message
    _same_at_64(CHAIN, out, {"x": _floats(), "out": np.zeros(1000, np.float32), "n": 1000})
    hip_compiles(tmp_path, out)


def test_code_only_old_architectures_ran_is_left_out_with_a_warning():
    port, out = ported(OLD_ONLY, dedent=False)
    assert "v + 1.0f" not in port.body and "__CUDA_ARCH__" not in port.body
    (warn,) = port.diagnostics
    assert warn.code == "KP237" and "line 5 (no `#else`)" in warn.message and "left out" in warn.message
    _same_at_64(OLD_ONLY, out, {"x": _floats(), "out": np.zeros(1000, np.float32), "n": 1000})


def test_device_functions_under_a_file_scope_test_are_the_newest_architectures(tmp_path):
    port, out = ported(FILE_SCOPE, dedent=False)
    assert "v * 2.0f" in port.body and "v + 1.0f" not in port.body and "__CUDA_ARCH__" not in port.body
    assert [d.code for d in port.diagnostics] == ["KP237"]
    _same_at_64(FILE_SCOPE, out, {"x": _floats(), "out": np.zeros(1000, np.float32), "n": 1000})
    hip_compiles(tmp_path, out)


@pytest.mark.parametrize("text, kept", [
    (DIFFER.replace("__CUDA_ARCH__ >= 700", "defined(FAST)"), "#if defined(FAST)"),  # a build's own choice
    (DIFFER.replace("__CUDA_ARCH__ >= 700", "__CUDA_ARCH__ >= SM_MIN"), "#if __CUDA_ARCH__ >= SM_MIN"),
    # (a `__host__ __device__` function, a #define beside the functions: split by pass, tests/test_pass_branches.py)
    (SPECIALIZED, "#if __CUDA_ARCH__ >= 800"),  # one architecture's specialization: the primary template is general
])
def test_look_alikes_keep_their_conditional(text, kept):
    port, _ = translate(SourceFile.from_text(text, "t.cu"), "hip")
    assert kept in port.body and "#else" in port.body and not any(d.code == "KP237" for d in port.diagnostics)


def test_a_device_pass_test_is_still_respelled_not_decided():
    """`#ifdef __CUDA_ARCH__` / `#if defined(__CUDA_ARCH__)` is the device pass (kernelport/device_pass.py)."""
    for test in ("#ifdef __CUDA_ARCH__", "#if defined(__CUDA_ARCH__)"):
        port, _ = ported(DIFFER.replace("#if __CUDA_ARCH__ >= 700", test), dedent=False)
        assert "__HIP_DEVICE_COMPILE__" in port.body and "#else" in port.body and not port.diagnostics


PTX_FAST = DIFFER.replace("""#if __CUDA_ARCH__ >= 700
    return v * 2.0f;
#else
    return v + 1.0f;
#endif""", """#if __CUDA_ARCH__ >= 700
    float r;
    asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
#else
    return exp2f(v);
#endif""")


def test_a_newest_branch_with_no_port_gives_way_to_the_portable_fallback(tmp_path):
    """fbgemm's float.cuh: `mul.f16x2` asm under `#if __CUDA_ARCH__ >= 530`, plain C under `#else`: the first port
    of this rule took the asm and declared the function unavailable; the fallback (the branch main's port kept)
    is the port, with KP237 saying what the newest branch holds and that no current architecture runs it."""
    port, out = ported(PTX_FAST, dedent=False)
    assert "asm" not in port.body and "return exp2f(v);" in port.body and "__CUDA_ARCH__" not in port.body
    (warn,) = port.diagnostics
    assert warn.code == "KP237" and "holds inline PTX (`asm(\"ex2.approx.f32" in warn.message
    assert "line 7 (`#else`), the one no architecture CUDA's toolkit builds runs" in warn.message
    hip_compiles(tmp_path, out)
    # no `#else`: an empty branch is no fallback (a function that does nothing): the asm stays refused
    alone = PTX_FAST.replace("#else\n    return exp2f(v);\n", "")
    port, _ = translate(SourceFile.from_text(alone, "t.cu"), "hip")
    assert not port.ok and any(d.code == "KP201" and d.line == 5 for d in port.diagnostics), port.diagnostics
