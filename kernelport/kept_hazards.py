"""KP225: a wave-width hazard of the original that the port keeps as written.

Translate lints the original for the backend's targets anyway (soundness.self_check); an
error-level warp-size finding of the original is kept when no rewrite of the port touched the code
it points at (a rewritten one is what the port fixes).  A port that lint says is wrong on one of
its targets is not written silently: like any construct with no safe rewrite it
stops the port (exit 1), or, with --allow-unported, is written behind a KERNELPORT-UNPORTED comment.
Whatever lint stays quiet on (look-alikes, inline suppressions) stays quiet here, as the same lint
decides; a backend whose waves are all 32 wide has no such hazard (lint's WS errors need a wave-64
target).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import backends
from .diagnostics import Diagnostic
from .errors import Location
from .portlines import source_lines
from .source import SourceFile, ident_name

if TYPE_CHECKING:
    from .translate import Port

CODE = "KP225"
# Rules that judge a name, not a computation: WS001 reports `#define WARP_SIZE 32` itself.  The
# port does not keep the definition's hazard as such: the uses that reach a warp-level sink are
# what translation rewrites (warpflow), and a use that computes wrong is its own rule's finding;
# refusing on the name alone would refuse correct logical 32-lane groups (a padded 32-lane scan).
NAME_ONLY = frozenset({"WS001"})
# Rules on the host's launch geometry (a block sized by 32): what they judge is the launched kernels' warps.
# Where every kernel the finding's host function launches is a group translate keeps at 32 lanes (every
# shuffle width 32, each vote over its own CUDA warp), `warps * 32` threads are whole groups of the port
# (lint's WS015 passes them, and does on the port): no kept hazard, provided the port's lint agrees.
GEOMETRY = frozenset({"WS015", "WS031"})
# Rules on what a launch's block does to a kernel's fixed shared arrays (WS033: a block sized from the device's
# warp size into `slots[WARPS]` indexed by the thread or its 32-lane warp): at a launch `k<<<g, block>>>`, a port
# that rewrote every warp operation of k has not fixed them (_helper_rewritten reads a call's masks).
EXTENTS = frozenset({"WS033"})
# Rules on a definition in one branch of a platform test (WS014: a 64 in the branch hipcc takes): where the port
# rewrote a test of the chain (`#if defined(__CUDACC__)` is `defined(__HIPCC__)` in the port, so hipcc takes the
# CUDA branch and the `#else 64` is no AMD build's) and the port's own lint no longer reports it at that line,
# the port's branches are what hipcc compiles: no kept hazard.  A test the port keeps (`!defined(__HIPCC__)`,
# `__HIP_PLATFORM_AMD__`: the `#else 64` is every AMD build's, RDNA's 32-lane waves too) keeps it.
BRANCHES = frozenset({"WS014"})
_CONDITIONALS = ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef")


def _branch_retested(src: SourceFile, span, rw) -> bool:
    """Whether `span` lies in a branch of a preprocessor conditional one of whose tests the port rewrote."""
    n = src.root.descendant_for_byte_range(*span) if span is not None else None
    while n is not None and n.type not in ("preproc_else", *_CONDITIONALS):
        n = n.parent
    while n is not None and n.type in ("preproc_else", *_CONDITIONALS):  # (up the chain to its `#if`)
        test = n.child_by_field_name("condition") or n.child_by_field_name("name")
        if test is not None and rw.touches(test.start_byte, test.end_byte):
            return True
        if n.type in ("preproc_if", "preproc_ifdef"):
            return False
        n = n.parent
    return False


def _kept_groups(src: SourceFile, module, widths, span) -> bool:
    """Whether the host function holding `span` launches kernels of this file, each of a group translate keeps
    at 32 lanes with no vote that sees another group (warpwidth LOGICAL; votes none, or spelled per warp)."""
    from . import fnscopes
    from .warpwidth import LOGICAL
    if module is None or widths is None or span is None or module.source.text != src.text:
        return False
    host = module.function_at(module.source.root.descendant_for_byte_range(*span))
    if host is None:
        return False
    scopes, kernels, hosts = fnscopes.of(module), [], _host_callees(module, host)
    for launch in module.launches:
        if module.function_at(launch.node) in hosts:
            found = [scopes.key(f) for f in module.functions.values() if f.is_kernel and f.name == launch.kernel]
            if not found:
                return False  # a kernel of another file (declared here): no width of translate's says its groups
            kernels += found
    groups = [widths.by_function.get(k) for k in kernels]
    return bool(groups) and all(g is not None and g.width == LOGICAL and (not g.votes or g.half_votes or g.spelled_votes)
                                for g in groups)


def _host_callees(module, host, bound: int = 64) -> list:
    """`host` and the host functions of this file it calls, transitively (a block handed to a launcher of
    the file, `go(x, block)`, is launched there): the functions whose launches the finding's geometry reaches."""
    from . import fnscopes
    out, todo = [host], [host]
    while todo and len(out) < bound:
        f = todo.pop()
        if f.body is None:
            continue
        for call in module.source.index.under(f.body, "call_expression"):
            name = fnscopes.callee_name(call.child_by_field_name("function"))
            g = module.functions.get(name) if name else None
            if g is not None and not g.is_kernel and g not in out:
                out.append(g)
                todo.append(g)
    return out


def _still_reported(src: SourceFile, port: Port, rw, after: dict[str, list] | None, offset: int,
                    codes=GEOMETRY) -> set:
    """(rule, the original's line) of each error of `codes` the port's lint reports."""
    origin = source_lines(src.text, port.body, rw)  # the port's body line -> the original's line
    out = set()
    for code in codes:
        for f in (after or {}).get(code, ()):
            j = f.line - offset - 1
            out.add((code, origin[j] if 0 <= j < len(origin) else None))
    return out


def kept_hazards(src: SourceFile, backend: str, port: Port, text: str, before: dict[str, list], offset: int,
                 rw, allow_unported: bool = False, after: dict[str, list] | None = None, *, module=None,
                 widths=None, elsewhere=None) -> str:
    """KP225 for each finding in `before` (the original's WS errors by rule) that the port keeps
    (`rw`: the port's rewrites); `offset`: the lines of the port's prologue, before its body.  `after`:
    the port's own WS errors by rule (its lint); `module`, `widths`: translate's model and warp widths of
    `src`: a launch geometry finding (GEOMETRY) for kernels the port keeps at 32 lanes, which the port's lint
    no longer reports at that line, is fixed by the port's kernels; `elsewhere`: the unit's view of the run
    (includers.Elsewhere; None where the run is unknown, as for the Python API)."""
    b = backends.get(backend)
    if all(r.wave <= 32 for r in b.runs):
        return text
    targets = ", ".join(sorted({r.target for r in b.runs}))  # the port's lint targets (lint's words)
    marks: dict[int, list[str]] = {}
    still = _still_reported(src, port, rw, after, offset) if after is not None and widths is not None else None
    branched = _still_reported(src, port, rw, after, offset, BRANCHES) if after is not None and \
        any(c in before for c in BRANCHES) else None
    for code, found in sorted(before.items()):
        for f in found:
            if code in NAME_ONLY and (not _class_member_value(src, f.span) or unread_member(src, f.span, elsewhere)):
                continue
            if f.span is None or rw.touches(*f.span) or code not in EXTENTS and _helper_rewritten(src, f.span, rw) or \
                    _macro_rewritten(src, f.span, rw):
                continue  # rewritten: the port fixes it
            if code in BRANCHES and branched is not None and (code, f.line) not in branched and \
                    _branch_retested(src, f.span, rw):
                continue  # the port's test sends hipcc to another branch: its lint agrees
            if code in GEOMETRY and still is not None and (code, f.line) not in still and \
                    _kept_groups(src, module, widths, f.span):
                continue  # the host's 32s are what the port's kernels now say (32-lane groups): its lint agrees
            message = (f"{code} ({f.name}) is kept as written in the {b.display_name} port, where lint reports it "
                       f"as an error for {targets}: {f.message}")
            hint = (f"fix it in the CUDA source (`kernelport rule {code}` explains, `kernelport lint --fix` "
                    f"applies the safe fixes); where the code is right on every wave width, suppress it on its "
                    f"line with `// kernelport: ignore[{code}] <why>`; --allow-unported writes the port with it "
                    "marked")
            port.diagnostics.append(Diagnostic(CODE, Location(src.path, f.line, f.column), message, hint,
                                               "warning" if allow_unported else "error"))
            marks.setdefault(f.line, []).append(code)
    port.diagnostics.sort(key=lambda d: (d.location.line, d.location.column))
    if not marks or not allow_unported:
        return text  # refused: nothing is written
    origin = source_lines(src.text, port.body, rw)  # the port's body line -> the original's line
    port_line = {o: j + 1 + offset for j, o in reversed(list(enumerate(origin)))}
    lines = text.split("\n")
    for at, codes in marks.items():  # the port's line, marked before its first non-blank character
        line = port_line.get(at) or max((l for o, l in port_line.items() if o < at), default=offset + 1)
        s = lines[line - 1]
        i = len(s) - len(s.lstrip())
        lines[line - 1] = s[:i] + f"/* KERNELPORT-UNPORTED {CODE}: {', '.join(codes)} kept as written */ " + s[i:]
    return "\n".join(lines)


def declare_unreached(tr) -> None:
    """A hazard kept_hazards would keep (KP225) inside a device helper that no code of the run calls (a
    header's `blockReduceMin` that mixes warpSize and 32): the helper is written as a declaration the
    backend marks unavailable (unavailable.declare, as for KP201/KP203 in such helpers), so a call is a
    compile error naming the hazard, instead of refusing every file that includes the header.  Run as
    translate's last pass, before the body is finished; nothing where the port is refused anyway."""
    b = backends.get(tr.backend)
    if all(r.wave <= 32 for r in b.runs) or any(d.severity == "error" for d in tr.port.diagnostics):
        return
    from . import unavailable
    from .soundness import original_warp_errors, plain_parse_of
    plain = getattr(tr, "plain", (None, None))  # the caller's include-free model, as translate's self-check
    own = (tr.module, tr.analysis) if tr.own_model and not tr.changes_model else \
        plain if plain[0] is not None and plain_parse_of(plain[0].source, tr.src) else None
    for code, found in sorted(original_warp_errors(tr.src, tr.backend, own).items()):
        elsewhere = getattr(getattr(tr.module, "visible", None), "elsewhere", None)
        for f in found if code not in NAME_ONLY else [f for f in found if _class_member_value(tr.src, f.span)
                                                       and not unread_member(tr.src, f.span, elsewhere)]:
            if f.span is None or tr.rw.touches(*f.span) or _helper_rewritten(tr.src, f.span, tr.rw) or \
                    _macro_rewritten(tr.src, f.span, tr.rw):
                continue  # (what kept_hazards skips: the port fixes it)
            node = tr.src.root.descendant_for_byte_range(*f.span)
            if node is not None:
                unavailable.declare(tr, node, CODE, f"{code} ({f.name}) would be kept as written: {f.message}")


def _class_member_value(src: SourceFile, span: tuple[int, int] | None) -> bool:
    """A NAME_ONLY finding at a class's own static member (`struct GpuConfig { static constexpr int warpSize =
    32; }`, read as `GpuConfig::warpSize`): translate's dataflow does not read a member's value, so its uses
    (`threadIdx.x & (GpuConfig::warpSize - 1)` beside a ballot the port widens to the wave) are not what the
    port rewrites: kept, said (a free `constexpr int kWarp = 32;` is read, its logical 32-lane groups ported)."""
    node = src.root.descendant_for_byte_range(*span) if span is not None else None
    while node is not None and node.type not in ("field_declaration", "function_definition", "translation_unit"):
        node = node.parent
    return node is not None and node.type == "field_declaration"


def unread_member(src: SourceFile, span: tuple[int, int] | None, elsewhere) -> bool:
    """Whether the class's static member at `span` (`static constexpr int WARP_SIZE = 32;` in a tiling config
    struct) is named by no file of the run beyond the member declarations of that name in `src` (cuflash-attn's
    ForwardTilingConfig and BackwardTilingConfig each declare one, and nothing reads either): a value nothing
    reads computes nothing, so the port keeping it is right.  Any other mention of the word in a file of the
    run (the file itself, its headers, the run's units and their headers; code, macro bodies and comments
    alike) counts as a read; False where the run is unknown (`elsewhere` None or without a root)."""
    from .includers import _run_files
    node = src.root.descendant_for_byte_range(*span) if span is not None else None
    while node is not None and node.type not in ("field_declaration", "function_definition", "translation_unit"):
        node = node.parent
    if elsewhere is None or elsewhere.root is None or node is None or node.type != "field_declaration":
        return False
    names = [c for c in node.named_children if c.type == "field_identifier" and c.start_byte <= span[0]]
    if not names:
        return False
    word = src.text_of(names[-1])  # the member whose value the finding is at (`WARP_SIZE = 32`)
    own = sum(1 for d in src.index.of_type("field_declaration") for c in d.named_children
              if c.type == "field_identifier" and src.text_of(c) == word)  # its declarations, this one too
    pattern = re.compile(rf"\b{re.escape(word)}\b")
    proj = elsewhere.project
    files = list(dict.fromkeys([elsewhere.root, *_run_files(proj)]))
    for f in files:
        try:
            text = src.text if f == elsewhere.root else proj.module(f).source.text
        except Exception:  # noqa: BLE001 - a file that does not parse: its text may read it
            return False
        if len(pattern.findall(text)) > (own if f == elsewhere.root else 0) or pastes_to(text, word):
            return False
    return True


_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+\w+(\([^)]*\))?(.*)$", re.M)
_PASTE = re.compile(r"\w+(?:\s*##\s*\w+)+")


def pastes_to(text: str, word: str) -> bool:
    """Whether a macro of `text` may paste `word` out of pieces (`Cfg::name##_SIZE` given `WARP`,
    `CAT(WARP_, SIZE)`): a read that no search for the word finds.  A piece that is a parameter of the
    macro (`__VA_ARGS__` too) stands for any text, a written piece for itself; a paste whose pieces can
    spell `word` so is a possible read (a paste of parameters only always is)."""
    for d in _DEFINE.finditer(text.replace("\\\n", " ")):
        params = {p.strip().rstrip(".") for p in (d.group(1) or "()")[1:-1].split(",")} | {"__VA_ARGS__"}
        for chain in _PASTE.finditer(d.group(2)):
            pieces = re.split(r"\s*##\s*", chain.group(0))
            if re.fullmatch("".join(r"\w*" if p in params else re.escape(p) for p in pieces), word):
                return True
    return False


def _helper_rewritten(src: SourceFile, span: tuple[int, int], rw) -> bool:
    """A finding at a call of the file's own helper (WS012: "`warpReduceSum` runs full-mask warp
    operations after the early return") is what the port fixes when the port rewrote every warp
    operation in that helper's body (the masks the finding is about); one level deep, else kept."""
    from .lint.divergence import lookup  # the concept table, as lint reads it
    call = src.root.descendant_for_byte_range(*span)
    while call is not None and call.type != "call_expression":
        call = call.parent
    fn = call.child_by_field_name("function") if call is not None else None
    if fn is None or fn.type != "identifier":
        return False
    name = src.text_of(fn)
    ops = [c for d in src.index.under(src.root, "function_definition")
           if ident_name(d.child_by_field_name("declarator")) == name and d.child_by_field_name("body") is not None
           for c in src.index.under(d.child_by_field_name("body"), "call_expression")
           if (g := c.child_by_field_name("function")) is not None and g.type == "identifier"
           and (k := lookup(src.text_of(g), backends.names())) is not None and k.warp_level]
    return bool(ops) and all(rw.touches(c.start_byte, c.end_byte) for c in ops)


def _macro_rewritten(src: SourceFile, span: tuple[int, int], rw) -> bool:
    """A finding at a use of the file's own object-like macro (WS011: `__shared__ float part[WARP_SIZE]`,
    a per-warp array whose index the port divides by the wave) whose every definition's value the port
    rewrote (`#define WARP_SIZE KP_WAVE_SIZE`): the use is the wave's constant in the port too."""
    node = src.root.descendant_for_byte_range(*span)
    if node is None or node.type not in ("identifier", "type_identifier") or \
            (node.start_byte, node.end_byte) != tuple(span):
        return False
    name = src.text_of(node)
    values = [d.child_by_field_name("value") for d in src.index.of_type("preproc_def")
              if (n := d.child_by_field_name("name")) is not None and src.text_of(n) == name]
    # every definition (vLLM's `#ifndef USE_ROCM #define WARP_SIZE 32 #else #define WARP_SIZE warpSize`: the
    # finding may be the other branch's, which the port keeps)
    return bool(values) and all(v is not None and rw.touches(v.start_byte, v.end_byte) for v in values)
