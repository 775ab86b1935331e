"""A kernel's launches read across the run's translation units (issue 11, stop 48; kernelport/unit_launches.py).

VMEC++ (tests/labelled25) declares `k_fwd_fused_warp` in a shared header, defines it in
fft_toroidal_cuda_kernels.cu and launches it with 32-thread blocks from fft_toroidal_cuda_transform.cu,
which includes the header only: WS004 flagged its 16-start ladder, since no launch the kernel's unit
reads gave its block.  In a run of several files the other unit's launch is the kernel's when the
linker joins them (same qualified name and parameter types, external linkage); each quiet case has a
near case that must still flag: a 64-thread or unknown block elsewhere, a one-file run, another
unit's kernel of the same name (static, anonymous namespace, another namespace, another signature),
an overload the launch cannot be told from."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import engine

KERNEL = """\
__global__ void k_sum(const float* __restrict__ x, float* out, const int n) {
    float v = threadIdx.x < n ? x[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
"""
HEADER = "#pragma once\n__global__ void k_sum(const float* x, float* out, int n);\n"
LAUNCH = '#include "k.cuh"\nvoid run(const float* x, float* out, int n, int m, int bs) {\n    k_sum<<<m, BLOCK>>>(x, out, n);\n}\n'


def _ws004(tmp_path: Path, files: dict[str, str], given: list[str] | None = None) -> set[tuple[str, int]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out = set()
    for r in engine.lint_paths([tmp_path / n for n in (given or list(files))], jobs=1):
        out |= {(Path(f.path).name, f.line) for f in r.findings if f.code == "WS004"}
    return out


def _project(kernel=KERNEL, header=HEADER, block="32", launch=LAUNCH, pre='#include "k.cuh"\n', post=""):
    return {"k.cuh": header, "a.cu": pre + kernel + post, "b.cu": launch.replace("BLOCK", block)}


FLAG = {("a.cu", 4)}


def test_a_32_thread_launch_in_another_unit_gives_the_kernel_its_block(tmp_path):
    assert _ws004(tmp_path, _project()) == set()


def test_a_64_thread_or_unknown_launch_in_another_unit_flags(tmp_path):
    for block in ("64", "bs"):
        (tmp_path / block).mkdir()
        assert _ws004(tmp_path / block, _project(block=block)) == FLAG, block


def test_a_one_file_run_keeps_what_the_file_shows(tmp_path):
    assert _ws004(tmp_path, _project(), given=["a.cu"]) == FLAG


def test_another_units_kernel_of_the_same_name_is_not_this_one(tmp_path):
    cases = {
        "static": _project(kernel="static " + KERNEL),
        "anonymous": _project(pre='#include "k.cuh"\nnamespace {\n', post="}\n", header="#pragma once\n"),
        # b.cu's own kernel of that name, the one its launch runs
        "own": _project(launch='static __global__ void k_sum(const float* x, float* out, int n) {}\n' + LAUNCH),
        # another namespace's kernel of that name and signature
        "namespace": _project(pre='#include "k.cuh"\nnamespace a {\n', post="}\n"),
        # another signature: the header's k_sum is another function
        "signature": _project(header="#pragma once\n__global__ void k_sum(const double* x, double* out, int n);\n"),
    }
    for name, files in cases.items():
        (tmp_path / name).mkdir()
        assert _ws004(tmp_path / name, files) == {("a.cu", 4 + (name in ("anonymous", "namespace")))}, name


def test_namespaces_templates_and_overloads_the_launch_tells_apart(tmp_path):
    ns_header = "#pragma once\nnamespace red {\n__global__ void k_sum(const float* x, float* out, int n);\n}\n"
    tmpl = KERNEL.replace("__global__", "template <typename T>\n__global__").replace("const float* __restrict__ x",
                                                                                    "const T* __restrict__ x")
    cases = {
        "qualified": (_project(header=ns_header, pre='#include "k.cuh"\nnamespace red {\n', post="}\n",
                               launch=LAUNCH.replace("k_sum<<<", "red::k_sum<<<")), 5),
        "using": (_project(header=ns_header, pre='#include "k.cuh"\nnamespace red {\n', post="}\n",
                           launch=LAUNCH.replace("void run", "using namespace red;\nvoid run")), 5),
        "template": (_project(kernel=tmpl, post="template __global__ void k_sum<float>(const float*, float*, int);\n",
                              header="#pragma once\ntemplate <typename T>\n__global__ void k_sum(const T* x, float* out, int n);\n",
                              launch=LAUNCH.replace("k_sum<<<", "k_sum<float><<<")), 5),
        # an overload of another count of arguments: the launch's three arguments call this one
        "overload": (_project(header=HEADER + "__global__ void k_sum(const float* x, float* out);\n"), 4),
    }
    for name, (files, line) in cases.items():
        (tmp_path / name).mkdir()
        assert _ws004(tmp_path / name, files) == set(), name
        (tmp_path / (name + "64")).mkdir()
        flagged = {k: v.replace("<<<m, 32>>>", "<<<m, 64>>>") for k, v in files.items()}
        assert _ws004(tmp_path / (name + "64"), flagged) == {("a.cu", line)}, name
    # overloads of one count of arguments: which one the launch runs is the compiler's, not read here
    (tmp_path / "same").mkdir()
    both = _project(header=HEADER + "__global__ void k_sum(const double* x, float* out, int n);\n")
    assert _ws004(tmp_path / "same", both) == FLAG


def test_a_headers_kernel_takes_the_launches_of_the_files_that_include_it(tmp_path):
    """A kernel defined in a header of the run (static too: each includer compiles the header's text)
    runs in the blocks its includers launch it with."""
    header = "#pragma once\nstatic " + KERNEL.replace("const float* __restrict__ x", "const float* x")
    for block, want in (("32", set()), ("64", {("k.cuh", 4)})):
        (tmp_path / block).mkdir()
        got = _ws004(tmp_path / block, {"k.cuh": header, "b.cu": LAUNCH.replace("BLOCK", block)})
        assert got == want, block
