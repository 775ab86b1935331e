"""A vote or shuffle in a function-like macro's body whose mask is an object-like macro
(`#define FULL_MASK 0xffffffff` then `#define __ballot(p) __ballot_sync(FULL_MASK, (p))`, the legacy
names a GPU bioinformatics library redefines for CUDA 9): the body is translated as a small function
of its own, and its model now sees the file's macros and its headers' (Translator._macro_body_model),
so the full mask is CUDA's full mask, as it is in a function, not an unknown refused with KP203.
A mask macro that names only some lanes is still refused there."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate


def _port(text: str):
    return translate(SourceFile.from_text(text, "t.cuh"), "hip")


def test_a_full_mask_macro_in_a_macro_body_is_the_full_mask():
    port, whole = _port("#pragma once\n#define FULL_MASK 0xffffffff\n"
                        "#define MY_BALLOT(p) __ballot_sync(FULL_MASK, (p))\n"
                        "#define MY_ANY(p) __any_sync(FULL_MASK, (p))\n")
    assert port.ok, port.diagnostics
    assert "#define MY_BALLOT(p) __ballot((p))" in whole and "#define MY_ANY(p) __any((p))" in whole, whole


def test_as_a_literal_full_mask_is():
    port, whole = _port("#pragma once\n#define MY_BALLOT(p) __ballot_sync(0xffffffff, (p))\n")
    assert port.ok and "#define MY_BALLOT(p) __ballot((p))" in whole


def test_a_partial_mask_macro_in_a_macro_body_is_still_refused():
    port, _ = _port("#pragma once\n#define HALF_MASK 0x0000ffff\n"
                    "#define MY_BALLOT(p) __ballot_sync(HALF_MASK, (p))\n")
    assert not port.ok
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP203", 3)]
