"""A file's own typedef of a <stdint.h> name that the target's runtime header declares otherwise.

g2flip's Flip.h (heldout55) writes `typedef unsigned long long uint64_t;`.  nvcc's cuda_runtime.h brings no
<stdint.h> in, so the original compiles; hip_runtime.h includes <cstdint>, whose `uint64_t` is `unsigned long`
on LP64, and hipcc stops at "typedef redefinition with different types".

Dropping the user's typedef would change the type of every value the file declares with it: same width on
every LP64 target, but a different type to overload resolution, template specialisation, `std::is_same`,
`_Generic`, and to the mangled name of every external function with it in its parameters (a port of one
translation unit would no longer link with the project's others).  So the port keeps the user's type and
moves the name out of the runtime's way instead: `#define uint64_t kp_uint64_t` where the typedef first takes
effect (before the include line of the file that reaches the header, or before the file's own typedef).
From there on every use, the typedef's included, means what it meant under nvcc; what came before (the
runtime's headers) keeps <stdint.h>'s.  Measured with ROCm 5.2's hipcc: the g2flip shape builds for gfx90a
and gfx1030, and `f(unsigned long)` / `f(unsigned long long)` overloads resolve as under nvcc.

Conditions, each checked:
  - the typedef (or `using NAME = ...;`) is at file scope (or in `extern "C" {}`), outside any conditional
    group but an include guard, and names a builtin integer type that differs from the backend's
    (`Backend.runtime_typedefs`): one that agrees is a valid redeclaration and is left alone; a conditional one
    (`#ifdef _MSC_VER`) or one of a type kernelport cannot read is left as written;
  - the file does not write `std::NAME` after that point (the rename would make it `std::kp_NAME`): KP240
    there, saying what to do.
Headers are followed through quoted includes that are not inside a conditional group.
"""
from __future__ import annotations

import re
from pathlib import Path

from . import backends, lazy_re
from .includes import locate
from .source import _Kept

_INTEGER_WORDS = r"(?:unsigned|signed|short|long|int|char)"
_TYPEDEF = lazy_re.compile(rf"\btypedef\s+((?:{_INTEGER_WORDS}\s+)+)([A-Za-z_]\w*)\s*;")
_USING = lazy_re.compile(rf"\busing\s+([A-Za-z_]\w*)\s*=\s*((?:{_INTEGER_WORDS}\s*)+);")
_DIRECTIVE = lazy_re.compile(r"^[ \t]*#[ \t]*(\w+)[ \t]*(.*)$", re.M)
_QUOTED = lazy_re.compile(r"^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\"", re.M)
_EXTERN_C = lazy_re.compile(r"\bextern\s*$")  # `extern "C" {` with its string blanked
_COMMENT_OR_STRING = lazy_re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
_NOT_NEWLINE = lazy_re.compile(r"[^\n]")
_BRACE = lazy_re.compile(r"[{}]")
_DEPTH = 12
PREFIX = "kp_"


def canonical(words: str) -> str | None:
    """`long long unsigned int` -> `unsigned long long`: the integer type a specifier list names (None: not one)."""
    ws = words.split()
    longs, short = ws.count("long"), "short" in ws
    unsigned, signed, char = "unsigned" in ws, "signed" in ws, "char" in ws
    if len(ws) != len(set(ws) - {"long"}) + longs or longs > 2 or (short and (longs or char)) or (unsigned and signed) \
            or (char and (longs or "int" in ws)):
        return None
    base = "char" if char else "short" if short else "long long" if longs == 2 else "long" if longs else "int"
    if char:
        return "unsigned char" if unsigned else "signed char" if signed else "char"
    return ("unsigned " if unsigned else "") + base


def blank_comments(text: str) -> str:
    """`text` with comments, string and character literals blanked (offsets and newlines kept)."""
    return _COMMENT_OR_STRING.sub(lambda m: _NOT_NEWLINE.sub(" ", m.group(0)), text)


def _unconditional(text: str) -> list[tuple[int, int]]:
    """The byte spans of `text` outside every conditional group but an include guard."""
    spans, depth, guard, start = [], 0, None, 0
    lines = list(_DIRECTIVE.finditer(text))
    for k, m in enumerate(lines):
        word, rest = m.group(1), m.group(2).split()
        if word in ("if", "ifdef", "ifndef"):
            nxt = lines[k + 1] if k + 1 < len(lines) else None
            if depth == 0 and guard is None and word == "ifndef" and rest and nxt is not None and \
                    nxt.group(1) == "define" and nxt.group(2).split()[:1] == rest[:1]:
                guard = 1  # an include guard: its body counts as unconditional
                continue
            if depth == 0:
                spans.append((start, m.start()))
            depth += 1
        elif word == "endif":
            if depth == 0 and guard:
                guard = 0
                continue
            depth -= 1
            if depth == 0:
                start = m.end()
    if depth == 0:
        spans.append((start, len(text)))
    return spans


def _file_scope(text: str, offset: int) -> bool:
    """Whether `offset` of the blanked `text` is at file scope (or directly in `extern "C" {}`)."""
    stack = []
    for b in _BRACE.finditer(text, 0, offset):
        if b.group(0) == "{":
            stack.append(bool(_EXTERN_C.search(text[max(0, b.start() - 40):b.start()])))
        elif stack:
            stack.pop()
    return all(stack)


def typedefs(text: str, table: dict[str, str], blank: str | None = None, spans=None) -> list[tuple[int, str, str]]:
    """(offset, name, the user's type) of each unconditional file-scope typedef in `text` of a name in `table`
    whose integer type differs from the table's (`blank`, `spans`: its blank_comments and their _unconditional
    where the caller has them)."""
    if not any(_clashes(m, table) for m in (*_TYPEDEF.finditer(text), *_USING.finditer(text))):
        return []  # (most files: nothing to blank or scope)
    blank = blank if blank is not None else blank_comments(text)
    spans = spans if spans is not None else _unconditional(blank)
    out = []
    for m in (*_TYPEDEF.finditer(blank), *_USING.finditer(blank)):
        found = _clashes(m, table)
        if found and any(s <= m.start() < e for s, e in spans) and _file_scope(blank, m.start()):
            out.append((m.start(), *found))
    return sorted(out)


def _clashes(m, table: dict[str, str]) -> tuple[str, str] | None:
    """(name, the user's type) where the typedef or alias `m` gives a name of `table` another integer type."""
    words, name = (m.group(1), m.group(2)) if m.group(0).startswith("typedef") else (m.group(2), m.group(1))
    mine = canonical(words) if name in table else None
    return (name, mine) if mine is not None and mine != table[name] else None


def _reached(path: Path | None, table, include_dirs, seen: set, depth: int = 0):
    """(header, line, name, type) of each clashing typedef `path` holds or reaches through unconditional quoted includes."""
    if path is None or path in seen or depth > _DEPTH:
        return
    seen.add(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    found, quoted = _header_facts(text, table)
    for line, name, mine in found:
        yield path, line, name, mine
    for inner in quoted:
        yield from _reached(locate(path.parent, f'"{inner}"', include_dirs), table, include_dirs, seen, depth + 1)


_FACTS = _Kept(8 << 20)  # (a header's text, the table) -> _header_facts's answer (a pure function of both)


def _header_facts(text: str, table: dict[str, str]) -> tuple[tuple, tuple]:
    """A header's clashing typedefs, as (line, name, the user's type), and its unconditional quoted includes'
    names, in order: read once per text and table for the process (each translation of a run follows the same
    headers through their quoted includes; the answer depends on nothing but these two)."""
    key = (text, tuple(table.items()))
    got = _FACTS.get(key)
    if got is None:
        blank = blank_comments(text)
        spans = _unconditional(blank)
        got = _FACTS.put(key, (
            tuple((text.count("\n", 0, offset) + 1, name, mine) for offset, name, mine in typedefs(text, table, blank, spans)),
            tuple(m.group(1) for m in _QUOTED.finditer(text) if any(s <= m.start() < e for s, e in spans))), len(text))
    return got


def rename_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    backend = backends.get(tr.backend)
    table = backend.runtime_typedefs
    if not table:
        return
    found: dict[str, tuple[int, object, str]] = {}  # name -> (offset of its first effect, node to insert before, why)
    root = tr.src.tree.root_node
    for offset, name, mine in typedefs(tr.src.text, table):
        node = root.descendant_for_byte_range(offset, offset)
        while node.parent is not None and node.parent.type not in ("translation_unit", "declaration_list",
                                                                      "preproc_ifdef", "preproc_if"):
            node = node.parent
        found.setdefault(name, (offset, node, f"line {tr.src.text.count(chr(10), 0, offset) + 1}'s `typedef {mine} {name};`"))
    if tr.src.path != "<string>":
        dirs = tuple(tr.options.get("include_dirs", ()))
        seen: set = set()
        for n in tr.src.index.of_type("preproc_include"):
            path = n.child_by_field_name("path")
            raw = tr.src.text_of(path) if path is not None else ""
            if not raw.startswith('"'):
                continue
            for header, line, name, mine in _reached(locate(Path(tr.src.path).parent, raw, dirs), table, dirs, seen):
                if name not in found or found[name][0] > n.start_byte:
                    found[name] = (n.start_byte, n, f"{header.name}:{line}'s `typedef {mine} {name};`")
    for name, (offset, node, what) in sorted(found.items(), key=lambda kv: kv[1][0]):
        _rename(tr, backend, name, table[name], offset, node, what)


def _rename(tr, backend, name: str, theirs: str, offset: int, node, what: str) -> None:
    qualified = lazy_re.compile(rf"\bstd\s*::\s*{name}\b")
    blank = blank_comments(tr.src.text)
    for m in qualified.finditer(blank, offset):
        at = tr.src.tree.root_node.descendant_for_byte_range(m.start(), m.start())
        tr.problem("KP240", at, f"`std::{name}` after {what}: the port renames the file's own `{name}` out of the way of "
                   f"{backend.display_name}'s <stdint.h> (`{theirs}`), so `std::{name}` would name nothing",
                   f"write `{name}` (the file's own type) here, or `#include <cstdint>` in place of the file's typedef")
        return
    new = PREFIX + name
    tr.rw.insert_before(node, f"#define {name} {new}  // {what}: {backend.display_name}'s <stdint.h> has "
                              f"`{theirs}` (kernelport)\n")
    tr.note(node, f"#define {name} {new}", f"{what} keeps its type; {backend.display_name}'s runtime header already "
                                           f"declares `{name}` as `{theirs}`")
