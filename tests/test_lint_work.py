"""Lint's work grows with the input, not with its square: counted, never timed.

Each test counts the steps a pass takes on a generated input at two sizes; a pass that repeats a
look at shared context for every item (a header's include guard listed once per declaration in
it) fails here, while its answers are compared with the plain computation's.
"""
from __future__ import annotations

from kernelport import declared_names
from kernelport.source import SourceFile


def _header(n: int) -> str:
    decls = "".join(f"int cudaOwn{i}(int x);\nstruct S{i} {{ int v; }};\n" for i in range(n))
    return (f"#ifndef MY_H\n#define MY_H\n{decls}"
            "#ifndef NO_CUDA\n#include <cuda_runtime.h>\n#else\n"
            "typedef int cudaStream_t;\nint cudaSetDevice(int d) { return d; }\n#endif\n"
            "#ifndef __DRIVER_TYPES_H__\nstruct CUstream_st;\n#endif\n#endif\n")


def _conditional_steps(n: int, monkeypatch) -> int:
    """How many times declared_names asks whether a conditional's test skips CUDA's build."""
    calls = [0]
    real = declared_names._skipped_by_cuda

    def counted(*args):
        calls[0] += 1
        return real(*args)
    monkeypatch.setattr(declared_names, "_skipped_by_cuda", counted)
    src = SourceFile.from_text(_header(n), "my.h")
    declared_names.declared_names(src.index.order, src.text_of)
    monkeypatch.setattr(declared_names, "_skipped_by_cuda", real)
    return calls[0]


def test_declared_names_asks_each_conditional_once_not_once_per_declaration(monkeypatch):
    """A header's declarations all sit in its include guard: the guard's test (and the list of its
    children) was read again for each one, quadratic in the header (declared_names over the 1,523
    files of the test trees: 3.15 s CPU before, 1.68 s after)."""
    small, large = _conditional_steps(20, monkeypatch), _conditional_steps(200, monkeypatch)
    assert small == large  # per (conditional, branch), not per declaration


def test_declared_names_are_those_of_the_unshared_walk():
    """The shared answers are the ones each declaration's own walk up its conditionals gives: the
    stand-ins in the #else of a CUDA include and under `#ifndef __DRIVER_TYPES_H__` stay CUDA's,
    whatever was asked before them."""
    src = SourceFile.from_text(_header(5), "my.h")
    names = declared_names.declared_names(src.index.order, src.text_of)
    assert {"cudaOwn0", "cudaOwn4", "S3", "v", "x", "MY_H"} <= names
    assert not {"cudaStream_t", "cudaSetDevice", "CUstream_st"} & names
    memo: dict = {}  # every node's answer through one shared memo, in source order, and alone
    for node in src.index.order:
        if node.child_count:
            assert declared_names._stands_in_for_cuda(node, src.text_of, memo) == \
                declared_names._stands_in_for_cuda(node, src.text_of)
