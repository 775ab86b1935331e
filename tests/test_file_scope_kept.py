"""A parse's file-scope items (kernelport/file_scope.py) are listed once per parse: blockdims' constant reads
and infer_types asked per function, each ask a walk of the file scope (stop 61: 85 -> 169 walks for 6.8k ->
13.6k lines of a generated file)."""
from __future__ import annotations

import dataclasses
import textwrap

from kernelport import blockdims, file_scope
from kernelport.model import build, file_scope_items
from kernelport.source import SourceFile

_CODE = textwrap.dedent("""\
    #define N 4
    constexpr int WarpSize = 32;
    namespace ns { struct S { int a; }; }
    #if N > 2
    typedef int idx_t;
    #endif
    extern "C" { __device__ int g; }
    __global__ void a(float *p) { p[threadIdx.x % WarpSize] = 1.0f; }
    __global__ void b(float *p) { p[threadIdx.x % WarpSize] = 2.0f; }
    __global__ void c(float *p) { p[threadIdx.x % WarpSize] = 3.0f; }
    """)


def test_listed_once_per_parse(monkeypatch):
    src = SourceFile.from_text(_CODE, "fs.cu")
    module = build(src)
    walks = []
    real = file_scope._items
    monkeypatch.setattr(file_scope, "_items", lambda root: walks.append(root) or real(root))
    src.__dict__.pop("_kp_file_scope", None)
    first = file_scope_items(src)
    assert file_scope_items(src) is first  # (main: a new walk and list per ask)
    for f in module.functions.values():  # a constant read per function: the same listing
        assert blockdims.constant("WarpSize", f, module) == 32
    assert len(walks) == 1
    types = [n.type for n in first]
    assert types.count("function_definition") == 3 and {"preproc_def", "struct_specifier", "type_definition"} <= set(types)
    assert [n.start_byte for n in first] == sorted(n.start_byte for n in first)


def test_another_parse_or_tree_is_listed_again():
    # look-alike: the same text under another path is another parse; a file whose tree was replaced
    # (dataclasses.replace: a new object) is listed from its own tree, never from the old one's
    src = SourceFile.from_text(_CODE, "fs.cu")
    other = SourceFile.from_text(_CODE.replace("constexpr int WarpSize = 32;\n", ""), "fs2.cu")
    assert len(file_scope_items(other)) == len(file_scope_items(src)) - 1
    assert all(n.start_byte < len(other.data) for n in file_scope_items(other))
    swapped = dataclasses.replace(src, tree=other.tree)
    assert [n.start_byte for n in file_scope_items(swapped)] == [n.start_byte for n in file_scope_items(other)]
    own = file_scope_items(src)
    src.__dict__["_kp_file_scope"] = (other.tree, ())  # a listing kept from another tree is not read
    assert file_scope_items(src) == own and len(own) > 8
