"""Start-up of the pre-commit case: what a one-file lint does before and besides its analysis.

Each check runs the CLI in a fresh interpreter (imports are per process) and asserts what it did,
never how long it took (bench/bench_startup.py measures that).
"""
from __future__ import annotations

import json
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kernelport import lazy_re

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _lint_in_a_fresh_interpreter(before: str, after: str, *argv: str, cwd: Path = ROOT) -> dict:
    """Run `kernelport ARGV` with `before` run first and `after` printing one JSON line last."""
    code = ("import sys, json\n" + before + "sys.argv = ['kernelport', *sys.argv[1:]]\n"
            "from kernelport.entry import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n" + after)
    r = subprocess.run([sys.executable, "-P", "-c", code, *argv], capture_output=True, text=True, timeout=300, cwd=cwd)
    return json.loads(r.stderr.strip().splitlines()[-1])


def test_a_lazy_pattern_compiles_on_first_use_and_answers_as_re_does():
    text = "warp_size = 32; lane_id = tid & 31"
    p = lazy_re.compile(r"(\w+)\s*=\s*(\w+)")
    assert "compiled" not in vars(p) and p.pattern == r"(\w+)\s*=\s*(\w+)"  # its text, without compiling
    q = re.compile(r"(\w+)\s*=\s*(\w+)")
    assert p.search(text).groups() == q.search(text).groups()
    assert "compiled" in vars(p) and p.compiled.pattern == q.pattern
    assert p.findall(text) == q.findall(text) and p.sub(r"\2", text) == q.sub(r"\2", text)
    assert [m.span() for m in p.finditer(text)] == [m.span() for m in q.finditer(text)]
    assert p.match("x") is None and p.fullmatch("a=b").group(2) == "b" and p.split(text) == q.split(text)
    assert p.groups == 2 and p.flags == q.flags
    b = lazy_re.compile(rb"^\s*#\s*(\w+)", re.M)
    assert b.findall(b"#define X\n  # include y\n") == [b"define", b"include"]
    again = pickle.loads(pickle.dumps(lazy_re.compile("a+", re.I)))
    assert again.fullmatch("AaA") and "compiled" not in vars(lazy_re.compile("(")), "compiled before use"
    with pytest.raises(re.error):
        lazy_re.compile("(").search("x")  # a bad pattern fails where it is first used


def test_a_one_file_lint_compiles_no_pattern_while_importing_kernelport():
    """Module-level patterns of the modules a lint imports are compiled where first used
    (kernelport/lazy_re.py): a clean file uses few of them.  A pattern a kernelport module's body
    compiles is named here: make it `lazy_re.compile(...)`."""
    before = ("import re\nmade = []\n_compile = re._compile\n"
              "def counting(pattern, flags):\n"
              "    f = sys._getframe(1)\n"
              "    while f is not None and f.f_code.co_filename.endswith(('re/__init__.py', 'lazy_re.py')):\n"
              "        f = f.f_back\n"
              "    if f is not None and f.f_code.co_name in ('<genexpr>', '<listcomp>', '<dictcomp>'):\n"
              "        f = f.f_back  # a comprehension in a module's body\n"
              "    f = f if f is not None and f.f_code.co_name == '<module>' else None\n"
              "    if f is not None and f.f_globals.get('__name__', '').startswith('kernelport') and pattern not in seen:\n"
              "        made.append(f\"{f.f_globals['__name__']}:{f.f_lineno}\")\n"
              "    seen.add(pattern)\n"
              "    return _compile(pattern, flags)\n"
              "seen = set()\nre._compile = counting\n")
    after = "print(json.dumps({'made': made, 'mods': sorted(m for m in sys.modules if m.startswith('kernelport'))}), file=sys.stderr)\n"
    for example in ("saxpy.cu", "warp_reduce.cu"):
        got = _lint_in_a_fresh_interpreter(before, after, "lint", str(EXAMPLES / example))
        assert len(got["mods"]) > 50  # the lint ran through its analysis
        assert got["made"] == [], f"{example}: patterns compiled at import: {got['made']}"


def test_a_one_file_lint_builds_only_the_command_it_runs():
    """typer builds each registered command from its signature on every run; `kernelport lint FILE`
    builds `lint` alone, and the whole app still answers anything else."""
    before = ("import typer.main\nbuilt = []\n_from_info = typer.main.get_command_from_info\n"
              "def counting(command_info, **kw):\n"
              "    c = _from_info(command_info, **kw)\n    built.append(c.name)\n    return c\n"
              "typer.main.get_command_from_info = counting\n")
    after = "print(json.dumps(built), file=sys.stderr)\n"
    assert _lint_in_a_fresh_interpreter(before, after, "lint", str(EXAMPLES / "saxpy.cu")) == ["lint"]
    assert _lint_in_a_fresh_interpreter(before, after, "rule", "WS009") == ["rule"]
    assert len(_lint_in_a_fresh_interpreter(before, after, "--help")) >= 7
    assert len(_lint_in_a_fresh_interpreter(before, after, "--color", "never", "rule", "WS009")) >= 7


def test_the_one_command_app_answers_as_the_whole_one(tmp_path):
    """The same argv through the trimmed app and through the whole app (the trim switched off):
    the same exit status, output and errors."""
    whole = "import kernelport.cli\nkernelport.cli.for_argv = lambda argv: kernelport.cli.app\n"
    code = "import sys\n{}sys.argv = ['kernelport', *sys.argv[1:]]\nfrom kernelport.entry import main\nmain()\n"
    (tmp_path / "k.cu").write_bytes((EXAMPLES / "warp_reduce.cu").read_bytes())
    for argv in (["lint", "--help"], ["lint", "--bogus", "k.cu"], ["lnt", "k.cu"], ["rule", "WS009"],
                 ["lint", "k.cu", "--format", "concise"], ["translate", "k.cu", "--to", "nope"], ["lint", "-j"]):
        got = [subprocess.run([sys.executable, "-P", "-c", code.format(b), *argv], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path) for b in ("", whole)]
        assert (got[0].returncode, got[0].stdout, got[0].stderr) == (got[1].returncode, got[1].stdout, got[1].stderr), argv
        assert got[0].stdout or got[0].stderr


def test_a_lint_with_no_pyproject_above_it_parses_no_toml(tmp_path):
    if any((d / "pyproject.toml").is_file() for d in tmp_path.parents):
        pytest.skip("a pyproject.toml above the temporary directory")
    (tmp_path / "k.cu").write_bytes((EXAMPLES / "saxpy.cu").read_bytes())
    heavy = ("tomllib", "jinja2", "numpy", "rich", "kernelport.translate", "kernelport.emulator", "kernelport.verify")
    after = f"print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)), file=sys.stderr)\n"
    assert _lint_in_a_fresh_interpreter("", after, "lint", "k.cu", cwd=tmp_path) == []
    (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\nselect = ["WS"]\n')
    assert _lint_in_a_fresh_interpreter("", after, "lint", "k.cu", cwd=tmp_path) == ["tomllib"]
