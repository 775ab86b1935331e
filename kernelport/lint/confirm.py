"""`kernelport lint --confirm`: each warp-size finding marked by running its kernels at both widths.

A finding is *confirmed* when a kernel that reaches it (it sits in the kernel, in a function the
kernel calls, or names a file-scope macro or array the kernel uses) gives different output at the
wide wave than at the narrow one (the first differing element is shown), *latent* when every
kernel that ran gave the same output on these inputs, and *not run* with the reason otherwise.
In a kernel that differs, a helper's findings are latent when the kernel, run again at the wide
wave with all of that helper's fixes applied, gives the same output (the difference is elsewhere).
The comparison is kernelport/wave_compare.py's; this module maps findings to kernels and helpers.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from .finding import Finding
from .rule import get

FAMILY = "WS"  # the warp-size rules: the findings a run at two widths can confirm
STATUS = {"differs": "confirmed", "same": "latent", "not run": "not run"}
_WORD = re.compile(r"\w+")
_DECLARING = {"define", "static", "const", "constexpr", "int", "unsigned", "__device__", "__constant__", "__shared__"}


def confirmable(f: Finding) -> bool:
    r = get(f.code)
    return r is not None and r.family == FAMILY


def _reach(module) -> dict[str, set[str]]:
    """Kernel name -> the functions it runs (itself and its callees, transitively) and the
    identifiers their bodies name (macros, file-scope arrays)."""
    src = module.source
    names: dict[str, set[str]] = {}
    for f in module.functions.values():
        body = f.body if f.body is not None else f.node
        names[f.name] = set(src.texts_under(body, "identifier")) | set(src.texts_under(body, "type_identifier"))
    out = {}
    for k in module.kernels:
        seen, todo = {k.name}, [k.name]
        while todo:
            for c in names.get(todo.pop(), set()) & set(module.functions):
                if c not in seen:
                    seen.add(c)
                    todo.append(c)
        out[k.name] = seen | {w for fn in seen for w in names.get(fn, ())}
    return out


def _function_at_line(module, line: int):
    best = None
    for f in module.functions.values():
        n = f.template_node or f.node
        if n.start_point[0] + 1 <= line <= n.end_point[0] + 1:
            if best is None or n.start_byte >= (best.template_node or best.node).start_byte:
                best = f  # the innermost
    return best


def kernels_of(module, reach: dict[str, set[str]], f: Finding, line_text: str) -> list[str]:
    """The kernels a finding's code runs in, in file order."""
    fn = _function_at_line(module, f.line)
    if fn is not None:
        return [k for k, r in reach.items() if fn.name in r]
    m = _WORD.match(line_text, max(f.column - 1, 0))  # file scope: the name the finding points at
    word = m.group(0) if m and not m.group(0)[0].isdigit() else ""
    if not word:  # `#define WARP 32` pointed at its value: the name the line defines
        word = next((w for w in _WORD.findall(line_text.split("//")[0])
                     if w not in _DECLARING and not w[0].isdigit()), "")
    return [k for k, r in reach.items() if word in r] if word else []


def mark(outcomes: list, f: Finding, fixed: tuple[str, bool | None] = ("", None)) -> Finding:
    """`f` with its confirmation: the first kernel that differs, else latent if one ran, else why not.
    `fixed`: (the function `f` sits in, whether fixing that function's findings changes the
    differing kernel's output at the wide wave; None where that was not run)."""
    if not outcomes:
        status, detail, data = "not run", "not run: the finding is in no kernel of this file", {"reason": "in no kernel"}
    else:
        o = next((o for o in outcomes if o.status == "differs"), None) or \
            next((o for o in outcomes if o.status == "same"), None) or outcomes[0]
        status, data = STATUS[o.status], o.to_json()
        detail = f"kernel {o.kernel}: {o.detail}"
        fn, changes = fixed
        if o.status == "differs" and changes is False:  # a consistent group next to the real hazard
            status = "latent"
            detail += (f"; but with the findings in `{fn}` fixed, its output at wave {o.waves[1]} is the same: the "
                       "difference comes from other code")
        elif o.status == "differs" and changes:
            detail += f"; fixing the findings in `{fn}` changes its output at wave {o.waves[1]}"
        if o.status == "differs" and changes is not None:
            data = {**data, "fix_changes_wide": changes}
    conf = {"status": status, "detail": detail, **{k: v for k, v in data.items() if k not in ("status", "detail")}}
    if outcomes:
        conf["kernels"] = [{"kernel": o.kernel, "status": STATUS[o.status], "detail": o.detail} for o in outcomes]
    return replace(f, confirmation=conf)


def confirm(results, given: list | None = None) -> Counter:
    """Mark every warp-size finding of `results` (lint FileResults) in place; count the marks.
    `given`: the blocks of --inputs."""
    from .. import wave_compare
    counts: Counter = Counter()
    cache: dict = {}
    for r in results:
        if not any(confirmable(f) for f in r.findings):
            continue
        fm = wave_compare.read(r.path, given, r.text)  # the text lint read (stdin too)
        reach = _reach(fm.module) if fm.module is not None else {}
        lines = fm.text.splitlines() if fm.text else (r.text or "").splitlines()
        marked, fixed = [], {}
        for f in r.findings:
            if confirmable(f):
                how: tuple[str, bool | None] = ("", None)
                if fm.module is None:
                    outs = [wave_compare.not_run("*", fm.reason, fm.error or "")]
                else:
                    text = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
                    outs = [wave_compare.outcome(fm, k, cache) for k in kernels_of(fm.module, reach, f, text)]
                    how = _fixed_changes(fm, r.findings, f, outs, fixed)
                f = mark(outs, f, how)
                counts[f.confirmation["status"]] += 1
            marked.append(f)
        r.findings = marked
    return counts


def _fixed_changes(fm, findings: list[Finding], f: Finding, outcomes: list, memo: dict) -> tuple[str, bool | None]:
    """Does the helper `f` sits in make a differing kernel differ?  The kernel runs at the wide
    wave again with the fixes of every warp-size finding in the helper applied (a lane index, its
    warp index and its ladder bounds fixed together: a 32-lane group is consistent or not as a
    whole); an output that stays the same clears the helper (a consistent group next to the real
    hazard).  Never the kernel's own body: there an unchanged output may only mean that its
    fixes are not all of the fix.  Once per (kernel, helper)."""
    from .. import wave_compare
    o = next((o for o in outcomes if o.status == "differs"), None)
    fn = _function_at_line(fm.module, f.line)
    if o is None or fn is None or fn.is_kernel:
        return "", None
    key = (o.kernel, fn.name)
    if key not in memo:
        edits = [e for g in findings if confirmable(g) and g.fix is not None and
                 _function_at_line(fm.module, g.line) is fn for e in g.fix.edits]
        memo[key] = None
        if edits:
            from .fix import apply_edits
            memo[key] = wave_compare.wide_changes(o, apply_edits(fm.text, edits)[0])
    return fn.name, memo[key]


def summary(counts: Counter) -> str:
    if not counts:
        return "Confirmed by running at both wave widths: no warp-size finding to run."
    parts = [f"{counts[s]} {s}" for s in ("confirmed", "latent", "not run") if counts[s]]
    return "Confirmed by running at both wave widths: " + ", ".join(parts) + "."
