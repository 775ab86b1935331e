"""Inline-asm operands written without the comma between them, `: "r"(b) "r"(c)`: nvcc's EDG front end takes
the two as separate operands (measured, nvcc 13: `asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a) "r"(b))` binds
%2 to b), gcc and clang reject the statement ("expected ')'"), and the grammar could not parse it either, so a
file nvcc compiles stopped as a parse error (KP001) and was neither linted near it nor ported (an SGEMM tutorial's
copy-pasted mma.sync operand list).  The copy the grammar reads (kernelport.source._mask_extensions) sees a comma
in the first blank after the operand, same length, so every span stays the user's; the port writes the comma
(`commas_to_write`, from kernelport.lexing.respell_for_clang), what clang needs and nvcc compiled.

An operand is a short constraint literal (`"=r"`, `"+f"`, `"=&l"`, `"h"`) with its parenthesised expression; only a
blank between `)` and the next constraint literal's `"` counts: a string literal followed by `(` is no other C++
construct, so text outside asm operand lists is never matched.  Operands glued with no blank (`"r"(b)"r"(c)`) are
left as written (the parse error stays, located).

A constraint written as two adjacent literals, `"=" "r"(x)` (C joins them in translation phase 6: gcc, clang and
nvcc read `"=r"`), stopped the grammar too: its copy sees the inner quotes as blanks, one literal `"=   r"` of the
same length, and the PTX readers see the joined `"=r"`."""
from __future__ import annotations

from . import lazy_re

_CONSTRAINT = rb'"[=+&]{0,3}[A-Za-z]{1,3}"\s*\('
# an operand (its expression's parentheses nested one level deep), then the blank before the next operand
_MISSING = lazy_re.compile(rb"(?<![\w\"])" + _CONSTRAINT + rb"(?:[^()\"\n]|\([^()\"\n]*\))*\)([ \t]*\r?\n?[ \t]*)(?="
                           + _CONSTRAINT + rb")")
# a modifier literal, the blank, then the letters' literal and the operand's `(`: nothing else in C++ is a string
# literal, a blank, a string literal and `(`, so only asm operands match
_GLUED = lazy_re.compile(rb'(?<![\w"])"([=+&]{1,3})"([ \t]+)"([A-Za-z]{1,3}"\s*\()')
_ASM_OPERAND_LISTS = ("gnu_asm_output_operand_list", "gnu_asm_input_operand_list")


def seen(data: bytes) -> bytes:
    """The grammar's copy with a comma in the first blank byte of each missing separator (length kept)."""
    if b'"(' not in data and b'" (' not in data:
        return data
    if b'" "' in data or b'"\t"' in data:
        data = _GLUED.sub(lambda m: b'"' + m.group(1) + b" " + m.group(2) + b" " + m.group(3), data)
    return _MISSING.sub(lambda m: m.group(0)[:m.start(1) - m.start(0)] + b"," + m.group(1)[1:]
                        if m.group(1) else m.group(0), data)


def written(inner: str) -> str:
    """An asm statement's text with the missing separators written (`"r"(b), "r"(c)`): what the PTX readers
    (kernelport.ptx_idioms.asm_sections) split into operands, as nvcc does."""
    if '"' not in inner:
        return inner
    joined = _GLUED.sub(lambda m: b'"' + m.group(1) + m.group(3), inner.encode("utf-8"))
    return seen(joined).decode("utf-8")


def commas_to_write(src) -> list:
    """The `,` tokens of asm operand lists that the parsed copy saw where the user wrote a blank."""
    return [n for n in src.index.order if n.type == "," and n.parent is not None
            and n.parent.type in _ASM_OPERAND_LISTS and src.data[n.start_byte:n.end_byte] != b","]
