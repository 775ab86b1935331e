"""Names that are words of the Metal Shading Language but not of C++ (`thread`, `device`,
`kernel`, `uint`, `half`, ...): where the CUDA file declares one (a variable, parameter, field,
function, type or macro), every use of it is renamed consistently (`thread` -> `thread_`, a
suffix no name of the file has), with a note for `--explain`.  A reserved word the file only
uses and never declares is Metal's own (`uint` from a header's typedef left out) and stays.
"""
from __future__ import annotations

import re

from ... import backends

_NAMES = ("identifier", "type_identifier", "field_identifier", "namespace_identifier")


class ReservedWords:
    """Mixin of MetalTranslator: the `rename_reserved_words` pass."""

    def rename_reserved_words(self) -> None:
        backend = backends.get(self.backend)
        reserved = backend.reserved_words
        same = self._same_typedefs(backend.builtin_typedefs)
        clashes = (self._declared_names() & reserved) - same
        if not clashes:
            return
        taken = {self.src.text_of(n) for t in _NAMES for n in self.src.index.of_type(t)}
        taken |= set(self.names.values())
        renamed: dict[str, str] = {}
        for name in sorted(clashes):
            new, i = f"{name}_", 1
            while new in taken:
                i += 1
                new = f"{name}_{i}"
            taken.add(new)
            renamed[name] = new
        self.renamed_words = renamed
        self.port.renamed.update(renamed)
        noted: set[str] = set()
        for t in _NAMES:
            for n in self.src.index.of_type(t):
                name = self.src.text_of(n)
                if name in renamed and not self.rw.has(n):
                    self.rw.replace(n, renamed[name])
                    if name not in noted:
                        noted.add(name)
                        self.note(n, renamed[name], f"'{name}' is a word of the Metal Shading Language: renamed "
                                  "everywhere in the port")
        self._rename_macro_bodies(renamed)

    def _same_typedefs(self, builtin: dict[str, str]) -> set[str]:
        """`typedef unsigned int uint;`: Metal's own type of that name is the same type, so the
        typedef is left out rather than the name renamed (a header may use it before it)."""
        same = set()
        for n in self.src.index.of_type("type_definition"):
            decls = n.children_by_field_name("declarator")
            t = n.child_by_field_name("type")
            if len(decls) == 1 and decls[0].type == "type_identifier" and t is not None and \
                    builtin.get(self.src.text_of(decls[0])) == " ".join(self.src.text_of(t).split()):
                name = self.src.text_of(decls[0])
                same.add(name)
                self.rw.replace(n, f"/* typedef {name}: Metal's {name} is this type */")
        return same

    def _rename_macro_bodies(self, renamed: dict[str, str]) -> None:
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, renamed)) + r")\b")
        for arg in self.src.index.of_type("preproc_arg"):  # macro bodies are text to the grammar
            text = self.src.text_of(arg)
            if pattern.search(text) and not self.rw.has(arg):
                self.rw.replace(arg, pattern.sub(lambda m: renamed[m.group(1)], text))
