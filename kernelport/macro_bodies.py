"""Warp operations inside macro bodies (`#define BALLOT(p) __ballot_sync(FULL_MASK, (p))`): a body
is unparsed text to the grammar, so each one that names a concept or API name is translated as a
tiny function body of its own, and its port replaces the body's text.

The wrapped body's model sees the macros defined where the body is expanded, the file's own and its
headers' (`Visible.macros`): a mask macro it reads (`FULL_MASK`) is judged by its value, as it is in
a function, where before it was an unknown name (KP203 on CUDA's full mask)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import backends, dialect, lazy_re, macro_contexts, macro_run_widths
from .errors import Location
from .model import Module, Visible, build
from .rewrite import key as rewrite_key
from .source import SourceFile

if TYPE_CHECKING:
    from .translate import Translator

WRAP = ("void __kp_macro__(void) {\n", "\n;}\n")
_CONTINUED = lazy_re.compile(r" ?\n(?=[\s\S])")  # a line break of a ported body: the space that stood for its backslash
# A built-in coordinate read whole (not `threadIdx.x`): gvdb's `#define GVDB_VOXUNPACKED uint3 atlasIdx = blockIdx *
# blockDim + localIdx; ...`, which a backend whose coordinates are no vectors spells otherwise (`whole_coordinate`)
_WHOLE_COORDINATE = lazy_re.compile(r"\b(?:threadIdx|blockIdx|blockDim|gridDim)\b(?!\s*\.)")


# What only device code reads (a thread index, a shuffle, a vote, a barrier, a warp reduction): a body
# that names one is expanded in device code, so its wave width is the device's (`lane = tid & 31` is
# `tid & (warpSize - 1)`), never the host's run-time query, which device code cannot call.
DEVICE_KINDS = frozenset({"index", "shuffle", "vote", "barrier", "reduction"})


def device_body(words: set[str]) -> bool:
    """Does a macro body with these words name something only device code reads?"""
    from .translate import SOURCE
    return any((c := dialect.lookup(SOURCE, w)) is not None and c.kind in DEVICE_KINDS for w in words)


def body_model(tr: "Translator", sub: SourceFile, device: bool = False) -> Module:
    """The model of a macro body wrapped as a function, seeing the file's macros and its headers'
    (a device function where the body is device code: `device_body`)."""
    m = build(sub)
    if device:
        for f in m.functions.values():
            f.qualifiers = f.qualifiers | {"__device__"}
    vis = tr.module.visible
    m.visible = Visible(macros={**(vis.macros if vis is not None else {}), **tr.module.macros})
    return m


def rewrite(tr: "Translator") -> None:
    """Translate each macro body of `tr`'s file that names a concept or an API name, in place."""
    from .translate import SOURCE, Translator
    names = dialect.respelled(SOURCE, tr.backend)  # the table's, once per process
    whole = backends.get(tr.backend).whole_coordinate is not None
    # Where the backend's wave constant is only a bound (portable's KP_WAVE_MAX), a warp-size macro the port makes
    # that bound means the run-time width in a device body's values (`#define WARP_ID (threadIdx.x / WARP_SIZE)`,
    # else threadIdx.x / 64 at wave 32): the body's port rewrites those uses as the file's functions' are.
    wave = frozenset(tr.wave_macros()) if backends.get(tr.backend).wave_constant != "exact" else frozenset()
    for n in tr.src.index.of_types("preproc_def", "preproc_function_def"):  # the index: no walk of every node
        v = n.child_by_field_name("value")
        lane = v is not None and rewrite_key(v) in getattr(tr.rw, "lane_hosts", ())  # its sites rewritten (lane_macros)
        if v is None or (tr.rw.has(v) and not lane) or tr.rw.has(n) or tr.rw.within(n):  # a macro the port leaves out
            continue
        # `#if __CUDA_ARCH__ >= 700 #define ... __match_any_sync ...`: no AMD pass reads this definition (the
        # #else's does), so what its port cannot spell is no refusal; a `#ifndef USE_ROCM` branch is one a
        # HIP build without that project define still compiles, so whatever ports is ported.
        cuda_only = tr.cuda_only_region(n)
        text = tr.rw.text(v) if lane else tr.src.text_of(v)
        words = set(re.findall(r"[A-Za-z_]\w*", text))
        device = device_body(words) or n.type == "preproc_function_def" and _expanded_in_device_code(tr, n)
        bound_uses = wave & words if device else frozenset()
        if not words & names and not any(dialect.is_api_name(SOURCE, w) for w in words) and \
                not (whole and _WHOLE_COORDINATE.search(text)) and not bound_uses:
            continue
        joined = text.replace("\\\n", " \n")  # line continuations, same length
        # a header's macro every expansion of the run keeps in 32-lane groups: its shuffles take CUDA's width, 32
        project, unit = macro_run_widths.of_unit(tr)
        run = macro_run_widths.in_run(project, unit, tr.src.text_of(n.child_by_field_name("name")), joined) \
            if n.type == "preproc_function_def" and not cuda_only else None
        ported_text = joined if run is None else run[0]
        pre, post = WRAP
        sub = SourceFile.from_text(pre + ported_text + post, tr.src.path)
        if sub.syntax_errors():  # a fragment, not an expression or statement: only its API names
            tr.rename_api_tokens(v)
            continue
        inner = Translator(sub, tr.backend, tr.allow_unported, module=body_model(tr, sub, device),
                           **tr.options)  # spellings only
        inner.inherit_api_context(tr)
        inner.spell = tr.spell  # the file's spellings (Metal's built-in names where the file's own words take the short ones)
        inner.outer_wave_macros = bound_uses
        port = inner.run()
        line = tr.src.loc(v).line
        # a shuffle's or a vote's port depends on the group of the function that expands the body: that
        # function ports it once more in its own context (kernelport/macro_contexts.py)
        ctx = macro_contexts.ported_in_context(tr, tr.src.text_of(n.child_by_field_name("name")), ported_text, words,
                                               line) \
            if n.type == "preproc_function_def" else macro_contexts.Contextual(None, [])
        if cuda_only and any(d.severity == "error" for d in port.diagnostics + ctx.diagnostics):
            continue
        if n.type == "preproc_function_def" and not tr.allow_unported and \
                any(d.severity == "error" for d in port.diagnostics) and _unexpanded(tr, n):
            _stop_expansions(tr, n, v, port.diagnostics, line)
            continue
        column = tr.src.loc(v).column  # the body's first line starts there (`#define real double`: 13)
        for d in port.diagnostics:
            d.location = Location(tr.src.path, line + d.location.line - 2,
                                  d.location.column + (column - 1 if d.location.line == 2 else 0))
            tr.port.diagnostics.append(d)
        tr.port.diagnostics.extend(ctx.diagnostics)
        body = port.body[len(pre):len(port.body) - len(post)] if ctx.body is None else ctx.body
        if body != joined:
            # one logical line: the original's continuations come back, and a line the port adds (a wave's
            # wider step before `v += __shfl_down_sync(FULL, v, 16);`) is continued too, else the macro
            # ends there and the rest of its body is file-scope code (hipcc: "unknown type name 'v'")
            tr.rw.replace(v, _CONTINUED.sub("\\\\\n", body) if "\n" in body else body)
            tr.note(v, "...", "a warp operation inside a macro body" if run is None else "the shuffles of a macro every "
                    f"expansion of the run keeps in 32-lane groups take CUDA's width, 32 (expanded at {run[1]})")


def _expanded_in_device_code(tr: "Translator", n) -> bool:
    """Whether the function-like macro `n` is used in the file, and only in device code (`LANE(t) ((t) %
    WARP_SIZE)` with `LANE(threadIdx.x)` in a kernel): its body's values are then device values, though
    the body itself names no thread index, where the argument brings it."""
    name = n.child_by_field_name("name")
    word = tr.src.text_of(name) if name is not None else None
    fs = [tr.module.function_at(u) for u in (tr.src.named_under(tr.src.root, "identifier", (word,)) if word else ())
          if u != name]  # (its uses by the parse's texts: not every identifier decoded once per macro)
    return bool(fs) and all(f is not None and f.is_device and not f.is_host for f in fs)


def _unexpanded(tr: "Translator", n) -> bool:
    """Whether no file of the run that sees this file names the function-like macro `n` (beyond its
    own definition): its body is then code nothing of the run runs."""
    elsewhere = getattr(getattr(tr.module, "visible", None), "elsewhere", None)
    name = n.child_by_field_name("name")
    return elsewhere is not None and name is not None and elsewhere.mentions(tr.src.text_of(name)) is False


def _stop_expansions(tr: "Translator", n, v, diagnostics, line: int) -> None:
    """A macro whose body has no safe rewrite, which no file of the run expands (dgSPARSE-Lib's
    `SEG_SHFL_SCAN`, a 32-lane segmented scan in a header every unit includes and few use): not a
    refusal of the run, whose code never runs it, and not a body kept as written either, which an
    expansion outside the run would compile into a wrong port.  The body becomes a `static_assert`
    that stops any expansion at compile time, and each problem is said as a warning."""
    name = tr.src.text_of(n.child_by_field_name("name"))
    codes = sorted({d.code for d in diagnostics if d.severity == "error"})
    text = tr.src.text_of(v)
    tail = "\\\n" * text.count("\\\n")  # the same lines, so the port's lines pair with the original's
    tr.rw.replace(v, f'static_assert(false, "kernelport: {name} is not ported ({", ".join(codes)}): no file of the '
                  f'translate run expanded it"); {tail}'.rstrip(" "))
    for d in diagnostics:
        if d.severity == "error":
            d.location = Location(tr.src.path, line + d.location.line - 2, d.location.column)
            d.severity = "warning"
            d.message = f"in `{name}`, which no file of the run expands (its port stops any expansion): {d.message}"
            tr.port.diagnostics.append(d)
    tr.note(v, "static_assert(false, ...)", "a macro with no safe rewrite that no file of the run expands")
