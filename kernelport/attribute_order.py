"""C++11 attribute lists written after a declaration's specifiers, moved in front of them.

nvcc (EDG) takes `__host__ __device__ [[nodiscard]] inline T f()` and `static [[nodiscard]] int g()`;
clang, and so hipcc, refuses an attribute list there ("an attribute list cannot appear here"), or,
after a template head, reads it as the type's ("'nodiscard' attribute cannot be applied to types").
Where the backend's compiler wants them first (`attributes_lead_specifiers`, backend data), a
`[[...]]` that follows a run of specifier words at a declaration's start goes before the run:
`[[nodiscard]] __host__ __device__ inline T f()`, which both compilers read as the function's, so
the port means what the source did.  A `[[...]]` anywhere else (a statement's, a parameter's, one
already first) is left as written.  Two more declarations EDG takes and clang does not are respelled
here too: `__restrict__` on a scalar (drop_scalar_restricts) and a pointer to a variable-length array
declared with its cast's type (auto_vla_pointers).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import backends, lazy_re

if TYPE_CHECKING:
    from .macro_tokens import Tok

# Words of a decl-specifier run that an attribute list may not follow in clang (CUDA's execution
# spaces and inlining words, C++'s storage and function specifiers).
SPECIFIERS = frozenset({"__host__", "__device__", "__global__", "__forceinline__", "__noinline__", "__inline__",
                        "inline", "static", "constexpr", "consteval", "virtual", "explicit", "extern", "friend",
                        "thread_local"})
_STARTS = frozenset({";", "{", "}", ":", ">"})
# restrict's spellings, and the parse's types of a specifier run that are never a pointer (uint32_t and
# the other fixed-width names parse as primitive types)
RESTRICTS = frozenset({"__restrict__", "__restrict", "restrict"})
# `T (*name)[a][b] = (T (*)[a][b]) init`, the declaration auto_vla_pointers rewrites (which the grammar
# reads as an expression statement: a call `T(*name)`, subscripted, assigned)
VLA_POINTER = lazy_re.compile(
    rb"(?P<type>[A-Za-z_][\w:]*(?:[ \t]+[A-Za-z_][\w:]*)*)\s*\(\s*\*\s*(?P<name>[A-Za-z_]\w*)\s*\)"
    rb"(?P<dims>(?:\s*\[[^\[\];]+\])+)\s*=\s*\(\s*(?P<cast>[A-Za-z_][\w:]*(?:[ \t]+[A-Za-z_][\w:]*)*)"
    rb"\s*\(\s*\*\s*\)(?P<cdims>(?:\s*\[[^\[\];]+\])+)\s*\)")


def _squash(dims: bytes) -> bytes:
    return b"".join(dims.split())


SCALAR_RESTRICTED = frozenset({"primitive_type", "sized_type_specifier"})  # what a declaration follows (`public:`, a template head)
# The C library's scalar typedefs the grammar reads as type names (glibc's <sys/types.h> `uint`, `ulong`: daschr/
# cuda-classifier's `const __restrict__ uint *lower`), scalars wherever the file does not typedef the name itself
SCALAR_TYPEDEFS = frozenset({"uint", "ushort", "ulong", "u_char", "u_short", "u_int", "u_long", "u_int8_t", "u_int16_t",
                             "u_int32_t", "u_int64_t", "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t"})


def misplaced(toks: "list[Tok]") -> list[tuple[int, int, int]]:
    """(first specifier's index, `[[`'s index, `]]`'s last index) for each attribute list that follows a
    specifier run at a declaration's start."""
    out = []
    for i in range(1, len(toks) - 1):
        if toks[i].text != "[" or toks[i + 1].text != "[" or toks[i - 1].text not in SPECIFIERS:
            continue
        j, depth = i, 0  # the closing `]]`
        while j < len(toks):
            depth += (toks[j].text == "[") - (toks[j].text == "]")
            if depth == 0:
                break
            j += 1
        if j >= len(toks) or toks[j - 1].text != "]":
            continue
        k = i - 1
        while k > 0 and toks[k - 1].text in SPECIFIERS:
            k -= 1
        if k == 0 or toks[k - 1].text in _STARTS:
            out.append((k, i, j))
    return out


class AttributeOrder:
    """The translator pass (a mixin of kernelport.translate.Translator)."""

    def rewrite_attribute_order(self) -> None:
        if not backends.get(self.backend).attributes_lead_specifiers or b"[[" not in self.src.data:
            return
        from .macro_tokens import file_tokens  # (its patterns compile on first use: tests/test_startup.py)
        toks = file_tokens(self.src.data)
        for k, i, j in misplaced(toks):
            attr = self.src.data[toks[i].start:toks[j].end].decode("utf-8")
            first = toks[k]
            if any(self.rw.touches(t.start, t.end) for t in toks[k:j + 1]):
                continue  # another pass rewrote the declaration's head: leave it to that one
            self._respell(toks[i].start, toks[j].end, "")
            if self.src.data[toks[j].end:toks[j].end + 1] == b" ":
                self.rw.drop_span(toks[j].end, toks[j].end + 1)  # and one blank after it
            self._respell(first.start, first.end, f"{attr} {first.text}")
            n = self.src.root.descendant_for_byte_range(first.start, first.end)
            self.note(n if n is not None else self.src.root, f"{attr} {first.text}",
                      "clang (hipcc) takes an attribute list only before a declaration's specifiers")

    def drop_scalar_restricts(self) -> None:
        """`const __restrict__ uint32_t *p`: nvcc (EDG) takes `__restrict__` among a declaration's specifiers,
        where it qualifies the pointee, a scalar type; clang (hipcc) refuses it there ("restrict requires a
        pointer or reference").  Where the backend's compiler does (`restrict_needs_pointer`, backend data)
        and the specified type is a scalar (a primitive or sized type, SCALAR_RESTRICTED, or one of the C library's
        scalar typedefs the file does not redefine, SCALAR_TYPEDEFS: glibc's `uint`), the qualifier
        is dropped: restrict only lets a compiler assume no aliasing, so the port without it means what
        the source does.  A restrict on the pointer itself (`float* __restrict__ p`), or on another typedef
        name (which may be a pointer type), is left as written."""
        if not backends.get(self.backend).restrict_needs_pointer or b"restrict" not in self.src.data:
            return
        for q in self.src.index.under(self.src.root, "type_qualifier"):
            t = q.parent.child_by_field_name("type") if q.parent is not None else None
            if self.src.text_of(q) not in RESTRICTS or t is None or not (t.type in SCALAR_RESTRICTED or (
                    t.type == "type_identifier" and self._library_scalar(self.src.text_of(t)))) or \
                    q.parent.type not in ("parameter_declaration", "declaration", "field_declaration") or \
                    self.rw.touches(q.start_byte, q.end_byte):
                continue
            self.rw.replace(q, "")
            if self.src.data[q.end_byte:q.end_byte + 1] == b" ":
                self.rw.drop_span(q.end_byte, q.end_byte + 1)  # and one blank after it
            self.note(q, "", f"clang (hipcc, Metal) takes `{self.src.text_of(q)}` only on a pointer "
                      f"or reference, not on the scalar `{self.src.text_of(t)}`: dropped (an aliasing hint)")

    def _library_scalar(self, name: str) -> bool:
        """`name` is one of the C library's scalar typedefs and the file declares no type of that name."""
        return name in SCALAR_TYPEDEFS and re.search(
            rf"\b(?:typedef\b[^;]*\b{name}\s*;|using\s+{name}\s*=|(?:struct|class|union|enum)\s+{name}\b)",
            self.src.text) is None

    def auto_vla_pointers(self) -> None:
        """`dtype (*field)[nlon] = (dtype (*)[nlon]) v;` (cloudsc's validate, C99 code built as CUDA): nvcc
        (EDG) takes a pointer to a variable-length array declared with its cast's type; clang (hipcc)
        sees two types ("cannot initialize a variable of type 'double (*)[nlon]' with an rvalue of type
        'double (*)[nlon]'").  Where the backend's compiler does (`vla_pointers_need_auto`, backend data),
        such a declaration, whose type is the cast's (spaces aside) and one of whose bounds is not a
        literal, becomes `auto field = (dtype (*)[nlon]) v;`: the variable has the cast's type, as in the
        source.  A bound that is a literal (clang takes it), or a type other than the cast's, is left."""
        if not backends.get(self.backend).vla_pointers_need_auto or b"(*" not in self.src.data:
            return
        for stmt in self.src.index.of_type("expression_statement"):
            text = self.src.data[stmt.start_byte:stmt.end_byte]
            m = VLA_POINTER.match(text)
            if m is None or b" ".join(m["type"].split()) != b" ".join(m["cast"].split()) or \
                    _squash(m["dims"]) != _squash(m["cdims"]) or \
                    all(d.strip().isdigit() for d in _squash(m["dims"])[1:-1].split(b"][")):
                continue
            start, end = stmt.start_byte + m.start("type"), stmt.start_byte + m.end("dims")
            if self.rw.touches(start, end):
                continue
            n = self.src.root.descendant_for_byte_range(start, end)
            if n is None or (n.start_byte, n.end_byte) != (start, end):
                continue  # (the grammar reads it as an expression: `dtype (*field)[nlon]` is one node)
            self.rw.replace(n, f"auto {m['name'].decode()}")
            self.note(stmt, "auto", "clang (hipcc) reads a pointer to a variable-length array and its "
                      "cast's type as two types: declared `auto`, the cast's type")

    def _respell(self, start: int, end: int, text: str) -> None:
        n = self.src.root.descendant_for_byte_range(start, end)
        if n is not None and (n.start_byte, n.end_byte) == (start, end):
            self.rw.replace(n, text)  # a node holds it
        else:
            self.rw.drop_span(start, end, text)  # the parse saw blanks, or parts of several nodes
