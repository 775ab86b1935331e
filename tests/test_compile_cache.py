"""kernelport.compile_cache: an identical compile runs once; anything that could change its result
(the source's or a header's bytes, a flag, an include directory) runs it again.

A stand-in compiler (a Python script) counts its runs, names its source in its output and reads
the quoted headers next to the source and in its -I directory, as a C compiler does."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kernelport import compile_cache

FAKE_CC = r'''
import re, sys
from pathlib import Path
args = sys.argv[1:]
with open(args[0], "a") as f:
    f.write("run\n")
src = Path(args[args.index("-c") + 1])
dirs = [src.parent] + [Path(args[i + 1]) for i, a in enumerate(args) if a == "-I"]
def expand(text):
    return re.sub(r'#include "([^"]+)"',
                  lambda m: expand(next((d / m[1]).read_text() for d in dirs if (d / m[1]).is_file())), text)
text = expand(src.read_text())
Path(args[args.index("-o") + 1]).write_text("object of " + text)
bad = "error" in text
print(f"{src}:1:1: {'error' if bad else 'note'}: compiled in {src.parent}")
sys.exit(1 if bad else 0)
'''


@pytest.fixture
def cc(tmp_path, monkeypatch):
    """run(src, *flags, search_dirs=()) -> (CompletedProcess, object text); .runs() counts real runs."""
    monkeypatch.setenv(compile_cache.ENV, str(tmp_path / "cache"))
    script = tmp_path / "fake_cc.py"
    script.write_text(FAKE_CC)
    counter = tmp_path / "runs.txt"
    out_dir = tmp_path / "out"

    def run(src: Path, *flags, search_dirs=()):
        out_dir.mkdir(exist_ok=True)
        out = out_dir / "kernel.o"
        out.unlink(missing_ok=True)
        cmd = [sys.executable, str(script), str(counter), "-c", str(src), "-o", str(out), *flags]
        proc = compile_cache.run(cmd, src, search_dirs=search_dirs, outputs=(str(out),), timeout=60)
        return proc, out.read_text()

    run.runs = lambda: len(counter.read_text().splitlines()) if counter.exists() else 0
    return run


def _file(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_same_bytes_in_another_directory_compile_once_and_name_that_directory(cc, tmp_path):
    a = _file(tmp_path / "a" / "k.cu", '#include "h.h"\nint k;\n')
    b = _file(tmp_path / "b" / "k.cu", '#include "h.h"\nint k;\n')
    _file(tmp_path / "a" / "h.h", "int h;\n")
    _file(tmp_path / "b" / "h.h", "int h;\n")
    first, obj_a = cc(a)
    second, obj_b = cc(b)
    assert cc.runs() == 1
    assert first.returncode == second.returncode == 0
    assert second.stdout == f"{b}:1:1: note: compiled in {b.parent}\n"  # the reader's path, not a's
    assert obj_b == obj_a  # the output file is restored from the store


def test_a_changed_header_compiles_again(cc, tmp_path):
    a = _file(tmp_path / "a" / "k.cu", '#include "h.h"\nint k;\n')
    b = _file(tmp_path / "b" / "k.cu", '#include "h.h"\nint k;\n')
    _file(tmp_path / "a" / "h.h", "int h;\n")
    _file(tmp_path / "b" / "h.h", "error h;\n")  # same source bytes, another header
    assert cc(a)[0].returncode == 0
    bad, _ = cc(b)
    assert cc.runs() == 2
    assert bad.returncode == 1 and "error" in bad.stdout


def test_a_nested_header_is_part_of_the_key(cc, tmp_path):
    a = _file(tmp_path / "k.cu", '#include "h.h"\n')
    _file(tmp_path / "h.h", '#include "inner.h"\n')
    inner = _file(tmp_path / "inner.h", "int i;\n")
    cc(a)
    inner.write_text("error i;\n")
    assert cc(a)[0].returncode == 1
    assert cc.runs() == 2


def test_a_failed_compile_is_stored_and_names_the_readers_file(cc, tmp_path):
    a = _file(tmp_path / "a" / "k.cu", "error;\n")
    b = _file(tmp_path / "b" / "k.cu", "error;\n")
    cc(a)
    again, _ = cc(b)
    assert cc.runs() == 1
    assert again.returncode == 1 and again.stdout.startswith(f"{b}:1:1: error")


def test_another_flag_compiles_again(cc, tmp_path):
    a = _file(tmp_path / "k.cu", "int k;\n")
    cc(a, "-O2")
    cc(a, "-O3")
    cc(a, "-O2")
    assert cc.runs() == 2


def test_an_include_directory_the_caller_does_not_name_is_never_stored(cc, tmp_path):
    a = _file(tmp_path / "k.cu", '#include "h.h"\n')
    inc = tmp_path / "inc"
    h = _file(inc / "h.h", "int h;\n")
    assert cc(a, "-I", str(inc))[0].returncode == 0
    h.write_text("error h;\n")  # only -I knows this header: a stored run would hide the error
    assert cc(a, "-I", str(inc))[0].returncode == 1
    assert cc.runs() == 2


def test_a_named_include_directory_is_part_of_the_key(cc, tmp_path):
    a = _file(tmp_path / "k.cu", '#include "h.h"\n')
    inc = tmp_path / "inc"
    h = _file(inc / "h.h", "int h;\n")
    cc(a, "-I", str(inc), search_dirs=(inc,))
    cc(a, "-I", str(inc), search_dirs=(inc,))
    assert cc.runs() == 1
    h.write_text("error h;\n")
    assert cc(a, "-I", str(inc), search_dirs=(inc,))[0].returncode == 1
    assert cc.runs() == 2


def test_without_the_variable_every_compile_runs(cc, tmp_path, monkeypatch):
    monkeypatch.delenv(compile_cache.ENV)
    a = _file(tmp_path / "k.cu", "int k;\n")
    cc(a)
    cc(a)
    assert cc.runs() == 2


def test_a_probe_runs_once_per_executable_and_input(tmp_path, monkeypatch):
    """`--version` and feature probes: every CLI run of a session repeats them."""
    monkeypatch.setenv(compile_cache.ENV, str(tmp_path / "cache"))
    counter = tmp_path / "runs.txt"
    tool = tmp_path / "tool"
    tool.write_text(f"#!/bin/sh\necho run >> {counter}\necho \"tool 1.0 $*\"; cat\n")
    tool.chmod(0o755)
    runs = lambda: len(counter.read_text().splitlines())  # noqa: E731
    assert compile_cache.run([str(tool), "--version"]).stdout == "tool 1.0 --version\n"
    assert compile_cache.run([str(tool), "--version"]).stdout == "tool 1.0 --version\n"
    assert runs() == 1
    assert compile_cache.run([str(tool), "-"], input_text="probe A\n").stdout.endswith("probe A\n")
    assert compile_cache.run([str(tool), "-"], input_text="probe B\n").stdout.endswith("probe B\n")
    assert runs() == 3
    tool.write_text(f"#!/bin/sh\necho run >> {counter}\necho \"tool 2.0 $*\"\n")  # an upgrade
    assert compile_cache.run([str(tool), "--version"]).stdout == "tool 2.0 --version\n"
    assert runs() == 4
