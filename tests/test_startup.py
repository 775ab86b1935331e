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
    # (`-j1`: a glued short option, which kernelport/lint/argv.py leaves to typer)
    assert _lint_in_a_fresh_interpreter(before, after, "lint", "-j1", str(EXAMPLES / "saxpy.cu")) == ["lint"]
    assert _lint_in_a_fresh_interpreter(before, after, "lint", str(EXAMPLES / "saxpy.cu")) == []  # no typer at all
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


def test_a_one_file_lint_imports_no_cli_framework(tmp_path):
    """`kernelport lint FILE...` in plain spellings runs without typer, click, rich or pydantic
    (kernelport/lint/argv.py); anything typer must word goes to typer."""
    (tmp_path / "k.cu").write_bytes((EXAMPLES / "warp_reduce.cu").read_bytes())
    frameworks = ("typer", "click", "rich", "pydantic", "kernelport.cli", "kernelport.lint.cli")
    after = f"print(json.dumps(sorted(m for m in {frameworks!r} if m in sys.modules)), file=sys.stderr)\n"
    for argv in (["lint", "k.cu"], ["lint", "--format", "json", "k.cu"], ["lint", "k.cu", "--format=concise", "-j", "1"],
                 ["lint", "--select", "WS", "--ignore", "WS002", "-D", "X=1", "-I", ".", "k.cu"]):
        assert _lint_in_a_fresh_interpreter("", after, *argv, cwd=tmp_path) == [], argv
    assert "typer" in _lint_in_a_fresh_interpreter("", after, "lint", "--help", cwd=tmp_path)
    assert "typer" in _lint_in_a_fresh_interpreter("", after, "lint", "-j1", "k.cu", cwd=tmp_path)


def _lint_app():
    import kernelport.cli
    import typer.main
    return typer.main.get_command(kernelport.cli.for_argv(["lint"])).commands["lint"]


def test_the_plain_lint_options_are_the_ones_typer_declares():
    """kernelport/lint/argv.py's table and kernelport/lint/command.py's defaults against the
    options typer builds from kernelport/lint/cli.py: a new or renamed option fails here."""
    import inspect
    from typing import get_args, get_origin

    from kernelport.lint import argv, cli, command
    declared = list(inspect.signature(cli.lint).parameters)
    plain = inspect.signature(command.lint).parameters
    assert declared == list(plain)
    spellings: dict[str, tuple] = {}
    for p in _lint_app().params:
        assert plain[p.name].default == p.default, p.name
        if p.param_type_name == "argument":
            assert p.name == argv.ARGUMENT and p.nargs == -1
            continue
        assert not p.secondary_opts, p.name  # (a `--x/--no-x` pair would need its off spelling here)
        count = argv.FLAG if p.is_flag else argv.MANY if p.multiple else argv.ONE
        kind = p.type_descriptor.annotation  # (typer 0.29: Optional already taken off)
        kind = get_args(kind)[0] if get_origin(kind) is list else kind
        for opt in p.opts:
            spellings[opt] = (p.name, count, kind)
    assert spellings == argv.OPTIONS


@pytest.mark.parametrize("words", [
    ["k.cu"], [], ["-"], ["a.cu", "b.cu", "--format", "json"], ["--format=sarif", "k.cu", "--fix", "--diff"],
    ["--select", "WS,SY001", "--select", "KP", "--ignore", "WS002", "--fail-on", "info", "--exit-zero", "k.cu"],
    ["-o", "out.txt", "--output-file", "o2.txt", "-j", "2", "--jobs", "3", "--statistics", "--targets", "hip-cdna"],
    ["-I", "inc", "--include-dir", "inc2", "-D", "A=1", "--define", "B", "--hip-define", "H", "--config", "p.toml"],
    ["--compile-commands", "cc.json", "--confirm", "--inputs", "in.txt", "--show-fixes", "--unsafe-fixes",
     "--stdin-filename", "s.cu", "-"],
])
def test_a_plain_lint_argv_reaches_the_command_as_typer_passes_it(words, monkeypatch):
    import inspect

    from kernelport.lint import argv, command
    defaults = {k: p.default for k, p in inspect.signature(command.lint).parameters.items()}
    got = []
    monkeypatch.setattr(command, "lint", lambda **kw: got.append(kw))
    _lint_app().main(args=words, prog_name="kernelport lint", standalone_mode=False)
    plain = argv.parse(words)
    assert plain is not None
    assert got == [{**defaults, **plain}]


@pytest.mark.parametrize("words", [
    ["--help"], ["k.cu", "--help"], ["-j2", "k.cu"], ["--fo", "json"], ["--", "k.cu"], ["--fix=1", "k.cu"], ["-o"],
    ["--format", "-x"], ["--format="], [""], ["-j", "two"], ["-j", "-1"], ["--bogus"], ["-x"], ["-Iinc", "k.cu"],
])
def test_a_lint_argv_typer_must_word_is_left_to_typer(words):
    from kernelport.lint import argv
    assert argv.parse(words) is None


def test_the_plain_lint_answers_as_typer_does(tmp_path):
    """The same argv without typer and through typer (kernelport/lint/argv.py switched off): the same
    exit status, output, errors and written report."""
    through_typer = "import kernelport.lint.argv\nkernelport.lint.argv.parse = lambda args: None\n"
    code = "import sys\n{}sys.argv = ['kernelport', *sys.argv[1:]]\nfrom kernelport.entry import main\nmain()\n"
    (tmp_path / "k.cu").write_bytes((EXAMPLES / "warp_reduce.cu").read_bytes())
    (tmp_path / "clean.cu").write_bytes((EXAMPLES / "saxpy.cu").read_bytes())
    for argv in (["lint", "k.cu"], ["lint", "clean.cu"], ["lint", "k.cu", "--format", "json"], ["lint", "nope.cu"],
                 ["lint", "--format", "bogus", "k.cu"], ["lint", "--fail-on", "bogus", "k.cu"], ["lint", "k.cu", "--diff"],
                 ["lint", "--statistics", "k.cu", "clean.cu"], ["lint", "--select", "WS9", "k.cu"],
                 ["lint", "-o", "report.txt", "--format", "concise", "k.cu"], ["lint", "--exit-zero", "k.cu"],
                 ["lint", "-", "k.cu"], ["lint", "--inputs", "x.txt", "k.cu"], ["lint", "--fail-on", "error", "."]):
        got = []
        for patch in ("", through_typer):
            (tmp_path / "report.txt").unlink(missing_ok=True)
            r = subprocess.run([sys.executable, "-P", "-c", code.format(patch), *argv], capture_output=True, text=True,
                               timeout=300, cwd=tmp_path)
            report = (tmp_path / "report.txt").read_text() if (tmp_path / "report.txt").exists() else None
            got.append((r.returncode, r.stdout, r.stderr, report))
        assert got[0] == got[1], argv
        assert got[0][1] or got[0][2]


def test_a_report_whose_fixes_all_fall_away_never_imports_the_translator(tmp_path):
    """A site's `--fix` edit is the translator's rewrite, computed only for a finding that keeps a fix:
    warp_reduce's 32-lane rows compute the same at 64, so its six findings are advice with no fix and
    no format imports kernelport.translate or kernelport.lint.fix, nor the translator's renames
    (kernelport.api_names: lint reads the names a unit declares from kernelport.declared_names).  The
    look-alike (a kernel without rows of its own calls the same ladder) keeps its fix: the report
    prints it and `--fix` applies it."""
    (tmp_path / "k.cu").write_bytes((EXAMPLES / "warp_reduce.cu").read_bytes())
    heavy = ("kernelport.translate", "kernelport.lint.fix", "kernelport.api_names")
    after = f"print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)), file=sys.stderr)\n"
    for argv in (["lint", "k.cu"], ["lint", "--format", "json", "k.cu"], ["lint", "--format", "sarif", "k.cu"]):
        assert _lint_in_a_fresh_interpreter("", after, *argv, cwd=tmp_path) == [], argv
    assert _lint_in_a_fresh_interpreter("", after, "lint", "--fix", "k.cu", cwd=tmp_path) == sorted(heavy)
    assert (tmp_path / "k.cu").read_bytes() == (EXAMPLES / "warp_reduce.cu").read_bytes()  # nothing to fix
    fixable = (tmp_path / "f.cu")
    fixable.write_text((EXAMPLES / "warp_reduce.cu").read_text() + "\n__global__ void whole(float* x)\n{\n"
                       "    x[threadIdx.x] = warpReduceSum(x[threadIdx.x]);\n}\n")
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "--format", "json", "f.cu"],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    fixes = [f["fix"]["message"] for f in json.loads(r.stdout) if f.get("fix")]
    assert fixes == ["replace `16` with `warpSize / 2`"], r.stdout
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "--fix", "f.cu"],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert "offset = warpSize / 2; offset > 0" in fixable.read_text() and "Fixed 1 finding" in r.stderr, r.stderr
