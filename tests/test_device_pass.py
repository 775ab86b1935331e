"""`#ifdef __CUDA_ARCH__` as "the device pass" in HIP ports (kernelport/device_pass.py).

A `__host__ __device__` function picks a device variable under `#ifdef __CUDA_ARCH__` (or under a macro
defined only there: CudaTracerLib's ISCUDA) and a host one under `#else`.  hipcc's device pass never
defines __CUDA_ARCH__, so a port that kept the test compiled the host branch in device code ("reference
to __host__ variable in __host__ __device__ function").  The port tests `__HIP_DEVICE_COMPILE__`; a
version comparison, or a branch with NVIDIA-only code, keeps its test as written."""
from __future__ import annotations

import subprocess
import textwrap

from conftest import hip_compiles, metal_checked, metal_port, require_tool
from kernelport.source import SourceFile
from kernelport.translate import translate

PICK = textwrap.dedent("""\
    __device__ int g_dev[4] = {10, 20, 30, 40};
    int g_host[4] = {1, 2, 3, 4};

    __host__ __device__ int pick(int i)
    {
    #ifdef __CUDA_ARCH__
        return g_dev[i];
    #else
        return g_host[i];
    #endif
    }

    #if defined(__CUDA_ARCH__)
    #define ISCUDA
    #endif

    __host__ __device__ int pick2(int i)
    {
    #ifndef ISCUDA
        return g_host[i];
    #else
        return g_dev[i];
    #endif
    }

    __global__ void k(int *out)
    {
        out[threadIdx.x] = pick(threadIdx.x) + pick2(threadIdx.x);
    }
    """)


def _hip(text: str) -> str:
    port, whole = translate(SourceFile.from_text(text, "t.cu"), "hip")
    assert not [d for d in port.diagnostics if d.severity == "error"], port.diagnostics
    return whole


def test_defined_test_is_the_device_pass(tmp_path):
    out = _hip(PICK)
    assert "#ifdef __HIP_DEVICE_COMPILE__" in out and "#if defined(__HIP_DEVICE_COMPILE__)" in out
    assert "__CUDA_ARCH__" not in out
    f = hip_compiles(tmp_path, out)  # gfx90a and gfx1030: the device pass reads g_dev only
    # The host pass still takes the host branch, the device pass the device one.
    require_tool("hipcc")
    for flag, want, lose in (("--cuda-host-only", "g_host[i]", "g_dev[i]"), ("--cuda-device-only", "g_dev[i]", "g_host[i]")):
        r = subprocess.run(["hipcc", "-E", flag, "--offload-arch=gfx90a", str(f)], capture_output=True, text=True,
                           env={**__import__("os").environ, "HIP_PLATFORM": "amd"})
        assert r.returncode == 0, r.stderr[-2000:]
        body = r.stdout[r.stdout.rindex("int pick(int i)"):]
        assert body.count(want) == 2 and lose not in body, body


MIXED = textwrap.dedent("""\
    __device__ int g_dev[4] = {10, 20, 30, 40};
    int g_host[4] = {1, 2, 3, 4};
    __host__ __device__ int pick(int i)
    {
    #ifdef __CUDA_ARCH__
        return g_dev[i];
    #else
        return g_host[i];
    #endif
    }
    __global__ void k(int *out, int v)
    {
    #if __CUDA_ARCH__ >= 800
        out[0] = __reduce_add_sync(0xffffffffu, v);
    #else
        out[0] = pick(v) + 1;
    #endif
    }
    """)


def _device_pass_text(f, start: str) -> str:
    """What hipcc's device pass (gfx90a) compiles of `f` from `start` on."""
    require_tool("hipcc")
    r = subprocess.run(["hipcc", "-E", "--cuda-device-only", "--offload-arch=gfx90a", str(f)], capture_output=True,
                       text=True, env={**__import__("os").environ, "HIP_PLATFORM": "amd"})
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout[r.stdout.rindex(start):]


def test_mixed_file_decides_each_test(tmp_path):
    """A file with a device-pass test and a version comparison: the first is the device pass; the second, in a
    kernel, is the branch the newest NVIDIA architecture takes, alone (re-pinned at stop 51: it stayed as
    written and hipcc compiled its #else, which no current GPU runs: kernelport/arch_branches.py)."""
    out = _hip(MIXED)
    assert "#ifdef __HIP_DEVICE_COMPILE__" in out and "__CUDA_ARCH__" not in out
    f = hip_compiles(tmp_path, out)  # gfx90a and gfx1030
    body = _device_pass_text(f, "int pick(int i)")
    assert "g_dev[i]" in body and "g_host[i]" not in body and "pick(v) + 1" not in body and "kp_reduce_add(v" in body


NESTED = textwrap.dedent("""\
    __device__ int g_dev[4] = {10, 20, 30, 40};
    int g_host[4] = {1, 2, 3, 4};
    __host__ __device__ int pick(int i, int v)
    {
    #ifdef __CUDA_ARCH__
    #if __CUDA_ARCH__ >= 800
        return __reduce_add_sync(0xffffffffu, v) + g_dev[i];
    #else
        return g_dev[i] + v;
    #endif
    #else
        return g_host[i];
    #endif
    }
    __global__ void k(int *out, int v) { out[threadIdx.x] = pick(threadIdx.x, v); }
    """)


def test_nested_version_comparison_inside_the_device_pass(tmp_path):
    """The outer test is the device pass; the inner comparison, which no host pass compiles, is the branch the
    newest architecture takes, alone (re-pinned at stop 52: it stayed as written and hipcc's device pass compiled
    its #else, `g_dev[i] + v`, which no current GPU runs: kernelport/pass_branches.py)."""
    out = _hip(NESTED)
    assert "#ifdef __HIP_DEVICE_COMPILE__\n    return kp_reduce_add(v, warpSize) + g_dev[i];\n#else" in out
    f = hip_compiles(tmp_path, out)  # gfx90a and gfx1030
    body = _device_pass_text(f, "int pick(int i, int v)")
    assert "g_dev[i] + v" not in body and "g_host[i]" not in body and "__reduce_add_sync" not in body


def test_nested_else_with_inline_ptx_is_left_out_and_the_outer_test_respelled():
    """The inner #else holds PTX, which main's port would have compiled in hipcc's device pass (so the outer test
    stayed as written, and hipcc compiled the host's `g_host[i]` there); since stop 52 the port leaves that branch
    out (no current GPU runs it), so the outer test is the device pass (re-pinned).  PTX directly under the
    outer test still keeps it: test_branch_with_inline_ptx_keeps_its_test."""
    src = NESTED.replace("return g_dev[i] + v;",
                         'unsigned l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); return g_dev[i] + l;')
    port, out = translate(SourceFile.from_text(src, "t.cu"), "hip")
    assert "#ifdef __HIP_DEVICE_COMPILE__\n    return kp_reduce_add(v" in out and "asm" not in port.body


def test_derived_macros_decided_each_on_its_own():
    """ISCUDA (tested only as defined) makes its defining test the device pass; so does ARCHV, read as a value
    by `#if ARCHV` but defined as one integer (re-pinned, stop 53: main kept its test as written, so hipcc's device
    pass never wrote out[0], which nvcc's device pass writes; a derived value that is no integer still keeps its
    test: tests/test_pass_chains53.py); a test mixing defined() and a comparison, in a kernel, is the branch the
    newest architecture takes (stop 51: was kept as written), in the same file."""
    src = textwrap.dedent("""\
        #if defined(__CUDA_ARCH__)
        #define ISCUDA
        #endif
        #ifdef __CUDA_ARCH__
        #define ARCHV 1
        #endif
        __device__ int g_dev[4];
        int g_host[4];
        __host__ __device__ int pick(int i)
        {
        #ifdef ISCUDA
            return g_dev[i];
        #else
            return g_host[i];
        #endif
        }
        __global__ void k(int *out, int v)
        {
        #if ARCHV
            out[0] = 1;
        #endif
        #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
            out[1] = __reduce_add_sync(0xffffffffu, v);
        #endif
            out[2] = pick(v);
        }
        """)
    port, out = translate(SourceFile.from_text(src, "t.cu"), "hip")
    assert out.count("__HIP_DEVICE_COMPILE__") == 2 and "#if defined(__HIP_DEVICE_COMPILE__)\n#define ISCUDA" in out
    assert "#ifdef __HIP_DEVICE_COMPILE__\n#define ARCHV 1" in out and "#if ARCHV\n" in out
    assert "__CUDA_ARCH__ >= 700" not in out and "    out[1] = kp_reduce_add(v" in out


def test_metal_mixed_file_decides_each_test():
    """Metal: the device-pass test is `__METAL_VERSION__` (before: the comparison kept it, and Metal compiled the
    host #else); the comparison is the branch the newest NVIDIA architecture takes, alone (stop 51: Metal compiled
    its #else)."""
    text = metal_checked("""\
        __device__ __forceinline__ float twice(float v)
        {
        #ifdef __CUDA_ARCH__
            return v * 2.0f;
        #else
            return v * 3.0f;
        #endif
        }
        __global__ void k(float *out, int v)
        {
        #if __CUDA_ARCH__ >= 800
            out[0] = __reduce_add_sync(0xffffffffu, v);
        #else
            out[threadIdx.x] = twice(out[threadIdx.x]);
        #endif
        }
        """)
    assert "#ifdef __METAL_VERSION__" in text and "__CUDA_ARCH__" not in text and "twice(out" not in text


def test_branch_reading_the_macro_in_code_keeps_its_test():
    """Look-alike (rodinia dwt2d's transform_buffer.h): the device branch reads __CUDA_ARCH__ as a value in code,
    undefined off NVIDIA: that test stays as written, while the file's other device-pass test is respelled."""
    src = textwrap.dedent("""\
        template <int N> struct Buf {
          enum {
          #ifdef __CUDA_ARCH__
            BANKS = ((__CUDA_ARCH__ >= 200) ? 32 : 16),
          #else
            BANKS = 16,
          #endif
          };
          float data[N + BANKS];
        };
        __device__ int g_dev[4];
        __host__ __device__ int pick(int i)
        {
        #ifdef __CUDA_ARCH__
            return g_dev[i];
        #else
            return 0;
        #endif
        }
        __global__ void k(int *out) { __shared__ Buf<32> b; b.data[0] = 1.0f; out[0] = pick(0) + (int)b.data[0]; }
        """)
    out = _hip(src)
    assert "  #ifdef __CUDA_ARCH__\n    BANKS = ((__CUDA_ARCH__ >= 200)" in out
    assert "#ifdef __HIP_DEVICE_COMPILE__\n    return g_dev[i];" in out


def test_branch_with_inline_ptx_keeps_its_test():
    src = textwrap.dedent("""\
        __device__ unsigned lane_id()
        {
        #if defined(__CUDA_ARCH__)
            unsigned lane;
            asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
            return lane;
        #else
            return threadIdx.x % warpSize;
        #endif
        }
        __global__ void k(unsigned *out) { out[threadIdx.x] = lane_id(); }
        """)
    out = _hip(src)
    assert "__HIP_DEVICE_COMPILE__" not in out and "defined(__CUDA_ARCH__)" in out


def test_derived_macro_with_cuda_only_intrinsic_keeps_its_test():
    src = textwrap.dedent("""\
        #ifdef __CUDA_ARCH__
        #define ISCUDA
        #endif
        __device__ void nap()
        {
        #ifdef ISCUDA
            __nanosleep(100);
        #endif
        }
        __global__ void k() { nap(); }
        """)
    port, whole = translate(SourceFile.from_text(src, "t.cu"), "hip")
    assert "__HIP_DEVICE_COMPILE__" not in whole and "#ifdef __CUDA_ARCH__" in whole


def test_metal_takes_the_device_branch():
    """A Metal port is device code only: it compiled the #else (host code: `v * 3`) before."""
    text = metal_checked("""\
        __device__ __forceinline__ float twice(float v)
        {
        #ifdef __CUDA_ARCH__
            return v * 2.0f;
        #else
            return v * 3.0f;
        #endif
        }
        __global__ void k(float *out) { out[threadIdx.x] = twice(out[threadIdx.x]); }
        """)
    assert "#ifdef __METAL_VERSION__" in text and "__CUDA_ARCH__" not in text


def test_metal_refuses_what_the_device_branch_cannot_port():
    """The branch Metal now compiles is checked (it was skipped as dead): a launch in device code is refused there."""
    port, _ = metal_port("""\
        __global__ void child(float *out) { out[0] = 1.0f; }
        __device__ void twice(float *out)
        {
        #ifdef __CUDA_ARCH__
            child<<<1, 1>>>(out);
        #else
            out[0] = 2.0f;
        #endif
        }
        __global__ void k(float *out) { twice(out); }
        """)
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP223", 5)]


def test_device_only_body_is_ported_not_refused(tmp_path):
    """A device function whose whole body is under `#ifdef __CUDA_ARCH__` (no #else) was KP208 ("never true off
    NVIDIA"); as the device pass, hipcc's device pass compiles it."""
    out = _hip(textwrap.dedent("""\
        __device__ void bump(int *p)
        {
        #ifdef __CUDA_ARCH__
            atomicAdd(p, 1);
        #endif
        }
        __global__ void k(int *p) { bump(p); }
        """))
    assert "#ifdef __HIP_DEVICE_COMPILE__\n    atomicAdd(p, 1);" in out
    hip_compiles(tmp_path, out)
