"""`#if __CUDA_ARCH__ >= N` in code both of nvcc's passes compile: a `__host__ __device__` function's body, a
file-scope `#define` or constant (kernelport/pass_branches.py, stop 52).  hipcc defines `__CUDA_ARCH__` on
neither pass, so main's port (the conditional kept) compiled the host's branch on the GPU: `verify --oracle
original` failed 9 of 29 checks on each shape below (hip at 32 and 64, metal).  The port now reads
`__HIP_DEVICE_COMPILE__` (defined by hipcc's device pass alone: checked here with `hipcc -E` on each pass):
the device pass takes the newest architecture's branch, the host pass the `__CUDA_ARCH__`-undefined one.
Look-alikes keep their text: both passes taking one branch, a host-only function, a test reading a macro
the unit does not decide, a -D given version.  Also the toolkit's version macros as the CUDA backend's data
(`CUDART_VERSION` beside `__CUDA_ARCH__`, mfaktc's chain)."""
from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest

from conftest import hip_compiles, metal_checked, require_tool
from test_arch_branches import ATOMIC, _same_at_64
from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate
from port_support import ported

KERNEL = """
__global__ void k(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = scale(x[i]);
}
"""

HD = """\
__host__ __device__ float scale(float v)
{
#if __CUDA_ARCH__ >= 700
    return v * 2.0f;
#else
    return v + 1.0f;
#endif
}
""" + KERNEL

DEFINE = """\
#if __CUDA_ARCH__ >= 700
#define SCALE 2.0f
#else
#define SCALE 1.0f
#endif
__device__ float scale(float v) { return v * SCALE; }
""" + KERNEL

MIXED = """\
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 200)
const int SHM = 48;
#else
const int SHM = 16;
#endif
__device__ float scale(float v) { return v * SHM; }
""" + KERNEL

# test_arch_branches' CAS loop, here the `#else` of a file-scope macro (an atomicAdd(double*) for pre-Pascal GPUs)
CAS = ("#if __CUDA_ARCH__ >= 600\n#define ATOMIC_ADD(p, v) atomicAdd(p, v)\n#else\n"
       + ATOMIC.split("\n\n__global__")[0].replace("double add(", "double cas_add(")
       .replace("#if __CUDA_ARCH__ >= 600\n    return atomicAdd(address, val);\n#else\n", "").replace("#endif\n", "")
       + "\n#define ATOMIC_ADD(p, v) cas_add(p, v)\n#endif\n" + """
__global__ void k(const double* x, double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) ATOMIC_ADD(&out[i % 4], x[i]);
}
""")

VERSION = """\
__device__ float scale(float v)
{
#if (__CUDA_ARCH__ >= 700) && \\
    (CUDART_VERSION >= 11000) /* a toolkit that has it */
    return v * 2.0f;
#elif __CUDA_ARCH__ >= 600
    return v * 3.0f;
#else
    return v + 1.0f;
#endif
}
""" + KERNEL


def _floats() -> dict:
    x = np.random.default_rng(52).uniform(-1, 1, 1000).astype(np.float32)
    return {"x": x, "out": np.zeros(1000, np.float32), "n": 1000}


def _hipcc_pass(tmp_path, text: str, which: str) -> str:
    """What hipcc's host or device pass reads of the port (`-E`)."""
    require_tool("hipcc")
    f = tmp_path / "p.hip"
    f.write_text(text)
    r = subprocess.run(["hipcc", "-x", "hip", "--offload-arch=gfx90a", f"--cuda-{which}-only", "-E", str(f)],
                       capture_output=True, text=True, timeout=300, env={**os.environ, "HIP_PLATFORM": "amd"})
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


@pytest.mark.parametrize("text", [HD, DEFINE, MIXED], ids=["host-device", "define", "mixed-test"])
def test_each_pass_reads_the_branch_nvccs_pass_reads(tmp_path, text):
    port, out = ported(text, dedent=False)
    assert "__CUDA_ARCH__" not in port.body and "#if defined(__HIP_DEVICE_COMPILE__)\n" in port.body, port.body
    assert not [d for d in port.diagnostics if d.code == "KP237"]  # no branch left out: nothing to warn about
    _same_at_64(text, out, _floats())
    hip_compiles(tmp_path, out)
    device, host = _hipcc_pass(tmp_path, out, "device"), _hipcc_pass(tmp_path, out, "host")
    dev_text, host_text = {HD: ("v * 2.0f", "v + 1.0f"), DEFINE: ("v * 2.0f", "v * 1.0f"),
                           MIXED: ("SHM = 48", "SHM = 16")}[text]
    assert dev_text in device and host_text not in device
    assert host_text in host and dev_text not in host


def test_the_host_function_keeps_its_host_branch_under_else():
    port, _ = ported(HD, dedent=False)
    assert port.body.startswith("__host__ __device__ float scale(float v)\n{\n#if defined(__HIP_DEVICE_COMPILE__)\n"
                                "    return v * 2.0f;\n#else\n    return v + 1.0f;\n#endif\n}"), port.body


def test_a_cas_fallback_macro_is_the_atomic_on_the_gpu(tmp_path):
    port, out = ported(CAS, dedent=False)
    assert "#if defined(__HIP_DEVICE_COMPILE__)\n#define ATOMIC_ADD(p, v) atomicAdd(p, v)\n#else\n" in port.body
    x = np.random.default_rng(5).uniform(-1, 1, 1000)
    _same_at_64(CAS, out, {"x": x, "out": np.zeros(4), "n": 1000})
    hip_compiles(tmp_path, out)


def test_metal_reads_its_own_device_macro():
    text = metal_checked(HD)
    assert "#if defined(__METAL_VERSION__)\n    return v * 2.0f;\n#else" in text and "__CUDA_ARCH__" not in text


def test_branches_no_pass_takes_are_left_out_with_a_warning(tmp_path):
    chain = HD.replace("#if __CUDA_ARCH__ >= 700\n", "#if __CUDA_ARCH__ >= 700\n").replace(
        "#else\n    return v + 1.0f;", "#elif __CUDA_ARCH__ >= 300\n    return v * 3.0f;\n#else\n    return v + 1.0f;")
    port, out = ported(chain, dedent=False)
    assert "v * 3.0f" not in port.body and "v * 2.0f" in port.body and "v + 1.0f" in port.body
    (warn,) = [d for d in port.diagnostics if d.code == "KP237"]
    assert (warn.line, warn.severity) == (3, "warning") and "line 5 (`#elif __CUDA_ARCH__ >= 300`) is left out (their ports differ" in warn.message
    _same_at_64(chain, out, _floats())
    hip_compiles(tmp_path, out)


@pytest.mark.parametrize("text, kept", [
    # both passes take the first branch (OpenHurricane's cuPreset.hpp): hipcc's reading as written is right
    (DEFINE.replace("#if __CUDA_ARCH__ >= 700", "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600"),
     "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600"),
    (HD.replace("__host__ __device__ float scale", "__host__ float host_scale") + "\n__device__ float scale(float v) "
     "{ return v; }\n", "#if __CUDA_ARCH__ >= 700"),  # only the host pass runs a host function
    (DEFINE.replace("__CUDA_ARCH__ >= 700", "__CUDA_ARCH__ >= SM_MIN"), "#if __CUDA_ARCH__ >= SM_MIN"),
    (DEFINE.replace("__CUDA_ARCH__ >= 700", "defined(FAST)"), "#if defined(FAST)"),  # a build's own choice
    # (`#if CUDART_VERSION >= 11000` alone is now evaluated with the toolkit's values: tests/test_pass_chains53.py)
])
def test_look_alikes_keep_their_conditional(text, kept):
    port, _ = translate(SourceFile.from_text(text, "t.cu"), "hip")
    assert kept in port.body and "#else" in port.body and "__HIP_DEVICE_COMPILE__" not in port.body, port.body
    assert not any(d.code == "KP237" for d in port.diagnostics)


def test_a_device_pass_test_is_still_device_pass_respelled():
    port, _ = ported(HD.replace("#if __CUDA_ARCH__ >= 700", "#ifdef __CUDA_ARCH__"), dedent=False)
    assert "#ifdef __HIP_DEVICE_COMPILE__\n    return v * 2.0f;\n#else" in port.body


def test_the_toolkit_version_is_the_cuda_backends(tmp_path):
    """`CUDART_VERSION` beside `__CUDA_ARCH__` (a continued test with a comment: mfaktc's spelling): CUDA 13's
    value settles it; the emulator's original reads the same value (main: v * 3, the branch below)."""
    port, out = ported(VERSION, dedent=False)
    assert "v * 2.0f" in port.body and "v * 3.0f" not in port.body and "CUDART_VERSION" not in port.body
    want = run_kernel(VERSION, "k", args=_floats(), grid=(4, 1, 1), block=(256, 1, 1), wave=32).outputs
    assert np.allclose(want["out"], _floats()["x"] * 2.0)
    _same_at_64(VERSION, out, _floats())
    hip_compiles(tmp_path, out)


def test_a_given_toolkit_version_keeps_the_conditional():
    port, _ = ported(VERSION, dedent=False, defines=[("CUDART_VERSION", "10000")])
    assert "CUDART_VERSION >= 11000" in port.body and "v * 3.0f" in port.body


WARP_LADDER = """\
#ifdef __CUDA_ARCH__
#define WARP 32
#else
#define WARP 1
#endif
__global__ void k(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    for (int o = WARP / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if ((threadIdx.x % WARP) == 0) out[i / WARP] = v;
}
"""


def test_a_device_pass_macro_read_as_a_value_in_code_is_the_devices(tmp_path):
    """kernelport/device_pass.py kept `#ifdef __CUDA_ARCH__` where the macro it defines is read as a value in code:
    main's port summed nothing (WARP 1 on the GPU: out[0] 0 where CUDA gives warp 0's sum)."""
    port, out = ported(WARP_LADDER, dedent=False)
    assert "#ifdef __HIP_DEVICE_COMPILE__\n#define WARP 32\n#else\n#define WARP 1\n#endif" in port.body, port.body
    x = (np.arange(1024) % 7).astype(np.float32)
    _same_at_64(WARP_LADDER, out, {"x": x, "out": np.zeros(1024, np.float32), "n": 1024})
    hip_compiles(tmp_path, out)
    # read where the parse does not see (another macro's body): as written, as before
    hidden = WARP_LADDER.replace("#endif\n", "#endif\n#define HALF (WARP / 2)\n", 1).replace("WARP / 2;", "HALF;")
    port, _ = translate(SourceFile.from_text(hidden, "t.cu"), "hip")
    assert "#ifdef __CUDA_ARCH__\n#define WARP 32" in port.body


def test_a_fragment_reads_the_names_its_includer_defines_before_it(tmp_path):
    """mfaktc: tf_96bit.cu includes my_types.h (`#define FERMI 200`), then tf_96bit_base_math.cu, which tests
    `(__CUDA_ARCH__ >= FERMI) && (CUDART_VERSION >= 4010)` and includes nothing: its port reads the includer's
    names (main: the conditional kept, hipcc compiled the `#else`)."""
    from trust_support import kp_inproc
    d = tmp_path / "proj"
    d.mkdir()
    (d / "types.h").write_text("#define FERMI 200\n#define VOLTA 700\n")
    (d / "math.cu").write_text(VERSION.split("\n__global__")[0].replace("__CUDA_ARCH__ >= 700", "__CUDA_ARCH__ >= VOLTA")
                               .replace("__CUDA_ARCH__ >= 600", "__CUDA_ARCH__ >= FERMI") + "\n")
    (d / "main.cu").write_text('#include "types.h"\n#include "math.cu"\n' + KERNEL)
    rc, out, err = kp_inproc("translate", d, "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    ported = (d / "out" / "math.hip").read_text()
    assert "return v * 2.0f;" in ported and "v * 3.0f" not in ported and "__CUDA_ARCH__" not in ported, ported
    require_tool("hipcc")
    from kernelport import toolchains
    res = toolchains.compile_hip(d / "out" / "main.hip", toolchains.HIP_ARCHS)  # math.hip compiled inside it
    assert res.ok, res.output or res.reason


def test_a_device_macro_with_no_port_gives_way_to_the_hosts_fallback():
    """`#if __CUDA_ARCH__ >= 700` / `#define BACKOFF ... __nanosleep` / `#else` a no-op (HIP has no `__nanosleep`):
    the device pass takes the portable fallback, which is the host's branch, so the text is kept (a split on this
    branch refused KP202 at the body: arch_branches._unported now reads macro bodies)."""
    text = """#if __CUDA_ARCH__ >= 700
#define BACKOFF(ns) do { if (threadIdx.x & 31) __nanosleep(ns); } while (0)
#else
#define BACKOFF(ns) do {} while (0)
#endif
__global__ void k(int* flag) { while (atomicAdd(flag, 0) == 0) BACKOFF(64); }
"""
    port, _ = ported(text, dedent=False)
    assert "#if __CUDA_ARCH__ >= 700\n" in port.body and "__HIP_DEVICE_COMPILE__" not in port.body
