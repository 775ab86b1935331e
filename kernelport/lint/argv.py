"""`kernelport lint ...` read without the CLI framework: the pre-commit case's start-up.

Importing typer (and the click it carries) and building the command from its signature take ~40 ms
of a one-file lint's ~150 ms CPU, before any work.  An argv of paths and lint's options in their
plain spellings (`--format json`, `--format=json`, `-j 2`) is read here into the keywords of
kernelport/lint/command.py's `lint`; anything else returns None and goes to typer, so help, usage
errors and their wording stay typer's: `--help`, an unknown or abbreviated option, `--`, a short
option with its value glued on (`-j2`), an option missing its value or given one that starts with
`-`, an empty value, a number typer would have to word an error for.  OPTIONS is checked against
the options typer builds from kernelport/lint/cli.py's declaration (tests/test_startup.py).
"""
from __future__ import annotations

from pathlib import Path

FLAG, ONE, MANY = "flag", "one", "many"

# spelling -> (keyword of command.lint, how many values, the value's type)
OPTIONS: dict[str, tuple[str, str, type]] = {
    "--format": ("format", ONE, str),
    "--select": ("select", MANY, str),
    "--ignore": ("ignore", MANY, str),
    "--fail-on": ("fail_on", ONE, str),
    "--exit-zero": ("exit_zero", FLAG, bool),
    "--statistics": ("statistics", FLAG, bool),
    "--targets": ("targets", ONE, str),
    "--fix": ("fix", FLAG, bool),
    "--diff": ("diff", FLAG, bool),
    "--show-fixes": ("show_fixes", FLAG, bool),
    "--unsafe-fixes": ("unsafe_fixes", FLAG, bool),
    "--stdin-filename": ("stdin_filename", ONE, Path),
    "--output-file": ("output_file", ONE, Path),
    "-o": ("output_file", ONE, Path),
    "--config": ("config", ONE, Path),
    "--jobs": ("jobs", ONE, int),
    "-j": ("jobs", ONE, int),
    "-I": ("include_dir", MANY, Path),
    "--include-dir": ("include_dir", MANY, Path),
    "-D": ("define", MANY, str),
    "--define": ("define", MANY, str),
    "--hip-define": ("hip_define", MANY, str),
    "--compile-commands": ("compile_commands", ONE, Path),
    "--confirm": ("confirm", FLAG, bool),
    "--inputs": ("inputs", ONE, Path),
}
ARGUMENT = "paths"  # the positional PATH... (Path values)


def _value(kind: type, text: str):
    """`text` as typer converts a plain spelling of `kind` (kernelport/cli_values.py), else None."""
    if not text or text.startswith("-"):
        return None  # typer words the error, or reads it its own way
    if kind is int:
        return int(text) if text.isascii() and text.isdigit() else None
    return Path(text) if kind is Path else text


def parse(args: list[str]) -> dict | None:
    """The keywords of `command.lint` for the words after `lint`, or None: typer reads them."""
    given: dict = {}
    paths: list[Path] = []
    words = iter(args)
    for word in words:
        if word == "-" or not word.startswith("-"):
            if not word:
                return None
            paths.append(Path(word))
            continue
        name, eq, glued = word.partition("=") if word.startswith("--") else (word, "", "")
        option = OPTIONS.get(name)
        if option is None:
            return None
        key, count, kind = option
        if count == FLAG:
            if eq:
                return None  # `--fix=...`: typer's error
            given[key] = True
            continue
        value = _value(kind, glued if eq else next(words, ""))
        if value is None:
            return None
        if count == MANY:
            given.setdefault(key, []).append(value)
        else:
            given[key] = value  # the last one given counts, as in click
    if paths:
        given[ARGUMENT] = paths
    return given
