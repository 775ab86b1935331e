"""`static` on a namespace member's definition outside its namespace, after the namespace declared it
without `static` (heldout74: a compressor plug-in's buffer factory, `template <typename TYPE> static
ACuBuffer<TYPE>* CuBufferFactory::createBuffer(...)`): nvcc and g++ accept it, clang rejects it ("static
declaration of 'make' follows non-static declaration"), so four HIP ports that include the header failed
hipcc.  The port drops that `static` (kernelport/qualified_statics.py), keeping the declaration's external
linkage that nvcc compiled.  Left as written: a namespace that declares the function `static` too (legal:
internal linkage), an unqualified static function, a static definition qualified by a namespace that does
not declare it here, and a class's out-of-class member definition."""
from __future__ import annotations

import re
import textwrap

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

CODE = """
namespace Factory {
    template <typename T> T* make(int n);
    DECLARED
}
struct Box { int f(); };
DEFINITION
__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }
void use() { float *q = Factory::make<float>(4); delete[] q; }
"""
MAKE = "template <typename T>\nstatic T* Factory::make(int n) { return new T[n]; }"


def port(declared: str, definition: str) -> str:
    text = textwrap.dedent(CODE).replace("DECLARED", declared).replace("DEFINITION", definition)
    p, out = translate(SourceFile.from_text(text, "q.cu"), "hip")
    assert p.ok
    return out


def test_the_static_of_a_qualified_definition_is_dropped_and_hipcc_compiles(tmp_path):
    out = port("", MAKE)
    assert re.search(r"(?m)^ *T\* Factory::make\(int n\) \{ return new T\[n\]; \}$", out), out
    assert "static T* Factory::make" not in out
    hip_compiles(tmp_path, out, "q.hip")


@pytest.mark.parametrize("declared, definition, kept", [
    ("static int twice(int x);", "static int Factory::twice(int x) { return 2 * x; }" + "\n" + MAKE.replace("static ", ""),
     "static int Factory::twice"),
    ("", MAKE.replace("static ", "") + "\nstatic int helper(int x) { return x + 1; }", "static int helper"),
    ("", MAKE.replace("static ", "") + "\nnamespace Other { int h(int x); }\nstatic int Other::g(int x) { return x; }",
     "static int Other::g"),
    ("", MAKE.replace("static ", "") + "\nint Box::f() { return 1; }", "int Box::f()"),
])
def test_look_alikes_keep_their_text(declared, definition, kept):
    assert kept in port(declared, definition)
