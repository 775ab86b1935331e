"""Translate's passes read only the nodes they are about: counted, not timed (issue 15).

Each pass below found its nodes by looking at every node of the file (a walk of each device
function, every identifier decoded, every declaration read for a receiver's type); it now asks the
parse's node index for the few it needs, or sees from the file's bytes that there is none.  The
ports are byte-identical (bench/port_hashes.py over tests/realcorpus and examples); each count
below is that of the old pass where the test would fail.
"""
from __future__ import annotations

import sys
import textwrap

from kernelport import member_uses
from kernelport.source import SourceFile
from kernelport.translate import translate

_CODE = textwrap.dedent("""\
    struct Dims { int x; };
    __global__ void k(float* out, const float* in, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float acc = 0.0f;
        for (int j = 0; j < n; ++j) { acc += in[j] * 2.0f; }
    #if __CUDA_API_VERSION >= 11000
        out[i] = acc;
    #endif
        Dims d; d.x = i;
        const uint3 b = blockIdx;
        out[i + d.x] = acc + b.x;
    }
    """)


def test_the_cuda_only_check_reads_the_conditionals_from_the_index_not_a_walk(monkeypatch):
    import kernelport.translate as tr
    walked: list = []
    monkeypatch.setattr(tr, "walk", lambda node, *a: walked.append(node) or iter(()), raising=False)
    port, _ = translate(SourceFile.from_text(_CODE, "w.cu"), "hip")
    assert walked == []  # the old pass walked every node of each device function's body
    assert [d.code for d in port.diagnostics if d.code == "KP208"] == ["KP208"]  # and still finds `#if __CUDA_API_VERSION`
    # (re-pinned at stop 51 from `#if __CUDA_ARCH__ >= 700`, which the port now takes: kernelport/arch_branches.py;
    # at stop 54 from `#if CUDART_VERSION`, which the port now evaluates in a kernel too: version_branches.py)


def test_member_uses_read_no_declaration_where_no_group_or_struct_type_is_named(monkeypatch):
    calls: list[str] = []
    for name in ("_names_of", "own_types"):
        real = getattr(member_uses, name)
        monkeypatch.setattr(member_uses, name, lambda *a, _n=name, _r=real: calls.append(_n) or _r(*a))
    src = SourceFile.from_text(_CODE, "m.cu")
    assert member_uses.member_calls(src) == []
    assert member_uses.field_uses(src, {"cudaDeviceProp"}) == []
    assert calls == []  # the old passes read the file's type definitions and every declaration
    # a look-alike that names them is still read, and its uses found
    named = SourceFile.from_text(_CODE.replace("struct Dims { int x; };", textwrap.dedent("""\
        #include <cooperative_groups.h>
        __device__ int lanes() { auto g = cooperative_groups::this_thread_block(); return g.group_dim().x; }
        int sm(const cudaDeviceProp& p) { return p.sharedMemPerMultiprocessor; }
        struct Dims { int x; };""")), "m2.cu")
    assert [(g, m) for _, g, m in member_uses.member_calls(named)] == [("thread_block", "group_dim")]
    assert [(t, f) for _, t, f in member_uses.field_uses(named, {"cudaDeviceProp"})] == \
        [("cudaDeviceProp", "sharedMemPerMultiprocessor")]
    assert "_names_of" in calls


def test_whole_coordinates_decode_only_the_coordinates(monkeypatch):
    decoded: list[str] = []
    real = SourceFile.text_of

    def counted(self, node):
        text = real(self, node)
        if sys._getframe(1).f_code.co_name == "rewrite_whole_coordinates":
            decoded.append(text)
        return text
    monkeypatch.setattr(SourceFile, "text_of", counted)
    _, text = translate(SourceFile.from_text(_CODE, "c.cu"), "hip")
    # the old pass decoded every identifier of the file (30 here) to find these four
    assert decoded == ["blockIdx", "blockDim", "threadIdx", "blockIdx"]
    assert "const uint3 b = " in text and "const uint3 b = blockIdx;" not in text  # still rewritten whole
