"""A class's `static const`/`static constexpr` data member is a program-scope variable, which MSL puts
in the constant address space: the Metal port spells it `static constexpr constant int WIDTH = ...;`,
as it does a file-scope constant.  Before, the checker refused the port at the member (KP224:
data61/cuda-fixnum's quorem.cu, `static constexpr int WIDTH = fixnum::SLOT_WIDTH;`, held-out set 15).
A non-static member stays as written."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

CODE = """
template <int W>
struct Slot {
    static constexpr int WIDTH = W * 2;
    static const int N = 4;
    int pad;
};
__global__ void k(int *o) { o[threadIdx.x] = Slot<4>::WIDTH + Slot<8>::N; }
"""


def test_static_constant_members_are_in_the_constant_address_space_and_the_port_checks():
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    port, text = translate(SourceFile.from_text(textwrap.dedent(CODE), "s.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "static constexpr constant int WIDTH = W * 2;" in port.body
    assert "static const constant int N = 4;" in port.body
    assert "    int pad;" in port.body  # not static: a member of each object
    assert [str(d) for d in check_metal_source(text, "s.metal")] == []
