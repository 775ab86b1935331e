"""Edits on the syntax tree that keep every other byte of the user's text.

A rewrite replaces a node by a text computed from its children's *rewritten* texts, so nested
rewrites compose (a renamed shuffle whose lane argument was itself rewritten).  Everything not
touched, comments and layout included, is copied byte for byte.
"""
from __future__ import annotations

import bisect
from typing import Callable

from tree_sitter import Node

from .source import SourceFile

Key = tuple[int, int, str]
Replacement = Callable[["Rewriter", Node], str] | str


def key(node: Node) -> Key:
    return (node.start_byte, node.end_byte, node.type)


class Rewriter:
    def __init__(self, src: SourceFile):
        self.src = src
        self.replacements: dict[Key, Replacement] = {}
        self.before: dict[Key, list[str]] = {}
        self._starts: list[int] = []

    def replace(self, node: Node, repl: Replacement) -> None:
        self.replacements[key(node)] = repl
        self._starts = []

    def remove(self, node: Node) -> None:
        """Drop the replacement of `node` (if any)."""
        self.replacements.pop(key(node), None)
        self._starts = []

    def insert_before(self, node: Node, text: str) -> None:
        self.before.setdefault(key(node), []).append(text)
        self._starts = []

    def has(self, node: Node) -> bool:
        return key(node) in self.replacements

    def text(self, node: Node) -> str:
        """The rewritten text of `node`."""
        k = key(node)
        pre = "".join(self.before.get(k, ()))
        if k in self.replacements:
            r = self.replacements[k]
            return pre + (r if isinstance(r, str) else r(self, node))
        if not self._touched_incl(node):
            return pre + self.src.data[node.start_byte:node.end_byte].decode("utf-8")
        return pre + self.stitch(node)

    def stitch(self, node: Node) -> str:
        """`node`'s text from its children's rewritten texts, ignoring its own replacement."""
        out, pos = [], node.start_byte
        for c in node.children:
            out.append(self.src.data[pos:c.start_byte].decode("utf-8"))
            out.append(self.text(c))
            pos = c.end_byte
        out.append(self.src.data[pos:node.end_byte].decode("utf-8"))
        return "".join(out)

    def original(self, node: Node) -> str:
        return self.src.text_of(node)

    def _touched_incl(self, node: Node) -> bool:
        if not self._starts:
            self._starts = sorted(k[0] for k in (*self.replacements, *self.before))
        i = bisect.bisect_left(self._starts, node.start_byte)
        return i < len(self._starts) and self._starts[i] < max(node.end_byte, node.start_byte + 1)

    def result(self) -> str:
        root, data = self.src.root, self.src.data
        return data[:root.start_byte].decode("utf-8") + self.text(root) + data[root.end_byte:].decode("utf-8")
