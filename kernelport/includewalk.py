"""The include walk of the project model (kernelport.project): a translation unit's files in
include order, with the macros they define and undefine as the preprocessor would.

Each local include is resolved once per run (the include policy of kernelport/includes.py), and
each file's walk on its own is made once per run and spliced into every unit that reaches it
where it goes the same way there (none of its files reached yet, the names its conditionals test
defined alike, no include cut by the depth bound): a chain or a common header included by every
source costs each file once, not once per includer.  Simple conditionals (`#ifdef X`, `#ifndef X`,
`#if [!]defined(X)`) are evaluated where X is known; any other condition keeps both branches.
"""
from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from tree_sitter import Node

from . import include_search, includes
from .depth import on_big_stack
from .errors import Location
from .macros import CUDA_COMPILE  # the walk takes `#ifdef __CUDACC__` (CudaTracerLib's `#define CUDA_HOST __host__`)
from .model import Macro
from .source import SourceFile, uncomment
from . import lazy_re

_DEFINED = lazy_re.compile(r"^(!?)\s*defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?$")


def _defined(opts) -> set[str]:
    """The names defined when a walk begins: the run's -D, and __CUDACC__ where the walk is a CUDA compile's."""
    return {n for n, _ in opts.defines} | (CUDA_COMPILE if opts.cuda_compile else set())


@dataclass
class Include:
    """One `#include` of a file, and the header it resolves to."""
    node: Node  # the preproc_include
    name: str  # as written, without the quotes or angle brackets
    angled: bool
    resolved: Path | None  # None: not found on the include path (a system header, or missing)
    location: Location


@dataclass
class Scan:
    """What one pass over a translation unit found: active macros per file, includes, order."""
    order: list[Path] = field(default_factory=list)  # every file reached, first reached first
    macros: dict[str, tuple[Macro, Path]] = field(default_factory=dict)
    includes: dict[Path, list[Include]] = field(default_factory=dict)  # active includes per file
    local: dict[Path, dict[str, Macro]] = field(default_factory=dict)  # each file's active definitions
    types: dict[str, Node] = field(default_factory=dict)  # typedef/using name -> its active definition's type
    functions: dict[Path, list[Node]] = field(default_factory=dict)  # each file's active function-like #defines
    too_deep: list[Include] = field(default_factory=list)  # includes past includes.MAX_INCLUDE_DEPTH: not followed
    # The file that includes this unit's root partway through it and that include (kernelport.includers):
    # the includer's text before it was walked first, as the compiler sees it; its files are context, not headers.
    includer: "tuple[Path, Include] | None" = None
    context: list[Path] = field(default_factory=list)
    # What splicing this walk into another unit's needs (Project._walk): the names its files define or
    # undefine, whether each name its conditionals test before that was defined on entry, and the
    # deepest level at which it follows an include (its first file at level 0).
    touched: set[str] = field(default_factory=set)
    entry: dict[str, bool] = field(default_factory=dict)
    deepest: int = -1
    # Per file, the lines (first, last; 0-based) of the branches it skips because a name the run or the
    # files so far define decides their test (`#elif defined(FW_OPENCL)` after `#ifdef CUDA` under -DCUDA):
    # a #define there is no definition this unit sees (Project.macro_defs).
    decided_out: dict[Path, list[tuple[int, int]]] = field(default_factory=dict)

    def files(self) -> frozenset[Path]:
        """The files reached, as a set (once: asked for every model of the unit)."""
        got = self.__dict__.get("_files")
        if got is None or len(got) != len(self.order):
            got = self.__dict__["_files"] = frozenset(self.order)
        return got


class IncludeWalk:
    """Project's include walk: `scan(path)` (needs `_real`, `file`, `options` and the caches below)."""
    _scans: dict
    _subs: dict
    _resolved: dict
    _nest: int
    search_dirs: list[Path] | None = None  # a run's input dirs: a header no -I reaches is searched for (None: never)
    tree_index: include_search.TreeIndex
    searched: dict  # (includer, name) -> include_search.Found

    def resolve(self, including: Path, name: str, angled: bool, opts: Options) -> Path | None:
        """The header an include names, through the include policy (kernelport/includes.py): never an
        absolute name, a device or an oversized file; beside the includer only inside its git work tree
        or $KERNELPORT_INCLUDE_PATH (outside any work tree: anywhere); through -I wherever the user
        pointed."""
        key = (including, name, angled, opts.include_dirs)  # a header of a chain is reached from every includer
        if key not in self._resolved:
            self._resolved[key] = self._resolve(including, name, angled, opts)
        return self._resolved[key]

    def _resolve(self, including: Path, name: str, angled: bool, opts: Options) -> Path | None:
        if os.path.isabs(name):
            return None
        dirs = [(Path(d), True) for d in opts.include_dirs]
        if not angled:
            dirs.insert(0, (including.parent, False))
        for d, given in dirs:
            p = d / name
            if not includes.is_regular(p) or p.stat().st_size > includes.MAX_HEADER_BYTES:  # never raises
                continue
            real = self._real(p)
            if given or includes.within_project(including, real):
                return real
        if self.search_dirs is not None and include_search.searchable(name, angled):
            root = include_search.tree_root(including, self.search_dirs, Path.cwd())
            found = self.tree_index.search(including, name, root) if root is not None else None
            if found is not None:
                self.searched[(including, name)] = found
                return found.header
        return None

    # -- one translation unit -----------------------------------------------------------------
    def scan(self, path: Path, opts: Options | None = None) -> Scan:
        """Walk the translation unit rooted at `path`: includes in order, each file once (include
        guards and `#pragma once` alike), macros defined and undefined as the preprocessor would."""
        root = self._real(path)
        opts = opts if opts is not None else self.options(root)
        key = (root, opts)
        if key in self._scans:
            return self._scans[key]
        self._scans[key] = on_big_stack(self._scan, root, opts)  # the walk nests a few frames per level
        return self._scans[key]

    def _scan(self, root: Path, opts: Options) -> Scan:
        sc = Scan()
        defined = _defined(opts)
        for f in opts.forced_includes:
            self._walk(self._real(Path(f)), opts, sc, defined)
        got = self.includer(root, opts)  # type: ignore[attr-defined]
        if got is not None and got[0] not in sc.includes:  # its text up to the include: what the root sees there
            sc.includer, before = got, len(sc.order)
            self._walk_here(got[0], self.options(got[0]), sc, defined, 0, stop=got[1].node.start_byte)  # type: ignore[attr-defined]
            sc.context = sc.order[before:]
        self._walk(root, opts, sc, defined)
        return sc

    def _walk(self, path: Path, opts: Options, sc: Scan, defined: set[str], depth: int = 0) -> None:
        """Walk `path` into `sc`: its walk on its own (once per run: a header of a chain or of a
        common fan-in is reached from every file above it) spliced in where the unit so far leaves it
        unchanged (none of its files reached yet, the names its conditionals test defined as on its
        own, no include cut by the depth bound), else walked here."""
        if path in sc.includes:
            return
        # a walk on its own is begun only while the files being walked are fewer than the include
        # bound (a chain of 1,500 headers begins no 1,500 nested walks: the stack stays bounded)
        sub = self._subs.get((path, opts)) if self._nest >= includes.MAX_INCLUDE_DEPTH else self._sub(path, opts)
        # at the top of a unit the walk on its own is the walk here, cut where it was cut (a chain
        # deeper than compilers follow); below, only a walk the depth bound never cut is the same
        fits = depth == 0 or not sub.too_deep and depth + sub.deepest < includes.MAX_INCLUDE_DEPTH \
            if sub is not None else False
        if sub is not None and fits and all((n in defined) == v for n, v in sub.entry.items()) and \
                not any(p in sc.includes for p in sub.order):
            _splice(sc, sub, defined, depth)
            return
        self._walk_here(path, opts, sc, defined, depth)

    def _sub(self, path: Path, opts: Options) -> Scan | None:
        """The walk of `path` alone with the run's defines (None while it is under way: an include cycle)."""
        key = (path, opts)
        if key not in self._subs:
            self._subs[key] = None
            sub = Scan()
            self._walk_here(path, opts, sub, _defined(opts), 0)
            self._subs[key] = sub
        return self._subs[key]

    def _walk_here(self, path: Path, opts: Options, sc: Scan, defined: set[str], depth: int,
                   stop: int | None = None) -> None:
        self._nest += 1
        try:
            self._walk_file(path, opts, sc, defined, depth, stop)
        finally:
            self._nest -= 1

    def _walk_file(self, path: Path, opts: Options, sc: Scan, defined: set[str], depth: int,
                   stop: int | None = None) -> None:
        """`stop`: walk only the text before that byte (an includer's prefix)."""
        pf = self.file(path)
        sc.includes[path] = []
        sc.local[path] = {}
        sc.decided_out[path] = []
        sc.order.append(path)
        if pf is None:
            return
        src = _decided(pf.src, frozenset(n for n, _ in opts.defines))

        def tested(name: str) -> None:  # a conditional's name: defined on entry, or by this walk first
            if name not in sc.touched:
                sc.entry.setdefault(name, name in defined)
        for kind, node in _events(src, defined, tested):
            if stop is not None and node.start_byte >= stop:
                break
            if kind == "include":
                pn = node.child_by_field_name("path")
                raw = src.text_of(pn) if pn is not None else ""
                if len(raw) < 2 or raw[0] not in "\"<":
                    continue  # a computed include (#include MACRO): not followed
                name, angled = raw[1:-1], raw[0] == "<"
                inc = Include(node, name, angled, self.resolve(path, name, angled, opts), src.loc(node))
                sc.includes[path].append(inc)
                if inc.resolved is not None:
                    sc.deepest = max(sc.deepest, depth)
                if inc.resolved is not None and depth >= includes.MAX_INCLUDE_DEPTH:
                    sc.too_deep.append(inc)  # a chain no compiler follows (GCC stops at 200 levels)
                elif inc.resolved is not None:
                    self._walk(inc.resolved, opts, sc, defined, depth + 1)
            elif kind == "define":
                nn = node.child_by_field_name("name")
                if nn is None:
                    continue
                name = src.text_of(nn)
                v = node.child_by_field_name("value")
                mac = Macro(name, uncomment(src.text_of(v)).strip() if v is not None else "", node, v)
                sc.macros[name] = (mac, path)
                sc.local[path][name] = mac
                defined.add(name)
                sc.touched.add(name)
            elif kind == "skip":
                sc.decided_out[path].append((node.start_point[0], node.end_point[0]))
            elif kind == "type":
                for name, t in _type_names(src, node):
                    sc.types.setdefault(name, t)
            elif kind == "function":
                sc.functions.setdefault(path, []).append(node)
            elif kind == "undef":
                arg = node.child_by_field_name("argument")
                name = src.text_of(arg).strip() if arg is not None else ""
                sc.macros.pop(name, None)
                defined.discard(name)
                sc.touched.add(name)


def _decided(src: SourceFile, names: frozenset[str]) -> SourceFile:
    """`src` as the walk reads it: where its plain parse stops and a conditional tests a name of the
    run's -D, parsed with what the compiler does not see of those conditionals blanked (the same
    bytes elsewhere, so nodes and locations are the file's); else `src` itself.  Without the run's
    -D an `#include` under `#ifdef CUDA` beside an `extern "C" {` the branch opens is inside the
    parse's ERROR and the walk never reads the header (beagle-lib kernelsX.cu)."""
    if not names or not src.root.has_error:
        return src
    cache = src.__dict__.setdefault("_kp_decided", {})  # (kept on the parse: once per run's -D)
    got = cache.get(names)
    if got is None:
        from .grammar_gaps import blank_bytes
        from .macro_groups import decided_spans
        data = src.text.encode("utf-8")
        spans = decided_spans(data, names)
        if spans:
            buf = bytearray(data)
            for s, e in spans:
                buf[s:e] = blank_bytes(data, s, e)
            got = SourceFile.from_text(bytes(buf).decode("utf-8"), src.path)
        else:
            got = src
        cache[names] = got
    return got


def _splice(sc: Scan, sub: Scan, defined: set[str], depth: int) -> None:
    """Add `sub`, a walk of a file on its own, to `sc` as if walked there at `depth` (Project._walk
    checked that it would go the same way)."""
    for name in sub.touched:  # defined or undefined on its way: its final state
        if name in sub.macros:
            defined.add(name)
        else:
            defined.discard(name)
            sc.macros.pop(name, None)
    sc.macros.update(sub.macros)
    sc.order += sub.order
    sc.too_deep += sub.too_deep
    sc.includes.update(sub.includes)
    sc.local.update(sub.local)
    sc.decided_out.update(sub.decided_out)
    for name, t in sub.types.items():
        sc.types.setdefault(name, t)
    sc.functions.update(sub.functions)
    for name, v in sub.entry.items():
        if name not in sc.touched:
            sc.entry.setdefault(name, v)
    sc.touched |= sub.touched
    if sub.deepest >= 0:
        sc.deepest = max(sc.deepest, depth + sub.deepest)


_CONTAINERS = ("translation_unit", "namespace_definition", "declaration_list", "linkage_specification")


def _events(src: SourceFile, defined: set[str], tested=None) -> Iterator[tuple[str, Node]]:
    """Preprocessor events at file and namespace scope, in order, skipping branches known inactive
    (`tested(name)`: called with each name a conditional tests, before it is read); and the includes
    inside a function or class body (a fragment spliced into a kernel, `{ #include "loop.cuh" }`),
    which the compiler reads there as at file scope: only the include, not the body's own names."""
    starts = sorted(n.start_byte for n in src.index.of_type("preproc_include"))

    def holds_include(node: Node) -> bool:
        i = bisect.bisect_right(starts, node.start_byte)
        return i < len(starts) and starts[i] < node.end_byte

    def visit(node: Node, body: bool = False) -> Iterator[tuple[str, Node]]:
        for c in node.named_children:
            t = c.type
            if t == "preproc_include":
                yield "include", c
            elif body:  # inside a body: its includes only, under the branches they sit in
                if t in ("preproc_if", "preproc_ifdef", "preproc_elif"):
                    yield from branch(c, True)
                elif holds_include(c):
                    yield from visit(c, True)
            elif t == "preproc_def":
                yield "define", c
            elif t == "preproc_function_def":
                yield "function", c
            elif t in ("type_definition", "alias_declaration") or \
                    t in ("struct_specifier", "class_specifier") and c.child_by_field_name("body") is not None:
                yield "type", c  # a struct definition too: a header's `struct Params { int n; ... };`
            elif t == "preproc_call":
                d = c.child_by_field_name("directive")
                if d is not None and src.text_of(d).strip() == "#undef":
                    yield "undef", c
            elif t in ("preproc_if", "preproc_ifdef", "preproc_elif"):
                yield from branch(c)
            elif t in _CONTAINERS or t == "preproc_else":
                yield from visit(c)
            elif holds_include(c):  # a function or class body with an include in it
                yield from visit(c, True)

    def branch(node: Node, body: bool = False) -> Iterator[tuple[str, Node]]:
        truth = _condition(src, node, defined, tested)
        alt = node.child_by_field_name("alternative")
        # a branch left out because a defined name decides the test (not a name merely undefined so far)
        decided = truth is not None and (test := _test(src, node)) is not None and (
            test[1] in defined or test[1] in _language_macros())
        if truth is not False:
            for c in node.named_children:
                if c == alt or c.type in ("identifier", "preproc_defined") or c == node.child_by_field_name("condition"):
                    continue
                yield from visit_one(c, body)
        elif decided:
            yield "skip", _Lines(node.start_byte, node.start_point[0],
                                 alt.start_point[0] if alt is not None else node.end_point[0])
        if truth is not True and alt is not None:
            yield from (branch(alt, body) if alt.type == "preproc_elif" else visit(alt, body))
        elif decided and alt is not None:
            yield "skip", _Lines(alt.start_byte, alt.start_point[0], alt.end_point[0])

    def visit_one(c: Node, body: bool = False) -> Iterator[tuple[str, Node]]:
        holder = _Holder(c)
        yield from visit(holder, body)  # type: ignore[arg-type]

    yield from visit(src.root)


def _type_names(src: SourceFile, node: Node) -> list[tuple[str, Node]]:
    """The names a `typedef T Name;` or `using Name = T;` gives to its type node (a plain name
    only: `typedef float *fptr` names a pointer, not an element type); a struct's own name."""
    if node.type in ("struct_specifier", "class_specifier"):
        n = node.child_by_field_name("name")
        return [(src.text_of(n), node)] if n is not None else []
    t = node.child_by_field_name("type")
    if t is None:
        return []
    if node.type == "alias_declaration":
        n = node.child_by_field_name("name")
        return [(src.text_of(n), t)] if n is not None else []
    return [(src.text_of(d), t) for d in node.children_by_field_name("declarator") if d.type == "type_identifier"]


class _Lines:
    """The rows of a skipped branch (its test and end lines too: they hold no definition), shaped as
    the walk reads a node."""

    def __init__(self, start_byte: int, first: int, last: int):
        self.start_byte, self.start_point, self.end_point = start_byte, (first, 0), (last, 0)


class _Holder:
    """One node seen as the only child of a container (so `visit` handles it like any other)."""

    def __init__(self, node: Node):
        self.named_children = [node]


def _test(src: SourceFile, node: Node) -> tuple[bool, str] | None:
    """(negated, X) of a test `#ifdef X`, `#ifndef X`, `#if [!]defined(X)` (None: another test)."""
    if node.type == "preproc_ifdef":
        name_n = node.child_by_field_name("name")
        if name_n is None:
            return None
        return "".join(src.text_of(node.children[0]).split()) == "#ifndef", src.text_of(name_n)  # `# ifndef` too
    cond = node.child_by_field_name("condition")
    m = _DEFINED.match(" ".join(src.text_of(cond).split())) if cond is not None else None
    return None if m is None else (bool(m.group(1)), m.group(2))


def _condition(src: SourceFile, node: Node, defined: set[str], tested=None) -> bool | None:
    """True/False where the branch's test is known (`#ifdef X`, `#ifndef X`, `#if [!]defined(X)`
    with X defined by the run or the files so far, or a name that is not a compiler's own); None
    where it is not (both branches are kept)."""
    test = _test(src, node)
    if test is None:
        return None
    negated, name = test
    if tested is not None:
        tested(name)
    if name in defined or name in _language_macros():  # (`__cplusplus`: every compile of CUDA defines it)
        return not negated
    if name.startswith("__") or name.startswith("_") and name[1:2].isupper():
        return None  # the compiler's own (__CUDA_ARCH__, _WIN32): unknown here
    return negated


def _language_macros():
    """The language's own macros, every compile's (the source backend's `language_macros`, which
    macro_groups.builtin_macros gives the parse repair)."""
    from .backends import source
    return source().language_macros


def ruled_out(src: SourceFile, node: Node, defined) -> str | None:
    """Is `node` in a part of a conditional that no compile of this run reaches: the body of
    `#ifdef X` / `#if defined(X)` (the `#else` of `#ifndef X`) where X is an ordinary name that
    nothing visible defines (`defined`: the includes', the run's -D and the file's own macros)?
    Only that direction is trusted: a name the file defines may be defined under a condition or
    after the test (an include guard), so a test of it decides nothing here.  Returns X (None: no)."""
    child, p = node, node.parent
    while p is not None:
        if p.type in ("preproc_ifdef", "preproc_if", "preproc_elif"):
            tested: list[str] = []
            truth = _condition(src, p, set(), tested.append)
            if tested and tested[0] not in defined and tested[0] not in _language_macros() and truth is not None:
                in_body = child != p.child_by_field_name("alternative")
                if truth is not in_body:
                    return tested[0]
        child, p = p, p.parent
    return None


def decided_off(src: SourceFile, node: Node, names) -> str | None:
    """Is `node` in a part of a conditional that the run's -D (`names`) rules out: the `#else`/`#elif`
    of `#ifdef X` / `#if defined(X)`, or the body of `#ifndef X` / `#if !defined(X)`, with X one of
    them (gato's settings.h under -DPLANT_INDY7: `#elif defined(PLANT_IIWA14)` includes another plant's
    headers)?  The other direction of ruled_out: a name the run defines is defined everywhere, unless
    the text undefines it.  Returns X (None: no)."""
    child, p = node, node.parent
    while p is not None:
        if p.type in ("preproc_ifdef", "preproc_if", "preproc_elif"):
            test = _test(src, p)
            if test is not None and test[1] in names and \
                    re.search(r"#[ \t]*undef[ \t]+%s\b" % re.escape(test[1]), src.text) is None:
                in_body = child != p.child_by_field_name("alternative")
                if (not test[0]) is not in_body:
                    return test[1]
        child, p = p, p.parent
    return None
