"""Inline PTX with no AMD meaning in a header's helper no code of the run calls (b40c's
device_intrinsics.cuh, heldout13's Bonsai: `BAR` is a named barrier, `bar.sync 1, count`, and
`ThreadExit` is PTX's `exit`; AMD has neither): the HIP port declares the helper unavailable
(clang's `unavailable` attribute, so a call anywhere is a compile error naming the reason), with a
KP201 warning at the asm's line, instead of refusing every file that includes the header.  A call
the run shows keeps the KP201 error; a kernel, a file translated with no run around it, and the
Metal backend (no such mark) keep the refusal (kernelport.translate.Translator.unavailable_function)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import assert_hip_file_compiles, require_tool
from trust_support import kp_inproc

HEADER = """\
#ifndef INTRIN_CUH
#define INTRIN_CUH
__device__ __forceinline__ void BAR(int count)
{
    asm volatile("bar.sync 1, %0;" : : "r"(count));
}
__device__ __forceinline__ void ThreadExit() {
    asm("exit;");
}
__device__ __forceinline__ unsigned int Twice(unsigned int x) { return 2u * x; }
#endif
"""


def _caller(body: str) -> str:
    return textwrap.dedent(f"""\
        #include "intrin.cuh"
        __global__ void k(unsigned int* x) {{
            {body}
        }}
        """)


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    d = tmp_path / "proj"
    d.mkdir()
    (d / "intrin.cuh").write_text(HEADER)
    for name, text in files.items():
        (d / name).write_text(text)
    return d


def test_an_uncalled_helper_is_declared_unavailable_with_a_located_warning(tmp_path):
    d = _project(tmp_path, {"a.cu": _caller("x[threadIdx.x] = Twice(x[threadIdx.x]);")})
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "intrin.cuh:5:5: warning: KP201" in err and "no code of this run calls 'BAR'" in err, err
    assert "intrin.cuh:8:5: warning: KP201" in err and "'ThreadExit'" in err, err
    port = (d / "out" / "intrin.hip.h").read_text()
    lines = port.splitlines()
    assert not [ln for ln in lines if "asm" in ln and "unavailable" not in ln], port  # no PTX left to compile
    bar = next(i for i, ln in enumerate(lines) if "void BAR(int count)" in ln)
    assert lines[bar + 1].startswith('__attribute__((unavailable("KP201 ') and lines[bar + 1].endswith(")));"), port
    assert "void ThreadExit() __attribute__((unavailable(" in port, port
    assert "return 2u * x;" in port  # the rest of the header as it was
    # the original's lines are kept: what follows the helpers is on its line of the original
    top = lines.index("#ifndef INTRIN_CUH")
    assert "Twice" in lines[top + 9] and "Twice" in HEADER.splitlines()[9], port


def test_the_port_compiles_and_a_call_of_the_unavailable_helper_does_not(tmp_path):
    require_tool("hipcc")
    from kernelport import toolchains
    d = _project(tmp_path, {"a.cu": _caller("x[threadIdx.x] = Twice(x[threadIdx.x]);")})
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert_hip_file_compiles(d / "out" / "a.hip")  # against the session's PCH, as verify compiles a port
    late = d / "out" / "late.hip"  # a caller compiled later, outside the run
    late.write_text('#include "intrin.hip.h"\n__global__ void q(int n) { BAR(n); }\n')
    r = toolchains.compile_hip(late, ["gfx90a"])
    assert not r.ok and "'BAR' is unavailable: KP201" in r.output, r.output[-3000:]


def test_a_call_the_run_shows_keeps_the_refusal(tmp_path):
    d = _project(tmp_path, {"a.cu": _caller("x[threadIdx.x] = Twice(x[threadIdx.x]);"),
                            "b.cu": _caller("BAR(64);")})
    rc, out, err = kp_inproc("translate", d / "a.cu", d / "b.cu", "--to", "hip", "-o", d / "out")
    assert rc == 1 and "intrin.cuh:5:5: error: KP201" in err, err
    assert "intrin.cuh:8:5: warning: KP201" in err, err  # ThreadExit: still called by no file of the run
    assert not (d / "out").exists()


def test_asm_in_a_kernel_or_on_metal_keeps_the_refusal(tmp_path):
    d = _project(tmp_path, {"a.cu": _caller('asm volatile("bar.sync 1, 64;");')})
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 1 and "a.cu:3:5: error: KP201" in err, err
    d2 = tmp_path / "m"
    d2.mkdir()
    (d2 / "intrin.cuh").write_text(HEADER)
    (d2 / "a.cu").write_text(_caller("x[threadIdx.x] = Twice(x[threadIdx.x]);"))
    rc, out, err = kp_inproc("translate", d2 / "a.cu", "--to", "metal", "-o", d2 / "out")
    assert "warning: KP201" not in err, err


DEBUG = """\
#pragma once
#if defined(__CUDACC__) && !defined(_MSC_VER)
__device__ inline void my_break() { __brkpt(); }
#endif
__device__ inline void stop_here() { __brkpt(); }
__device__ inline int twice(int x) { return 2 * x; }
"""


def test_an_api_name_hip_lacks_in_an_uncalled_device_function_is_declared_unavailable(tmp_path):
    """NVIDIA warp's builtin.h: `__debugbreak() { __brkpt(); }` under `#if defined(__CUDACC__)`, which
    the HIP port's `__HIPCC__` makes true, was left as written (KP210 warning) and stopped hipcc; a
    call the run shows keeps the KP210 error."""
    d = tmp_path / "p"
    d.mkdir()
    (d / "dbg.cuh").write_text(DEBUG)
    (d / "a.cu").write_text('#include "dbg.cuh"\n__global__ void k(int* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }\n')
    (d / "b.cu").write_text('#include "dbg.cuh"\n__global__ void q(int* x) { if (x[0] < 0) stop_here(); }\n')
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "dbg.cuh:3:37: warning: KP210 `__brkpt`" in err and "no code of this run calls 'my_break'" in err, err
    assert "dbg.cuh:5:38: warning: KP210" in err, err
    port = (d / "out" / "dbg.hip.h").read_text()
    assert "void my_break() __attribute__((unavailable(\"KP210 " in port, port
    assert "void stop_here() __attribute__((unavailable(\"KP210 " in port, port
    assert "__device__ inline int twice(int x) { return 2 * x; }" in port
    rc, out, err = kp_inproc("translate", d / "a.cu", d / "b.cu", "--to", "hip", "-o", d / "out2")
    assert rc == 1 and "dbg.cuh:5:38: error: KP210" in err and "dbg.cuh:3:37: warning: KP210" in err, err


OVERLOADS = """\
#pragma once
__device__ __forceinline__ void named_bar(unsigned int n) {
    asm volatile("bar.sync 1, %0;" : : "r"(n));
}
__device__ __forceinline__ void named_bar(unsigned long long n) {
    asm volatile("bar.arrive 1, %0;" : : "l"(n));
}
__device__ inline int twice(int x) { return 2 * x; }
"""


def test_every_overload_of_an_uncalled_name_is_declared_unavailable(tmp_path):
    """cuda-fixnum's primitives.cu (heldout15) had `addc` for u32 and for u64, each a carry read from another
    statement; the second overload's body was kept (the name was done), PTX hipcc refuses.  Re-pinned in stop 45:
    a carry wrapper now ports (kernelport/carry_calls.py), so two overloads of a named barrier stand for it."""
    d = tmp_path / "proj"
    d.mkdir()
    (d / "prim.cuh").write_text(OVERLOADS)
    (d / "a.cu").write_text('#include "prim.cuh"\n__global__ void k(int* x) { x[0] = twice(x[1]); }\n')
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "prim.cuh:3:5: warning: KP201" in err and "prim.cuh:6:5: warning: KP201" in err, err
    port = (d / "out" / "prim.hip.h").read_text()
    assert not [ln for ln in port.splitlines() if "asm" in ln and "unavailable" not in ln], port  # no PTX left
    assert port.count("__attribute__((unavailable(") == 2 and "return 2 * x;" in port, port


TAIL = """\
#pragma once
#define WARPS 8
__device__ inline int warp_max(int val) {
    for (int offset = 16; offset > 0; offset >>= 1)
        val = max(val, __shfl_down_sync(0xffffffff, val, offset));
    return val;
}
__device__ inline void block_max(int val, int& out) {
    __shared__ int buf[WARPS];
    val = warp_max(val);
    if (threadIdx.x % 32 == 0) buf[threadIdx.x / 32] = val;
    __syncthreads();
    if (threadIdx.x < WARPS) val = buf[threadIdx.x];
    for (int offset = WARPS / 2; offset > 0; offset >>= 1)
        val = max(val, __shfl_down_sync(0xff, val, offset));
    if (threadIdx.x == 0) out = val;
}
"""


def test_a_partial_mask_in_an_uncalled_helper_is_declared_unavailable(tmp_path):
    """gpu4pyscf's int3c2e_create_tasks.cuh (heldout19): `block_max`'s tail shuffles with mask 0xff (the
    first 8 lanes), which no HIP shuffle means, in a helper no file calls: the HIP port declares it
    unavailable with a KP203 warning, instead of refusing every file that includes the header; the
    full-mask `warp_max` beside it is ported. A call the run shows keeps the KP203 error."""
    d = tmp_path / "proj"
    d.mkdir()
    (d / "tail.cuh").write_text(TAIL)
    (d / "a.cu").write_text('#include "tail.cuh"\n__global__ void k(int* x) { x[threadIdx.x] = warp_max(x[0]); }\n')
    (d / "b.cu").write_text('#include "tail.cuh"\n__global__ void q(int* x) { block_max(x[threadIdx.x], x[0]); }\n')
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "tail.cuh:15:41: warning: KP203" in err and "no code of this run calls 'block_max'" in err, err
    port = (d / "out" / "tail.hip.h").read_text()
    assert "void block_max(int val, int& out) __attribute__((unavailable(\"KP203 " in port, port
    assert "val = max(val, __shfl_down(val, offset));" in port and "_sync" not in port, port  # warp_max: ported
    rc, out, err = kp_inproc("translate", d / "a.cu", d / "b.cu", "--to", "hip", "-o", d / "out2")
    assert rc == 1 and "tail.cuh:15:41: error: KP203" in err, err
    require_tool("hipcc")
    from kernelport import toolchains
    assert_hip_file_compiles(d / "out" / "a.hip", ["gfx90a", "gfx1030"])


SLOTS = """\
#pragma once
static constexpr int WARPSIZE = 32;
template <int width = WARPSIZE>
struct slots {
    __device__ static unsigned offset() { return (threadIdx.x & (WARPSIZE - 1)) & ~(width - 1); }
    __device__ static unsigned mask() { return ((1u << width) - 1) << offset(); }
    __device__ static unsigned ballot(int p) { return __ballot_sync(mask(), p) >> offset(); }
    __device__ static int twice(int x) { return 2 * x; }
};
"""


def test_a_partial_mask_vote_in_an_uncalled_member_is_declared_unavailable(tmp_path):
    """cuda-fixnum's slot_layout.cu (heldout15): `ballot`'s mask reads the warp size, which the port makes
    the wave's (KP203); a unit that never calls it gets the member declared unavailable, and compiles."""
    d = tmp_path / "proj"
    d.mkdir()
    (d / "slots.cuh").write_text(SLOTS)
    (d / "a.cu").write_text('#include "slots.cuh"\n__global__ void k(int* x) { x[threadIdx.x] = slots<>::twice(x[0]); }\n')
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "slots.cuh:7:69: warning: KP203" in err and "no code of this run calls 'ballot'" in err, err
    port = (d / "out" / "slots.hip.h").read_text()
    assert "static unsigned ballot(int p) __attribute__((unavailable(\"KP203 " in port, port
    (d / "b.cu").write_text('#include "slots.cuh"\n__global__ void q(int* x) { x[0] = slots<8>::ballot(x[1]); }\n')
    rc, out, err = kp_inproc("translate", d / "a.cu", d / "b.cu", "--to", "hip", "-o", d / "out2")
    assert rc == 1 and "slots.cuh:7:69: error: KP203" in err, err
    require_tool("hipcc")
    from kernelport import toolchains
    assert_hip_file_compiles(d / "out" / "a.hip", ["gfx90a", "gfx1030"])
