"""The CUDA toolkit's version macros used as values in the taken branch or in code (heldout59: CMake's
CMakeCUDACompilerId.cu kept `DEC(__CUDACC_VER_MAJOR__)` under `#if defined(__CUDACC_VER_MAJOR__)`, whose branch
the port takes, and hipcc stopped on an undeclared identifier)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

USES = """\
#include <cstdio>
#if defined(__CUDACC_VER_MAJOR__)
#  define VER_MAJOR DEC(__CUDACC_VER_MAJOR__)
#  define DEC(n) (n)
#endif
__global__ void k(int* o) { o[0] = CUDART_VERSION; o[1] = __CUDACC_VER_MINOR__; }
int main() { printf("CUDART_VERSION %d %d\\n", VER_MAJOR, CUDART_VERSION / 1000); return 0; }
"""


def test_a_toolkit_version_macro_used_as_a_value_is_nvccs_value(tmp_path):
    port, text = translate(SourceFile.from_text(USES, "v.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#  define VER_MAJOR DEC(13)" in text
    assert "o[0] = 13000; o[1] = 0;" in text
    # a string that names the macro is text, kept
    assert 'printf("CUDART_VERSION %d %d\\n", VER_MAJOR, 13000 / 1000)' in text
    require_tool("hipcc")
    f = tmp_path / "v.hip"
    f.write_text(text)
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


def test_metal_reads_the_same_value():
    port, text = translate(SourceFile.from_text("__global__ void k(int* o) { o[0] = CUDART_VERSION; }\n", "m.cu"),
                           "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "o[0] = 13000;" in text and "CUDART_VERSION" not in text


def test_a_version_the_unit_defines_or_a_test_left_undecided_keeps_its_text():
    # look-alikes: the file's own `#define CUDART_VERSION` is what both compilers read; a test that also reads an
    # undecided name keeps its text, the version in it included
    own = "#define CUDART_VERSION 9000\n__global__ void k(int* o) { o[0] = CUDART_VERSION; }\n"
    port, text = translate(SourceFile.from_text(own, "o.cu"), "hip")
    assert port.ok and "o[0] = CUDART_VERSION;" in text and "#define CUDART_VERSION 9000" in text
    undecided = ("#if CUDART_VERSION >= 11000 && defined(USE_FAST)\n#define FAST 1\n#endif\n"
                 "__global__ void k(int* o) { o[0] = 1; }\n")
    port, text = translate(SourceFile.from_text(undecided, "u.cu"), "hip")
    assert port.ok and "#if CUDART_VERSION >= 11000 && defined(USE_FAST)" in text
