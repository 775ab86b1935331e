"""kernelport/orphan_directives.py: which directive lines of a replaced node pair outside it, and when a
replacement gets them back (tests/test_metal_head_directives.py runs them through the Metal port)."""
from __future__ import annotations

from kernelport.orphan_directives import directive_lines, keep, unpaired


def test_unpaired_directives_by_where_they_pair():
    assert unpaired(["#endif"]) == (["#endif"], [])
    assert unpaired(["#else", "#endif"]) == (["#else", "#endif"], [])
    assert unpaired(["#if A", "#endif"]) == ([], [])  # a group whole inside the node
    assert unpaired(["#ifdef X", "#else"]) == ([], ["#ifdef X", "#else"])  # opened here, closed after
    assert unpaired(["#endif", "#if B", "#if C", "#endif"]) == (["#endif"], ["#if B"])


def test_keep_adds_only_what_the_replacement_dropped():
    comment = "// f(): left out of the Metal port"
    assert keep(["#endif"], comment) == "#endif\n" + comment
    assert keep(["#if A", "#endif"], comment) == comment  # balanced inside: nothing to keep
    assert keep(["#ifdef X"], comment) == comment + "\n#ifdef X"
    rebuilt = "#endif\ninline float f() { return 1.0f; }"
    assert keep(["#endif"], rebuilt) == rebuilt  # kept by the head itself, not twice


def test_directive_lines_keeps_continued_lines_whole():
    assert directive_lines("\n    #endif\n   ") == "#endif\n"
    assert directive_lines("\n#if A && \\\n    B\n") == "#if A && \\\nB\n"
    assert directive_lines("  \n  ") == ""
