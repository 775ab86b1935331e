"""`__cplusplus` is known where kernelport decides a CUDA file's preprocessor tests: nvcc and hipcc compile
CUDA as C++ (the CUDA backend's `language_macros`: 201703L, nvcc 13's default C++17), so a header's
`#ifdef __cplusplus` / `#if __cplusplus >= 201103L` is decided as the compiler decides it and its C branch
(`#ifndef __cplusplus`) dropped (heldout49: hadoopgis's gpu_spatial.h opens `extern "C" {` under one
`#ifdef __cplusplus` and closes it under another; its Metal splice did not parse: KP223 'mbr_t')."""
from __future__ import annotations

from kernelport import backends
from kernelport.macro_groups import builtin_decides, decided_variant, groups, variants
from kernelport.macros import MacroDef
from kernelport.source import SourceFile


def _group(text: str):
    data = text.encode()
    return groups(data)[0], data


def test_the_value_comes_from_the_cuda_backends_data():
    assert backends.source().language_macros == {"__cplusplus": 201703}


def test_ifdef_cplusplus_is_decided_taken_and_ifndef_its_c_branch_dropped():
    g, data = _group('#ifdef __cplusplus\nextern "C" {\n#endif\n')
    assert decided_variant(g, {}, data) == "taken"  # main: None (a reserved name, unknown)
    g, data = _group("#ifndef __cplusplus\ntypedef int bool;\n#else\nint x;\n#endif\n")
    assert decided_variant(g, {}, data) == "not taken"
    assert variants("ifndef __cplusplus", {})[1] == "not taken"


def test_an_if_over_the_standards_value_is_decided():
    g, data = _group("#if __cplusplus >= 201103L\nint a;\n#else\nint b\n#endif\n")
    assert decided_variant(g, {}, data) == "taken"
    g, data = _group("#if __cplusplus > 202002L\nint a;\n#elif __cplusplus >= 201402L\nint c;\n#else\nint b\n#endif\n")
    assert decided_variant(g, {}, data) == "branch 1"


def test_the_extern_c_split_over_two_groups_parses_as_cpp(tmp_path):
    # the C branch (`#ifndef __cplusplus`) would close the braces differently: dropped, the parse keeps C++'s
    text = ('#ifdef __cplusplus\nextern "C" {\n#endif\n#ifndef __cplusplus\ntypedef struct { int a; } box_t\n#endif\n'
            "typedef struct { int l, r; } mbr_t;\nfloat *clip(int n, const mbr_t *m);\n"
            "#ifdef __cplusplus\n}\n#endif\n")
    src = SourceFile.from_text(text, str(tmp_path / "g.h"))
    assert not src.root.has_error
    dropped = [m for m in src.masks if m.reason.startswith("conditional (")]
    assert dropped and all(m.name == "ifndef __cplusplus" for m in dropped)
    assert "mbr_t" in src.text


def test_look_alikes_an_ordinary_name_and_a_files_own_define_are_not_decided():
    g, data = _group("#ifdef __CUDA_ARCH__\nint a;\n#endif\n")
    assert decided_variant(g, {}, data) is None  # a reserved name the build does not give: unknown
    g, data = _group("#ifdef __cplusplus\nint a;\n#endif\n")
    own = {"__cplusplus": MacroDef("__cplusplus", None, "1", "x.h", 3)}  # a file's own define: left unknown
    assert decided_variant(g, own, data) is None
    assert not builtin_decides(own, [g])


def test_look_alike_without_a_define_only_the_builtin_groups_are_decided():
    # a run with no -D: `#ifdef WINDOWS` (an ordinary name) stays to the repair's loop as on main
    # (rodinia b+tree's common.h keeps `#define bool char` there); `#ifndef __cplusplus` is decided
    from kernelport.macro_groups import decided_groups
    data = b"#ifdef WINDOWS\n#define bool char\n#endif\n#ifndef __cplusplus\nint c;\n#endif\n"
    got = [(g.cond, v) for g, v in decided_groups(groups(data), {}, data)]
    assert got == [("ifndef __cplusplus", "not taken")]
    cmdline = {"X": MacroDef("X", None, "1", "<command line>", 0)}
    assert [g.cond for g, _ in decided_groups(groups(data), cmdline, data)] == ["ifdef WINDOWS", "ifndef __cplusplus"]
