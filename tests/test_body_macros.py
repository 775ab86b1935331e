"""A kernel whose whole block is an object-like macro (kernelport/body_macros.py): held-out set 86's StreamLZ
writes `extern "C" __global__ void slzSegHashKernel(...) SLZ_SEG_HASH_KERNEL_BODY`, the macro a header's
braced block.  Main stopped at a syntax error ("expected ';'", a hint to fix code nvcc accepts).  The parse
now reads the use as an empty block; the port keeps the macro, so a block that names warp-level code, or a
name the backend spells otherwise, is refused at the use (KP250), and a thread's arithmetic ports as written
(the HIP port compiles for gfx90a and gfx1030, the original with nvcc).  Look-alikes: a replacement list that
is more than one block, a function-like macro, a use that continues an expression are no block."""
from __future__ import annotations

import textwrap

import pytest

from kernelport import toolchains
from kernelport.source import SourceFile
from kernelport.translate import translate
from conftest import hip_compiles, require_tool

SCALE = textwrap.dedent("""\
    #define SEGS(n) (((n) + 3u) / 4u)
    #define SCALE_BODY                                              \\
        {                                                           \\
            const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x; \\
            if (gid >= SEGS(n)) return;                             \\
            out[gid] = 2.0f * (float)gid;                           \\
        }
    extern "C" __global__ void scale(float *out, unsigned n) SCALE_BODY
    __global__ void after(float *out) { out[0] = 1.0f; }
    """)
WARP = textwrap.dedent("""\
    #define LANE_SUM(v) __shfl_down_sync(0xffffffffu, (v), 16)
    #define SUM_BODY { float v = out[threadIdx.x]; v += LANE_SUM(v); out[threadIdx.x] = v; }
    __global__ void sum(float *out) SUM_BODY
    """)


def body_masks(s: SourceFile) -> list[str]:
    return [m.name for m in s.masks if m.reason == "body"]


def test_a_block_macro_parses_as_an_empty_block():
    s = SourceFile.from_text(SCALE, "b.cu")
    assert s.syntax_errors() == [] and body_masks(s) == ["SCALE_BODY"], s.masks


def test_a_thread_arithmetic_block_ports_to_hip_as_written_and_compiles(tmp_path):
    port, text = translate(SourceFile.from_text(SCALE, "b.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "void scale(float *out, unsigned n) SCALE_BODY" in text, text
    hip_compiles(tmp_path, text, "b.hip")


def test_the_original_compiles_with_nvcc(tmp_path):
    require_tool("nvcc")
    for name, code in (("b.cu", SCALE), ("w.cu", WARP)):
        src = tmp_path / name
        src.write_text(code)
        res = toolchains.compile_cuda(src)
        assert res.ok, res.output or res.reason


def test_metal_refuses_a_block_whose_coordinates_it_spells_otherwise():
    port, _ = translate(SourceFile.from_text(SCALE, "b.cu"), "metal")
    got = [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"]
    assert ("KP250", 8, 58) in got, port.diagnostics


def test_a_block_with_warp_code_through_a_macro_is_refused_on_hip():
    port, _ = translate(SourceFile.from_text(WARP, "w.cu"), "hip")
    kp250 = [d for d in port.diagnostics if d.code == "KP250"]
    assert not port.ok and len(kp250) == 1 and kp250[0].location.line == 3, port.diagnostics
    assert "__shfl_down_sync" in kp250[0].message, kp250[0].message


LOOK_ALIKES = {
    "two blocks": "#define TWO { int a = 1; } { int b = 2; }\n__global__ void k(int *o) TWO\n",
    "function-like": "#define FBODY(x) { o[0] = x; }\n__global__ void k(int *o) FBODY(1)\n",
    "an expression goes on": "#define W { 1, 2 }\nint f(int a) { return (a) W + 1; }\n",
}


@pytest.mark.parametrize("name", sorted(LOOK_ALIKES))
def test_look_alikes_are_no_block(name):
    s = SourceFile.from_text(LOOK_ALIKES[name], "l.cu")
    assert body_masks(s) == [], (name, s.masks)


HELPERS = textwrap.dedent("""\
    __device__ float lane_sum(float v) { return v + __shfl_down_sync(0xffffffffu, v, 16); }
    __device__ float sum_via(float v) { return lane_sum(v); }
    __device__ float twice(float v) { return 2.0f * v; }
    #define VIA_WARP_BODY { out[threadIdx.x] = sum_via(out[threadIdx.x]); }
    #define PLAIN_BODY { out[threadIdx.x] = twice(out[threadIdx.x]); }
    __global__ void KERNEL(float *out) BODY
    """)


@pytest.mark.parametrize("body, refused", [("VIA_WARP_BODY", True), ("PLAIN_BODY", False)])
def test_a_block_calling_a_warp_helper_is_refused_and_a_plain_helper_is_not(body, refused):
    """The helper's width is decided with its callers, which the parse does not see in the block: a block
    that calls one (through another function) is refused; one that calls arithmetic is not."""
    code = HELPERS.replace("KERNEL", "k").replace(") BODY", f") {body}")
    port, _ = translate(SourceFile.from_text(code, "h.cu"), "hip")
    assert [d.location.line for d in port.diagnostics if d.code == "KP250"] == ([6] if refused else []), \
        port.diagnostics


LANE_HELPERS = textwrap.dedent("""\
    __device__ unsigned lane() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
    __device__ unsigned bits(unsigned v) { unsigned r; asm("bfe.u32 %0, %1, 4, 8;" : "=r"(r) : "r"(v)); return r; }
    #define LANE_BODY { unsigned w = threadIdx.x / 32; out[blockIdx.x * blockDim.x + w * 32 + lane()] = threadIdx.x; }
    #define ASM_BODY { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); out[threadIdx.x] = r; }
    #define BITS_BODY { out[blockIdx.x * blockDim.x + threadIdx.x] = bits(threadIdx.x); }
    __global__ void k(unsigned *out) BODY
    """)


@pytest.mark.parametrize("body, refused", [("LANE_BODY", True), ("ASM_BODY", True), ("BITS_BODY", False)])
def test_a_block_reading_the_hardware_lane_is_refused_on_hip(body, refused):
    """Review 63d: `%laneid` counts 0..63 on a 64-wide wave; written in the kernel, the port reads the helper's
    result as `(lane() & 31)` (the original's 32-lane group), but in a block macro main kept `lane()` as written:
    `out[w * 32 + lane()]` wrote out[64..95] from threads 32..63 (verify --oracle original failed at wave 64).
    Inline PTX in the block itself was kept too (hipcc cannot assemble it).  A helper whose PTX is a bit-field
    extract (no wave in it) is ported in its own function: the block that calls it ports as written."""
    port, text = translate(SourceFile.from_text(LANE_HELPERS.replace(") BODY", f") {body}"), "l.cu"), "hip")
    assert [d.location.line for d in port.diagnostics if d.code == "KP250"] == ([6] if refused else []), \
        port.diagnostics
    assert port.ok != refused, port.diagnostics


def test_metal_refuses_a_kernel_block_macro_and_ports_a_device_function_one():
    """Review 63d: the Metal port writes a kernel's coordinates at its block's `{`; a block macro's first byte
    was overwritten (`kernel void k(...) {BODY`, a KP224 checker error naming 'BODY').  A kernel's block macro
    is refused at the use with KP250; a device function's ports as written (nothing is written into it)."""
    code = textwrap.dedent("""\
        #define KBODY { out[0] = 1.0f; }
        #define DBODY { return 2.0f * x; }
        __device__ float twice(float x) DBODY
        __global__ void k(float *out) KBODY
        __global__ void k2(float *out) { out[threadIdx.x] = twice(out[threadIdx.x]); }
        """)
    port, text = translate(SourceFile.from_text(code, "m.cu"), "metal")
    got = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    assert ("KP250", 4) in got and ("KP250", 3) not in got and "KP224" not in {c for c, _ in got}, got
    hip, _ = translate(SourceFile.from_text(code, "m.cu"), "hip")
    assert hip.ok, hip.diagnostics


def test_kernel_block_written_is_a_declared_setting_every_backend_has():
    """Stop 64: `kernel_block_written` was read with getattr (base.py at the cap); it is declared on the
    backends' shared settings (backends/kernel_heads.py) with False as default, Metal's True, and read as data."""
    import inspect
    from kernelport import backends, body_macros
    from kernelport.backends.base import Backend
    assert "kernel_block_written" in Backend.__annotations__ or any(
        "kernel_block_written" in getattr(c, "__annotations__", {}) for c in Backend.__mro__)
    assert {b.name: b.kernel_block_written for b in backends.all()}.get("metal") is True
    assert not any(b.kernel_block_written for b in backends.all() if b.name != "metal")
    assert "getattr" not in inspect.getsource(body_macros.refusals)


LADDER = textwrap.dedent("""\
    #define ROW_HALF { w = 16; }
    __global__ void k(float *out, int n) {
        float v = out[blockIdx.x * blockDim.x + threadIdx.x];
        int w = 32;
        if (n < 0) ROW_HALF
        for (int o = w / 2; o > 0; o /= 2) v += SHUFFLE;
        out[blockIdx.x * blockDim.x + threadIdx.x] = v;
    }
    """)


@pytest.mark.parametrize("shuffle, refused", [("__shfl_xor_sync(0xffffffffu, v, o)", True), ("v * 0.5f", False)])
def test_a_statement_block_macro_in_a_warp_function_is_refused(shuffle, refused):
    """Review 63d: the ladder's width analysis reads `w`'s writes; written in the kernel, `w = 16` is rewritten
    with the ladder (`warpSize / 2`), in a block macro it was kept as written while `w = 32` became `warpSize`:
    the port summed 16 lanes on one branch and 64 on the other.  The block is refused where its function runs
    warp-level code; the same block in a function without any ports as written."""
    port, _ = translate(SourceFile.from_text(LADDER.replace("SHUFFLE", shuffle), "s.cu"), "hip")
    assert [d.location.line for d in port.diagnostics if d.code == "KP250"] == ([5] if refused else []), \
        port.diagnostics


WARP_OF = textwrap.dedent("""\
    #define WARP_OF_BODY { return threadIdx.x / 32; }
    __device__ unsigned warp_of() WARP_OF_BODY
    __global__ void k(const float *x, float *out) {
        __shared__ float part[32];
        float v = x[blockIdx.x * blockDim.x + threadIdx.x];
        for (int o = 16; o > 0; o /= 2) v += SHUFFLE;
        if ((threadIdx.x & 31) == 0) part[warp_of()] = v;
        __syncthreads();
        if (threadIdx.x == 0) { float t = 0; for (int w = 0; w < blockDim.x / 32; ++w) t += part[w]; out[blockIdx.x] = t; }
    }
    """)


@pytest.mark.parametrize("shuffle, refused", [("__shfl_xor_sync(0xffffffffu, v, o)", True), ("v * 0.5f", False)])
def test_a_helper_block_macro_called_by_warp_code_is_refused(shuffle, refused):
    """Review 63d: the kernel's ladder was widened to the wave and its `& 31`, `/ 32` to warpSize, but the helper
    whose block is a macro kept `threadIdx.x / 32`: at wave 64 two slots held the same 64-lane sum (verify
    --oracle original failed at wave 64; the helper written in place passes).  Its width is its callers', so a
    helper block macro that a warp-level function calls is refused; called from arithmetic it ports as written."""
    port, _ = translate(SourceFile.from_text(WARP_OF.replace("SHUFFLE", shuffle), "w.cu"), "hip")
    assert [d.location.line for d in port.diagnostics if d.code == "KP250"] == ([2] if refused else []), \
        port.diagnostics
