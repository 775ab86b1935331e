"""The source layer: CUDA C++ text parsed losslessly with tree-sitter.

Every byte, comment and position is kept, so rewrites are edits on spans of the user's text
and diagnostics point at exact lines and columns.  pycparser (C99) is used only where code is
executed (the emulator), after lowering; this layer is what translate and lint stand on.
"""
from __future__ import annotations

import bisect
import copy
import operator
import os
import re
import stat as _stat
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Mapping

import tree_sitter_cuda
from tree_sitter import Language, Node, Parser

from . import asm_operand_commas, depth as _depth, directive_tokens, launch_macros, lazy_re, line_splices, macro_signatures
from .errors import KernelportError, Location

if TYPE_CHECKING:
    from .macros import Mask, MacroDef


# CUDA extensions the grammar does not know, blanked (same length) in the parsed copy; the user's bytes keep them.
_EXTENSIONS = lazy_re.compile(rb"(?:__builtin_align__|__align__)\s*\(\s*\w+\s*\)|__declspec\s*\(\s*\w+(?:\s*\(\s*\w+\s*\))?\s*\)")


# A braced initializer in a launch configuration (`k<<<g, {32, 4, 1}, 0, s>>>`, a dim3 from C++11
# list-initialisation) is not an expression to the grammar: its braces are seen as parentheses.
_LAUNCH = lazy_re.compile(rb"<<<([^;<>]*?\{[^;<>]*?)>>>")


# A comment inside text the grammar keeps whole (a macro's value: tree-sitter's preproc_arg runs to
# the end of the line, `// note` included); string and character literals are skipped, not cut.
_COMMENT_OR_LITERAL = lazy_re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', re.S)


def uncomment(text: str) -> str:
    """`text` with its C comments replaced by a space, as the preprocessor does before it reads a
    directive (`#define WARP_SIZE 32  // lanes` defines WARP_SIZE as `32`)."""
    if "/" not in text:
        return text
    return _COMMENT_OR_LITERAL.sub(lambda m: " " if m.group(0)[0] == "/" else m.group(0), text)


# Blanks at the end of a directive line (`#define CUDA_CHECK() ` with an empty body, olcf's training
# code): the grammar's preproc_arg then runs on past the newline and swallows the next line (an
# `#endif`, and with it the rest of the file).  In the parsed copy they move past the newline, to
# the start of the next line: lengths and line numbers stay as the user's.
_DIRECTIVE_TAIL = lazy_re.compile(rb"^([ \t]*#[^\n]*?[^\s\\])([ \t]+)(\r?\n)", re.M)


# A block comment inside a continued directive (`#define SMIX(x) { \` ... `/* */ \`, ccminer's
# hash macros): the grammar's preproc_arg stops at the comment and the `\` after it is no longer a
# continuation, so the rest of the macro body is read as code.  The preprocessor removes comments
# before it reads a directive; the parsed copy blanks them (newlines kept).
_CONTINUED_DIRECTIVE = lazy_re.compile(rb"^[ \t]*#(?:[^\n]*\\\r?\n)+[^\n]*", re.M)
_BLOCK_COMMENT = lazy_re.compile(rb"/\*.*?\*/", re.S)

# A `#pragma` that stands as the body of an unbraced `for`/`while`/`if`/`else`/`do` (`for (j...)`
# then `#pragma unroll` then the inner `for`): the grammar takes no directive as a statement's body.
# The pragma only hints the compiler; no analysis reads it, so the parsed copy blanks it.
_PRAGMA_AS_BODY = lazy_re.compile(rb"^((?![ \t]*#)[^\n]*(?:\)|\belse|\bdo)[ \t]*(?://[^\n]*)?\r?\n(?:[ \t]*\r?\n)*)"
                                  rb"([ \t]*#[ \t]*pragma\b[^\n]*)", re.M)


# A line continuation with blanks after its backslash (`processed_dims_d,\ ` then the newline, in
# a macro of MGARD's): GCC and nvcc splice the lines all the same (with a warning), the grammar
# ends the directive there and reads the rest of the macro as code.  The parsed copy moves the
# blanks before the backslash.
_SPACED_CONTINUATION = lazy_re.compile(rb"\\([ \t]+)(?=\r?\n)")


# `typename` that begins an expression, a functional cast to a dependent type (`return typename
# wrap<T>::type(it);`, nvbio's vector.h; `V{d, typename V::m{typename V::e{r, c}}}`): C++ allows it, the grammar
# reads it only where a type is declared.  The parsed copy blanks it there (after `return`, an operator starting an
# operand, or a braced list's `{` after a type, `]` or `{`, before a qualified name and its `(`/`{`); in a template's
# parameter list or a declaration (`, typename T>`, `typename A<T>::type (*fp)(int)`) it is not followed that way.
_TYPENAME_CAST = lazy_re.compile(rb"(?:\breturn\s+|[=(,?:]\s*|(?<=[\w>\]{])\s*\{\s*)(typename)(?=\s+[\w\s:<>,*&]{0,200}?::"
                                 rb"\s*~?\w+\s*(?:\((?!\s*[*&])|\{))")


def _blank_comments(m: re.Match) -> bytes:
    return _BLOCK_COMMENT.sub(lambda c: re.sub(rb"[^\n]", b" ", c.group(0)), m.group(0))


def _mask_extensions(data: bytes) -> bytes:
    data = asm_operand_commas.seen(_EXTENSIONS.sub(lambda m: b" " * len(m.group(0)), data))  # `"r"(b) "r"(c)`
    if b"typename" in data:
        data = _TYPENAME_CAST.sub(lambda m: m.group(0)[:m.start(1) - m.start(0)] + b" " * 8, data)
    if b"#" in data:
        data = directive_tokens.seen(data)  # `#if A or B`: seen as `#if A || B`
        if b"\\ " in data or b"\\\t" in data:
            data = _SPACED_CONTINUATION.sub(lambda m: m.group(1) + b"\\", data)
        data = _DIRECTIVE_TAIL.sub(lambda m: m.group(1) + m.group(3) + m.group(2), data)
        if b"/*" in data:
            data = _CONTINUED_DIRECTIVE.sub(_blank_comments, data)
        if b"pragma" in data:
            data = _PRAGMA_AS_BODY.sub(lambda m: m.group(1) + b" " * len(m.group(2)), data)
    if b"<<<" in data:
        data = _LAUNCH.sub(lambda m: b"<<<" + m.group(1).replace(b"{", b"(").replace(b"}", b")") + b">>>", data)
    return data


# Comments and literals of the raw bytes, in order (a literal is skipped whole, so `"//"` is no comment).
_RAW_COMMENT_OR_LITERAL = lazy_re.compile(rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?(?:\*/|\Z)', re.S)


def _why(e: Exception) -> str:
    return getattr(e, "strerror", None) or str(e)


def decode(raw: bytes) -> str:
    """A source file's text: UTF-8, where a comment may hold bytes that are not (a Latin-1 `ü` in
    a German comment, as in ccminer's headers; nvcc reads no comment): those comments are read as
    Latin-1 (a port writes them in UTF-8).  A byte that is not UTF-8 in code or in a literal, whose
    meaning a transcoding would change, raises UnicodeDecodeError at its offset, as a plain decode does."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out, pos = [], 0
    for m in [*_RAW_COMMENT_OR_LITERAL.finditer(raw), None]:
        a, b = (m.start(), m.end()) if m is not None else (len(raw), len(raw))
        for lo, hi, latin in ((pos, a, False), (a, b, raw[a:a + 1] == b"/")):
            try:
                out.append(raw[lo:hi].decode("utf-8"))
            except UnicodeDecodeError as e:
                if not latin:
                    raise UnicodeDecodeError("utf-8", raw, lo + e.start, lo + e.end, e.reason) from None
                out.append(raw[lo:hi].decode("latin-1"))
        pos = b
    return "".join(out)


@lru_cache(maxsize=1)
@lru_cache(maxsize=1)
def _toolkit_definitions() -> "dict[str, MacroDef]":
    """The source dialect's header macros the repair may expand (`Backend.toolkit_definitions`)."""
    from . import backends
    from .macros import MacroDef
    return {n: MacroDef(n, None, body, "<toolkit>", 0) for n, body in backends.source().toolkit_definitions.items()}


def _parser() -> Parser:
    return Parser(Language(tree_sitter_cuda.language()))


@lru_cache(maxsize=None)
def field_ids(*names: str) -> tuple[int, ...]:
    """The grammar's ids of these field names, for Node.child_by_field_id in hot loops."""
    language = _parser().language
    return tuple(language.field_id_for_name(n) for n in names)


class _Kept:
    """Least recently used entries up to a total size (the texts' characters): a process that reads a
    large tree keeps the parses of its last ~`limit` characters, not all of them."""

    def __init__(self, limit: int) -> None:
        self.limit, self.size, self.entries = limit, 0, {}

    def get(self, key):
        got = self.entries.pop(key, None)
        if got is not None:
            self.entries[key] = got  # most recently used last
            return got[0]
        return None

    def put(self, key, value, size: int):
        self.entries[key] = (value, size)
        self.size += size
        while self.size > self.limit and len(self.entries) > 1:
            old = next(iter(self.entries))
            self.size -= self.entries.pop(old)[1]
        return value

    def clear(self) -> None:
        self.entries.clear()
        self.size = 0


_PARSES = _Kept(2 << 20)  # ~60k lines of source (a parse, its index and models: ~170 bytes a character)


@dataclass
class SourceFile:
    """A file's text and its tree-sitter parse.  `masks`: what the grammar saw as blanks so that macros do not
    stop the parse (kernelport/macro_repair.py); the text is the user's, and every offset of the tree is into it."""
    path: str
    text: str
    data: bytes = field(repr=False)
    tree: object = field(repr=False)
    _line_starts: list[int] = field(default_factory=list, repr=False)
    masks: "tuple[Mask, ...]" = field(default=(), repr=False)
    included_macros: "Mapping[str, MacroDef]" = field(default_factory=dict, repr=False)  # as passed in

    @classmethod
    def from_text(cls, text: str, path: str = "<string>",
                  macros: "Mapping[str, MacroDef] | None" = None) -> "SourceFile":
        """Parse `text`; `macros`: those visible from the file's includes (its own are added).

        Parses are kept by content for the process (`_PARSES`): the same text under the same path
        with the same macros is the same parse, so a header read again by the project of each file
        that includes it (translate and verify make one project per file), a port that comes out
        the same from several projects and what was computed from the parse (its node index, its
        include-free model and analyses, kept on it) are made once.  The parse is shared read-only,
        as the file's parse already is by every analysis of one run."""
        key = (path, text, tuple(macros.items()) if macros else ())
        got = _PARSES.get(key)
        if got is None:
            got = _PARSES.put(key, cls._parse(text, path, macros), len(text))
        return got

    @classmethod
    def _parse(cls, text: str, path: str, macros: "Mapping[str, MacroDef] | None") -> "SourceFile":
        data = text.encode("utf-8")
        seen = line_splices.blank(_mask_extensions(data), _CONTINUED_DIRECTIVE)  # (a splice in code)
        parse = _parser().parse
        seen, tree, masks = launch_macros.seen(data, seen, parse(seen), macros, path, parse)  # `k KERNEL_ARGS2(g, b)(a)`
        seen, tree, more = macro_signatures.unlink(text, path, data, seen, tree, macros, parse)  # `extern "C" SIG(f) {`
        visible = None  # (a file nested past the bound is refused for that, so no repair is tried on it:)
        if tree.root_node.has_error and _depth.too_deep(tree) is None:
            from . import macro_repair, macros as mac, own_constants  # only where a macro may stand in the way
            visible = {**(macros or {}), **mac.definitions(text, path)}
            # (a macro the file undefines after its uses still stands in the way at those uses)
            own = own_constants.merged({**_toolkit_definitions(), **(macros or {})}, mac.definitions(text, path, undefined=True), data)
            seen, tree, repaired = macro_repair.repair(data, seen, tree, own, parse)
            more = (*more, *repaired)
        starts, find, i = [0], data.find, data.find(b"\n")
        while i >= 0:  # a find per line, not a Python step per byte
            starts.append(i + 1)
            i = find(b"\n", i + 1)
        masks = tuple(sorted((*masks, *more), key=operator.attrgetter("start")))
        src = cls(path, text, data, tree, starts, masks, dict(macros or {}))
        if visible is not None:
            src.__dict__["macros"] = visible  # already merged for the repair
        return src

    @classmethod
    def read(cls, path: str | Path, macros: "Mapping[str, MacroDef] | None" = None) -> "SourceFile":
        p = Path(path)
        try:
            st = os.stat(p)
        except (OSError, ValueError) as e:  # absent, a dangling link or a loop of links, a name too long
            why = "no such file" if isinstance(e, FileNotFoundError) else f"cannot read it ({_why(e)})"
            raise KernelportError(f"{why}: {p}" if why == "no such file" else f"{p}: {why}",
                                  hint="check the path") from None
        if _stat.S_ISDIR(st.st_mode):
            raise KernelportError(f"{p} is a directory", hint="name a kernel file")
        if not _stat.S_ISREG(st.st_mode):  # a device (/dev/zero never ends), a FIFO (blocks), a socket
            raise KernelportError(f"{p} is not a regular file (a device, FIFO or socket): not read",
                                  hint="name a kernel file")
        try:
            raw = p.read_bytes()
        except OSError as e:
            raise KernelportError(f"{p}: cannot read it ({_why(e)})", hint="check its permissions") from None
        # a UTF-8 byte order mark (Windows editors: DualSPHysics' headers) is no part of the program:
        # kept, it would stand after the port's first lines, where clang rejects it (U+FEFF)
        raw = raw.removeprefix(b"\xef\xbb\xbf")
        try:
            text = decode(raw)
        except UnicodeDecodeError as e:
            line = raw.count(b"\n", 0, e.start) + 1
            col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
            raise KernelportError(
                f"not valid UTF-8 (byte 0x{raw[e.start]:02x})", Location(str(p), line, col),
                hint="save the file as UTF-8") from None
        return cls.from_text(text, str(p), macros)

    def named(self, path: str) -> "SourceFile":
        """This parse shown under another path (a display name): the tree and what was computed
        from it (index, macros, nesting) are shared, never parsed again."""
        if path == self.path:
            return self
        twin = copy.copy(self)
        twin.path = path
        return twin

    @property
    def root(self) -> Node:
        return self.tree.root_node

    @cached_property
    def index(self) -> "NodeIndex":
        """Every node in source (pre-)order, built once: analyses share it instead of re-walking."""
        return NodeIndex(self.root)

    # -- positions ---------------------------------------------------------------------------
    def location(self, byte_offset: int) -> Location:
        i = bisect.bisect_right(self._line_starts, byte_offset) - 1
        start = self._line_starts[i]
        col = len(self.data[start:byte_offset].decode("utf-8", errors="replace")) + 1
        return Location(self.path, i + 1, col)

    def loc(self, node: Node) -> Location:
        return self.location(node.start_byte)

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self._line_starts[line] - 1 if line < len(self._line_starts) else len(self.data)
        return self.data[start:end].decode("utf-8", errors="replace")

    def text_of(self, node: Node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8")

    def texts_under(self, node: Node, type_: str) -> list[str]:
        """`text_of` of each of `index.under(node, type_)`, in the same order: each node of the type
        decoded once per parse, where the analyses and rules each decoded every identifier of each
        function again."""
        lo, hi = self.index.bounds(node, type_)
        return self._texts(type_)[0][lo:hi]

    def named_under(self, node: Node, type_: str, names) -> list[Node]:
        """The nodes of `index.under(node, type_)` whose text is one of `names`, in source order:
        a bisect per name instead of a look at every node."""
        lo, hi = self.index.bounds(node, type_)
        by_text = self._texts(type_)[1]
        found: list[int] = []
        for name in names:
            at = by_text.get(name)
            if at is not None:
                found += at[bisect.bisect_left(at, lo):bisect.bisect_left(at, hi)]
        nodes = self.index.of_type(type_)
        return [nodes[k] for k in sorted(found)]

    def positions_where(self, type_: str, keep) -> list[int]:
        """The pre-order positions (NodeIndex) of the nodes of this type whose text `keep` accepts,
        each distinct text asked once."""
        ps = self.index.positions(type_)
        return [ps[k] for text, at in self._texts(type_)[1].items() if keep(text) for k in at]

    def _texts(self, type_: str) -> tuple[list[str], dict[str, list[int]]]:
        """The texts of every node of the type (aligned with `index.of_type`), and where each text is."""
        cache = self.__dict__.setdefault("_kp_texts", {})
        got = cache.get(type_)
        if got is None:
            data = self.data
            texts = [data[n.start_byte:n.end_byte].decode("utf-8") for n in self.index.of_type(type_)]
            by_text: dict[str, list[int]] = {}
            for k, t in enumerate(texts):
                at = by_text.get(t)
                if at is None:
                    by_text[t] = [k]
                else:
                    at.append(k)
            got = cache[type_] = (texts, by_text)
        return got

    @cached_property
    def macros(self) -> "Mapping[str, MacroDef]":
        """The macros visible here: those passed in (from the includes), then the file's own."""
        from .macros import definitions
        return {**self.included_macros, **definitions(self.text, self.path)}

    def macro_words(self, start: int, end: int) -> list[str]:
        """The words that the macros masked in [start, end) expand to, where their definitions are
        known (`HD` defined as `__host__ __device__`): the qualifiers the grammar did not see."""
        out: list[str] = []
        i = bisect.bisect_left(self.masks, start, key=lambda m: m.start)  # masks are in source order
        while i < len(self.masks) and self.masks[i].end <= end:
            if self.masks[i].expansion:
                out.extend(re.findall(r"[A-Za-z_]\w*", self.masks[i].expansion or ""))
            i += 1
        return out

    # -- syntax errors ---------------------------------------------------------------------
    def syntax_errors(self, dead_ok: bool = False) -> list[tuple[Location, str]]:
        """The parse's errors; with `dead_ok`, less those in a branch no compile of this run reaches
        (`#ifdef DEBUG_X` where nothing visible defines DEBUG_X: `dead_syntax_errors`)."""
        dead = {(n.start_byte, n.end_byte, n.type) for n, _ in self._dead_errors()} if dead_ok else set()
        out = []
        for n in walk(self.root, lambda n: n.has_error):
            if (n.start_byte, n.end_byte, n.type) in dead:
                continue
            if n.is_missing:
                out.append((self.loc(n), f"expected '{n.type}'"))
            elif n.type == "ERROR":
                snippet = self.text_of(n).strip().splitlines()[0][:40] if self.text_of(n).strip() else ""
                out.append((self.loc(n), f"cannot parse '{snippet}'"))
        return out

    def _dead_errors(self) -> list[tuple[Node, str]]:
        """The error nodes in a branch this run does not compile, with the macro its test names."""
        got = self.__dict__.get("_kp_dead_errors")
        if got is None:
            from .includewalk import ruled_out
            got, defined = [], set(self.macros) if self.root.has_error else set()
            for n in walk(self.root, lambda n: n.has_error):
                if (n.is_missing or n.type == "ERROR") and (name := ruled_out(self, n, defined)) is not None:
                    got.append((n, name))
            self.__dict__["_kp_dead_errors"] = got
        return got

    def dead_branch_warnings(self) -> list:
        """KP230 where a port keeps text that does not parse: the first error of each branch no
        compile of the run reaches (`check_syntax(dead_ok=True)` let it through)."""
        from .diagnostics import Diagnostic
        out, seen = [], set()
        for n, name in self._dead_errors():
            if name not in seen:
                seen.add(name)
                out.append(Diagnostic(
                    "KP230", self.loc(n), f"code under a test of '{name}' does not parse; no build of this run "
                    f"compiles it (nothing defines {name}), so it is left as written",
                    f"fix it before a build that defines {name}", "warning"))
        return out

    def nesting_error(self) -> KernelportError | None:
        """A located error when the tree nests deeper than the analyses follow (kernelport/depth.py)."""
        from . import depth
        hit = self.__dict__.get("_too_deep", False)
        if hit is False:  # one walk per parse: the project and the lint context both ask
            hit = self.__dict__["_too_deep"] = self.index.deep  # measured by the index's walk
        if hit is None:
            return None
        return KernelportError(depth.message(hit[0]), self.loc(hit[1]), hint=depth.HINT)

    def check_syntax(self, dead_ok: bool = False) -> None:
        """A located error at the first syntax error (`dead_ok`: not one in a branch the run does not
        compile, which translate keeps as written with a KP230 warning)."""
        deep = self.nesting_error()
        if deep is not None:
            raise deep
        errs = self.syntax_errors(dead_ok)
        if errs:
            loc, msg = errs[0]
            raise KernelportError(f"syntax error: {msg}", loc,
                                  hint="fix the code so that nvcc accepts it; kernelport reads CUDA C++")


def walk(node: Node, descend=None) -> Iterator[Node]:
    """Pre-order walk; `descend(n)` decides whether to enter n's children (default: always).

    A tree cursor: several times faster than materialising `children` lists on every node.
    """
    cur = node.walk()
    depth = 0
    while True:
        n = cur.node
        yield n
        if (descend is None or descend(n)) and cur.goto_first_child():
            depth += 1
            continue
        while True:
            if depth == 0:
                return
            if cur.goto_next_sibling():
                break
            cur.goto_parent()
            depth -= 1


_START_BYTE = operator.attrgetter("start_byte")


class NodeIndex:
    """The nodes of one tree in pre-order, by type, with each subtree a contiguous slice.

    One cursor walk creates every Node object once; `subtree(n)` and `under(n, type)` then cost a
    slice or a bisect, where a fresh walk would visit (and allocate) every node again.
    """

    def __init__(self, root: Node):
        self.order: list[Node] = []
        append, kinds = self.order.append, {}
        # One cursor pass: pre-order, the positions of each kind, and the nesting depth that
        # depth.too_deep measures (the same walk; a second one cost a tenth of a lint).  Positions
        # are gathered by the grammar's symbol (an int, where `type` builds a new string per node:
        # ~25% of the walk), then by type name below (several symbols share one: `call_expression`).
        cur = root.walk()
        i = d = deepest = 0
        first, limit = None, _depth.MAX_DEPTH
        while True:
            n = cur.node
            append(n)
            t = kinds.get(n.kind_id)
            if t is None:
                kinds[n.kind_id] = [i]
            else:
                t.append(i)
            i += 1
            if cur.goto_first_child():
                d += 1
                if d > deepest:  # (a new deepest level is only ever reached going down)
                    deepest = d
                    if d > limit and first is None:
                        first = cur.node
                continue
            while d and not cur.goto_next_sibling():
                cur.goto_parent()
                d -= 1
            if not d:
                break
        self.deep: tuple[int, Node] | None = (deepest, first) if first is not None else None  # as depth.too_deep
        self._types: dict[str, list[int]] = {}
        order = self.order
        for ps in kinds.values():
            name = order[ps[0]].type  # the kind's name: the type of any of its nodes
            have = self._types.get(name)
            if have is None:
                self._types[name] = ps
            else:  # two sorted runs: a merge
                have += ps
                have.sort()
        self._typed: dict[str, list[Node]] = {}
        self._starts: list[int] | None = None
        self._pos_map: dict[int, int] | None = None

    def position(self, node: Node) -> int:
        """node's pre-order position: a bisect on the start bytes (pre-order never goes back in the
        text), then past those starting there before it (its ancestors).  A dict of every node's id
        cost a quarter of the index's walk, for the few nodes that subtree queries ask about."""
        starts = self._starts
        if starts is None:  # only subtree queries need it
            starts = self._starts = list(map(_START_BYTE, self.order))
        s, want, order = node.start_byte, node.id, self.order
        k = bisect.bisect_left(starts, s)
        end = len(order)
        while k < end and starts[k] == s:
            if order[k].id == want:
                return k
            k += 1
        if self._pos_map is None:  # not in this tree where its start says (never seen): as the dict did
            self._pos_map = {n.id: i for i, n in enumerate(order)}
        return self._pos_map[want]

    def span(self, node: Node) -> tuple[int, int]:
        """The slice of `order` that holds node's subtree (node first)."""
        i = self.position(node)
        return i, i + node.descendant_count

    def subtree(self, node: Node) -> list[Node]:
        """What `walk(node)` yields, in the same order."""
        i, j = self.span(node)
        return self.order[i:j]

    def of_types(self, *types: str) -> list[Node]:
        """The nodes of any of these types, in source (pre-)order."""
        return self.at(self.positions(*types))

    def positions(self, *types: str) -> list[int]:
        """The pre-order positions of the nodes of these types (type by type, each in source order)."""
        return [k for t in types for k in self._types.get(t, ())]

    def at(self, positions: list[int]) -> list[Node]:
        """The nodes at these pre-order positions, in source order."""
        order = self.order
        return [order[k] for k in sorted(positions)]

    def of_type(self, type_: str) -> list[Node]:
        out = self._typed.get(type_)
        if out is None:
            out = self._typed[type_] = [self.order[i] for i in self._types.get(type_, ())]
        return out

    def under(self, node: Node, type_: str) -> list[Node]:
        """The nodes of this type in node's subtree (node included), in source order."""
        lo, hi = self.bounds(node, type_)
        return self.of_type(type_)[lo:hi]

    def bounds(self, node: Node, type_: str) -> tuple[int, int]:
        """`under(node, type_)` as a slice of `of_type(type_)`."""
        i, j = self.span(node)
        ps = self._types.get(type_, [])
        return bisect.bisect_left(ps, i), bisect.bisect_left(ps, j)

    def under_types(self, node: Node, *types: str) -> list[Node]:
        """The nodes of any of these types in node's subtree, in source (pre-)order: what filtering
        `subtree(node)` by type gives, without visiting the others."""
        i, j = self.span(node)
        found = []
        for t in types:
            ps = self._types.get(t, [])
            found += ps[bisect.bisect_left(ps, i):bisect.bisect_left(ps, j)]
        return [self.order[k] for k in sorted(found)]

    def any_under(self, node: Node, positions: list[int]) -> bool:
        """Whether one of these sorted pre-order positions lies in node's subtree."""
        i, j = self.span(node)
        k = bisect.bisect_left(positions, i)
        return k < len(positions) and positions[k] < j



def call_args(call: Node) -> list[Node]:
    """The argument expressions of a call (comments between arguments are not arguments)."""
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def ident_name(node: Node | None) -> str | None:
    """The innermost identifier of a declarator (pointer/array/init/reference declarators)."""
    while node is not None:
        if node.type in ("identifier", "field_identifier"):
            return node.text.decode()
        if node.type == "reference_declarator":  # `int& l`: the declarator is an unnamed child
            node = node.named_children[-1] if node.named_children else None
            continue
        node = node.child_by_field_name("declarator")
    return None


def parameter_name(node: Node) -> bool:
    """Whether `node` is the name a parameter declares (`void f(const int warpSize);`, a prototype's
    too): the user's own name, not a use of the built-in it spells."""
    n, p = node, node.parent
    while p is not None and p.type in ("pointer_declarator", "reference_declarator", "array_declarator") and \
            p.child_by_field_name("declarator") == n:
        n, p = p, p.parent
    if p is not None and p.type == "reference_declarator" and n.type == "identifier":  # (its name is unnamed)
        n, p = p, p.parent
    return p is not None and p.type in ("parameter_declaration", "optional_parameter_declaration") and \
        p.child_by_field_name("declarator") == n
