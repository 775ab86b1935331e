"""Execution spaces after a function's return type (`template<typename T> T const & __device__
__host__ max(...)`, as a GPU sequence-alignment library writes it): nvcc accepts them there, the
grammar only before the type.  The parse's macro repair blanks them in the parsed copy with the word
as the mask's expansion (kernelport.macros.SPACE_WORDS), so the function parses, keeps its device
status for lint and translate, and the port keeps the user's text."""
from __future__ import annotations

from kernelport import model
from kernelport.lint import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

_MAX = "template<typename T> T const & __device__ __host__ max(const T& a, const T& b) { return a < b ? b : a; }\n"
_SUM = ("template<typename T> T __device__ __forceinline__ warp_sum(T v) {\n"
        "    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n    return v;\n}\n")
_KERNEL = "__global__ void k(float* p) { p[threadIdx.x] = warp_sum(max(p[0], p[1])); }\n"


def test_qualifiers_after_the_return_type_parse_and_keep_the_device_space():
    src = SourceFile.from_text(_MAX + _SUM + _KERNEL, "t.cu")
    assert not src.tree.root_node.has_error
    fns = model.build(src).functions
    assert fns["max"].qualifiers >= {"__device__", "__host__"} and fns["max"].is_device and fns["max"].is_host
    assert fns["warp_sum"].qualifiers >= {"__device__", "__forceinline__"} and not fns["warp_sum"].is_host


def test_a_warp_hazard_inside_such_a_function_is_linted():
    found = lint_text(_MAX + _SUM, "t.cu")
    assert any(f.line == 3 and f.code.startswith("WS") for f in found), found  # the shuffle's fixed 16 and mask
    assert not [f for f in found if f.code.startswith("KP")], found  # no parse error


def test_the_hip_port_rewrites_inside_and_keeps_the_user_text(tmp_path):
    port, whole = translate(SourceFile.from_text(_MAX + _SUM + _KERNEL, "t.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "T const & __device__ __host__ max(const T& a, const T& b)" in whole
    assert "T __device__ __forceinline__ warp_sum(T v)" in whole
    # the rewrite inside it.  (Re-pinned, stop 48: was `"warpSize" in whole`, the wave port; every lane stores the
    # down ladder's partial fold of a value all lanes share, which a wave port changes at 64: 32 lanes kept,
    # kernelport/fold_levels.py.)
    assert "__shfl_down_sync" not in whole and "__shfl_down(v, o, 32)" in whole


def test_qualifiers_before_the_type_are_left_to_the_grammar():
    src = SourceFile.from_text("template<typename T> __device__ __host__ T const & max(const T& a, const T& b)"
                               " { return a < b ? b : a; }\n", "t.cu")
    assert not src.tree.root_node.has_error and src.masks == ()
    assert model.build(src).functions["max"].qualifiers >= {"__device__", "__host__"}


def test_the_hip_port_compiles_for_gfx90a(tmp_path):
    require_tool("hipcc")
    f = tmp_path / "t.hip"
    f.write_text(translate(SourceFile.from_text(_MAX + _SUM + _KERNEL, "t.cu"), "hip")[1])
    assert_hip_file_compiles(f, ["gfx90a"])


def test_a_kernel_and_a_pointer_return_after_the_type_too():
    text = ("float * __device__ row(float* p, int i) { return p + i * 32; }\n"
            "void __global__ k(float* p) { *row(p, threadIdx.x) = 1.0f; }\n")
    fns = model.build(SourceFile.from_text(text, "t.cu")).functions
    assert fns["row"].is_device and not fns["row"].is_host and fns["k"].is_kernel


def test_the_metal_port_leaves_them_out():
    # Metal spells a device function with no qualifier, and none stands after a declarator's `&` or `*`
    text = _MAX + _SUM + "float * __device__ row(float* p, int i) { return p + i * 32; }\n" + \
        "__global__ void k(float* p) { *row(p, threadIdx.x) = warp_sum(max(p[0], p[1])); }\n"
    port, whole = translate(SourceFile.from_text(text, "t.cu"), "metal")
    assert port.ok, port.diagnostics  # (the Metal check compiles the port)
    assert "T const & max(const T& a, const T& b)" in whole and "float * row(device float* p, int i)" in whole
    assert "__device__" not in whole and "__host__" not in whole


def test_where_a_space_word_follows_a_type():
    from kernelport.macro_tokens import ends_a_type, tokens
    from kernelport.macros import ATTRIBUTE_WORDS, SPACE_WORDS

    def before(text: str) -> bool:  # whether the last word of `text` (a space word) follows a type
        toks = tokens(text.encode())
        return ends_a_type(toks, len(toks) - 2, SPACE_WORDS, ATTRIBUTE_WORDS - {"const", "volatile"})
    for after_type in ("T const & __device__", "T const & __device__ __host__", "A<int, B<T>> __device__",
                       "float * __device__", "T const __host__", "unsigned __device__"):
        assert before(after_type), after_type
    # a template head, a statement's or a member list's start, another qualifier: the grammar's places
    for not_after in ("template<typename T> __device__", "template<int N, typename T> __host__ __device__",
                      "; __device__", "} __host__ __device__", "public: __device__", "static __device__",
                      "inline __host__ __device__", "__device__"):
        assert not before(not_after), not_after
