"""Output formats: full (source excerpt with carets), concise, json, sarif, github; statistics."""
from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console


from .. import __version__
from .finding import Finding
from .rule import FAMILIES, all_rules, family_severity, TARGETS

FORMATS = ("full", "concise", "json", "sarif", "github")


def _json(doc) -> str:
    import json  # only for the JSON and SARIF formats (a pre-commit hook's full format never needs it)
    return json.dumps(doc, indent=2) + "\n"

_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}


def render(fmt: str, findings: list[Finding], texts: dict[str, str], stream: TextIO, *,
           color: bool | None = None) -> None:
    if fmt == "json":
        stream.write(_json([f.to_json() for f in findings]))
    elif fmt == "sarif":
        stream.write(_json(sarif(findings)))
    elif fmt == "github":
        for f in findings:
            stream.write(github(f) + "\n")
    elif fmt == "concise":
        for f in findings:
            stream.write(f"{f.path}:{f.line}:{f.column}: {f.code} {short_message(f.message)}{_confirmed(f)}\n")
    elif findings:
        plain = None if color else plain_full(findings, texts)
        if plain is not None:
            stream.write(plain)
            return
        from rich.console import Console  # only here: a coloured full report imports rich
        console = Console(file=stream, highlight=False, soft_wrap=True, emoji=False,  # `:100:` is an emoji code
                          force_terminal=color, no_color=(color is False), width=200)
        for f in findings:
            full(console, f, texts.get(f.path))


# -- short messages --------------------------------------------------------------------------------
def _hardware_phrases() -> list[str]:
    """How the rules name the hardware a 32-lane assumption breaks on (the backends' wording)."""
    from .. import backends
    out = {"on a GPU whose wave is not 32 wide", "on a 64-wide wave"}
    for b in backends.all():
        out.update(b.lint_breaks.values())
        out.update(x for x in (b.lint_breaks_otherwise, b.lint_breaks_own) if x)
    return sorted(out, key=len, reverse=True)


def split_message(message: str) -> tuple[str, str]:
    """(what and where, why it breaks): the hardware clause of a message, cut out of its sentence.

    `X (it feeds a shuffle): on AMD CDNA (...) and on Metal (...), lanes 32-63 alias lanes 0-31;
    use warpSize` -> (`X (it feeds a shuffle); use warpSize`, `on AMD CDNA (...) ..., lanes 32-63
    alias lanes 0-31`).  A message that names no hardware is all `what`."""
    at = min((i for i in (message.find(p) for p in _hardware_phrases()) if i >= 0), default=-1)
    if at < 0:
        return message, ""
    start = max(message.rfind(": ", 0, at), message.rfind("; ", 0, at))
    if start < 0:
        return message, ""
    end = message.find("; ", at)
    why = message[start + 2:end if end >= 0 else len(message)]
    head = message[:start]
    head = head.removesuffix(",").rstrip()
    return (head + message[end:] if end >= 0 else head), why.strip()


def short_message(message: str) -> str:
    return split_message(message)[0]


def _confirmed(f: Finding) -> str:
    """` [confirmed: ...]` after a message (`lint --confirm`), or nothing."""
    c = f.confirmation
    if c is None:
        return ""
    return f" [{c['detail']}]" if c["status"] == "not run" else f" [{c['status']}: {c['detail']}]"


# -- full ----------------------------------------------------------------------------------------
Line = list  # of (text, style) pieces: one printed line


def full_lines(f: Finding, text: str | None) -> list[Line]:
    """The full format's lines for one finding, each piece with its style (the terminal's colours)."""
    what, why = split_message(f.message)
    out: list[Line] = [[(f"{f.path}:{f.line}:{f.column}: ", "bold"), (f.severity, _STYLE.get(f.severity, "")),
                        (" ", ""), (f.code, "bold"), (f" [{f.name}] ", "dim"), (what, "")]]
    lines = text.splitlines() if text is not None else []
    if 1 <= f.line <= len(lines):
        src = lines[f.line - 1].replace("\t", " ")
        width = len(str(f.line))
        pad = " " * width
        start = f.column - 1
        end = f.end_column - 1 if f.end_line == f.line else len(src)
        end = max(end, start + 1)
        out += [[(f"{pad} |", "blue")], [(f"{f.line} | ", "blue"), (src, "")],
                [(f"{pad} | ", "blue"), (" " * start + "^" * (end - start), _STYLE.get(f.severity, ""))]]
        if why:
            out.append([(f"{pad} = why: {why}", "")])
        if f.confirmation is not None:
            c = f.confirmation
            style = {"confirmed": "bold red", "latent": "yellow"}.get(c["status"], "dim")
            out.append([(f"{pad} = {c['status']}: {c['detail']}" if c["status"] != "not run" else
                         f"{pad} = {c['detail']}", style)])
        if f.fix is not None:
            if f.fix.applicability == "unsafe":  # ruff's mark: offered, applied only when asked for
                out.append([(f"{pad} = unsafe fix: {f.fix.message} (kernelport lint --fix --unsafe-fixes)", "yellow")])
            else:
                out.append([(f"{pad} = fix: {f.fix.message} (kernelport lint --fix)", "green")])
        out.append([(f"{pad} = help: kernelport rule {f.code}", "dim")])
    out.append([])
    return out


def full(console: Console, f: Finding, text: str | None) -> None:
    from rich.text import Text
    for pieces in full_lines(f, text):
        line = Text()
        for piece, style in pieces:
            line.append(piece, style=style)
        console.print(line)


def plain_full(findings: list[Finding], texts: dict[str, str]) -> str | None:
    """The full format without colour, as rich prints it, without importing rich (~25 ms of a lint's
    start-up); None where rich's rendering could differ from the bare text: a tab (rich expands it),
    a control character (rich drops some), trailing spaces past its 200-column width (it trims them)."""
    out = []
    for f in findings:
        for pieces in full_lines(f, texts.get(f.path)):
            line = "".join(p for p, _ in pieces)
            if not line.isprintable() or (len(line) >= 100 and line != line.rstrip()):
                return None
            out.append(line + "\n")
    return "".join(out)


# -- github --------------------------------------------------------------------------------------
def _esc_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _esc_prop(s: str) -> str:
    return _esc_data(s).replace(":", "%3A").replace(",", "%2C")


def github(f: Finding) -> str:
    level = {"error": "error", "warning": "warning", "info": "notice"}[f.severity]
    props = (f"file={_esc_prop(f.path)},line={f.line},col={f.column},endLine={f.end_line},"
             f"endColumn={f.end_column},title={_esc_prop(f'{f.code} {f.name}')}")
    return f"::{level} {props}::{_esc_data(f'{f.code} {short_message(f.message)}{_confirmed(f)}')}"


# -- sarif ---------------------------------------------------------------------------------------
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _artifact(path: str) -> dict:
    p = Path(path)
    if p.is_absolute():
        return {"uri": p.as_uri()}
    return {"uri": p.as_posix(), "uriBaseId": "%SRCROOT%"}


def _region(line: int, col: int, eline: int, ecol: int) -> dict:
    return {"startLine": line, "startColumn": col, "endLine": eline, "endColumn": max(ecol, 1)}


def rule_descriptor(r) -> dict:
    first = r.docs.split("\n\n")[0].replace("\n", " ")
    default = family_severity(r.family, frozenset(TARGETS)) or "warning"
    if r.code in ("WS007",):
        default = "warning"
    return {
        "id": r.code,
        "name": "".join(w.capitalize() for w in r.name.split("-")),
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": first},
        "help": {"text": r.docs, "markdown": f"**{r.code} {r.name}**: {r.summary}\n\n{r.docs}"},
        "defaultConfiguration": {"level": _LEVEL.get(default, "warning")},
        "properties": {"tags": [FAMILIES[r.family], "kernelport"], "kebab-name": r.name},
    }


def sarif(findings: list[Finding]) -> dict:
    rules = all_rules()
    index = {r.code: i for i, r in enumerate(rules)}
    results = []
    for f in findings:
        res = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _LEVEL[f.severity],
            "message": {"text": short_message(f.message)},
            "locations": [{"physicalLocation": {"artifactLocation": _artifact(f.path),
                                                "region": _region(f.line, f.column, f.end_line, f.end_column)}}],
        }
        why = split_message(f.message)[1]
        if why:
            res["properties"] = {"why": why}
        if f.confirmation is not None:  # lint --confirm: the run at both wave widths
            res.setdefault("properties", {})["confirmation"] = f.confirmation
        if f.related:
            res["relatedLocations"] = [
                {"id": i, "message": {"text": r.message},
                 "physicalLocation": {"artifactLocation": _artifact(r.path),
                                      "region": {"startLine": r.line, "startColumn": r.column}},
                 "properties": {"role": r.role}}
                for i, r in enumerate(f.related)]
        if f.fix is not None:
            res["fixes"] = [{"description": {"text": f.fix.message},
                             "properties": {"applicability": f.fix.applicability},
                             "artifactChanges": [{"artifactLocation": _artifact(f.path), "replacements": [
                                 {"deletedRegion": _region(e.line, e.column, e.end_line, e.end_column),
                                  "insertedContent": {"text": e.content}} for e in f.fix.edits]}]}]
        results.append(res)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "kernelport", "version": __version__, "semanticVersion": __version__,
                                "rules": [rule_descriptor(r) for r in rules]}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(os.getcwd()).as_uri() + "/"}},
            "columnKind": "unicodeCodePoints",
            "invocations": [{"executionSuccessful": True}],
            "results": results,
        }],
    }


# -- statistics and summary ------------------------------------------------------------------------
def _usable(f: Finding, unsafe_fixes: bool) -> bool:
    return f.fix is not None and (unsafe_fixes or f.fix.applicability == "safe")


def statistics_rows(findings: list[Finding], unsafe_fixes: bool = False) -> list[dict]:
    """`fixable`: the fixes `--fix` would apply (unsafe ones only with `unsafe_fixes`)."""
    counts = Counter(f.code for f in findings)
    fixable = Counter(f.code for f in findings if _usable(f, unsafe_fixes))
    names = {f.code: f.name for f in findings}
    return [{"code": code, "name": names[code], "count": n, "fixable": fixable[code]}
            for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def statistics(findings: list[Finding], stream: TextIO, fmt: str = "full", unsafe_fixes: bool = False) -> None:
    """Findings per rule: JSON for `--format json`, a table otherwise (`[*]`: some are fixable,
    `[-]`: only with `--unsafe-fixes`, as ruff marks them)."""
    rows = statistics_rows(findings, unsafe_fixes)
    hidden = {f.code for f in findings if f.fix is not None and not _usable(f, unsafe_fixes)}
    if fmt == "json":
        stream.write(_json(rows))
        return
    if fmt == "github":
        for r in rows:
            stream.write(f"::notice title=kernelport {r['code']}::{r['count']} {r['code']} {r['name']}\n")
        return
    if fmt == "sarif":  # a SARIF log of the counts: one notification per rule in the invocation
        doc = sarif([])
        doc["runs"][0]["invocations"][0]["toolExecutionNotifications"] = [
            {"descriptor": {"id": r["code"]}, "level": "note",
             "message": {"text": f"{r['count']} {r['code']} {r['name']} ({r['fixable']} fixable)"}} for r in rows]
        stream.write(_json(doc))
        return
    for r in rows:
        mark = "[*]" if r["fixable"] else "[-]" if r["code"] in hidden else "   "
        stream.write(f"{r['count']:>5}\t{r['code']}\t{mark} {r['name']}\n")


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'s' if k != 1 else ''}"


def hidden_note(findings: list[Finding], unsafe_fixes: bool) -> str:
    """`; 2 hidden (use --unsafe-fixes)`: unsafe fixes that were not asked for, or nothing."""
    n = 0 if unsafe_fixes else sum(1 for f in findings if f.fix is not None and f.fix.applicability == "unsafe")
    return f"; {n} hidden (use --unsafe-fixes)" if n else ""


def summary(findings: list[Finding], files: int, unsafe_fixes: bool = False) -> str:
    """`files`: how many were checked; the headline counts the files that have findings.  Unsafe
    fixes count as fixable with `unsafe_fixes`, else as hidden (ruff's wording)."""
    if not findings:
        return f"All checks passed ({_n(files, 'file')})."
    by = Counter(f.severity for f in findings)
    parts = [f"{by[s]} {s}{'s' if by[s] != 1 and s != 'info' else ''}" for s in ("error", "warning", "info") if by[s]]
    fixable = sum(1 for f in findings if _usable(f, unsafe_fixes))
    flag = "--fix --unsafe-fixes" if unsafe_fixes else "--fix"
    fx = f"; {fixable} fixable with `kernelport lint {flag}`" if fixable else ""
    fx += hidden_note(findings, unsafe_fixes)
    with_findings = len({f.path for f in findings})
    checked = f" ({files} checked)" if files != with_findings else ""
    return f"Found {_n(len(findings), 'finding')} in {_n(with_findings, 'file')}{checked}: {', '.join(parts)}{fx}."
