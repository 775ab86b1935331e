"""Causes of Metal refusals in real code (held-out: heldout32's LLNL/LEAP, heldout31's gpu-path-planning
raycast_gpu.cu; tests/realcorpus: llm.c), each as a CUDA snippet written for the test (no fetched file
is read).  Each test's port was refused on main (h/metal46's branch point f539682)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool


def _write(tmp_path: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip())


def _port(path: Path, **options) -> str:
    """The Metal port of `path`, which translate's checker passed (a failure is a KP224 here)."""
    require_tool("clang")
    port, text = translate(SourceFile.read(path), "metal", **options)
    assert port.ok, [d.format() for d in port.diagnostics]
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text
    return text


# LEAP: cuda_utils.h includes parameters.h, which includes leap_defines.h (`typedef unsigned long int
# uint64;`).  The first round spliced cuda_utils.h; the next asked parameters.h, but counted
# leap_defines.h as brought in already (included by a spliced header), so nothing ever spliced it:
# KP223 'uint64' is defined neither in this file nor in Metal's standard library (7 LEAP files).
LEAP = {
    "defines.h": """
        #ifndef DEFINES_H
        #define DEFINES_H
        #ifdef WIN32
            typedef unsigned long long uint64;
        #else
            typedef unsigned long int uint64;
        #endif
        typedef unsigned int uint32;
        #endif
    """,
    "params.h": """
        #ifndef PARAMS_H
        #define PARAMS_H
        #include "defines.h"
        #include <vector>
        class parameters { public: int numX; std::vector<float> v; };
        #endif
    """,
    "utils.h": """
        #ifndef UTILS_H
        #define UTILS_H
        #include "params.h"
        #include "cuda_runtime.h"
        extern cudaError_t scale(float* dev_lhs, const float c, const int3 N, int whichGPU = 0);
        float* copy_to_gpu(float* x, parameters* p);
        #endif
    """,
    "filter.cu": """
        #include "utils.h"
        __global__ void calc(const float* f, float* scale, const int3 N)
        {
            const int i = threadIdx.x + blockIdx.x * blockDim.x;
            if (i >= N.x) return;
            const uint64 ind = uint64(i) * uint64(N.y * N.z);
            scale[ind] = 2.0f * f[ind];
        }
        void run(float* f, float* s, int3 N) { calc<<<1, 32>>>(f, s, N); scale(s, 2.0f, N); }
    """,
}


def test_a_typedef_two_headers_deep_is_spliced(tmp_path: Path):
    _write(tmp_path, LEAP)
    text = _port(tmp_path / "filter.cu")
    assert "typedef unsigned long int uint64;" in text
    assert text.index("typedef unsigned long int uint64;") < text.index("kernel void calc")


def test_a_header_is_not_spliced_for_one_an_earlier_splice_brings_in(tmp_path: Path):
    """The look-alike (bart's gpukrnls_copy.cu, heldout32): debug.h, a host header, includes cppwrap.h,
    as misc.h does; misc.h is spliced for its macro, whose body needs cppwrap.h's.  cppwrap.h comes in
    through misc.h's include: debug.h, whose include stands above, is not spliced for it."""
    _write(tmp_path, {
        "wrap.h": """
            #ifndef WRAP_H
            #define WRAP_H
            #define WRAP_T float
            #endif
        """,
        "debug.h": """
            #include "wrap.h"
            extern void debug_printf(int level, const char* fmt, ...);
        """,
        "misc.h": """
            #include "wrap.h"
            #define HALF(x) ((WRAP_T)(x) * 0.5f)
        """,
        "k.cu": """
            #include "debug.h"
            #include "misc.h"
            __global__ void k(float* out) { out[threadIdx.x] = HALF(threadIdx.x); }
        """})
    text = _port(tmp_path / "k.cu")
    assert '"misc.h", spliced' in text and '"wrap.h", spliced' in text
    assert '"debug.h", spliced' not in text


def test_a_host_prototype_is_left_out_though_device_code_spells_its_name(tmp_path: Path):
    """`scale` is a kernel parameter; `cudaError_t scale(...)` is a host function (no `__device__`:
    CUDA lets no device code call it), so the port leaves its prototype out (it kept it: KP224
    'unknown type name cudaError_t')."""
    _write(tmp_path, LEAP)
    text = _port(tmp_path / "filter.cu")
    assert "extern cudaError_t scale" not in text
    assert "scale: used by host code only" in text


def test_a_device_prototype_stays(tmp_path: Path):
    """The look-alike: a prototype marked `__device__` (directly or through a qualifier macro) is
    device code's, and stays where device code calls it."""
    _write(tmp_path, {
        "k.cu": """
            #define HD __host__ __device__
            __device__ float twice(float x);
            HD float thrice(float x);
            __global__ void k(float* out) { out[threadIdx.x] = twice(1.0f) + thrice(2.0f); }
            __device__ float twice(float x) { return 2.0f * x; }
            HD float thrice(float x) { return 3.0f * x; }
        """})
    text = _port(tmp_path / "k.cu")
    assert "float twice(float x);" in text
    assert "float thrice(float x);" in text


# gpu-path-planning's raycast kernel: a struct argument (`constant DeviceGrid& grid` in Metal) whose
# const members the kernel calls; MSL's unqualified member takes a thread object only (KP224 'cannot
# initialize object parameter of type const __generic DeviceGrid with constant DeviceGrid').  Beside
# it, members called on device and threadgroup objects, one member calling another, and a local
# object's call (thread: no qualifier).
MEMBERS = """\
struct Grid {
    float* cells;
    int width;
    int height;
    __device__ __host__ int idx(int x, int y) const { return y * width + x; }
    __device__ __host__ bool inside(int x, int y) const { return x >= 0 && x < width && y >= 0 && y < height && idx(x, y) >= 0; }
};
struct Acc {
    float sum;
    __device__ float get() const { return sum; }
    __device__ void add(float v) { sum += v; }
};
__global__ void raycast(Grid grid, Acc* accs, float* out, int n) {
    __shared__ Acc tile[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    tile[threadIdx.x].sum = 0.0f;
    tile[threadIdx.x].add(1.0f);
    Acc mine = {0.0f};
    mine.add(3.0f);
    float v = 0.0f;
    if (grid.inside(i, 0)) v = grid.cells[grid.idx(i, 0)];
    accs[i].add(v);
    out[i] = accs[i].get() + (&accs[i])->get() + tile[threadIdx.x].get() + mine.get();
}
"""


def test_members_are_written_for_the_space_of_their_object(tmp_path: Path):
    (tmp_path / "k.cu").write_text(MEMBERS)
    text = _port(tmp_path / "k.cu")
    for sig in ("int idx(int x, int y) const constant {",
                "bool inside(int x, int y) const constant {",
                "float get() const {", "float get() const device {", "float get() const threadgroup {",
                "void add(float v) {", "void add(float v) device {", "void add(float v) threadgroup {"):
        assert sig in text, sig + "\n" + text
    assert "bool inside(int x, int y) const {" not in text  # called on the constant argument only
    for sig in ("void add(float v) {", "float get() const {", "void add(float v) device {"):
        assert text.count(sig) == 1, sig  # a thread object's member once (atpqc's functors had two copies)
    assert "    float get() const device { return sum; }\n    float get() const" in text  # in the class


def test_a_member_that_changes_a_by_value_argument_makes_it_a_copy(tmp_path: Path):
    """A constant object is read-only: `start.add(2)` on a kernel's by-value argument changes the
    thread's own copy in CUDA, so the port binds the argument as `kp_start` and copies it (as for an
    assignment to it), and `add` gets no `constant` overload.  (The checker's clang rejects that copy,
    a struct from `constant` memory, which Metal accepts: the port is looked at, not checked.)"""
    require_tool("clang")
    code = MEMBERS.replace("Acc* accs, float* out", "Acc* accs, Acc start, float* out").replace(
        "    mine.add(3.0f);", "    mine.add(3.0f);\n    start.add(2.0f);")
    port, text = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal", allow_unported=True)
    assert "Acc start = kp_start;" in text
    assert "constant Acc& kp_start [[buffer(2)]]" in text
    assert "void add(float v) constant" not in text


# llm.c dev/cuda attention_forward.cu: `1.0 / sqrtf(hs)` of an `int hs` (CUDA's sqrtf takes float, the
# int converts; Metal's precise::sqrt takes float types only: KP224 'no matching function for call to
# sqrt'), and `reinterpret_cast<const float*>(&vec)[i]` of a `const float4& vec` parameter (thread memory
# in Metal; written `const thread float*`, the checker's generic reference refused it)
LLMC = """\
__device__ float vec_at(const float4& v, int index) {
    return reinterpret_cast<const float*>(&v)[index];
}
__global__ void scale(float* out, const float4* in, int C, int NH, unsigned k, float f) {
    int hs = C / NH;
    int i = threadIdx.x;
    out[i] = vec_at(in[i], i % 4) / sqrtf(hs) + expf(C / NH) + sqrtf(k) + sqrtf(f) + sqrtf(2) + sqrtf(hs * 0.5f);
}
"""


def test_float_math_of_an_integer_converts_it_as_cuda_does(tmp_path: Path):
    (tmp_path / "k.cu").write_text(LLMC)
    text = _port(tmp_path / "k.cu")
    for call in ("precise::sqrt(float(hs))", "precise::exp(float(C / NH))", "precise::sqrt(float(k))",
                 "precise::sqrt(f)", "precise::sqrt(float(2))", "precise::sqrt(hs * 0.5f)"):
        assert call in text, call + "\n" + text
    assert "reinterpret_cast<const float*>(&v)[index]" in text


# llm.c train_gpt2_fp32.cu: `block.thread_rank()` of a `cg::thread_block` (KP224 'no member named
# thread_rank in kp_thread_block'): CUDA's linear index of the thread in its block, x fastest
BLOCK = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void ranks(unsigned* out, unsigned* sizes) {
    cg::thread_block block = cg::this_thread_block();
    unsigned r = block.thread_rank();
    block.sync();
    out[blockIdx.x * block.size() + r] = r + 1000 * block.group_index().x + 100 * block.thread_index().y;
    if (r == 0) sizes[blockIdx.x] = block.num_threads() + 10000 * block.group_dim().y;
}
"""


def test_a_thread_blocks_members_are_its_threadgroups(tmp_path: Path):
    (tmp_path / "k.cu").write_text(BLOCK)
    text = _port(tmp_path / "k.cu")
    assert "thread_rank" not in text.split("kernel void")[1]
    block, grid = (8, 4, 2), (3,)
    r = run_kernel(text, "ranks", args=dict(out=np.zeros(3 * 64, np.uint32), sizes=np.zeros(3, np.uint32)),
                   grid=grid, block=block, backend="metal")
    x, y, z = np.meshgrid(np.arange(8), np.arange(4), np.arange(2), indexing="ij")
    rank = ((z * 4 + y) * 8 + x).ravel()
    want = np.zeros(3 * 64, np.uint32)
    for b in range(3):
        want[b * 64 + rank] = rank + 1000 * b + 100 * y.ravel()
    assert np.array_equal(r.outputs["out"], want)
    assert list(r.outputs["sizes"]) == [64 + 40000] * 3
