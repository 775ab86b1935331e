"""Rule documentation: `kernelport rule CODE` and docs/rules.md, both from the rules themselves.

Regenerate the markdown with `python -m kernelport.lint.docs > docs/rules.md`; a test fails when
the file drifts from the rules.
"""
from __future__ import annotations

from .. import backends
from .discovery import PYTHON_EXT
from .rowsplits import ROW_CODES, ROWS_NOTE
from .rule import FAMILIES, SOURCE_TARGETS, TARGETS, Rule, all_rules

# Severity rows of the docs: every target; the source's plus the 32-wide run of hardware that also
# comes 64 wide (AMD RDNA beside CDNA); the source's alone (NVIDIA only).
_NARROW = tuple(r.target for r in backends.hardware_runs()
                if r.wave == 32 and any(o.wave > 32 for o in backends.get(r.backend).runs))
_SETS = {"all targets": frozenset(TARGETS),
         " + ".join((*sorted(SOURCE_TARGETS), *_NARROW)): SOURCE_TARGETS | frozenset(_NARROW),
         " + ".join(sorted(SOURCE_TARGETS)) + " only": SOURCE_TARGETS}


def _docs(r: Rule) -> str:
    """The rule's docs, and for the 32s of a row-split block the note on when they are advice."""
    return r.docs + ("\n\n" + ROWS_NOTE if r.code in ROW_CODES else "")


def _severity_line(r: Rule) -> str:
    parts = [f"{name}: {r.severity(ts) or 'off'}" for name, ts in _SETS.items()]
    return "; ".join(parts)


def _fence(lang: str) -> str:
    """Code-fence language of an example whose file would end in `.lang`."""
    if "." + lang == PYTHON_EXT:
        return "python"
    b = backends.by_source_extension("." + lang)
    return b.lint_docs_fence if b is not None else "cuda"


def rule_text(r: Rule) -> str:
    """Plain text for the terminal (markdown that reads well unrendered)."""
    lines = [f"{r.code} {r.name}" + (_tier(r) if r.fixable else ""), "", r.summary, "",
             f"Severity: {_severity_line(r)}", "", _docs(r), ""]
    for i, e in enumerate(r.flags, 1):
        lines += [f"Flagged ({e.lang}{', ' + e.note if e.note else ''}):", "", _indent(e.clean), ""]
    for e in r.passes:
        lines += [f"Not flagged ({e.lang}{', ' + e.note if e.note else ''}):", "", _indent(e.clean), ""]
    for before, after in r.fixes:
        lines += [f"With {_flag(r)}:", "", _indent(before.strip("\n")), "", "becomes", "", _indent(after.strip("\n")), ""]
    return "\n".join(lines).rstrip() + "\n"


def _tier(r: Rule) -> str:
    return " (unsafe fix: --fix --unsafe-fixes)" if r.fix_applicability == "unsafe" else " (fixable)"


def _flag(r: Rule) -> str:
    return "--fix --unsafe-fixes" if r.fix_applicability == "unsafe" else "--fix"


def _mark(r: Rule) -> str:
    return ("unsafe fix" if r.fix_applicability == "unsafe" else "fix") if r.fixable else ""


def _indent(code: str) -> str:
    return "\n".join(("    " + l) if l else "" for l in code.splitlines())


def markdown() -> str:
    rules = all_rules()
    out = ["# kernelport lint rules", "",
           "<!-- Generated from the rules in kernelport/lint/rules/ by `python -m kernelport.lint.docs > docs/rules.md`;",
           "     tests/test_lint_docs.py fails when this file drifts. Do not edit by hand. -->", "",
           "Severity depends on the configured targets (`--targets`, or `targets` in `[tool.kernelport]`):",
           "warp-size (WS) rules are errors when a wave-64 target (`hip-cdna`) is on, warnings when only",
           "wave-32 or unknown-width targets are, and off for an NVIDIA-only project. Rules marked *fix*",
           "have an automatic fix (`kernelport lint --fix`) that cannot change what the CUDA code computes;",
           "*unsafe fix* ones have a fix that changes a type on NVIDIA (`kernelport lint --fix --unsafe-fixes`).", "",
           "| code | name | family | fix | summary |", "|---|---|---|---|---|"]
    for r in rules:
        out.append(f"| [{r.code}](#{r.code.lower()}-{r.name}) | `{r.name}` | {FAMILIES[r.family]} | "
                   f"{_mark(r)} | {r.summary.replace('|', '/')} |")
    out.append("")
    for r in rules:
        out += [f"## {r.code} {r.name}", "", r.summary, "",
                f"*Severity*: {_severity_line(r)}." + (f"  *Fix*: yes (`{_flag(r)}`)." if r.fixable else ""), "",
                _docs(r), ""]
        for e in r.flags:
            out += [f"Flagged{' (' + e.lang + (', ' + e.note if e.note else '') + ')' if e.lang != 'cu' or e.note else ''}:", "",
                    f"```{_fence(e.lang)}", e.clean, "```", ""]
        for e in r.passes:
            out += [f"Not flagged{' (' + e.lang + ')' if e.lang != 'cu' else ''}:", "",
                    f"```{_fence(e.lang)}", e.clean, "```", ""]
        for before, after in r.fixes:
            out += [f"`{_flag(r)}`:", "", "```diff"]
            import difflib
            out += [l.rstrip("\n") for l in difflib.unified_diff(before.strip("\n").splitlines(),
                                                                 after.strip("\n").splitlines(), lineterm="", n=1)][2:]
            out += ["```", ""]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover
    import sys
    sys.stdout.write(markdown())
