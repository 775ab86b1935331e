"""Causes of Metal ports of the tenth held-out set (bench/heldout10.toml) that were refused, each
as a minimal CUDA snippet written for the test (no fetched file is read)."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool


def _checked(text: str) -> None:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text


def test_a_header_needed_only_through_its_own_include_is_spliced(tmp_path: Path):
    # cuda-hashing-algos: md5.cu includes md5.cuh, which declares host entry points only and
    # includes config.h, whose typedefs (BYTE, WORD) device code uses: md5.cuh was not needed by
    # itself, so config.h was never reached (KP223 'BYTE' is defined neither in this file ...)
    (tmp_path / "config.h").write_text("#pragma once\ntypedef unsigned char BYTE;\ntypedef unsigned int WORD;\n")
    (tmp_path / "hash.cuh").write_text('#pragma once\n#include "config.h"\nvoid hash_batch(BYTE* in, int n);\n')
    (tmp_path / "unused.h").write_text('#pragma once\nvoid log_line(const char* s);\n')
    code = ('#include "unused.h"\n#include "hash.cuh"\n'
            "__device__ WORD mix(BYTE b) { return (WORD)b * 31u; }\n"
            "__global__ void k(BYTE* in, WORD* out) { out[threadIdx.x] = mix(in[threadIdx.x]); }\n"
            "void hash_batch(BYTE* in, int n) { log_line(\"batch\"); }\n")
    port, text = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "typedef unsigned char BYTE;" in port.body
    assert "void log_line" not in port.body  # a header nothing of which (nor of its includes) is needed: left out
    _checked(text)


def test_a_definition_takes_the_spaces_its_prototype_names_on_metal(tmp_path: Path):
    # solanity's ge.h declares `void __host__ __device__ ge_p3_to_p2(...)`, ge.cu defines it bare and
    # calls it from device code: nvcc gives the definition the prototype's spaces; the Metal port
    # read it as host code (KP223 a call of host function 'ge_p3_to_p2' from device code)
    code = ("typedef struct { int v[4]; } box;\n"
            "void __host__ __device__ box_add(box *r, const box *a);\n"
            "int __device__ twice(int x);\n"
            "int host_only(int x);\n"
            "void box_add(box *r, const box *a) { for (int i = 0; i < 4; i++) r->v[i] += a->v[i]; }\n"
            "int twice(int x) { return 2 * x; }\n"
            "int host_only(int x) { return x; }\n"
            "__global__ void k(int *o) {\n"
            "  box a = {{1, 2, 3, 4}}, b = {{0, 0, 0, 0}};\n"
            "  box_add(&b, &a);\n"
            "  o[threadIdx.x] = twice(b.v[threadIdx.x % 4]);\n"
            "}\n")
    port, text = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "int twice(int x) { return 2 * x; }" in port.body and "host_only(int x) {" not in port.body
    _checked(text)
    # a definition whose prototype names no space stays host code: called from a kernel, refused as before
    port, _ = translate(SourceFile.from_text(code.replace("twice(b.v", "host_only(b.v"), str(tmp_path / "k.cu")), "metal")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP223"]
