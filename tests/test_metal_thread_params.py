"""A helper's pointer or reference parameter with no address space is `thread` in MSL: the
checker now says so (C++ for OpenCL made it generic, which accepted device and threadgroup memory,
so a port Metal rejects passed), and the translator gives a helper's reference parameters the
address space of what its calls bind them to, as it does for pointers (issue 11, Metal part).

Found on tests/realcorpus: cuda-samples mergeSort/bitonic.cu's `Comparator(uint &keyA, ...)`,
called with `s_key[pos]` (__shared__), was ported as `inline void Comparator(uint &keyA, ...)` and
passed kernelport's checker; Metal cannot bind a `thread` reference to threadgroup memory.  The
snippets are written for the test."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

HEAD = "#include <metal_stdlib>\nusing namespace metal;\n"
KERNEL_HEAD = ("kernel void k(device uint *d [[buffer(0)]], device float *out [[buffer(1)]],\n"
               "              uint3 tid [[thread_position_in_threadgroup]]) {\n"
               "    threadgroup uint s[256];\n")


def _errors(text: str) -> list[tuple[int, str]]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    return [(d.line, d.message) for d in check_metal_source(text, "t.metal") if d.severity == "error"]


def test_a_thread_reference_given_threadgroup_memory_is_an_error():
    text = HEAD + "inline void swap2(uint &a, uint &b) { uint t = a; a = b; b = t; }\n" + KERNEL_HEAD + (
        "    swap2(s[tid.x], s[tid.x + 128]);\n"
        "}\n")
    errs = _errors(text)
    assert [line for line, _ in errs] == [7], errs
    assert "threadgroup" in errs[0][1] and "thread" in errs[0][1]


def test_a_template_whose_parameters_name_no_type_parameter_is_checked_too():
    # bitonic's `template <uint sortDir> ComparatorExtended(uint &keyA, ...)`: sortDir is a value
    text = HEAD + "template <uint dir> inline void cmp(uint &a, uint &b) { if ((a > b) == dir) { uint t = a; a = b; b = t; } }\n" + \
        KERNEL_HEAD + "    cmp<1>(s[tid.x], s[tid.x + 128]);\n}\n"
    errs = _errors(text)
    assert [line for line, _ in errs] == [7], errs


def test_a_pointer_with_no_space_given_device_memory_is_an_error():
    text = HEAD + "void put(float *p, float v) { p[0] = v; }\n" + KERNEL_HEAD + (
        "    put(out, 1.0f);\n"
        "}\n")
    errs = _errors(text)
    assert [line for line, _ in errs] == [7], errs
    assert "'device'" in errs[0][1]


def test_what_metal_accepts_stays_quiet():
    # thread locals given to unqualified parameters; a space written out; a const reference given a
    # temporary; a function template (T carries the space); a method's own parameter
    text = HEAD + (
        "inline void swap2(uint &a, uint &b) { uint t = a; a = b; b = t; }\n"
        "inline void swap_tg(threadgroup uint &a, threadgroup uint &b) { uint t = a; a = b; b = t; }\n"
        "void put(float *p, float v) { p[0] = v; }\n"
        "float twice(const float &x) { return 2.0f * x; }\n"
        "template <typename T> void store(T *p, float v) { p[0] = v; }\n"
        "struct Acc { float s; void add(float *p) { s += p[0]; } };\n") + KERNEL_HEAD + (
        "    uint a = 1, b = 2;\n"
        "    swap2(a, b);\n"
        "    swap_tg(s[tid.x], s[tid.x + 128]);\n"
        "    float loc[2] = {0.0f, 1.0f};\n"
        "    put(loc, twice(1.0f));\n"
        "    store(out, loc[0]);\n"
        "    Acc acc = {0.0f};\n"
        "    acc.add(loc);\n"
        "    d[tid.x] = s[tid.x] + a;\n"
        "}\n")
    assert _errors(text) == []


def test_columns_after_the_written_word_are_the_files():
    text = HEAD + "void f(float *p, int *q) { p[0] = undefined_name; }\n" + KERNEL_HEAD + "}\n"
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    d = check_metal_source(text, "t.metal")
    assert [(x.line, x.column) for x in d] == [(3, text.splitlines()[2].index("undefined_name") + 1)]


CUDA = """\
__device__ void Comparator(unsigned int &keyA, unsigned int &keyB, unsigned int dir);
__device__ void Comparator(unsigned int &keyA, unsigned int &keyB, unsigned int dir)
{
    unsigned int t;
    if ((keyA > keyB) == dir) { t = keyA; keyA = keyB; keyB = t; }
}
__device__ float twice(const float &x) { return 2.0f * x; }
__global__ void sortk(unsigned int *d_key, float *out, unsigned int dir)
{
    __shared__ unsigned int s_key[256];
    s_key[threadIdx.x] = d_key[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 128) Comparator(s_key[threadIdx.x], s_key[threadIdx.x + 128], dir);
    unsigned int a = d_key[0], b = d_key[1];
    Comparator(a, b, dir);
    __syncthreads();
    d_key[threadIdx.x] = s_key[threadIdx.x] + a;
    out[threadIdx.x] = twice(out[threadIdx.x]) + twice(1.0f);
}
"""


def test_a_helpers_reference_parameters_take_the_space_of_what_they_bind(tmp_path: Path):
    port, text = translate(SourceFile.from_text(CUDA, str(tmp_path / "k.cu")), "metal")
    assert [d.format() for d in port.diagnostics if d.severity == "error"] == []
    # one overload per space the calls bind: threadgroup elements, thread locals (unqualified:
    # Metal's meaning); a const reference binds a thread copy of what it is given, device memory too
    # (one returned stays valid: a device-space parameter returned as a thread reference would not be)
    assert "void Comparator(threadgroup unsigned int &keyA, threadgroup unsigned int &keyB, unsigned int dir)" in port.body
    assert "void Comparator(unsigned int &keyA, unsigned int &keyB, unsigned int dir)" in port.body
    assert "float twice(const float &x)" in port.body and "device float &x" not in port.body
    assert _errors(text) == []
