"""Causes of HIP ports of the tenth held-out set (bench/heldout10.toml) that did not compile or
were not written, each as a minimal CUDA snippet (no fetched file is read)."""
from __future__ import annotations

import textwrap

from kernelport import toolchains
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool


def test_a_byte_order_mark_is_left_out_of_the_port(tmp_path):
    # DualSPHysics' headers start with a UTF-8 BOM: the port's own first lines went before it, and
    # clang rejects U+FEFF anywhere but a file's start
    f = tmp_path / "k.cuh"
    f.write_bytes(b"\xef\xbb\xbf// k\n__device__ int twice(int x) { return __shfl_sync(0xffffffffu, x, 0) * 2; }\n")
    src = SourceFile.read(f)
    assert src.loc(src.root.children[0]).column == 1  # the comment is where an editor shows it
    port, text = translate(src, "hip")
    assert port.ok and "\ufeff" not in text and text.count("// k\n") == 1
    require_tool("hipcc")
    out = tmp_path / "k.hip"
    out.write_text(text + "__global__ void g(int *p) { p[0] = twice(p[0]); }\n")
    r = toolchains.compile_hip(out, ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))
    assert r.ok, r.output[-3000:]

