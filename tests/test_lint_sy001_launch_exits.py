"""SY001 reads the launch geometry: an early return no launch of the kernel takes skips no barrier (issue 11,
stop 62; kernelport/lint/launchexits.py).  heldout84's playground attention kernels return under
`if (row >= kSeqLen || d >= kHeadDim) return;` (d = threadIdx.x) and are launched only `<<<kSeqLen, kHeadDim>>>`:
no thread returns, five false SY001.  Each quiet case has a look-alike that stays flagged: a launch with more
threads, a launch whose block is unknown, no launch, a global index guard, a block-stride walk, the kernel's
address taken, a header that declares it (another unit may launch it), another file of the run naming it, a
later return that is taken, `>` at the boundary."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import engine
from kernelport.lint.engine import lint_text

SRC = """\
#define N 128
__global__ void k(float* x) {
    __shared__ float s[N];
    const int tid = threadIdx.x;
    if (blockIdx.x >= 4 || tid >= N) return;
    s[tid] = x[tid];
    __syncthreads();
    x[tid] = s[N - 1 - tid];
}
void run(float* x) {
    k<<<4, BLOCK>>>(x);
}
"""


def _sy001(text: str) -> list[int]:
    return [f.line for f in lint_text(text, "t.cu") if f.code == "SY001"]


def test_a_return_no_launch_takes_skips_no_barrier():
    assert _sy001(SRC.replace("BLOCK", "N")) == []
    assert _sy001(SRC.replace("BLOCK", "64")) == []  # fewer threads: none returns either
    assert _sy001(SRC.replace("BLOCK", "dim3(N, 2)")) == []  # x extent N
    assert _sy001("constexpr int kB = 128;\n" + SRC.replace("BLOCK", "kB")) == []  # heldout84's constexpr


def test_a_bigger_or_unknown_launch_keeps_the_finding():
    assert _sy001(SRC.replace("BLOCK", "256")) == [7]
    assert _sy001(SRC.replace("BLOCK", "dim3(256)")) == [7]
    assert _sy001(SRC.replace("void run(float* x)", "void run(float* x, int b)").replace("BLOCK", "b")) == [7]
    two = SRC.replace("BLOCK", "N").replace("(x);\n}", "(x);\n    k<<<4, 512>>>(x);\n}")
    assert _sy001(two) == [7]  # one launch in the run takes the return
    assert _sy001(SRC.split("void run")[0]) == [7]  # no launch at all


def test_only_the_thread_index_against_the_block_extent():
    glob = SRC.replace("const int tid = threadIdx.x;", "const int tid = blockIdx.x * blockDim.x + threadIdx.x;")
    assert _sy001(glob.replace("BLOCK", "N")) == [7]  # a global index guard stays
    reassigned = SRC.replace("const int tid", "int tid").replace("if (blockIdx", "tid += 1;\n    if (blockIdx")
    assert _sy001(reassigned.replace("BLOCK", "N")) == [8]  # a local assigned again is not the thread index
    later = SRC.replace("    const int tid = threadIdx.x;\n", "").replace("__global__", "__device__ int tid;\n__device__ void set() { tid = threadIdx.x + 1; }\n__global__") \
        .replace("    s[tid] = x[tid];", "    { const int tid = threadIdx.x; s[tid] = x[tid]; }")
    assert _sy001(later.replace("BLOCK", "N")) == [8]  # the test reads a global `tid`, not the later local
    y = SRC.replace("tid >= N", "threadIdx.y >= 2")
    assert _sy001(y.replace("BLOCK", "dim3(N, 2)")) == []
    assert _sy001(y.replace("BLOCK", "dim3(N, 4)")) == [7]
    gt = SRC.replace("tid >= N", "tid > 127")
    assert _sy001(gt.replace("BLOCK", "128")) == []
    assert _sy001(gt.replace("BLOCK", "129")) == [7]  # thread 128 returns
    both = SRC.replace("blockIdx.x >= 4 || tid >= N", "tid >= N || tid % 2")
    assert _sy001(both.replace("BLOCK", "N")) == [7]  # the other side is the thread's own


def test_a_bound_passed_as_the_block():
    src = """\
__global__ void k(float* x, int n) {
    __shared__ float s[1024];
    if (threadIdx.x >= n) return;
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[n - 1 - threadIdx.x];
}
void run(float* x, int n) { k<<<1, n>>>(x, n); }
"""
    assert _sy001(src) == []  # the extent and the bound read one name at the launch
    assert _sy001(src.replace("k<<<1, n>>>(x, n)", "k<<<1, n + 1>>>(x, n)")) == [5]
    assert _sy001(src.replace("k<<<1, n>>>(x, n)", "k<<<1, 2 * n>>>(x, n)")) == [5]
    assert _sy001(src.replace("k<<<1, n>>>(x, n)", "k<<<1, 64>>>(x, 64)")) == []
    assert _sy001(src.replace("k<<<1, n>>>(x, n)", "k<<<1, 64>>>(x, 32)")) == [5]
    assert _sy001(src.replace("    s[threadIdx.x] = x", "    n = n / 2;\n    s[threadIdx.x] = x")) == [6]
    narrow = src.replace("float* x, int n)", "float* x, unsigned char n)").replace("s[1024]", "s[256]")
    assert _sy001(narrow) == [5]  # a block of 300 threads passes n = 44
    assert _sy001(narrow.replace("k<<<1, n>>>(x, n)", "k<<<1, 64>>>(x, 64)")) == [5]


def test_every_launch_must_be_known():
    quiet = SRC.replace("BLOCK", "N")
    taken = quiet.replace("void run(float* x) {", "void* handle = (void*)k;\nvoid run(float* x) {")
    assert _sy001(taken) == [7]  # its address taken: a launch lint cannot read
    macro = quiet.replace("void run(float* x) {", "#define GO(x) k<<<1, 1024>>>(x)\nvoid run(float* x) {")
    assert _sy001(macro) == [7]  # a macro's body names it
    proto = "__global__ void k(float* x);\n" + quiet
    assert _sy001(proto) == []  # a prototype is not a launch


def test_a_later_taken_return_still_reports():
    src = SRC.replace("BLOCK", "N").replace("    s[tid] = x[tid];\n", "    if (tid % 3 == 0) return;\n    s[tid] = x[tid];\n")
    got = [f for f in lint_text(src, "t.cu") if f.code == "SY001"]
    assert [f.line for f in got] == [8] and "return` on line 6" in got[0].message


def _project(tmp_path: Path, files: dict[str, str], given: list[str]):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return [(Path(f.path).name, f.line) for r in engine.lint_paths([tmp_path / n for n in given], jobs=1)
            for f in r.findings if f.code == "SY001"]


def test_a_header_declaration_or_another_file_keeps_it(tmp_path):
    quiet = SRC.replace("BLOCK", "N")
    assert _project(tmp_path, {"a.cu": quiet}, ["a.cu"]) == []
    header = {"k.cuh": "__global__ void k(float* x);\n", "b.cu": '#include "k.cuh"\n' + quiet}
    assert _project(tmp_path, header, ["b.cu"]) == [("b.cu", 8)]  # another unit may launch it
    other = {"c.cu": quiet, "d.cu": "__global__ void k(float* x);\nvoid go(float* x) { k<<<1, 1024>>>(x); }\n"}
    assert _project(tmp_path, other, ["c.cu", "d.cu"]) == [("c.cu", 7)]
