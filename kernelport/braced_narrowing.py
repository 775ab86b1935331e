"""A braced initializer whose element narrows a value that is no constant (GPU-PF's param-manager.cu:
`REAL Aalpha[2] = {AngleA1 * PI / 180., AngleA2 * PI / 180.};`, REAL #defined as `float`, PI a float
variable, so each element is a double expression): g++, nvcc's host compiler, warns and converts;
clang, which compiles HIP, refuses it ("non-constant-expression cannot be narrowed from type 'double' to
'float' in initializer list").  Where the backend's compiler refuses it (`Backend.braced_narrowing_refused`)
the port writes the conversion g++ makes, `static_cast<REAL>(...)`, around each such element: for an
arithmetic type the cast is the implicit conversion itself, so nothing nvcc compiles changes.

Only a declaration of an arithmetic type (or an array of one), as written or through a macro (`REAL`),
and only an element that holds a floating literal of a wider type (a double one for `float`, any for an
integer type) and a name that is no macro or a call: a constant is narrowed by neither compiler (or is
an error in both), and an element of the declared type needs no cast.  A pointer, a reference, a class
type, `auto` and a nested brace are left as written."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends, lazy_re

_FLOATS = {"float": 1, "double": 2, "long double": 3}
_INTEGERS = {"char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned", "unsigned int",
             "long", "unsigned long", "long long", "unsigned long long", "short int", "long int", "long long int",
             "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t"}
_LITERAL = lazy_re.compile(r"(?<![\w.])(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][+-]?\d+)?([fFlL]?)(?!\w)")


def _literal_rank(text: str) -> int:
    """The widest floating literal's rank in `text` (0 for none): 1 float (`f`), 2 double, 3 long double."""
    ranks = [{"f": 1, "F": 1, "l": 3, "L": 3}.get(m.group(1), 2) for m in _LITERAL.finditer(text)]
    return max(ranks, default=0)


class BracedNarrowing:
    """Mixin of the Translator: the pass that writes the conversion a narrowing braced element makes."""

    def rewrite_braced_narrowing(self) -> None:
        if not backends.get(self.backend).braced_narrowing_refused:
            return
        lists = self.src.index.of_type("initializer_list")
        if not lists:
            return
        macros = self._macro_bodies()
        for init in lists:
            spelled, target = self._narrowed_type(init, macros)
            if target is None:
                continue
            for el in init.named_children:
                if el.type in ("initializer_list", "initializer_pair", "comment", "field_designator") or \
                        not self._narrows(el, target, macros):
                    continue
                self.rw.insert_before(el, f"static_cast<{spelled}>(")
                self.rw.insert_before(el.next_sibling, ")") if el.next_sibling is not None else None
                self.note(el, f"static_cast<{spelled}>(...)", f"a non-constant element narrowed to {target} in a "
                          "braced initializer: g++ converts it with a warning, clang refuses it")

    def _narrowed_type(self, init: Node, macros: dict[str, str]) -> tuple[str, str | None]:
        """(the declared type as written, the arithmetic type it names) of the variable `init`
        initializes, or ("", None) where that is no arithmetic scalar or array of one."""
        decl = init.parent
        if decl is None or decl.type != "init_declarator" or decl.child_by_field_name("value") != init:
            return "", None
        d = decl.child_by_field_name("declarator")
        while d is not None and d.type == "array_declarator":
            d = d.child_by_field_name("declarator")
        owner = decl.parent
        if d is None or d.type != "identifier" or owner is None or owner.type != "declaration":
            return "", None
        t = owner.child_by_field_name("type")
        if t is None or t.type not in ("primitive_type", "sized_type_specifier", "type_identifier"):
            return "", None
        spelled = self.src.text_of(t)
        name, seen = " ".join(spelled.split()), 0
        while name in macros and seen < 8:  # `REAL` -> `float`
            name, seen = " ".join((macros[name] or "").split()), seen + 1
        return (spelled, name) if name in _FLOATS or name in _INTEGERS else ("", None)

    def _narrows(self, el: Node, target: str, macros: dict[str, str]) -> bool:
        text = self.src.text_of(el)
        if re.match(r"\s*static_cast\s*<", text):
            return False
        rank = _literal_rank(text)
        if not rank or (target in _FLOATS and rank <= _FLOATS[target]):
            return False
        names = [n for n in re.findall(r"[A-Za-z_]\w*", re.sub(r"\d[\w.]*", " ", text)) if n not in macros]
        return bool(names) or "(" in text and bool(re.search(r"[A-Za-z_]\w*\s*\(", text))
