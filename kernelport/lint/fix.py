"""`--fix`: only rewrites that cannot change what the CUDA code computes on NVIDIA.

The edits are the translator's own site rewrites (`kernelport.translate.Translator`), run with
the CUDA column of the dialect table: there the wave width is spelled `warpSize`, which is 32 on
every NVIDIA GPU, so `tid % 32` → `tid % warpSize`, a ladder from 16 → from `warpSize / 2`, an
unrolled ladder gains a `if (warpSize > 32)` step that never runs on NVIDIA.  Compile-time uses
(array sizes, constexpr) keep their 32 in CUDA, so they get no fix; neither do rewrites that could
change a result (`__clz` of a mask, `__popcll` of a signed mask) get no fix.

A second tier, applied only with `--unsafe-fixes` (ruff's applicability): rewrites that are right
on every wave width but change a type on NVIDIA: a lane bit `1u << lane` → `1ull << lane`, a
ballot stored as `unsigned` → `unsigned long long`.  Their values are the same for lanes 0-31, but
a 64-bit type can change an overload, a `printf` format, the width of a store or an atomic.  The
wide spellings are the source backend's `lint_unsafe_spellings` (kernelport/backends/).
"""
from __future__ import annotations

import difflib
import os
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Callable

from tree_sitter import Node

from .. import backends, dialect
from ..source import call_args
from ..translate import Translator
from .finding import Edit, Fix

SAFE, UNSAFE = "safe", "unsafe"
# The tier of each site's rewrite (a role not here has no fix).
APPLICABILITY = {"ws": SAFE, "ws_m1": SAFE, "half": SAFE, "five": SAFE, "ladder": SAFE, "bitop64": SAFE,
                 "one": UNSAFE, "type32": UNSAFE}
# The fixes are the translator's rewrites into the source dialect itself (CUDA -> CUDA).
_SOURCE = backends.source().name
_PORTABLE = dialect.concept("warp_size").spelling(_SOURCE)  # "warpSize"
_WIDE = backends.source().lint_unsafe_spellings  # {"lanemask_one": "1ull", ...}


class _FixTranslator(Translator):
    """The translator into the source dialect; for an unsafe fix, with the source's wide spellings."""
    wide: dict[str, str] = {}

    def spell(self, key: str) -> str:
        return self.wide.get(key) or super().spell(key)


def _translator(ctx) -> Translator:
    """A CUDA-column Translator for the file, on the model and dataflow lint already built."""
    t = ctx.__dict__.get("_kp_translator")
    if t is None:
        t = ctx.__dict__["_kp_translator"] = _FixTranslator(ctx.src, _SOURCE, module=ctx.module, analysis=ctx.analysis)
    return t


def _unsigned_mask(ctx, node: Node) -> bool:
    """Is the (32-bit) mask expression unsigned, so that widening it cannot sign-extend?"""
    t = node.type
    if t == "parenthesized_expression" and node.named_children:
        return _unsigned_mask(ctx, node.named_children[0])
    if t == "call_expression":
        c = ctx.concept_of_call(node)
        return c is not None and c[0].key in ("ballot", "activemask")
    if t == "binary_expression":
        return any(_unsigned_mask(ctx, node.child_by_field_name(s)) for s in ("left", "right")
                   if node.child_by_field_name(s) is not None)
    if t == "identifier":
        name = ctx.text(node)
        fn = ctx.function_at(node)
        scope = fn.node if fn is not None else ctx.src.root
        from ..source import ident_name, walk
        for n in walk(scope):
            if n.type in ("declaration", "parameter_declaration"):
                for d in n.children_by_field_name("declarator"):
                    if ident_name(d) == name:
                        ty = " ".join(ctx.text(c) for c in n.children if c.type in (
                            "sized_type_specifier", "primitive_type", "type_identifier"))
                        return "unsigned" in ty or ty.startswith("uint")
    if t == "number_literal":
        return ctx.text(node).rstrip("lL").endswith(("u", "U"))
    return False


def _common(same, limit: int) -> int:
    """The largest k <= limit with same(k) (monotone), by bisection on C-speed slice compares."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if same(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def site_fix(ctx, site) -> Fix | None:
    """The translator's CUDA rewrite of one confirmed site, when it changes something; its tier is
    that of the site's role (APPLICABILITY)."""
    tier = APPLICABILITY.get(site.role)
    if not ctx.unit.fixable or tier is None:
        return None
    if site.role == "bitop64":
        fn = ctx.text(site.node.child_by_field_name("function"))
        c = dialect.lookup(_SOURCE, fn)
        args = call_args(site.node)
        if c is None or c.key not in ("popc", "ffs") or not args or not _unsigned_mask(ctx, args[0]):
            return None
    t = _translator(ctx)
    twins = ctx.__dict__.get("_kp_twins")
    if twins is None:  # one index per file: a scan per site made --fix quadratic in the sites
        twins = ctx.__dict__["_kp_twins"] = {}
        for s in t.analysis.sites:
            twins.setdefault((s.role, s.node.start_byte, s.node.end_byte), s)
    twin = twins.get((site.role, site.node.start_byte, site.node.end_byte))
    if twin is None:
        return None
    from ..rewrite import Rewriter
    from ..translate import Port
    t.rw, t.port = Rewriter(ctx.src), Port(_SOURCE, "")
    t.wide = _WIDE if tier == UNSAFE else {}
    try:
        t.rewrite_site(twin)
        # one replacement, or one that holds the others (a mask's declaration split: declsplit.py)
        (s0, e0, typ) = min(t.rw.replacements, key=lambda k: (k[0], -k[1]))
        if t.rw.before or any(not (s0 <= s and e <= e0) for s, e, _ in t.rw.replacements):
            return None
        node = ctx.src.root.descendant_for_byte_range(s0, e0)
        while node is not None and (node.start_byte, node.end_byte, node.type) != (s0, e0, typ):
            node = node.parent
        if node is None:
            return None
        new = t.rw.text(node)  # only the rewritten node, not the whole file
    except Exception:  # a rewrite the translator cannot make here: no fix, never a crash
        return None
    old = ctx.src.data[s0:e0].decode("utf-8")
    if new == old:
        return None
    p = _common(lambda k: old[:k] == new[:k], min(len(old), len(new)))
    s = _common(lambda k: old[len(old) - k:] == new[len(new) - k:], min(len(old), len(new)) - p)
    inserted = new[p:len(new) - s]
    if tier == SAFE and site.role != "bitop64" and _PORTABLE not in inserted:
        return None  # e.g. a compile-time use: CUDA keeps its 32 there
    if tier == UNSAFE and not any(w in new for w in _WIDE.values()):
        return None
    start_b = s0 + len(old[:p].encode("utf-8"))
    end_b = s0 + len(old[:len(old) - s].encode("utf-8"))
    (l1, c1), (l2, c2) = ctx.position(start_b), ctx.position(end_b)
    before = old[p:len(old) - s]
    msg = f"replace `{before}` with `{inserted}`" if before else f"insert `{inserted.strip()}`"
    if tier == UNSAFE:  # a type change reads better whole: `1u` -> `1ull`, not "insert `ll`"
        msg = f"replace `{old}` with `{new}`"
    return Fix(msg, (Edit(l1, c1, l2, c2, inserted),), tier)


def apply_edits(text: str, edits: list[Edit]) -> tuple[str, int]:
    """Apply non-overlapping edits (later overlapping ones are skipped); returns (text, applied)."""
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)

    def off(line: int, col: int) -> int:
        return starts[line - 1] + col - 1 if line - 1 < len(starts) else len(text)

    spans = sorted({(off(e.line, e.column), off(e.end_line, e.end_column), e.content) for e in edits})
    chosen, last_end = [], -1
    for a, b, content in spans:
        if a < last_end or (a == last_end and a == b and chosen and chosen[-1][0] == a):
            continue
        chosen.append((a, b, content))
        last_end = max(b, a)
    out = text
    for a, b, content in reversed(chosen):
        out = out[:a] + content + out[b:]
    return out, len(chosen)


def _comment_column(line: str) -> int:
    """Where a trailing `//` comment starts (outside string and character literals), or -1."""
    quote = None
    i = 0
    while i < len(line) - 1:
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif line.startswith("//", i):
            return i if line[:i].strip() else -1  # a whole-line comment has nothing to align with
        i += 1
    return -1


def realign_comments(old: str, new: str) -> str:
    """Put each trailing comment of a rewritten line back at its column, where the gap allows.

    `int lane = tid % 32;     // lane` becomes `int lane = tid % warpSize; // lane`, not a comment
    pushed out of line with its neighbours; at least one space is always kept."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    out = list(b)
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "replace" or i2 - i1 != j2 - j1:
            continue
        for i, j in zip(range(i1, i2), range(j1, j2)):
            want, got = _comment_column(a[i]), _comment_column(b[j])
            if want < 0 or got < 0 or want == got:
                continue
            code = b[j][:got].rstrip(" \t")
            out[j] = code + " " * max(1, want - len(code)) + b[j][got:]
    return "".join(out)


def fix_text(text: str, findings: list, relint: Callable[[str], list], rounds: int = 4,
             unsafe: bool = False) -> tuple[str, list, list, int, int]:
    """Apply the safe fixes of `findings` to `text` (and the unsafe ones with `unsafe`); returns
    (text, its findings, the (code, applicability) of each fix applied, how many fixes were
    withheld, how many unsafe fixes were hidden).  Hidden fixes stay on their findings.

    A fix of either tier must never add a finding: every candidate set is linted, and a set whose result has more
    findings of some rule than the original had (a `tid % 32` fixed beside a `WARP_SIZE` that must
    stay 32 makes WS016 fire: the function then mixes two wave widths) or that does not parse is
    split, keeping the fixes that are harmless on their own (delta debugging over the fixes)."""
    base = Counter(f.code for f in findings)

    def attempt(start: str, fixes: list) -> tuple[str, list] | None:
        new, _ = apply_edits(start, [e for fx in fixes for e in fx.edits])
        new = realign_comments(start, new)
        got = relint(new)
        if any(f.code == "KP001" for f in got) or Counter(f.code for f in got) - base:
            return None
        return new, got

    def grow(start: str, accepted: list, candidates: list, best):
        if not candidates:
            return accepted, best
        trial = attempt(start, accepted + candidates)
        if trial is not None:
            return accepted + candidates, trial
        if len(candidates) == 1:
            return accepted, best
        mid = len(candidates) // 2
        accepted, best = grow(start, accepted, candidates[:mid], best)
        return grow(start, accepted, candidates[mid:], best)

    def allowed(f) -> bool:
        return f.fix is not None and (unsafe or f.fix.applicability == SAFE)

    current, now, applied = text, findings, []
    for _ in range(rounds):  # a fix may expose another (positions are those of the text it came from)
        candidates = [f.fix for f in now if allowed(f)]
        if not candidates:
            break
        accepted, best = grow(current, [], candidates, None)
        if not accepted or best[0] == current:
            break
        codes = {id(f.fix): f.code for f in now if f.fix is not None}
        applied += [(codes[id(fx)], fx.applicability) for fx in accepted]
        current, now = best
    # What is left of the allowed tiers was tried and would add a finding: it is no fix (the finding
    # stays, without one).  An unsafe fix not asked for is hidden, and kept for the report.
    withheld = sum(allowed(f) for f in now)
    hidden = sum(f.fix is not None and not allowed(f) for f in now)
    return current, [replace(f, fix=None) if allowed(f) else f for f in now], applied, withheld, hidden


def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".kptmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
