"""`typename` that begins an expression: a functional cast to a dependent type (`return typename
wrap<T>::type(it);`, as a GPU bioinformatics library's vector header writes it).  C++ allows it and
nvcc compiles it; the grammar reads `typename` only in declarations, so the parsed copy blanks the
keyword there (kernelport.source._TYPENAME_CAST) and the port keeps the user's text.  `typename` in a
template's parameter list, a declaration or a cast's type argument is parsed as before."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

_WRAP = "template <typename T> struct wrap { typedef T type; };\n"
_KERNEL = "__global__ void k(int* p) { p[threadIdx.x] = f(p[0]); }\n"


def test_a_functional_cast_to_a_dependent_type_parses_and_is_kept():
    text = (_WRAP + "template <typename T>\ntypename wrap<T>::type f(const T it)\n"
            "{\n    return typename wrap<T>::type( it );\n}\n" + _KERNEL)
    src = SourceFile.from_text(text, "t.cu")
    assert not src.tree.root_node.has_error
    port, whole = translate(src, "hip")
    assert port.ok, port.diagnostics
    assert "return typename wrap<T>::type( it );" in whole


def test_after_an_operator_and_with_braces_too():
    text = (_WRAP + "template <typename T> T f(T it) {\n    T a = typename wrap<T>::type{ it };\n"
            "    return g(1, typename wrap<T>::type(a));\n}\n")
    assert not SourceFile.from_text(text, "t.cu").tree.root_node.has_error


def test_typename_in_declarations_is_left_to_the_grammar():
    # template parameters (a default that is a dependent type), a function-pointer parameter, a cast's type
    text = (_WRAP + "template <typename T, typename U = typename wrap<T>::type>\n"
            "void h(T x, typename wrap<T>::type (*fp)(int)) {\n"
            "    typename wrap<T>::type y = static_cast<typename wrap<T>::type>(x);\n    fp(y);\n}\n")
    src = SourceFile.from_text(text, "t.cu")
    assert not src.tree.root_node.has_error
    assert src.tree.root_node.text.count(b"typename") == 7  # the parsed copy blanked none of them
    kept = [n for n in _walk(src.tree.root_node) if n.type == "typename"]  # the grammar's keyword tokens
    assert len(kept) == 7, [n.parent.type for n in kept]


def _walk(n):
    yield n
    for c in n.children:
        yield from _walk(c)


def test_a_cast_that_opens_a_braced_list_inside_another():
    # `V{d, typename V::m{typename V::e{r, c}, 1}}` (an mdspan-style view builder): the inner cast follows `{`
    text = ("template <typename V> struct box {};\n"
            "template <typename V> __host__ __device__ V make(float* d, int r, int c) {\n"
            "    return V{d, typename V::mapping_type{typename V::extents_type{r, c}, 1}};\n}\n")
    src = SourceFile.from_text(text, "t.cu")
    assert not src.tree.root_node.has_error
    assert src.tree.root_node.text.count(b"typename") == 2  # the two casts blanked, the parameters kept


def test_a_block_or_class_body_that_declares_with_typename_is_left_to_the_grammar():
    # `{` that opens a class body or a block (after `)`), then a declaration, even one with a parenthesized
    # declarator that reads like a cast (`typename wrap<T>::type (z);` declares z): nothing is blanked
    text = (_WRAP + "template <typename T> struct S {typename wrap<T>::type v; typename wrap<T>::type (*fp)(int);};\n"
            "template <typename T> void h(T x) { if (x) {typename wrap<T>::type (z); z = x;} }\n")
    src = SourceFile.from_text(text, "t.cu")
    assert not src.tree.root_node.has_error
    assert src.tree.root_node.text.count(b"typename") == 6
    kept = [n for n in _walk(src.tree.root_node) if n.type == "typename"]
    assert len(kept) == 6, [n.parent.type for n in kept]
