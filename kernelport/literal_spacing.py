"""A string literal written against the macro after it (`"  [Warning]  "ANSI_RESET`, ANSI_RESET #defined
as a colour code's string): nvcc expands the macro and concatenates the strings; clang, which compiles
HIP, reads C++11's user-defined-literal suffix there and refuses it ("invalid suffix on literal; C++11
requires a space between literal and identifier").  The port writes the space C++11 asks for, which
changes nothing nvcc compiles.  A suffix that names no macro (`"abc"_sv`, a literal operator's) is left
as written."""
from __future__ import annotations


class LiteralSpacing:
    """Mixin of the Translator: the pass that parts a string literal from the macro written against it."""

    def rewrite_literal_spacing(self) -> None:
        data, text, strings = self.src.data, self.src.text_of, self.src.index.of_type("concatenated_string")
        macros, masked = None, {m.start: m.name for m in self.src.masks} if strings else {}
        for s in strings:
            kids = s.children
            for lit, nxt in zip(kids, kids[1:]):  # (the repair may have let the grammar see the macro as its string)
                if lit.end_byte != nxt.start_byte or data[lit.end_byte - 1:lit.end_byte] != b'"' or \
                        nxt.type not in ("identifier", "string_literal"):
                    continue
                macros = self._macro_bodies() if macros is None else macros
                if (masked.get(nxt.start_byte) or text(nxt)) in macros:  # (a masked macro: its name, not its bytes')
                    self.rw.insert_before(nxt, " ")
