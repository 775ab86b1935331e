"""Lane and warp indices inside macros, which the dataflow does not follow (tests/test_warpflow_forms.py's
xfail): each use of a macro in device code is expanded (a function-like macro's arguments put in, the
macros of its body that read a thread index expanded too), and its lane and warp arithmetic is judged
together with the rest of the function's port.

A function whose port computes one index from the wave (`threadIdx.x % WARP_SIZE` where the port makes
`WARP_SIZE` the wave, a site the port rewrote, a warp helper of its group ported at the wave width) and
another from 32 lanes (`threadIdx.x >> LOG_WARP_SIZE` kept as written, `blockDim.x >> 5` handed to a
macro that declares the warp count) disagrees with itself at wave 64: lane 40 of a 64-lane wave stores
to warp slot 1, which the wave-wide reduction never reads, a silent wrong port.  Where a macro's
expansion holds one side of that disagreement, the use is refused (KP219 at the use).

A macro whose body shuffles or votes over the whole warp (dgSPARSE-Lib's `SHFL_DOWN_REDUCE(v)`) is one side
too: the port runs it over the wave (its ladder gains a step at 32), while the function around it shows no
warp operation to the dataflow, which so keeps its lane 32-based (`lane_id = tid & (32 - 1)`)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping

from . import backends, dialect, fnscopes, halfvotes, lane_macros, lazy_re, macro_run_widths
from .macros import arguments
from .warpsites import int_value

if TYPE_CHECKING:
    from .translate import Translator

# `X >> 5`, `X / 32`, `X % 32`, `X & 31` (or the wave's), X ending at the operator: its right operand
_OP = lazy_re.compile(r"(>>|/|%|&)(?!=)\s*\(*\s*([A-Za-z_]\w*(?:\s*\(\s*\))?|0[xX][0-9a-fA-F]+|\d+)[uUlL]*"
                      r"(\s*-\s*1\b)?")
_WANTS = {">>": 5, "/": 32, "%": 32, "&": 31}
_INDEX = lazy_re.compile(r"\b(?:threadIdx|blockDim)\b")  # what a lane, a warp index or a warp count is made of
_WORD = lazy_re.compile(r"[A-Za-z_]\w*")
_DEPTH = 8  # nested macro expansions followed
_WAVE_KINDS = frozenset({"shuffle", "vote", "warp_reduce"})
SOURCE = backends.source().name


def _left_operand(text: str, at: int) -> str:
    """The operand that ends just before position `at` (an operator): a parenthesised group, or a run of
    names, members and subscripts (`threadIdx.x`, `p->tid`)."""
    i = at
    while i > 0 and text[i - 1].isspace():
        i -= 1
    end = i
    while i > 0:
        c = text[i - 1]
        if c == ")" or c == "]":
            depth, j = 0, i - 1
            while j >= 0:
                depth += text[j] in ")]"
                depth -= text[j] in "(["
                if depth == 0:
                    break
                j -= 1
            i = max(j, 0)
        elif c.isalnum() or c in "_.":
            i -= 1
        elif c == ">" and i > 1 and text[i - 2] == "-":
            i -= 2
        else:
            break
    return text[i:end]


def _closing(text: str, j: int) -> int:
    """Just past the `)` that closes the call whose arguments start at `j` (the text's end if none does)."""
    k, level = j, 1
    while k < len(text) and level:
        level += text[k] == "("
        level -= text[k] == ")"
        k += 1
    return k


class _Macros:
    """The macros a file's device code expands (its own, as the port writes their bodies, and its headers'),
    and how each right operand reads in the port: 32-based (the literal or a macro the port keeps), the
    wave's (`warpSize`, a macro the port makes the wave), or neither."""

    def __init__(self, tr: "Translator") -> None:
        self.tr = tr
        self.defs: dict[str, tuple[tuple[str, ...] | None, str]] = {}
        vis = tr.module.visible
        self.run32: dict[str, str] = {}  # a header's macro whose port gives its shuffles width 32 -> its expansions
        project, _ = macro_run_widths.of_unit(tr)
        for name, d in {**_header_defs(vis), **tr.src.macros}.items():
            run = macro_run_widths.in_run(project, d.path, name, d.body) \
                if d.params is not None and d.path != str(tr.src.path) else None
            if run is not None:
                self.run32[name] = run[1]
            self.defs[name] = (d.params, d.body if run is None else run[0])
        self.original = dict(self.defs)  # as written: what a body's warp operations are (`wave_op`)
        for n in tr.src.index.of_types("preproc_def", "preproc_function_def"):
            v = n.child_by_field_name("value")
            name = tr.src.text_of(n.child_by_field_name("name"))
            if tr.cuda_only_region(n):  # a definition no AMD pass reads: not judged here
                self.defs.pop(name, None)
                self.original.pop(name, None)
            elif v is not None and name in self.defs and tr.rw.touches(v.start_byte, v.end_byte):
                self.defs[name] = (self.defs[name][0], " ".join(tr.rw.text(v).replace("\\\n", " ").split()))
        self.visible = {**(vis.macros if vis is not None else {}), **tr.module.macros}
        self.wave_words = {"warpSize", "KP_WAVE_SIZE"} | set(_WORD.findall(tr.spell("warp_size"))) | \
            set(tr.wave_macros()) | set((vis.confirmed if vis is not None else {}))

    def width(self, op: str, word: str, minus_one: bool) -> str | None:
        """'32', 'wave' or None for the right operand `word` of `op`."""
        word = word.split("(")[0].strip()
        if word in self.wave_words:
            return "wave" if minus_one == (op == "&") else None
        m = self.visible.get(word)
        if m is not None:
            own = self.tr.module.macros.get(word) is m
            if own and m.value_node is not None and \
                    self.tr.rw.touches(m.value_node.start_byte, m.value_node.end_byte):
                return "wave" if minus_one == (op == "&") else None  # `#define WARP_SIZE KP_WAVE_SIZE` in the port
            v = int_value(m.value.strip().strip("()"))
        else:
            v = int_value(word)
        if v is not None and v - minus_one == _WANTS[op]:  # `& 31`, `& (32 - 1)`
            return "32"
        return None

    def expand(self, text: str, depth: int = 0, original: bool = False) -> str:
        """`text` with its function-like macros' uses and its object-like macros that read a thread index
        expanded (arguments put in as written), `depth` levels deep: the port's bodies, or the `original`'s."""
        if depth >= _DEPTH:
            return text
        defs = self.original if original else self.defs
        out, pos = [], 0
        for w in _WORD.finditer(text):
            if w.start() < pos:
                continue
            d = defs.get(w.group(0))
            if d is None:
                continue
            params, body = d
            if params is None:
                if not _INDEX.search(body):
                    continue  # a value (`WARP_SIZE`, `LOG_WARP_SIZE`): judged by `width`
                out += [text[pos:w.start()], "(", self.expand(body, depth + 1, original), ")"]
                pos = w.end()
                continue
            rest = text[w.end():]
            m = re.match(r"\s*\(", rest)
            if m is None or "#" in body:
                continue
            j = w.end() + m.end()
            k = _closing(text, j)
            args = arguments(text[j:k - 1])
            given = dict(zip(params, args)) if len(args) == len(params) and "..." not in params else {}
            expanded = _WORD.sub(lambda p: f"({given[p.group(0)]})" if p.group(0) in given else p.group(0), body)
            out += [text[pos:w.start()], self.expand(expanded, depth + 1, original)]
            pos = k
        return "".join(out) + text[pos:]


def _warp_ops(text: str, backend: str = SOURCE):
    """(name, whether it names its `width`) of each shuffle, vote or warp reduction called in `text`, read in
    `backend`'s spellings (CUDA source, or a port's body)."""
    for w in _WORD.finditer(text):
        c = dialect.lookup(backend, w.group(0))
        if c is None or c.kind not in _WAVE_KINDS:
            continue
        call = re.match(r"\s*\(", text[w.end():])
        if call is None:
            continue
        j = w.end() + call.end()
        k = _closing(text, j)
        found = dialect.spelled_by(backend, w.group(0))
        names = dialect.call_params(found[0], found[1])[0] if found is not None else []
        yield w.group(0), ("width" in names and len(arguments(text[j:k - 1])) > names.index("width")) \
            or (c.kind == "vote" and halfvotes.per_warp_after(text[k:]))  # `__ballot(p) >> (__lane_id() & 32)`


def wave_op(text: str) -> str | None:
    """The first shuffle, vote or warp reduction of CUDA source `text` (a macro's expansion as written) that
    runs over the whole warp, which the port runs over the wave: one without an explicit `width`."""
    return next((name for name, width in _warp_ops(text) if not width), None)


def _kept_groups(tr: "Translator", macros: "_Macros", use) -> bool:
    """Whether the port of a use's expansion names a width for every warp operation it runs (a body that
    kernelport/macro_contexts.py ported in the expanding function's 32-lane groups: `__shfl(v, 0, 32)`)."""
    ops = list(_warp_ops(macros.expand(tr.rw.text(use)), tr.backend))
    return bool(ops) and all(width for _, width in ops)


def _header_defs(vis) -> dict:
    """The MacroDefs of the headers a unit includes (a function-like macro too, which `Visible.macros` has not)."""
    where = getattr(vis, "elsewhere", None)
    if where is None or where.root is None:
        return {}
    try:
        return where.project.macro_defs(where.root)
    except Exception:  # noqa: BLE001 - a header that does not read: its macros are not judged here
        return {}


def _indices(text: str, macros: _Macros, locals_: Mapping[str, str]) -> list[tuple[str, str]]:
    """(width, the arithmetic) of each lane or warp index in `text`: an operator whose left operand reads a
    thread index (or a local of the function that does) and whose right operand is 32-based or the wave's."""
    out = []
    for m in _OP.finditer(text):
        width = macros.width(m.group(1), m.group(2), m.group(3) is not None)
        if width is None:
            continue
        left = _left_operand(text, m.start())
        if not left or not _reads_index(left, locals_):
            continue
        right = m.group(0) + ")" * max(m.group(0).count("(") - m.group(0).count(")"), 0)  # `& (32 - 1)`
        out.append((width, " ".join(f"{left} {right}".split())))
    return out


def _reads_index(text: str, locals_: Mapping[str, str], depth: int = 0) -> bool:
    if _INDEX.search(text):
        return True
    return depth < 3 and any(w in locals_ and _reads_index(locals_[w], locals_, depth + 1) for w in _WORD.findall(text))


def _locals(tr: "Translator", f) -> dict[str, str]:
    """The function's locals by name: their initialisers' port text (`int tid = threadIdx.x`)."""
    out: dict[str, str] = {}
    for d in tr.src.index.under(f.body, "init_declarator"):
        name, v = d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if name is not None and v is not None and name.type == "identifier":
            out.setdefault(tr.src.text_of(name), tr.rw.text(v))
    return out


def refuse_unfollowed_warp_math(tr: "Translator") -> None:
    """KP219 at a macro's use in device code whose expansion computes a lane or warp index from 32 lanes while
    the port makes another of the function's the wave's, or the reverse (this module's docstring)."""
    if all(r.wave <= 32 for r in backends.get(tr.backend).runs):
        return
    macros = _Macros(tr)
    if not macros.defs:
        return
    sites = tr.wave_sites()
    wide_fns = {s.function for s in sites if s.role != "ws_macro"}
    macro_made_wave = any(s.role == "ws_macro" for s in sites)
    owner = fnscopes.of(tr.module)
    uses: dict[str, list] = {}  # function key -> the macro uses in it
    for n in tr.src.named_under(tr.src.root, "identifier", macros.defs):  # (the macros' names only, in order)
        name = tr.src.text_of(n)
        d = macros.defs[name]
        if (d[0] is not None and (n.parent is None or n.parent.type != "call_expression" or
                                                n.parent.child_by_field_name("function") != n)):
            continue
        f = tr.module.function_at(n)
        if f is None or not f.is_device or f.body is None:
            continue
        uses.setdefault(owner.key(f), []).append((f, n if d[0] is None else n.parent, name))
    refused: set[str] = set()
    lanes = lane_macros.rewritten(tr)  # `#define LANE_ID (threadIdx.x % 32)` ported at its #define (lane_macros)
    for key, found in uses.items():
        f = found[0][0]
        if tr.widths.logical(key):  # 32-lane groups the port keeps: only a macro's whole-wave operation differs
            _refuse_wave_ops(tr, macros, f, found, refused)
            continue
        locals_ = _locals(tr, f)
        group = tr.widths.by_function.get(key)
        wide = key in wide_fns or (group is not None and bool(group.functions & wide_fns)) or macro_made_wave
        plain = _indices(tr.rw.text(f.body), macros, locals_)  # (a use's own arguments among them)
        judged = [(use, name, _indices(macros.expand(tr.rw.text(use)), macros, locals_),
                   None if _kept_groups(tr, macros, use) else wave_op(macros.expand(tr.src.text_of(use), original=True)))
                  for _, use, name in found]
        waves = [m for _, _, got, _ in judged for w, m in got if w == "wave"] + \
            [m for w, m in plain if w == "wave"]
        ops = [(op, name) for _, name, _, op in judged if op is not None]
        kepts = [m for _, _, got, _ in judged for w, m in got if w == "32"] + [m for w, m in plain if w == "32"]
        for use, name, got, op in judged:
            if name in refused:
                continue
            if name in macros.run32 and (wide or waves):
                site = next((x for x in sites if x.function == key and x.role != "ws_macro" and x.confirmed), None)
                at = f" (`{' '.join(tr.src.text_of(site.node).split())}` at line {tr.src.loc(site.node).line} is " \
                    "ported as the wave's)" if site is not None else f" (`{waves[0]}`)" if waves else ""
                tr.problem("KP219", use, f"cannot decide the warp width here: the header's port gives `{name}`'s shuffles "
                           f"CUDA's width, 32 (every expansion the run shows keeps 32-lane groups: {macros.run32[name]}), "
                           f"while the port makes the warp of `{f.name}` the wave{at}", "mark the function "
                           "`// @kp warp-width 32` where its lanes are 32-based as the macro's are (its shuffles then keep "
                           "CUDA's width), or write the macro's shuffles and the function's lanes with warpSize")
                refused.add(name)
                continue
            kept = next((m for w, m in got if w == "32"), None)
            waved = next((m for w, m in got if w == "wave"), None)
            if kept is not None and (wide or waves or ops):
                mine = f"is `{kept}`, a lane or warp index of a 32-lane warp in a macro's body or arguments"
                why = f"`{waves[0]}` is the wave's" if waves else \
                    f"the port runs `{ops[0][0]}` of `{ops[0][1]}` over the wave" if ops else \
                    f"the port makes the wave width of `{f.name}` the wave's"
            elif (waved is not None or op is not None) and kepts:
                mine = f"is `{waved}`, a lane or warp index of the wave in a macro's body" if waved is not None else \
                    f"runs `{op}` over the wave in the port"
                why = f"`{kepts[0]}` stays 32-based"
            elif waved is not None and name in lanes and not wide and not ops and \
                    not lane_macros.warp_work(tr, key, _warp_ops):
                mine = f"is `{waved}`, the wave's lane (the `#define` is ported once, for another function's shuffle)"
                why = f"`{f.name}` runs no warp operation, so its `{name}` counts CUDA's 32 lanes"
            else:
                continue
            shown = " ".join(tr.src.text_of(use).split())
            shown = shown if len(shown) <= 60 else f"{name}(...)"
            tr.problem("KP219", use, f"cannot decide the warp width here: `{shown}` {mine} (kernelport does not "
                       f"follow a macro to its uses), while {why}: at wave 64 the two would disagree",
                       "write the index with warpSize (or as a device function) in the CUDA source, or keep "
                       "32-lane groups explicitly (`// @kp warp-width 32`)")
            refused.add(name)  # once per macro


def _refuse_wave_ops(tr: "Translator", macros: _Macros, f, found, refused: set[str]) -> None:
    """KP219 at a use, in a function the port keeps as logical 32-lane groups, of a macro whose shuffle or vote
    runs over the whole warp: its body is ported once, at the wave width (a ladder's step at 32 added, no
    `width`), so at wave 64 it would mix two groups' lanes (or read lanes a 32-thread block does not have)."""
    for _, use, name in found:
        op = wave_op(macros.expand(tr.src.text_of(use), original=True))
        if op is None or name in refused or _kept_groups(tr, macros, use):
            continue
        shown = " ".join(tr.src.text_of(use).split())
        shown = shown if len(shown) <= 60 else f"{name}(...)"
        tr.problem("KP219", use, f"cannot decide the warp width here: `{shown}` runs `{op}` over the wave in the "
                   f"port (a macro's body is ported once, for every use), while `{f.name}` keeps logical 32-lane "
                   "groups: at wave 64 the macro would mix two groups' lanes",
                   "give the macro's shuffles an explicit width of 32 in the CUDA source (`__shfl_down_sync(mask, v, "
                   "d, 32)`), or write it as a device function")
        refused.add(name)
