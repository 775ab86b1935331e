"""The command line's conventions, through the installed CLI: -V, help without Python types,
--color and NO_COLOR/FORCE_COLOR, shell completion, progress bars only on a terminal, and a light
start-up."""
from __future__ import annotations

import os
import shutil
import pty
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
COMMANDS = ("translate", "verify", "bind", "plan", "lint", "rule", "completion")


def kp(*args, cwd=None, env=None, stdin=None):
    e = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    e.update(env or {})
    r = subprocess.run([sys.executable, "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, timeout=600, env=e, input=stdin)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def test_short_version_flag():
    from kernelport import __version__
    for flag in ("-V", "--version"):
        r = kp(flag)
        assert r.returncode == 0 and r.stdout == f"kernelport {__version__}\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_no_python_types(command):
    r = kp(command, "--help")
    assert r.returncode == 0
    for bad in ("<list[", "<Path>", "<path>", "<str>", "<int>", "{", "[default: 0]", "[default: None]"):
        assert bad not in r.stdout, (bad, r.stdout)
    usage = r.stdout.splitlines()[0]
    assert usage.startswith(f"Usage: kernelport {command} [OPTIONS]")


def test_help_names_arguments_by_metavar():
    assert kp("translate", "--help").stdout.splitlines()[0] == "Usage: kernelport translate [OPTIONS] PATH..."  # files or directories
    assert kp("lint", "--help").stdout.splitlines()[0] == "Usage: kernelport lint [OPTIONS] [PATH...]"
    assert "-j, --jobs N " in kp("verify", "--help").stdout


def _lint_full(*args, env=None):
    return kp(*args, "lint", EXAMPLES / "softmax.cu", env=env).stdout


def test_color_always_never_auto_and_the_environment(tmp_path):
    assert "\x1b[" in _lint_full("--color", "always")
    assert "\x1b[" not in _lint_full("--color", "never")
    assert "\x1b[" not in _lint_full()  # auto, and a pipe is no terminal
    assert "\x1b[" in _lint_full(env={"FORCE_COLOR": "1"})
    assert "\x1b[" not in _lint_full("--color", "never", env={"FORCE_COLOR": "1"})
    assert "\x1b[" not in _lint_full("--color", "auto", env={"NO_COLOR": "1", "FORCE_COLOR": "1"})
    assert "\x1b[" in _lint_full("--color", "always", env={"NO_COLOR": "1"})
    # verify's table goes through the same choice (an annotated kernel: verify refuses a run with none)
    k = tmp_path / "saxpy.cu"
    shutil.copy(ROOT / "examples" / "saxpy.cu", k)
    for f in ROOT.glob("examples/saxpy.*"):
        if f.name != "saxpy.cu":
            shutil.copy(f, tmp_path / f.name)
    assert "\x1b[" in kp("--color", "always", "verify", k, "--schedules", "block").stdout
    assert "\x1b[" not in kp("--color", "never", "verify", k, "--schedules", "block", env={"FORCE_COLOR": "1"}).stdout
    r = kp("--color", "sometimes", "rule")
    assert r.returncode == 2 and "--color auto, always or never" in r.stderr


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script(shell):
    r = kp("completion", shell)
    assert r.returncode == 0 and "_KERNELPORT_COMPLETE" in r.stdout
    assert f"complete_{shell}" in r.stdout
    if shell == "bash":
        assert "complete -o default -F _kernelport_completion kernelport" in r.stdout


def test_completion_protocol_answers_commands_and_options():
    r = kp(env={"_KERNELPORT_COMPLETE": "complete_bash", "COMP_WORDS": "kernelport tr", "COMP_CWORD": "1"})
    assert r.stdout.split() == ["translate"]
    r = kp(env={"_KERNELPORT_COMPLETE": "complete_bash", "COMP_WORDS": "kernelport lint --stdin", "COMP_CWORD": "2"})
    assert r.stdout.split() == ["--stdin-filename"]
    r = kp(env={"_KERNELPORT_COMPLETE": "complete_fish", "_TYPER_COMPLETE_ARGS": "kernelport ver",
                "_TYPER_COMPLETE_FISH_ACTION": "get-args"})
    assert r.stdout.startswith("verify\t")
    r = kp(env={"_KERNELPORT_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "kernelport pl"})
    assert "plan" in r.stdout
    assert kp("completion", "tcsh").returncode == 2


def _stderr_on_a_terminal(*args, cwd=None) -> tuple[int, str]:
    """Run with stderr on a pseudo-terminal (stdout a pipe); returns (exit code, what the terminal got)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "kernelport", *map(str, args)], stdout=subprocess.PIPE,
                         stderr=slave, cwd=cwd, env={**os.environ, "COLUMNS": "120"})
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    p.communicate(timeout=600)
    os.close(master)
    return p.returncode, b"".join(chunks).decode("utf-8", "replace")


def test_progress_bars_only_on_a_terminal():
    files = sorted(EXAMPLES.glob("*.cu"))
    assert len(files) >= 8
    rc, tty = _stderr_on_a_terminal("translate", *files, "--to", "hip,metal", "--check")
    assert rc == 0 and "translating" in tty
    piped = kp("translate", *files, "--to", "hip,metal", "--check")
    assert piped.returncode == 0 and piped.stderr == ""
    rc, tty = _stderr_on_a_terminal("lint", *files, "--format", "concise")
    assert "linting" in tty
    piped = kp("lint", *files, "--format", "concise")
    assert "linting" not in piped.stderr and "\x1b[" not in piped.stderr


def test_start_up_imports_no_engine():
    code = ("import sys, kernelport.cli; heavy = [m for m in ('numpy', 'tree_sitter', 'jinja2', 'pycparser', "
            "'kernelport.lint.engine', 'kernelport.translate', 'kernelport.verify') if m in sys.modules]; "
            "print(heavy)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "[]", r.stdout + r.stderr
