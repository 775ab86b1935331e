"""C++11 attribute lists written after a declaration's specifiers, moved in front of them.

nvcc (EDG) takes `__host__ __device__ [[nodiscard]] inline T f()` and `static [[nodiscard]] int g()`;
clang, and so hipcc, refuses an attribute list there ("an attribute list cannot appear here"), or,
after a template head, reads it as the type's ("'nodiscard' attribute cannot be applied to types").
Where the backend's compiler wants them first (`attributes_lead_specifiers`, backend data), a
`[[...]]` that follows a run of specifier words at a declaration's start goes before the run:
`[[nodiscard]] __host__ __device__ inline T f()`, which both compilers read as the function's, so
the port means what the source did.  A `[[...]]` anywhere else (a statement's, a parameter's, one
already first) is left as written.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import backends

if TYPE_CHECKING:
    from .macro_tokens import Tok

# Words of a decl-specifier run that an attribute list may not follow in clang (CUDA's execution
# spaces and inlining words, C++'s storage and function specifiers).
SPECIFIERS = frozenset({"__host__", "__device__", "__global__", "__forceinline__", "__noinline__", "__inline__",
                        "inline", "static", "constexpr", "consteval", "virtual", "explicit", "extern", "friend",
                        "thread_local"})
_STARTS = frozenset({";", "{", "}", ":", ">"})  # what a declaration follows (`public:`, a template head)


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

    def _respell(self, start: int, end: int, text: str) -> None:
        n = self.src.root.descendant_for_byte_range(start, end)
        if n is not None and (n.start_byte, n.end_byte) == (start, end):
            self.rw.replace(n, text)  # a node holds it
        else:
            self.rw.drop_span(start, end, text)  # the parse saw blanks, or parts of several nodes
