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
# A piece of the result: its text, the byte span of the source it stands for, and whether the
# text is those bytes as written (else a replacement, an insertion or a dropped span).
Piece = tuple[str, int, int, bool]


def key(node: Node) -> Key:
    return (node.start_byte, node.end_byte, node.type)


# Where a statement may stand, and so a `{ ... }` in its place: a block's, a label's or a case's
# statements, the unbraced body of an `if`/`else`/loop, a statement of a preprocessor conditional.
STATEMENT_SLOTS = frozenset(("compound_statement", "labeled_statement", "case_statement", "if_statement", "else_clause",
                             "for_statement", "for_range_loop", "while_statement", "do_statement", "preproc_if",
                             "preproc_ifdef", "preproc_else", "preproc_elif"))


def whole_statement(expr: Node) -> Node | None:
    """The expression statement `expr;` that `expr` is the whole of, where a statement may stand there
    (STATEMENT_SLOTS), or None: what a rewrite of `expr` into several C statements replaces by one
    `{ ... }`, so that an unbraced body stays one statement (`if (c) asm(...); else ...` keeps its
    `else`).  An expression inside another (a `for` initialiser, an operand) is no such statement."""
    stmt = expr.parent
    if stmt is None or stmt.type != "expression_statement" or stmt.named_child_count != 1 or \
            stmt.parent is None or stmt.parent.type not in STATEMENT_SLOTS:
        return None
    return stmt


class Rewriter:
    def __init__(self, src: SourceFile):
        self.src = src
        self.replacements: dict[Key, Replacement] = {}
        self.before: dict[Key, list[str]] = {}
        self.dropped: list[tuple[int, int]] = []  # byte spans no node holds, left out (see drop_span)
        self.span_text: dict[tuple[int, int], str] = {}  # what stands in a dropped span's place, if anything
        self._starts: list[int] = []
        self._drops: tuple[list[int], list[tuple[int, int]]] | None = None  # `dropped` sorted, and their starts
        self._spans: tuple | None = None  # touches' index of the replacements: (count, starts, furthest ends)
        self.pieces: list[Piece] = []  # the last result(), piece by piece (portlines reads it)
        self._directives: list[tuple[int, int]] | None = None  # the directive lines the parse saw as blanks

    def replace(self, node: Node, repl: Replacement) -> None:
        self.replacements[key(node)] = repl
        if self.src.__dict__.get("_lane_macros"):  # a node of a `#define` value parsed on its own (lane_macros)
            from .lane_macros import host
            got = host(self.src, node)
            if got is not None:
                value = got[1]
                self.replacements[key(got[0])] = lambda rw, _arg: rw.text(value)
                self.__dict__.setdefault("lane_hosts", set()).add(key(got[0]))  # (macro_bodies ports it further)
        self._starts, self._spans = [], None

    def remove(self, node: Node) -> None:
        """Drop the replacement of `node` (if any)."""
        self.replacements.pop(key(node), None)
        self._starts, self._spans = [], None

    def insert_before(self, node: Node, text: str) -> None:
        self.before.setdefault(key(node), []).append(text)
        self._starts = []

    def drop_span(self, start: int, end: int, text: str = "") -> None:
        """Leave out bytes that no node holds: a macro use the parse saw as blanks (`HD` in
        `HD float f()`), which would otherwise stay when what it qualifies is replaced; or write
        `text` in their place (a spelling the parse saw as blanks that the target names otherwise)."""
        self.dropped.append((start, end))
        if text:
            self.span_text[(start, end)] = text
        self._starts, self._drops = [], None

    def _dropped_in(self, start: int, end: int) -> list[tuple[int, int]]:
        """The dropped spans within [start, end), in order: `dropped` sorted once per change (every gap
        between two children of a rewritten node asks; it was sorted again for each)."""
        if not self.dropped:
            return []
        if self._drops is None or len(self._drops[1]) != len(self.dropped):
            spans = sorted(self.dropped)
            self._drops = ([s for s, _ in spans], spans)
        starts, spans = self._drops
        out = []
        for i in range(bisect.bisect_left(starts, start), len(spans)):
            s, e = spans[i]
            if s > end:
                break
            if e <= end:
                out.append((s, e))
        return out

    def _gap(self, start: int, end: int) -> str:
        """The text between two nodes, less the dropped spans in it."""
        out, pos = [], start
        for s, e in self._dropped_in(start, end):
            out.append(self.src.data[pos:s].decode("utf-8") + self.span_text.get((s, e), ""))
            pos = e
        out.append(self.src.data[pos:end].decode("utf-8"))
        return "".join(out)

    def has(self, node: Node) -> bool:
        return key(node) in self.replacements

    def within(self, node: Node) -> bool:
        """Whether a replaced node holds `node` (a `#define` in the body of a host function the Metal
        port leaves out goes with the function)."""
        p = node.parent
        while p is not None:
            if key(p) in self.replacements:
                return True
            p = p.parent
        return False

    def touches(self, start: int, end: int) -> bool:
        """Whether a replacement covers any byte of [start, end) (an enclosing one too)."""
        if self._spans is None or self._spans[0] != len(self.replacements):
            spans = sorted((s, e) for s, e, _ in self.replacements)
            reach, most = [], -1  # the furthest end among the spans that start at or before each one
            for _, e in spans:
                most = max(most, e)
                reach.append(most)
            self._spans = (len(self.replacements), [s for s, _ in spans], reach)
        _, starts, reach = self._spans
        i = bisect.bisect_left(starts, max(end, start + 1))  # the spans that start before the range ends
        return i > 0 and reach[i - 1] > start

    def text(self, node: Node) -> str:
        """The rewritten text of `node`."""
        k = key(node)
        pre = "".join(self.before.get(k, ()))
        if k in self.replacements:
            r = self.replacements[k]
            return pre + self._with_directives(node, r if isinstance(r, str) else r(self, node))
        if not self._touched_incl(node):
            return pre + self.src.data[node.start_byte:node.end_byte].decode("utf-8")
        return pre + self.stitch(node)

    def stitch(self, node: Node) -> str:
        """`node`'s text from its children's rewritten texts, ignoring its own replacement."""
        out, pos = [], node.start_byte
        for c in node.children:
            out.append(self._gap(pos, c.start_byte))
            out.append(self.text(c))
            pos = c.end_byte
        out.append(self._gap(pos, node.end_byte))
        return "".join(out)

    def span(self, node: Node, start: int, end: int) -> str:
        """The rewritten text of the bytes [start, end) of `node`, a range that starts and ends between
        its children (a run of a declaration's declarators)."""
        out, pos = [], start
        for c in node.children:
            if start <= c.start_byte and c.end_byte <= end:
                out.append(self._gap(pos, c.start_byte))
                out.append(self.text(c))
                pos = c.end_byte
        out.append(self._gap(pos, end))
        return "".join(out)

    def _with_directives(self, node: Node, text: str) -> str:
        """A replacement of `node` with the directive lines it shares with the text around it (lines the
        parse saw as blanks, as the port spells them): kernelport/orphan_directives.py."""
        if self._directives is None:
            self._directives = [(m.start, m.end) for m in self.src.masks if m.reason == "conditional"]
        if not self._directives:
            return text
        i = bisect.bisect_left(self._directives, (node.start_byte, node.start_byte))
        lines = []
        while i < len(self._directives) and self._directives[i][1] <= node.end_byte:
            s, e = self._directives[i]
            if (line := self._gap(s, e)).strip():  # (a directive the port resolved is no longer one)
                lines.append(line)
            i += 1
        if not lines:
            return text
        from .orphan_directives import keep
        return keep(lines, text)

    def original(self, node: Node) -> str:
        return self.src.text_of(node)

    def _touched_incl(self, node: Node) -> bool:
        if not self._starts:
            self._starts = sorted([k[0] for k in (*self.replacements, *self.before)] + [s for s, _ in self.dropped])
        i = bisect.bisect_left(self._starts, node.start_byte)
        return i < len(self._starts) and self._starts[i] < max(node.end_byte, node.start_byte + 1)

    def _gap_pieces(self, start: int, end: int, out: list[Piece]) -> None:
        """`_gap` as pieces: the bytes kept, and an empty piece for each dropped span."""
        pos, data = start, self.src.data
        for s, e in self._dropped_in(start, end):
            out.append((data[pos:s].decode("utf-8"), pos, s, True))
            out.append((self.span_text.get((s, e), ""), s, e, False))
            pos = e
        out.append((data[pos:end].decode("utf-8"), pos, end, True))

    def _pieces(self, node: Node, out: list[Piece]) -> None:
        """`text(node)` as pieces: a replacement is one piece for the node's span (the text a
        replacement computes from its children's is not traced further)."""
        k = key(node)
        start, end = node.start_byte, node.end_byte
        for pre in self.before.get(k, ()):
            out.append((pre, start, start, False))
        if k in self.replacements:
            r = self.replacements[k]
            out.append((self._with_directives(node, r if isinstance(r, str) else r(self, node)), start, end, False))
        elif not self._touched_incl(node):
            out.append((self.src.data[start:end].decode("utf-8"), start, end, True))
        else:
            pos = start
            for c in node.children:
                self._gap_pieces(pos, c.start_byte, out)
                self._pieces(c, out)
                pos = c.end_byte
            self._gap_pieces(pos, end, out)

    def result(self) -> str:
        """The rewritten file; `pieces` keeps where each part of it comes from."""
        root, data = self.src.root, self.src.data
        out: list[Piece] = []
        self._gap_pieces(0, root.start_byte, out)
        self._pieces(root, out)
        self._gap_pieces(root.end_byte, len(data), out)
        self.pieces = [p for p in out if p[0] or p[1] != p[2]]
        return "".join(p[0] for p in out)
