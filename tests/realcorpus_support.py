"""Translate outcomes on tests/realcorpus, for test_realcorpus.py and its re-pin script.

Each outcome is what `kernelport translate FILE --to BACKEND --stdout` ends with, run in this
process through the CLI's own entry point (`cli.run`: the same exit codes, messages and
internal-error handling as the executable, without paying start-up per file):

    written                      exit 0
    no_port KP227                exit 0 with no port: a Metal port of a file with no device code
    no_port KP228                exit 0 with no port: a Metal fragment its includer's port splices
    refused KP209@29 KP217@186   exit 1: each error's code @ line, in order of report
    parse_error syntax@185       exit 2 from a syntax error (its code, or `syntax`, @ line)
    bad_input: <first line>      any other exit 2
    internal_error               exit 3 (never pinned: the test fails on it)

    python tests/realcorpus_support.py --repin [-j 2]   # rewrite realcorpus_outcomes.txt
"""
from __future__ import annotations

import io
import re
import sys
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "realcorpus"
OUTCOMES = HERE / "realcorpus_outcomes.txt"
BACKENDS = ("hip", "metal")
ERROR = re.compile(r":(\d+):\d+: error: (KP\d{3}|syntax error)\b")
HEADER = """\
# Pinned `kernelport translate FILE --to hip|metal` outcomes on tests/realcorpus (issue 11).
# tests/test_realcorpus.py asserts each line exactly. A line that changes is a change of what
# users get on real code: every change must be reviewed (say why in the commit message).
# After an intended improvement, re-pin with:  python tests/realcorpus_support.py --repin
# Format: path under tests/realcorpus <TAB> hip outcome <TAB> metal outcome (see realcorpus_support.py).
"""


def sources() -> list[str]:
    """Every CUDA source of the corpus manifest, as a path relative to tests/realcorpus."""
    projects = tomllib.loads((CORPUS / "manifest.toml").read_text())["project"]
    return [f"{name}/{s}" for name, spec in projects.items() for s in spec["sources"]]


def run_cli(argv: list[str]) -> tuple[int, str]:
    """(exit code, stdout + stderr) of `kernelport ARGV` run in this process."""
    from kernelport import cli

    saved = sys.argv
    sys.argv = ["kernelport", *argv]
    buf_out, buf_err = io.StringIO(), io.StringIO()
    try:
        with redirect_stdout(buf_out), redirect_stderr(buf_err):
            try:
                cli.run()
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = saved
    return code, buf_err.getvalue() + buf_out.getvalue()


def outcome(rel: str, backend: str) -> tuple[str, str]:
    """(outcome, the run's stderr) of translating tests/realcorpus/REL to BACKEND."""
    code, text = run_cli(["--color", "never", "translate", str(CORPUS / rel), "--to", backend, "--stdout"])
    errors = [ln for ln in text.splitlines() if ": error: " in ln or ln.startswith("error:")]
    located = " ".join(dict.fromkeys(f"{m[2].replace(' error', '')}@{m[1]}" for ln in errors for m in [ERROR.search(ln)] if m))
    if code == 0:  # a Metal port of host code only (KP227) or of a fragment (KP228) is not written: no port
        none = re.search(r": warning: (KP22[78]) no Metal port", text)
        return (f"no_port {none[1]}", "") if none else ("written", "")
    if code == 1:
        return f"refused {located}".strip(), text
    if code == 2:
        if re.search(r"syntax error|KP001", " ".join(errors)):
            return f"parse_error {located}".strip(), text
        first = errors[0] if errors else (text.strip().splitlines() or [""])[0]
        message = re.sub(r"^.*?error: | \(hint: .*$", "", first)
        return f"bad_input: {message[:120]}", text
    if code == 3:
        return "internal_error", text
    return f"exit {code}", text


def file_outcomes(rel: str) -> tuple[str, ...]:
    return tuple(outcome(rel, b)[0] for b in BACKENDS)


def read_pinned() -> dict[str, tuple[str, ...]]:
    pinned = {}
    for line in OUTCOMES.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rel, *outs = line.split("\t")
            pinned[rel] = tuple(outs)
    return pinned


def repin(jobs: int) -> None:
    import multiprocessing

    rels = sources()
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        results = pool.map(file_outcomes, rels, chunksize=4)
    bad = [r for r, outs in zip(rels, results) if "internal_error" in outs]
    lines = [HEADER] + ["\t".join((rel, *outs)) + "\n" for rel, outs in zip(rels, results)]
    OUTCOMES.write_text("".join(lines))
    print(f"pinned {len(rels)} files in {OUTCOMES}" + (f"; internal errors (fix, never pin): {bad}" if bad else ""))


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Re-pin tests/realcorpus_outcomes.txt (review every change).")
    ap.add_argument("--repin", action="store_true", required=True)
    ap.add_argument("-j", type=int, default=2)
    repin(ap.parse_args().j)
