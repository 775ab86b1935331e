"""The repair that lets the grammar see through macros: masks at the error regions of a parse.

Each candidate mask turns bytes of the text the grammar sees into blanks (a statement macro's
`(`/`)` into ` `/`;`), or a macro that blanks cannot stand for (`END_NS` for `}`, a type
`PARAMS(box)`) into its expansion where that fits in its bytes, never adding or removing one, so
every offset, line and column of the tree is the user's.  A candidate is kept only where the part of the file in error shrinks, and never
where it would hide a reported error inside a conditional's branch (kernelport/macros.py says
what a macro is; this module decides where one stands in the way).
"""
from __future__ import annotations

import bisect
import re
from functools import cached_property
from typing import Callable, Mapping

from tree_sitter import Tree

from .body_macros import body_uses
from .grammar_gaps import blank_bytes as _blank_bytes, grammar_gaps
from .lambda_words import lambda_words
from .operand_macros import operand_uses
from .macro_groups import NEVER_BUILT as _NEVER, Group as _Group, builtin_decides, decided_groups, \
    group_variants, groups as _groups, rejected_branch_kept
from .macro_declarations import local_type, object_definition, parameter_type
from .macro_sites import error_sites, inner_sites, owner_sites, score as _score
from .macro_tokens import Tok, ends_a_capture, ends_a_type, file_tokens, match_paren as _match_paren, statement_start
from .repair_trials import Trials
from .selector_macros import argument_masks
from .token_scopes import file_scope_flags
from . import split_configurations
from .macros import ATTRIBUTE_WORDS, NEVER, SPACE_WORDS, STRING_MACROS, MacroDef, Mask, attribute_like, call_in_place, ends_definition, \
    ends_list_item, expansion, in_place_edits, one_group, opens_else


# -- repair: mask what stops the parse ---------------------------------------------------------
# Spellings the grammar does not parse where compilers accept them (a declarator's trailing
# `__attribute__`, `const __restrict`, a callback convention): masked where an error is.
_UNPARSED_WORDS = frozenset({"__restrict", "_Complex", "__complex__", "CUDART_CB", "CUDAAPI", "__stdcall", "__cdecl", "__fastcall",
                             "__grid_constant__", "__device_builtin__", "__CUDA_ALIGN__", "__const", "__const__"})
# GNU's alternate keywords nvcc's host compiler takes (yszheda/GPU-RSCode's `__device__ __const__ uint8_t t[]`): masked,
# each read by the model as the keyword it spells
_ALTERNATES = {"__const": "const", "__const__": "const"}
_UNPARSED_CALLS = frozenset({"__attribute__", "__declspec", "__align__", "__builtin_align__", "alignas",
                             "__cluster_dims__", "__maxnreg__", "__launch_bounds__"})
_ARG_MACROS = frozenset({"va_arg", "offsetof"})  # standard macros that take a type argument
_CAPS = re.compile(r"_*[A-Z][A-Z0-9_]*")
_TEMPLATE_HEAD = re.compile(r"\s*template\s*<")
_STMT_BEFORE = frozenset({";", "{", "}", ")", ":"})
# C++ words that may follow a declarator's `*` (never a macro to mask there)
_DECLARATOR_WORDS = frozenset({"const", "volatile", "operator", "__restrict__", "restrict", "noexcept", "override",
                               "final", "this", "sizeof", "new", "delete", "return", "throw", "typename", "template"})
_MAX_PARSES = 160  # per file: the repair is bounded however broken the file is
# Roles whose candidate is tried at every use in error at once where one use alone does not help:
# an error node that spans them all (MGARD's `KERNELS(1, double)` lines at namespace scope) shrinks
# only when every one is masked; so does a namespace whose constructors each start with an attribute
# macro and break a line before their member initialisers (CudaTracerLib's Samples.h: `CUDA_FUNC_IN
# Rec(const Vec3f& p)` / `: p(p) {}`, three of them in one namespace).
_GROUPED = ("definition", "statement", "arguments", "attribute")
# Tokens tried per error region, nearest the error first: a macro in the way stands within a few lines of where the
# parse fails (3 lines of real code hold ~150 tokens); the bound keeps a 100k-token line from costing minutes.
_MAX_WINDOW_TOKENS = 512
Edit = tuple[int, int, bytes]


def _hides_error(sites: list[tuple[int, int]], masks: list[Mask]) -> bool:
    """Whether a reported error lies wholly in code a mask hides (a conditional's branch): code
    that some configuration compiles is checked, never masked away."""
    hidden = [(m.start, m.end) for m in masks if m.reason.startswith("conditional (") and m.reason != NEVER and not m.checked]
    return any(hs <= s and e <= he for s, e in sites for hs, he in hidden)


class Repair:
    """Masks for one text: candidates at each error region, each kept only if the parse improves."""

    def __init__(self, data: bytes, macros: Mapping[str, MacroDef], parse: Callable[..., Tree]):
        self.data, self.macros, self.parse = data, macros, parse
        self.toks = file_tokens(data)
        self.starts = [t.start for t in self.toks]
        self.masks: list[Mask] = []
        self.parses = 0
        self.masked_at: set[int] = set()  # token indexes already masked
        self.conditionals_first = False
        self.lines = [m.start() for m in re.finditer(b"\n", data)]  # (a Python step per line, not per byte)
        self.seen = data  # what the grammar sees now
        self.by_text: dict[str, list[int]] = {}
        self._closes: dict[int, int | None] = {}
        for i, t in enumerate(self.toks):
            if t.kind == "ident":
                self.by_text.setdefault(t.text, []).append(i)

    # -- the loop ------------------------------------------------------------------------------
    def run(self, seen: bytes, tree: Tree) -> tuple[bytes, Tree]:
        self.seen = seen
        sites = error_sites(tree)
        tried = Trials(self.lines, len(self.data))  # (kernelport/repair_trials.py: tried again only near a kept mask)
        while sites and self.parses < _MAX_PARSES:
            score = _score(sites)
            accepted = False
            for lo, hi in sites + inner_sites(tree, sites) + owner_sites(tree, sites):
                for key, edits, masks in tried.at((lo, hi), self._candidates(lo, hi), lambda: self.reach):
                    if key in tried or self.parses >= _MAX_PARSES:
                        continue
                    if _hides_error(sites, masks):
                        tried.skip(key)
                        continue
                    trial = self._apply(seen, edits)
                    t2 = self._parse(trial, tree, edits)
                    s2 = error_sites(t2)
                    if _score(s2) + self._hidden(masks) >= score and key[0] in _GROUPED and \
                            self.parses < _MAX_PARSES:  # `K(1, double)` on many lines: one error spans them all
                        more = self._other_uses(key, sites)
                        if more[0]:
                            edits, masks = edits + more[0], masks + more[1]
                            trial = self._apply(seen, edits)
                            t2 = self._parse(trial, tree, edits)
                            s2 = error_sites(t2)
                    if _score(s2) + self._hidden(masks) >= score and (lam := lambda_words(self, lo, hi))[0]:
                        edits, masks = edits + lam[0], masks + lam[1]  # `START(n) [x, y] __device__ (`: both at once
                        t2 = self._parse(trial := self._apply(seen, edits), tree, edits)
                        s2 = error_sites(t2)
                    if _score(s2) + self._hidden(masks) < score:  # never hide more code than the error
                        seen, tree, sites = trial, t2, s2
                        self._keep(masks)
                        self.seen = seen
                        changed = self.changed
                        seen, tree, sites, more_edits = self._same_elsewhere(seen, tree, sites, key)
                        self.seen = seen
                        tried.kept(edits + more_edits, changed + (self.changed if more_edits else []))
                        accepted = True
                        break
                    tried.fail(key, edits, self.changed)
                if accepted:
                    break
            if not accepted:
                break
        return seen, tree

    def run_decided(self, seen: bytes, bound: int) -> tuple[bytes, Tree]:
        """`run` after masking, at once, every conditional whose test the run decides (`#ifdef CUDA`
        under -DCUDA, `#ifdef FW_OPENCL_CPU` where nothing defines it: its directive lines and the
        branches not taken, as the compiler sees them), in a parse given the run's -D.  Two conditionals that each split a construct (an `extern "C" {`
        opened under `#ifdef CUDA`, a loop head written twice under `#ifdef IS_POWER_OF_TWO`)
        may each leave the parse no better alone, so the one-at-a-time loop keeps neither.  The loop
        runs again only where those masks at once already score below `bound` (the parse it began
        from): else it would spend its parses again on a file that stays one ERROR (kernelsAll.cu)."""
        edits, masks = [], []
        for g, variant in decided_groups(self.groups, self.macros, self.data):  # (-D: all it decides; else `__cplusplus`'s)
            for _, e, ms in self._variant(variant, [g], g.cond):
                edits += e
                masks += ms
        if not edits:
            return seen, self.parse(seen)
        self.conditionals_first = True  # the other conditionals that split a construct, before any macro
        seen = self._apply(seen, edits)
        self.parses += 1
        tree = self.parse(seen)
        self._keep(masks)
        return (seen, tree) if _score(error_sites(tree)) >= bound else self.run(seen, tree)

    def _parse(self, data: bytes, old: Tree, edits: list[Edit]) -> Tree:
        """An incremental reparse: only what the (same-length) edits touch is parsed again."""
        self.parses += 1
        t = old.copy()
        for s, e, _ in edits:
            a, b = self._point(s), self._point(e)
            t.edit(s, e, e, a, b, b)
        new = self.parse(data, t)
        self.changed = list(t.changed_ranges(new))  # where its structure differs (repair_trials.Trials)
        return new

    def _point(self, byte: int) -> tuple[int, int]:
        row = bisect.bisect_left(self.lines, byte)
        return row, byte - (self.lines[row - 1] + 1 if row else 0)

    @staticmethod
    def _apply(data: bytes, edits: list[Edit]) -> bytes:
        buf = bytearray(data)
        for s, e, rep in edits:
            buf[s:e] = rep
        return bytes(buf)

    def _hidden(self, masks: list[Mask]) -> int:
        """The bytes of code a conditional's variant hides with no other branch kept in its place
        (`#ifndef GUARD` as if not taken would hide a whole header): such a variant must remove
        more of the file's error than it hides.  A branch hidden for its kept alternative is free."""
        return sum(len(b"".join(self.data[m.start:m.end].split()))
                   for m in masks if m.reason.startswith("conditional (") and not m.alternative)

    def _keep(self, masks: list[Mask]) -> None:
        for m in masks:
            self.masks.append(m)
            i = bisect.bisect_left(self.starts, m.start)
            while i < len(self.toks) and self.toks[i].start < m.end:
                self.masked_at.add(i)
                i += 1

    def _same_elsewhere(self, seen: bytes, tree: Tree, sites, key: tuple):
        """A mask that helped once is tried at every other use of that macro in the same role that
        stands in an error (one more parse where there are many, instead of one per use); and the edits kept."""
        if key[0] == "conditional":  # its candidate already covers every group of that condition
            return seen, tree, sites, []
        edits, masks = self._other_uses(key, sites)
        if not edits or self.parses >= _MAX_PARSES:
            return seen, tree, sites, []
        trial = self._apply(seen, edits)
        t2 = self._parse(trial, tree, edits)
        s2 = error_sites(t2)
        if _score(s2) <= _score(sites):
            self._keep(masks)
            return trial, t2, s2, edits
        return seen, tree, sites, []

    def _other_uses(self, key: tuple, sites) -> tuple[list[Edit], list[Mask]]:
        """The edits and masks of every other use of the candidate's macro in the same role that
        stands in an error (a macro that is a whole statement or, at file scope, a definition: every use in that place;
        `MAKE(1)` before `MAKE(2)` parses as an expression whose `;` is the second's mask: it is in no error)."""
        kind, names = key[0], key[2] if isinstance(key[2], tuple) else (key[2],)
        if kind == "attributes":  # a run of attribute macros (`NVBIO_HOST_DEVICE NVBIO_FORCEINLINE T f()`): each
            kind = "attribute"    # of its names, wherever it stands in an error, as an attribute
        edits, masks = [], []
        spans = sorted((self._line(a) - 1, self._line(b) + 1) for a, b in sites)  # only where errors are
        firsts = [a for a, _ in spans]
        for i in sorted(i for name in set(names) for i in self.by_text.get(name, ())):
            t = self.toks[i]
            if i in self.masked_at or t.start == key[1]:
                continue
            got = self._shape(i, kind)
            if got is None:
                continue
            first, last = self._line(t.start), self._line(max(e for _, e, _ in got[0]))
            k, known = bisect.bisect_right(firsts, last) - 1, self.macros.get(t.text)
            # (a use that parses as it is keeps its text for the analyses, but for a statement macro that is a whole
            # statement, `{ ... }`: `CUDA_CHECK_ERR` then `cudaMemcpy(...);` parses as a declaration of cudaMemcpy; a definition)
            if kind in ("statement", "definition") and known is not None and ends_definition(known, self.macros) or \
                    any(spans[j][0] <= last and first <= spans[j][1] for j in range(max(k - 8, 0), k + 1)):
                edits += got[0]
                masks += got[1]
        return edits, masks

    # -- candidates ------------------------------------------------------------------------------
    def _window(self, lo: int, hi: int) -> range:
        """Token indexes from two lines before the error's start to the end of its first lines."""
        d = self.data
        a = lo
        for _ in range(3):
            a = d.rfind(b"\n", 0, max(a - 1, 0)) if a > 0 else -1
            if a < 0:
                a = 0
                break
        b = lo
        for _ in range(3):
            nb = d.find(b"\n", b + 1)
            b = len(d) if nb < 0 else nb
        b = max(b, min(hi, lo + 1))
        first = bisect.bisect_left(self.starts, a)
        # back to where the statement at the error starts (comments may stand between a macro
        # without `;` and the error reported at the next statement, and a call's arguments may
        # hold hundreds of tokens: gpujpeg's 16-argument IDCT macro), as far as the token bound
        k = statement_start(self.toks, self.seen, bisect.bisect_left(self.starts, lo) - 1, _MAX_WINDOW_TOKENS)
        return range(min(first, k), bisect.bisect_left(self.starts, b))

    def _candidates(self, lo: int, hi: int):
        """(key, edits, masks) to try for the error at [lo, hi), nearest the error first."""
        window = self._window(lo, hi)
        ends = [self.toks[window.start].start, self.toks[window.stop - 1].end] if window else []
        self.reach = (min([lo, *ends]), max([hi, *ends]))  # what its candidates read (repair_trials.Trials.at)
        k = bisect.bisect_left(self.starts, lo)  # the nearest tokens lie within the bound on either side
        near = range(max(window.start, k - _MAX_WINDOW_TOKENS), min(window.stop, k + _MAX_WINDOW_TOKENS))
        idx = sorted(near, key=lambda i: abs(self.toks[i].start - lo))[:_MAX_WINDOW_TOKENS]
        uses = {n: [(self.toks[i].start, self.toks[i].end) for i in ix if i not in self.masked_at]
                for n, ix in self.by_text.items() if n in self.macros}
        edits, masks = in_place_edits(uses, self.macros)  # scope and string macros, the file's every use at once, first
        if edits:
            yield ("expansion", 0, ""), edits, masks
        if self.conditionals_first:  # (run_decided: conditionals split this file's constructs)
            yield from self._conditionals(lo, hi)
        yield from body_uses(self.toks, idx, self.masked_at, self.macros)  # `) KERNEL_BODY` as `) {   }`: before a statement's blanks
        for kind in ("attribute", "condition", "statement", "items", "arguments", "block", "definition", "expansion", "type"):
            run: list[tuple[int, tuple]] = []  # adjacent attribute macros (`API VISIBLE void f`)
            for i in idx:
                if i in self.masked_at or self.toks[i].kind != "ident":
                    continue
                got = self._shape(i, kind)
                if got is not None:
                    if kind == "attribute":
                        run.append((i, got))
                    yield (kind, self.toks[i].start, self.toks[i].text), got[0], got[1]
            run.sort(key=lambda r: r[0])
            for a in range(len(run)):
                b = a
                while b + 1 < len(run) and self._adjacent(run[b][1], run[b + 1][1]):
                    b += 1
                if b > a:
                    group = run[a:b + 1]
                    yield (("attributes", self.toks[run[a][0]].start, tuple(self.toks[r[0]].text for r in group)),
                           [e for _, g in group for e in g[0]], [m for _, g in group for m in g[1]])
            # several on the error's line, apart (`static API_ATTR int API_CALL f(`): together
            line = [r for r in run if self._line(self.toks[r[0]].start) == self._line(lo)]
            if len(line) > 1:
                yield (("attributes", lo, tuple(self.toks[r[0]].text for r in line)), [e for _, g in line for e in g[0]],
                       [m for _, g in line for m in g[1]])
        if not self.conditionals_first:
            yield from self._conditionals(lo, hi)
        yield from grammar_gaps(self.toks, self.data, idx, self.masked_at, self._close)
        yield from operand_uses(self.toks, self.data, idx, self.masked_at, self.macros, self._close)

    def _close(self, i: int) -> int | None:
        """_match_paren(self.toks, i), once per `(`: each error region asks again for every role."""
        if i not in self._closes:
            self._closes[i] = _match_paren(self.toks, i)
        return self._closes[i]

    def _shape(self, i: int, kind: str):
        """The edits and masks that treat toks[i] as a macro in this role, or None if it is not one."""
        toks, t = self.toks, self.toks[i]
        name = t.text
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        p, prev = i - 1, None
        while p >= 0:  # what the grammar sees before it: masked tokens are blanks (or a `;`)
            seen = self.seen[toks[p].start:toks[p].end]
            if seen == b";" and toks[p].text != ";":
                prev = Tok("punct", toks[p].start, toks[p].end, ";")
                break
            if seen.strip():
                prev = toks[p]
                break
            p -= 1
        call = nxt is not None and nxt.text == "(" and nxt.kind == "punct"
        close = self._close(i + 1) if call else None
        if call and close is None:
            return None
        end_tok = toks[close] if close is not None else t
        after = toks[close + 1] if close is not None and close + 1 < len(toks) else nxt if not call else None
        known = self.macros.get(name)
        if kind == "attribute":
            linkage = name in _UNPARSED_WORDS and prev is not None and p > 0 and toks[p - 1].text == "extern"  # `extern "C" _Complex double f(`
            if prev is not None and prev.kind == "string" and not linkage or after is not None and after.kind == "string":
                # a macro between string literals (`"v" VERSION "\n"`): the literals still concatenate
                if known is None and not (_CAPS.fullmatch(name) or STRING_MACROS.fullmatch(name)) or \
                        known is not None and known.params is not None \
                        and not call:
                    return None
                return self._mask(t.start, end_tok.end, name, "string")
            if prev is not None and (prev.text == "]" or ends_a_capture(toks, p, SPACE_WORDS)) and (
                    name in ATTRIBUTE_WORDS or known is None and _CAPS.fullmatch(name) or
                    known is not None and known.params is None and attribute_like(known, self.macros)):
                return self._mask(t.start, t.end, name, "attribute")  # a lambda's `[=] __device__ (`
            if known is not None and known.params is None and _TEMPLATE_HEAD.match(expansion(name, self.macros) or "") \
                    and self.file_scope[i] and (prev is None or prev.text in (";", "{", "}")):
                # a template head behind a macro (cuSZ's `PHF_MODULE_TPL void PHF_MODULE_CLASS::f(`):
                # the declaration after it parses as it is, the head's text is its expansion
                return self._mask(t.start, t.end, name, "template")
            if name in SPACE_WORDS and not call and after is not None and after.kind == "ident" and \
                    ends_a_type(toks, p, SPACE_WORDS, ATTRIBUTE_WORDS - {"const", "volatile"}):  # `T& __device__ f(`
                return [(t.start, t.end, _blank_bytes(self.data, t.start, t.end))], [Mask(t.start, t.end, name, "attribute", name)]
            if known is not None:
                if not attribute_like(known, self.macros) or (known.params is not None) != call:
                    return None
            elif call and name not in _UNPARSED_CALLS and not self._attribute_position(name, prev, after, end_tok):
                return None
            elif not call and name not in _UNPARSED_WORDS and not self._attribute_position(name, prev, after, end_tok) and \
                    not (name in ATTRIBUTE_WORDS and prev is not None and prev.text == "]") and \
                    not self._declarator_qualifier(i, p, prev, after):
                return None
            return self._mask(t.start, end_tok.end, name, "attribute")
        if kind == "statement" and not call:
            # an object-like macro that is a whole statement (`CUERR` on its own line; the file's last token too)
            if known is not None and (known.params is not None or attribute_like(known, self.macros)) or \
                    known is None and not _CAPS.fullmatch(name):
                return None
            if prev is not None and prev.text not in _STMT_BEFORE or after is not None and not self._ends_line(t, after):
                return None
            return self._mask(t.start, t.end, name, "statement")
        if kind == "items":
            # a macro that supplies list items ending in `,` before the list's next item (`{ITEMS nullptr}`,
            # `f(ARGS x)`): the compiler sees `{a, b, nullptr}`; the grammar sees the use blanked, `{nullptr}`
            if known is None or (known.params is not None) != call or not ends_list_item(known, self.macros) or \
                    prev is None or prev.text not in ("{", ",", "(") or after is None or after.text in (",", "}", ")"):
                return None
            return self._mask(t.start, end_tok.end, name, "items")
        if not call:  # an object-like macro that supplies a whole definition (`inline __device__ DEFINE_F;`)
            return object_definition(self.toks, i, self.data, self.macros, self.file_scope) if kind == "definition" else None
        if kind == "condition":
            # `if NAME(args)` / `while NAME(args)` where NAME expands to one parenthesized group (mmcv's
            # `#define WITHIN_BOUNDS(x, y, H, W) (x >= 0 && ...)`, used as `if WITHIN_BOUNDS(i, j, H, W) {`):
            # the compiler sees `if ((...))`; the grammar sees the name blanked, `if (i, j, H, W)`
            if known is None or known.params is None or prev is None or prev.text not in ("if", "while") or \
                    not one_group(expansion(name, self.macros) or ""):
                return None
            return self._mask(t.start, t.end, name, "condition")
        if kind == "expansion":  # a macro standing for a type (`typedef PARAMS(box) t;`): its expansion, where it fits
            rep = call_in_place(known, self.data[nxt.end:end_tok.start].decode("utf-8", "replace"), self.macros,
                                end_tok.end - t.start) if known is not None else None
            # in a parameter list, a name right after the use declares it (`f(int a, IN(coord) ijk)`,
            # NanoVDB's PNANOVDB_IN): two primaries side by side are no argument, so the use is a type
            if rep is None or not (rep.startswith(b"typename ") or prev is not None and prev.text == "typedef"
                                   or parameter_type(prev, after)):
                return None
            return ([(t.start, end_tok.end, rep)],
                                             [Mask(t.start, end_tok.end, name, "expansion", rep.decode("utf-8").strip())])
        if kind == "type":  # a parameter's type macro whose expansion does not fit (`IN(Coord) ijk`: `const Coord*`,
            # moderngpu's `MGPU_MEM(int)* ppA`: a pointer to `intrusive_ptr< CudaDeviceMem< int > >`)
            # (or a local's, `MGPU_MEM(byte) mem = ...;`, where the expansion ends as a type does)
            named = self._past_declarator_marks(close + 1)
            if known is None or known.params is None or close == i + 2 or not (
                    parameter_type(prev, named) or local_type(prev, named, expansion(name, self.macros))):
                return None  # (or fits as another branch's, `inout X`, which is no C++)
            edits = [(t.start, nxt.end, _blank_bytes(self.data, t.start, nxt.end)), (end_tok.start, end_tok.end, b" ")]
            return edits, [Mask(s, e, name, "arguments", expansion(name, self.macros)) for s, e, _ in edits]
        defines = known is not None and known.params is not None and ends_definition(known, self.macros) \
            and self.file_scope[i] and (after is None or after.text != ";")  # `COPY2D_OP(float, f32)`
        if kind == "definition":
            if not defines or self._statement_start(p, prev) != ([], []):
                return None
            # `NAME(a, b)` -> `     a; b;`: a type or a name stays visible, an expression is blank,
            # and so is an operator token (bifrost's `DEFINE_BINARY_OPERATOR(*)`: `*;` would not parse)
            # or an argument of qualifiers only (a path-tracing library's `MINMAX(template <class T>, T,
            # const, ...)`, its parameters' `K T&`: `const;` would not parse either)
            edits = [(t.start, nxt.end, _blank_bytes(self.data, t.start, nxt.end))]
            depth, first = 0, i + 2
            for j in range(i + 2, close + 1):
                depth += toks[j].text in "([{" and toks[j].kind == "punct"
                depth -= toks[j].text in ")]}" and toks[j].kind == "punct" and j != close
                if j == close or toks[j].text == "," and depth == 0:
                    arg = toks[first:j]
                    if arg and (all(k.kind == "punct" for k in arg) or all(k.text in ATTRIBUTE_WORDS for k in arg) or
                                any(k.kind == "punct" and k.text not in "*&:" or k.kind == "num" for k in arg)):
                        edits.append((toks[first].start, toks[j - 1].end,
                                      _blank_bytes(self.data, toks[first].start, toks[j - 1].end)))
                    edits.append((toks[j].start, toks[j].end, b";"))
                    first = j + 1
            return edits, [Mask(s, e, name, "statement", expansion(name, self.macros) if s == t.start else None)
                           for s, e, _ in edits]
        if defines:
            return None  # at file scope its arguments are no expression: "definition" masks it
        if kind == "statement":
            if not (known is not None and known.params is not None or _CAPS.fullmatch(name)):
                return None
            if known is not None and attribute_like(known, self.macros):
                return None
            before = self._statement_start(p, prev)
            whole = known is not None and known.body.rstrip().endswith((";", "}"))  # `PS(x) f();`: PS ends in `;`
            if before is None or after is not None and after.text == ";" or \
                    not (whole or self._ends_line(end_tok, after)):
                return None
            # `NAME(args)` -> `     args ;`: the arguments stay visible to analysis
            edits = [(t.start, nxt.end, _blank_bytes(self.data, t.start, nxt.end)), (end_tok.start, end_tok.end, b";")]
            masks = [Mask(t.start, nxt.end, name, "statement", expansion(name, self.macros)),
                     Mask(end_tok.start, end_tok.end, name, "statement")]
            if after is not None and after.text == "else" and known is not None and opens_else(known, self.macros) \
                    and len(name) >= 2 and self.data[end_tok.end:end_tok.end + 1].isspace():
                # the last link of an else-if chain (`if (false) {} LINK(a) LINK(b) else {...}`, each link
                # `else if (...) {...}`): the others are statements to the grammar, this one `if     (b);`
                # (its name's bytes `if`, a blank after its `)` a `;`), so the chain's `else` block stays
                # conditional, as the compiler sees it
                edits = [(t.start, t.end, b"if" + _blank_bytes(self.data, t.start + 2, t.end)),
                         (end_tok.end, end_tok.end + 1, b";")]
                masks = [Mask(t.start, t.end, name, "statement", expansion(name, self.macros)),
                         Mask(end_tok.end, end_tok.end + 1, name, "statement")]
            return before[0] + edits, before[1] + masks
        if kind == "arguments":
            if not (known is not None and known.params is not None or _CAPS.fullmatch(name) or name in _ARG_MACROS):
                return None
            if close == i + 2 or self._shape(i, "type") is not None:
                return None  # no arguments to mask, or a type's (its arguments are what the grammar should see)
            return argument_masks(self.data, toks, i, close, known, self.macros)  # a selector macro keeps its argument
        if kind == "block":
            # a statement macro whose arguments do not parse, or a loop-header macro `NAME(args) {`
            if not (known is not None and known.params is not None or _CAPS.fullmatch(name)):
                return None
            before = self._statement_start(p, prev)
            if before is None:
                return None
            if after is not None and after.text == "{":
                edits, masks = self._mask(t.start, end_tok.end, name, "statement")
            elif self._ends_line(end_tok, after):
                edits = [(t.start, end_tok.start, _blank_bytes(self.data, t.start, end_tok.start)),
                         (end_tok.start, end_tok.end, b";")]
                masks = [Mask(t.start, end_tok.end, name, "statement", expansion(name, self.macros))]
            else:
                return None
            return before[0] + edits, before[1] + masks
        return None

    def _past_declarator_marks(self, k: int) -> Tok | None:
        """The token at toks[k] or, where that starts a run of `*`, `&` and `const`, the one after it."""
        toks = self.toks
        while k < len(toks) and toks[k].text in ("*", "&", "const"):
            k += 1
        return toks[k] if k < len(toks) else None

    def _ends_line(self, last: Tok, after: Tok | None) -> bool:
        """Nothing but a `}` follows the invocation on its line: a statement without `;`."""
        return after is None or after.text == "}" or self._line(after.start) != self._line(last.start)

    def _statement_start(self, p: int, prev: Tok | None):
        """([], []) where a statement may start after toks[p]; where toks[p] is itself a statement
        macro without `;` (`CUERR` on the line before), its edits and masks; else None."""
        if prev is None or prev.text in _STMT_BEFORE:
            return [], []
        if prev.kind == "ident" and p not in self.masked_at:
            got = self._shape(p, "statement")
            if got is not None and not (p + 1 < len(self.toks) and self.toks[p + 1].text == "("):
                return got
        return None

    @cached_property
    def file_scope(self) -> list[bool]:
        """Per token, whether it stands where declarations do (kernelport/token_scopes.py)."""
        return file_scope_flags(self.toks)

    def _adjacent(self, a, b) -> bool:
        """Whether mask b starts at the token right after mask a ends."""
        j = bisect.bisect_left(self.starts, a[1][-1].end)
        return j < len(self.toks) and self.toks[j].start == b[1][0].start

    def _attribute_position(self, name: str, prev: Tok | None, after: Tok | None, last: Tok) -> bool:
        """An unknown ALL_CAPS word (or call) between declaration words: `X int f`, `void X f(`.
        Followed by a word on a later line it is a statement macro (`CHECK(f(x))`), unless that
        word is a qualifier (`LAUNCH_BOUNDS(256)` above `__global__ void k(`)."""
        if not _CAPS.fullmatch(name) or len(name) < 2 or name in self.macros:
            return False
        if after is not None and after.text == "*" and prev is not None and prev.text == "(":
            return True  # a calling convention in a function pointer's declarator: `(WINAPI *f)(void *)`
        if after is None or after.kind != "ident":
            return False
        if self._line(after.start) != self._line(last.start) and after.text not in ATTRIBUTE_WORDS:
            return False
        return prev is None or prev.kind == "ident" or prev.text in (";", "{", "}", ")", ">", "*", "&", ",", "(", ":", "]")

    def _declarator_qualifier(self, i: int, p: int, prev: Tok | None, after: Tok | None) -> bool:
        """An unknown word of any case right after a declaration's `*` or `&` (or `* const`) and before
        its name or another `&`/`*` on the same line (cudaLBM's `T *const ptrRestrict ptr_;`, its
        `#define ptrRestrict __restrict__` in a header the file does not include): no C++ declarator
        or expression puts two words side by side there, so it is a qualifier macro."""
        if prev is None or after is None or not self.file_scope[i] or self.toks[i].text in _DECLARATOR_WORDS:
            return False
        if prev.text in ("const", "volatile"):
            prev = self.toks[p - 1] if p > 0 else None
        if prev is None or prev.kind != "punct" or prev.text not in ("*", "&") or \
                self._line(after.start) != self._line(self.toks[i].start):
            return False
        if after.kind == "ident":
            return after.text not in _DECLARATOR_WORDS
        k = i + 2  # `T * Q & name`
        return after.text in ("&", "*") and k < len(self.toks) and self.toks[k].kind == "ident"

    def _mask(self, start: int, end: int, name: str, reason: str):
        return [(start, end, _blank_bytes(self.data, start, end))], [Mask(start, end, name, reason,
                                                                          _ALTERNATES.get(name) or expansion(name, self.macros))]

    def _line(self, byte: int) -> int:
        return bisect.bisect_right(self.lines, byte)

    # -- preprocessor conditionals -------------------------------------------------------------
    def _conditionals(self, lo: int, hi: int):
        """Conditionals that split a construct (`#ifdef X` around an `else {`, an `extern "C" {`
        opened in one group and closed in another): every group of one condition is parsed as if
        the condition held, then as if it did not; the directive lines alone are tried first.
        """
        yield from split_configurations.candidates(self, lo, hi, _MAX_PARSES)  # nested tests that split one construct
        groups = self.groups
        inside = [g for g in groups if g.start < hi and lo <= g.end]  # in or around the error, in order
        near = sorted((g for g in groups if g.end > lo - 2000 and g.start < lo + 2000 and g not in inside),
                      key=lambda g: min(abs(g.start - lo), abs(g.end - lo)))
        done: set[str] = set()
        for g in (inside + near)[:12]:
            if g.cond in done:
                continue
            done.add(g.cond)
            same = [h for h in groups if h.cond == g.cond]
            for variant in group_variants(g, self.macros, self.data):
                yield from self._variant(variant, same, g.cond)
                if len(same) > 1:  # then this group alone
                    yield from self._variant(variant, [g], g.cond, g.start)

    def _variant(self, variant: str, groups: list["_Group"], cond: str, at: int | None = None):
        edits, masks = [], []
        dead = variant == "not taken" and _NEVER.fullmatch(cond) is not None  # `#if 0`: no build compiles it
        for h in groups:
            for s, e in h.hidden(variant):
                edits.append((s, e, _blank_bytes(self.data, s, e)))
                directive = (s, e) in h.directives
                reason = "conditional" if directive else NEVER if dead else f"conditional ({variant})"
                masks.append(Mask(s, e, h.cond, reason, alternative=h.has_else or variant == "taken" or dead))
        yield ("conditional", variant, cond, at), edits, masks

    @cached_property
    def groups(self) -> list["_Group"]:
        return _groups(self.data)


def repair(data: bytes, seen: bytes, tree: Tree, macros: Mapping[str, MacroDef],
           parse: Callable[..., Tree]) -> tuple[bytes, Tree, tuple[Mask, ...]]:
    """Mask what stops the parse of `data` (`seen`: what the grammar saw, `tree`: its parse)."""
    if not tree.root_node.has_error:
        return seen, tree, ()
    r = Repair(data, macros, parse)
    if builtin_decides(macros, r.groups):  # `#ifdef __cplusplus`: its other branch no build compiles, masked first
        got, t = r.run_decided(seen, _score(error_sites(tree)))
        if not r.masks or _score(error_sites(t)) >= _score(error_sites(tree)):
            r = Repair(data, macros, parse)
    if not r.masks:
        got, t = r.run(seen, tree)
    if error_sites(t) or rejected_branch_kept(r.masks, r.groups, macros, data):  # again from the -D's branches, at once
        r2 = Repair(data, macros, parse)
        got2, t2 = r2.run_decided(seen, _score(error_sites(tree)))
        if r2.masks and _score(error_sites(t2)) < _score(error_sites(t)) + (not error_sites(t)):  # clean: as clean
            r, got = r2, got2
    seen = got
    tree = parse(seen) if r.masks else tree  # the final tree from scratch: the same as any later parse of it
    kept = {(m.start, m.end): m for m in r.masks}  # a span masked twice (directive, then branch): the last
    return seen, tree, tuple(sorted(kept.values(), key=lambda m: m.start))
