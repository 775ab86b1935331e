"""Files included partway through another (issue 11): what a file sees from the text of its includer.

CGBN's `core.cu` defines `core_t` (its `sync_mask()`, its constants) and then includes `core_add.cu`,
`core_mul.cu`, ... at its end; a unity build's `main.cu` includes one `.cu` after another; egs-cuda's
`main.cu` defines `CUDA_EGS` and then includes `kernels.cu` under `#ifdef CUDA_EGS`.  Such a file,
analysed alone, cannot see what the compiler sees at its first line.  When the run's files
(`Project.units`: the inputs of lint and translate) or the files in F's own directory (a file given
alone) show that F is included by file G and the include is
*partway*: below code of G (a declaration, a function, a class, a namespace), or F uses a macro that
G itself defines before the include, then F's unit is walked with G's text up to the include first
(kernelport.includewalk: its macros, includes, types and the defines active there), and `Elsewhere`
gives F's analyses the functions and constants of those files.  F's port still holds only F's text.
With several such includers the first in the run's order is used, and a note names the others; where
one of F's includers has it at its top (nothing of its own before it), F is a plain header.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from tree_sitter import Node

from . import includes, textwords
from . import lazy_re

_INCLUDE = lazy_re.compile(rb'^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]', re.M)
_SUFFIXES = frozenset(includes.HEADER_SUFFIXES + (".cu", ".cpp", ".cc", ".cxx", ".c"))
_MAX_BESIDE = 2000  # files of one directory read for includers (a directory of generated files is cut)
_NOT_CODE = ("comment", "preproc_include", "preproc_def", "preproc_function_def", "preproc_call")
_CODE = ("function_definition", "declaration", "template_declaration", "class_specifier", "struct_specifier",
         "namespace_definition", "type_definition", "alias_declaration", "enum_specifier", "union_specifier")


class Includers:
    """Project's includer look-up (needs `_real`, `file`, `options`, `_sub`, `resolve`)."""
    units: list[Path]  # the run's files, in the run's order (set by the command)
    _includers: dict
    _named: dict | None
    _dirs: dict
    includer_notes: list

    def includer(self, path: Path, opts) -> tuple[Path, object] | None:
        """(G, the Include in G) where the run's files or the files beside `path` show it included
        partway through G (None otherwise)."""
        root = self._real(path)  # type: ignore[attr-defined]
        if root not in self._includers:
            self._includers[root] = None  # (while under way: a file that reaches itself has none)
            # an includer with nothing of its own before the include makes F a plain header: it must
            # stand alone there (llm.c's common.h, which one file includes below a few lines of code),
            # so the includers are walked only until the first such one (the answer is then None: the
            # other includers' walks, one per file beside F in each run, would change nothing)
            found, words = [], []
            for g in self._naming(root):
                if g == root:
                    continue
                got = self._includes_of(g, root, words)
                if got and not got[0][1]:
                    found = []
                    break
                found += [(g, inc) for inc, _ in got]
            if found:
                self._includers[root] = found[0]
                if len(found) > 1:
                    g, inc = found[0]
                    others = ", ".join(f"{o}:{i.location.line}" for o, i in found[1:])
                    self.includer_notes.append((root, f"included partway through {g}:{inc.location.line} and "
                                                f"{others}: analysed with what the first defines before its include"))
        return self._includers[root]

    def included_by(self, path: Path) -> tuple[Path, object] | None:
        """(G, the Include in G) for the first of the run's files, then of the files beside `path`, whose
        walk includes `path` at any position (a `.cu` another file includes is a fragment of that file's
        translation unit: the Metal backend ports it where it is included); None when none does."""
        root = self._real(path)  # type: ignore[attr-defined]
        for g in self._naming(root):
            if g == root or self.file(g) is None:  # type: ignore[attr-defined]
                continue
            sub = self._sub(g, self.options(g))  # type: ignore[attr-defined]
            for inc in (sub.includes.get(g, []) if sub is not None else []):
                if inc.resolved == root:
                    return g, inc
        return None

    def _naming(self, f: Path) -> list[Path]:
        """The run's files, then the files beside `f` (a file given alone: CGBN's core_add.cu beside
        core.cu), with an `#include` whose last part is f's name: each read once per run, not parsed."""
        if self._named is None:
            self._named = {}
            _index(self._named, self.units, self._real)  # type: ignore[attr-defined]
        d = f.parent
        if d not in self._dirs:
            try:
                beside = sorted(p for p in d.iterdir() if p.suffix in _SUFFIXES)[:_MAX_BESIDE]
            except OSError:
                beside = []
            self._dirs[d] = {}
            _index(self._dirs[d], beside, self._real)  # type: ignore[attr-defined]
        return list(dict.fromkeys(self._named.get(f.name, []) + self._dirs[d].get(f.name, [])))

    def _includes_of(self, g: Path, f: Path, words: list) -> list:
        """G's first active include of `f`, and whether it is partway: below code of G or after a macro
        of G's own that `f` uses (`words`: f's words, once per look-up, read only where G defines a
        macro before the include)."""
        pf, ff = self.file(g), self.file(f)  # type: ignore[attr-defined]
        if pf is None or ff is None:
            return []
        sub = self._sub(g, self.options(g))  # type: ignore[attr-defined]  # G's walk on its own (the run's cache)
        if sub is None:
            return []
        own = sub.local.get(g, {})
        for inc in sub.includes.get(g, []):
            if inc.resolved != f:
                continue
            at = inc.node.start_byte
            if _below_code(pf.src, inc.node):
                return [(inc, True)]
            before = [n for n, m in own.items() if m.node.start_byte < at]
            if before and not words:
                words.append(textwords.of(ff.src))
            return [(inc, any(n in words[0] for n in before))]
        return []


def _index(into: dict, files, real) -> None:
    """base name -> the files of `files` that include a file of that name."""
    for g in files:
        try:
            if not includes.is_regular(g) or g.stat().st_size > includes.MAX_HEADER_BYTES:
                continue
            data = g.read_bytes()
        except OSError:
            continue
        for m in _INCLUDE.finditer(data):
            base = m.group(1).decode("utf-8", "replace").rsplit("/", 1)[-1]
            into.setdefault(base, []).append(real(g))


def _below_code(src, node: Node) -> bool:
    """Whether code (not only directives and comments) comes before `node` in its file: a sibling
    before it at its level or any level around it (a conditional's code counts).  `node` may come from
    an earlier parse of the same text (a walk cached before the file was parsed again with its
    includes' macros, Project.source): it is read at its bytes in `src`'s own tree."""
    n = _in_tree(src, node)
    if n is None:
        return False
    while n.parent is not None:
        for s in n.parent.named_children:
            if s.start_byte >= n.start_byte:
                break
            if s.type in _CODE or s.type not in _NOT_CODE and src.index.under_types(s, *_CODE):
                return True
        n = n.parent
    return False


def _in_tree(src, node: Node) -> Node | None:
    """`node`'s counterpart in src's tree: the node of its type that starts at its byte (itself when it
    is of that tree; None where the other parse has no such node)."""
    got = src.root.descendant_for_byte_range(node.start_byte, node.end_byte)
    while got is not None and not (got.type == node.type and got.start_byte == node.start_byte):
        got = got.parent
    return got


class Elsewhere:
    """The functions and constants of the files a unit reads before its own text (its headers and an
    includer's prefix), for analyses that follow a value into them (kernelport.groupmasks), and the
    calls of the unit's functions that the run's other files make (`calls`)."""

    def __init__(self, project, paths: list[Path], root: Path | None = None):
        self._project, self.paths, self.root = project, paths, root
        self.run_reads = 0  # reads of the run beyond `paths` (kernelport.header_plans: such a plan is not shared)

    @property
    def project(self):
        """The run's project: whoever reads it may read the run's other files (counted: `run_reads`)."""
        self.run_reads += 1
        return self._project

    def seeing(self) -> Iterator[Path]:
        """The files of the run that see this unit, in the run's order: the unit itself and the run's files
        (and their headers) whose includes reach it; none where the run is unknown.  Lazy: a caller that
        stops early scans no further file."""
        if self.root is None:
            return
        proj = self.project
        for f in _run_files(proj):
            if f == self.root or self.root in proj.scan(f).order:
                yield f

    def calls(self, name: str, callee=None, recursive: bool = False) -> tuple[list, list[Path]]:
        """([(module, call node, calling Function or None)], the files looked in): every call of a
        function named `name` in the files of the run that see this unit: the run's files, the
        headers they include, and the unit itself; a file's call that reaches a function of its own
        of that name (another file's `name`) is not one.  The run's files are those given to the
        command (`Project.units`), so a header's function is judged by what the run shows of it.
        `callee` (the unit's Function of that name): only the calls that may run that overload (the
        unit's own calls as fnscopes resolves them, others' by their count of arguments and template
        arguments), and only its own body's calls count as recursion (`recursive`: kept too); without
        it every call of the name counts, and a call from a function of that name is recursion."""
        from . import fnscopes
        proj, out, looked = self.project, [], []
        if self.root is None:
            return out, looked
        for f in self.seeing():
            try:
                m = proj.module(f)
            except Exception:  # noqa: BLE001 - a file that does not parse shows no call; the command reports it
                continue
            looked.append(f)
            for c in m.source.index.of_type("call_expression"):
                if fnscopes.callee_name(c.child_by_field_name("function")) != name:
                    continue
                caller = m.function_at(c)
                if f != self.root and fnscopes.callees(m, caller, c):
                    continue  # the file's own function of that name
                if callee is not None:
                    if not _may_run(m, caller, c, callee, f == self.root):
                        continue  # another overload's call (`transpose_tile<U, 1, S>` of a 5-parameter template)
                    if not recursive and f == self.root and caller is not None and _same(caller, callee):
                        continue
                elif f == self.root and caller is not None and caller.name == name:
                    continue  # (a recursive call passes what its own callers gave it)
                out.append((m, c, caller))
        return out, looked

    def mentions(self, name: str) -> bool | None:
        """Whether a file of the run that sees this unit names `name` as a word (the unit itself: beyond
        the one definition it holds), its macro bodies and comments too; None where the run is unknown."""
        if self.root is None:
            return None
        word, proj = re.compile(rf"\b{re.escape(name)}\b"), self.project
        for f in self.seeing():
            try:
                text = proj.module(f).source.text
            except Exception:  # noqa: BLE001 - a file that does not parse: its text may expand it
                return True
            if len(word.findall(text)) > (1 if f == self.root else 0):
                return True
        return False

    def function(self, names: tuple[str, ...]):
        """(module, Function) of the first of `names` (qualified, in lookup order) one of the files defines
        with a body, where exactly one does."""
        from . import fnscopes
        for name in names:
            parts = tuple(name.split("::"))
            found = []
            for p in self.paths:
                pf = self._project.file(p)
                if pf is not None:
                    found += [(pf.module, f) for f in fnscopes.of(pf.module).by_qual.get(parts, ()) if f.body is not None]
            if found:
                return found[0] if len(found) == 1 else None
        return None

    def modules(self):
        for p in self.paths:
            pf = self._project.file(p)
            if pf is not None:
                yield pf.module


def _same(f, g) -> bool:
    """Whether two Functions of one file (parsed once or twice) are one definition."""
    return (f.name, f.node.start_byte, f.node.end_byte) == (g.name, g.node.start_byte, g.node.end_byte)


def _may_run(m, caller, call: Node, callee, own: bool) -> bool:
    """Whether `call` (in module `m`; `own`: the callee's own file) may run the overload `callee`: in
    its own file as fnscopes resolves the call (an unresolved call by its arguments' counts)."""
    from . import fnscopes
    if own and not fnscopes.specialization(callee):  # (a specialization is called as its primary is)
        found = fnscopes.callees(m, caller, call)
        if found:
            return any(_same(g, callee) for g in found)
    return fnscopes.may_call(callee, call)


def _run_files(proj) -> list[Path]:
    """The run's files and the local headers they include, in the run's order (once per run)."""
    got = proj.__dict__.get("_kp_run_files")
    if got is None:
        got = proj.__dict__["_kp_run_files"] = list(dict.fromkeys(
            [proj._real(u) for u in proj.units] + [h for u in proj.units for h in proj.headers(u)]))
    return got
