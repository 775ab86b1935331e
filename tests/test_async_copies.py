"""CUDA's asynchronous copies in the HIP port (kernelport/backends/hip_async_copies.py, issue 11: heldout90/91 lost
files to `<cuda_pipeline.h>`, KP209): ROCm 5.2 has none, so the port defines `__pipeline_memcpy_async` /
`__pipeline_commit` / `__pipeline_wait_prior` and cooperative groups' `memcpy_async` / `wait` / `wait_prior` as
synchronous copies, as inline PTX's cp.async is ported (tests/test_ptx_cp_async.py).  The group's copy is
collective: each thread a strided share, the wait the group's barrier.  The definitions the port writes are
compiled with hipcc (gfx90a, gfx1030) and run on the host with g++ against CUDA's meaning (the bytes past
size - zfill zeros; the group's whole range copied whatever its size, alignment and length).  What the port does
not define (`__pipeline_arrive_on`, the C++ API's `nvcuda::experimental::pipeline`) is KP209 at its use; a
project's own `memcpy_async`, `wait` or `__pipeline_*` is left alone."""
from __future__ import annotations

import random
import re
import subprocess

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles, require_tool

PIPELINE = """#include <cuda_pipeline.h>
__global__ void k(const float4 *g, float *o, int n)
{
    __shared__ float4 s[256];
    __shared__ float t[256];
    int i = threadIdx.x;
    __pipeline_memcpy_async(&s[i], &g[blockIdx.x * 256 + i], sizeof(float4));
    __pipeline_memcpy_async(&t[i], (const float *)&g[i] + 1, sizeof(float), i < n ? 0 : 4);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    o[blockIdx.x * 256 + i] = s[255 - i].x + t[255 - i];
}
"""

GROUPS = """#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const float *g, float *o, int n)
{
    __shared__ float s[256];
    __shared__ float u[64];
    __shared__ char c[64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    cg::memcpy_async(block, s, g + blockIdx.x * 256, sizeof(float) * 256);
    cg::memcpy_async(tile, u + tile.meta_group_rank() * 32, 32, g + n, n);  // element counts
    if (threadIdx.x < 16) {
        cg::thread_block_tile<16> small = cg::tiled_partition<16>(cg::this_thread_block());
        cg::memcpy_async(small, c, (const char *)g + 3, 61);
        cg::wait_prior<0>(small);
    }
    cg::wait(block);
    o[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x] + u[threadIdx.x & 63] + c[threadIdx.x & 63];
}
"""


def _port(text: str, backend: str = "hip"):
    port, out = translate(SourceFile.from_text(text, "a.cu"), backend)
    return port, out


def test_pipeline_primitives_port_as_synchronous_copies_and_compile(tmp_path):
    port, text = _port(PIPELINE)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#include <cuda_pipeline.h>" not in text and "<cuda_pipeline.h> has no HIP counterpart" in text
    assert "__device__ inline void __pipeline_commit() {}" in text
    assert "__device__ inline void __pipeline_wait_prior(size_t prior) { (void)prior; }" in text
    assert "__pipeline_memcpy_async(&t[i], (const float *)&g[i] + 1, sizeof(float), i < n ? 0 : 4);" in port.body
    require_tool("hipcc")
    hip_compiles(tmp_path, text, "p.hip")  # gfx90a and gfx1030


def _host(text: str) -> str:
    """The port's definitions compiled for the host: `__device__` dropped, HIP's vector types as structs."""
    return ("#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n#define __device__\n"
            "struct uint4 { unsigned int x, y, z, w; };\nstruct uint2 { unsigned int x, y; };\n" + text)


def _refused_once(src: str, line: int) -> str:
    """The message of the one error translating `src` gives, asserted KP209 at `line`."""
    port, _ = _port(src)
    errors = [(d.code, d.location.line, d.message) for d in port.diagnostics if d.severity == "error"]
    assert [(c, ln) for c, ln, _ in errors] == [("KP209", line)], errors
    return errors[0][2]


def _run_on_host(tmp_path, name: str, program: str, cases: list[tuple]) -> list[str]:
    """Compile `program` with g++ (C++17) and run it on `cases` (one line of numbers each): its output lines."""
    c = tmp_path / f"{name}.cpp"
    c.write_text(program)
    subprocess.run(["g++", "-std=c++17", "-O1", "-o", str(tmp_path / name), str(c)], check=True)
    out = subprocess.run([str(tmp_path / name)], input="\n".join(" ".join(map(str, c)) for c in cases),
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(cases)
    return out


def _definitions(text: str, guard: str) -> str:
    return re.search(rf"#ifndef {guard}\n.*?\n#endif", text, re.S).group(0)


def test_the_ported_primitive_copies_size_minus_zfill_bytes_and_zeros_the_rest(tmp_path):
    """CUDA (cuda_pipeline_primitives.h): `size_and_align` bytes to dst, the last `zfill` of them zeros."""
    require_tool("g++")
    _, text = _port(PIPELINE)
    program = (_host(_definitions(text, "KP_CUDA_PIPELINE")) + """
int main() {
    alignas(16) char dst[48], src[16];
    unsigned int off, size, zfill;
    while (scanf("%u %u %u", &off, &size, &zfill) == 3) {
        memset(dst, 0x5a, sizeof dst);
        for (int i = 0; i < 16; ++i) src[i] = (char)(i + 1);
        __pipeline_memcpy_async(dst + off, src, size, zfill);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        for (int i = 0; i < 48; ++i) printf("%d ", dst[i]);
        printf("\\n");
    }
}
""")
    cases = [(off, size, zfill) for size in (4, 8, 16) for off in (0, 16, 32) for zfill in range(size + 1)]
    out = _run_on_host(tmp_path, "p", program, cases)
    for (off, size, zfill), line in zip(cases, out):
        want = [0x5a] * 48
        want[off:off + size] = [i + 1 if i < size - zfill else 0 for i in range(size)]
        assert [int(v) for v in line.split()] == want, (off, size, zfill)


@pytest.mark.parametrize("use, name", [
    ("__pipeline_arrive_on(&bar);", "__pipeline_arrive_on"),  # an mbarrier's arrival: not defined by the port
    ("nvcuda::experimental::pipeline pipe; pipe.commit();", "pipeline"),  # the C++ API
])
def test_what_the_port_does_not_define_is_refused_at_its_use(use, name):
    message = _refused_once(PIPELINE.replace("    __pipeline_commit();\n", f"    __shared__ unsigned long long bar;\n    {use}\n"), 10)
    assert f"`{name}` comes from <cuda_pipeline.h>" in message and "defines only __pipeline_commit" in message


def test_a_projects_own_pipeline_names_are_left_alone():
    """Look-alikes: the file's own `__pipeline_arrive_on` and a local named `pipeline` (shape of the header's
    names, declared here); and a file without the include whose `__pipeline_*` are its own."""
    own = PIPELINE.replace("__global__", "__device__ void __pipeline_arrive_on(unsigned long long *b) { *b += 1; }\n"
                           "__global__", 1).replace("    __pipeline_commit();\n",
                                                    "    __shared__ unsigned long long bar;\n    __pipeline_arrive_on(&bar);\n"
                                                    "    int pipeline = n; (void)pipeline;\n")
    port, _ = _port(own)
    assert port.ok, [d.format() for d in port.diagnostics]
    mine = ("__device__ void __pipeline_commit(float *p) { p[0] = 1.0f; }\n"
            "__global__ void k(float *o) { __pipeline_commit(o); }\n")
    port, text = _port(mine)
    assert port.ok and "KP_CUDA_PIPELINE" not in text and "__pipeline_commit(o);" in port.body


def test_metal_refuses_the_primitives_at_their_lines():
    port, _ = _port(PIPELINE, "metal")
    errors = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    assert errors and all(code in ("KP209", "KP223") for code, _ in errors), errors
    assert {line for _, line in errors} <= {7, 8, 9, 10}, errors


def test_group_copies_port_with_the_groups_barrier_as_their_wait_and_compile(tmp_path):
    port, text = _port(GROUPS)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#include <cooperative_groups/memcpy_async.h>" not in text
    defs = _definitions(text, "KP_CG_MEMCPY_ASYNC")
    # the wait is the group's barrier: a thread reads what another copied
    assert "__device__ void wait(const G& g) { g.sync(); }" in defs
    assert "__device__ void wait_prior(const G& g) { g.sync(); }" in defs
    assert "cg::memcpy_async(block, s, g + blockIdx.x * 256, sizeof(float) * 256);" in port.body
    require_tool("hipcc")
    hip_compiles(tmp_path, text, "g.hip")  # gfx90a and gfx1030


def test_the_group_copy_covers_the_range_in_strided_shares(tmp_path):
    """Every thread of a group of G runs its share (in turn, on the host): the whole range is copied, the
    bytes around it untouched, whatever G, the alignment of both addresses and the length; the element-count
    form copies min(dst_count, src_count) elements; each wait calls the group's sync."""
    require_tool("g++")
    _, text = _port(GROUPS)
    program = (_host("static int syncs;\n" + _definitions(text, "KP_CG_MEMCPY_ASYNC")) + """
struct Group { unsigned int r, n; unsigned int thread_rank() const { return r; } unsigned int size() const { return n; }
               void sync() const { ++syncs; } };
int main() {
    alignas(16) char dst[160], src[160];
    alignas(16) float fd[40], fs[40];
    unsigned int g, doff, soff, len, dc, sc;
    while (scanf("%u %u %u %u %u %u", &g, &doff, &soff, &len, &dc, &sc) == 6) {
        memset(dst, 0x5a, sizeof dst);
        for (int i = 0; i < 160; ++i) src[i] = (char)(i % 100 + 1);
        for (int i = 0; i < 40; ++i) { fd[i] = -1.0f; fs[i] = (float)i; }
        syncs = 0;
        for (unsigned int r = 0; r < g; ++r) {
            Group grp{r, g};
            cooperative_groups::memcpy_async(grp, dst + doff, (const char*)src + soff, len);
            cooperative_groups::memcpy_async(grp, fd, (size_t)dc, (const float*)fs, (size_t)sc);
            cooperative_groups::wait(grp);
            cooperative_groups::wait_prior<1>(grp);
        }
        for (int i = 0; i < 160; ++i) printf("%d ", dst[i]);
        for (int i = 0; i < 40; ++i) printf("%g ", fd[i]);
        printf("%d\\n", syncs);
    }
}
""")
    rng = random.Random("cg.memcpy_async")
    cases = [(g, rng.choice([0, 16, 4, 3]), rng.choice([0, 16, 8, 1]), rng.choice([0, 1, 16, 61, 64, 100, 128]),
              rng.randrange(41), rng.randrange(41)) for g in (1, 2, 16, 32, 64, 256) for _ in range(6)]
    out = _run_on_host(tmp_path, "g", program, cases)
    for (g, doff, soff, n, dc, sc), line in zip(cases, out):
        got = line.split()
        want = [0x5a] * 160
        want[doff:doff + n] = [(soff + i) % 100 + 1 for i in range(n)]
        assert [int(v) for v in got[:160]] == want, (g, doff, soff, n)
        k = min(dc, sc, 40)
        assert [float(v) for v in got[160:200]] == [float(i) for i in range(k)] + [-1.0] * (40 - k), (g, dc, sc)
        assert int(got[200]) == 2 * g, "each wait is the group's barrier"


def test_a_projects_own_memcpy_async_and_wait_are_left_alone():
    """Look-alikes: a device function of the file's own named memcpy_async (no cooperative groups include)
    and a `wait` member of another class beside the group's copy."""
    own = ("__device__ void memcpy_async(float *d, const float *s, int n) { for (int i = 0; i < n; ++i) d[i] = s[i]; }\n"
           "__global__ void k(float *o, const float *g) { memcpy_async(o, g, 4); }\n")
    port, text = _port(own)
    assert port.ok and "KP_CG_MEMCPY_ASYNC" not in text and "memcpy_async(o, g, 4);" in port.body
    member = GROUPS.replace("namespace cg = cooperative_groups;\n",
                            "namespace cg = cooperative_groups;\nstruct Q { int v; __device__ void wait() { v = 0; } };\n"
                            ).replace("    cg::wait(block);\n", "    cg::wait(block);\n    Q q{1}; q.wait();\n")
    port, text = _port(member)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "q.wait();" in port.body and "cg::wait(block);" in port.body


# the primitives with a per-lane zfill (a bounds guard: the lanes past n get zeros), for the emulator
EMULATED = """#include <cuda_pipeline.h>
__global__ void k(const float4 *g, const float *h, float *o, int n)
{
    __shared__ float4 s[64];
    __shared__ float t[64];
    int i = threadIdx.x;
    __pipeline_memcpy_async(&s[i], &g[i], sizeof(float4), i < n ? 0 : 8);
    __pipeline_memcpy_async(&t[i], &h[i], sizeof(float), i < n ? 0 : 4);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    o[i] = s[63 - i].x + s[63 - i].z + t[63 - i];
}
"""


def _emulated(source: str, backend: str, wave: int):
    import numpy as np
    from kernelport.emulator import run_kernel
    rng = np.random.default_rng(11)
    g, h = rng.uniform(-1, 1, 256).astype(np.float32), rng.uniform(-1, 1, 64).astype(np.float32)
    out = run_kernel(source, "k", args={"g": g, "h": h, "o": np.zeros(64, np.float32), "n": 40}, grid=(1,),
                     block=(64,), wave=wave, backend=backend).outputs["o"]
    q = g.reshape(64, 4)
    want = np.where(np.arange(64) < 40, q[:, 0] + q[:, 2] + h, q[:, 0])[::-1]  # past n: .z and t zeros
    return out, want


def test_the_emulator_runs_the_original_and_the_ports_own_definitions_alike():
    """The original (the emulator's primitives: the header is not read) and the HIP port at 64 and 32 (its own
    definitions, run as written) both give CUDA's result, lanes past n zero-filled."""
    import numpy as np
    out, want = _emulated(EMULATED, "cuda", 32)
    assert np.array_equal(out, want)
    port, text = _port(EMULATED)
    assert port.ok, [d.format() for d in port.diagnostics]
    for wave in (64, 32):
        out, want = _emulated(text, "hip", wave)
        assert np.array_equal(out, want), wave
    # a port whose zero fill were off by one scalar computes something else, and the emulator shows it
    wrong = text.replace("4 * i + zfill < size_and_align", "4 * i + zfill <= size_and_align")
    assert wrong != text
    out, want = _emulated(wrong, "hip", 64)
    assert not np.array_equal(out, want)


def test_the_emulator_runs_a_files_own_pipeline_function_not_cudas():
    import numpy as np
    from kernelport.emulator import run_kernel
    src = ("__device__ void __pipeline_commit(float *p) { p[threadIdx.x] = 7.0f; }\n"
           "__global__ void k(float *o) { __pipeline_commit(o); }\n")
    out = run_kernel(src, "k", args={"o": np.zeros(32, np.float32)}, grid=(1,), block=(32,), backend="cuda").outputs["o"]
    assert (out == 7.0).all()


# libcu++'s pipeline, a thread's own (heldout94's flash attention, cuda-samples' globalToShmemAsyncCopy's
# thread-scope kernels): each thread copies, commits, waits, then the block's barrier
THREAD_PIPELINE = """#include <cuda/pipeline>
__global__ void k(const float *g, float *o, int n)
{
    __shared__ float s[256];
    __shared__ float4 v[64];
    auto pipe = cuda::make_pipeline();
    cuda::pipeline<cuda::thread_scope_thread> other = cuda::make_pipeline();
    auto one = cuda::aligned_size_t<alignof(float)>(sizeof(float));
    pipe.producer_acquire();
    cuda::memcpy_async(&s[threadIdx.x], &g[threadIdx.x], one, pipe);
    pipe.producer_commit();
    other.producer_acquire();
    cuda::memcpy_async(&v[threadIdx.x & 63], (const float4 *)g + (threadIdx.x & 63), sizeof(float4), other);
    other.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    other.consumer_wait();
    other.consumer_release();
    __syncthreads();
    o[threadIdx.x] = s[255 - threadIdx.x] + v[threadIdx.x & 63].y;
}
"""


def test_a_threads_own_libcu_pipeline_ports_and_compiles(tmp_path):
    port, text = _port(THREAD_PIPELINE)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#include <cuda/pipeline>" not in text and "template <> class pipeline<thread_scope_thread> {" in text
    assert "cuda::memcpy_async(&s[threadIdx.x], &g[threadIdx.x], one, pipe);" in port.body
    require_tool("hipcc")
    hip_compiles(tmp_path, text, "t.hip")  # gfx90a and gfx1030


def test_the_thread_pipelines_copy_is_the_whole_range(tmp_path):
    require_tool("g++")
    _, text = _port(THREAD_PIPELINE)
    program = (_host("#define __host__\n" + _definitions(text, "KP_CUDA_THREAD_PIPELINE")) + """
int main() {
    alignas(16) char dst[64], src[64];
    unsigned int doff, soff, n;
    while (scanf("%u %u %u", &doff, &soff, &n) == 3) {
        memset(dst, 0x5a, sizeof dst);
        for (int i = 0; i < 64; ++i) src[i] = (char)(i + 1);
        auto pipe = cuda::make_pipeline();
        pipe.producer_acquire();
        cuda::memcpy_async(dst + doff, (const char*)src + soff, cuda::aligned_size_t<1>(n), pipe);
        pipe.producer_commit();
        cuda::pipeline_consumer_wait_prior<0>(pipe);
        for (int i = 0; i < 64; ++i) printf("%d ", dst[i]);
        printf("\\n");
    }
}
""")
    cases = [(d, s, n) for d in (0, 4, 3) for s in (0, 8, 1) for n in (0, 1, 4, 16, 31, 32)]
    out = _run_on_host(tmp_path, "t", program, cases)
    for (d, s, n), line in zip(cases, out):
        want = [0x5a] * 64
        want[d:d + n] = [s + i + 1 for i in range(n)]
        assert [int(v) for v in line.split()] == want, (d, s, n)


@pytest.mark.parametrize("use, what", [
    ("cuda::pipeline<cuda::thread_scope_block> shared_pipe;", "cuda::pipeline<cuda::thread_scope_block>"),
    ("__shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;", "cuda::pipeline_shared_state"),
    ("auto role = cuda::pipeline_role::consumer;", "cuda::pipeline_role"),
    ("auto p2 = cuda::make_pipeline(cooperative_groups::this_thread_block(), (int *)0);", "cuda::make_pipeline(coop"),
    ("cuda::memcpy_async(cooperative_groups::this_thread_block(), s, g, 4, pipe);", "cuda::memcpy_async(coop"),
])
def test_a_pipeline_shared_by_threads_is_refused_at_its_use(use, what):
    message = _refused_once(THREAD_PIPELINE.replace("    __syncthreads();\n", f"    {use}\n    __syncthreads();\n"), 18)
    assert f"`{what}" in message and "a pipeline shared by threads" in message


def test_a_projects_own_pipeline_and_memcpy_async_members_are_left_alone():
    """Look-alikes: a member named memcpy_async of five arguments and a project's `lib::pipeline<2>` beside a
    thread's own pipeline."""
    src = THREAD_PIPELINE.replace("__global__", "namespace lib { template <int N> struct pipeline { int v[N]; }; }\n"
                                  "struct Q { __device__ void memcpy_async(float *a, const float *b, int c, int d, int e) "
                                  "{ a[0] = b[0] + c + d + e; } };\n__global__", 1).replace(
        "    __syncthreads();\n", "    lib::pipeline<2> mine{}; Q q; q.memcpy_async(o, g, 1, 2, mine.v[0]);\n    __syncthreads();\n")
    port, _ = _port(src)
    assert port.ok, [d.format() for d in port.diagnostics]


def test_both_pipeline_headers_in_one_file_port():
    """Look-alike: libcu++'s `cuda::pipeline` beside <cuda_pipeline.h> (whose C++ API's `pipeline` is refused) is
    <cuda/pipeline>'s."""
    port, text = _port("#include <cuda_pipeline.h>\n" + THREAD_PIPELINE)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "KP_CUDA_PIPELINE" in text and "KP_CUDA_THREAD_PIPELINE" in text
