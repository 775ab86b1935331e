"""Two forms tree-sitter's grammar lacks where nvcc takes them (heldout74: a compressor plug-in's buffer
library did not parse, main: "cannot parse '*u != *u,'" and "cannot parse '*[count]'"): a comma expression
inside `decltype(...)`, the SFINAE idiom `decltype(*u != *u, std::true_type())`, is seen as the type of its
last operand `decltype(          std::true_type())`; an array of pointers to a class template's objects,
`new Buf<T>*[count]`, is seen as `new Buf<T> [count]`, as `new T*[n]` already was
(kernelport/grammar_gaps.py).  The port keeps the user's text; a `decltype` without a comma, one whose
only comma is a template argument list's, and a `new` of one object are masked nowhere."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """
#include <type_traits>
template <typename T> struct Buf { T v; };
template <typename T, typename U> struct Pair { T a; U b; };
DECL
__global__ void scale(float *out, const float *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
"""

SFINAE = """
template <typename T>
struct has_ne {
    template <typename U>
    static auto test(U* u) -> decltype(*u != *u, std::true_type());
    template <typename>
    static std::false_type test(...);
    static constexpr bool value = decltype(test<T>(nullptr))::value;
};"""
TWO_COMMAS = "template <typename T> auto f(T *u) -> decltype(u[0] + 1, u[1], 0) { return 0; }"
NEW_ARRAY = "template <typename T> void make(Buf<T> **a, int count) { a = new Buf<T>*[count]; }"
NEW_NESTED = "template <typename T> void make(Pair<Buf<T>, int> **a, int n) { a = new Pair<Buf<T>, int>*[n]; }"


def source(decl: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(CODE).replace("DECL", decl), "d.cu")


def masked(s: SourceFile) -> list[str]:
    return [s.data[m.start:m.end].decode() for m in s.masks]


@pytest.mark.parametrize("decl, seen", [(SFINAE, ["*u != *u,"]), (TWO_COMMAS, ["u[0] + 1, u[1],"]),
                                        (NEW_ARRAY, ["*"]), (NEW_NESTED, ["*"])])
def test_the_forms_parse_and_the_port_keeps_the_text(decl, seen):
    s = source(decl)
    assert s.syntax_errors() == [], decl
    assert masked(s) == seen, decl
    port, text = translate(s, "hip")
    assert port.ok and decl.strip().splitlines()[-1].strip() in text, decl


@pytest.mark.parametrize("decl", [
    "template <typename T> auto g(T *u) -> decltype(*u + 1) { return *u + 1; }",
    "template <typename T> auto h(T *u) -> decltype(Pair<T, int>{}) { return {}; }",
    "template <typename T> auto k(T *u) -> decltype(std::is_same<T, int>::value) { return true; }",
    "template <typename T> void one(Buf<T> *&a) { a = new Buf<T>(); }",
    "template <typename T> void arr(Buf<T> *&a, int n) { a = new Buf<T>[n]; }",
])
def test_look_alikes_are_masked_nowhere(decl):
    s = source(decl)
    assert s.syntax_errors() == [] and masked(s) == [], decl
