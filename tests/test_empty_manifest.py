"""A held-out rule may take no project at all (a thin frame: heldout99's sample gave 0 files). Its manifest
then has comments and no [project.*] table: the corpus tools materialise an empty tree and score 0 files
(they raised KeyError 'project'); a manifest with a project is read as before."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EMPTY = "# The n-th held-out set: the rule took no project.\n# Per project: ...\n"
ONE = """[project."demo"]
repo = "example/demo"
commit = "0000000000000000000000000000000000000000"
include_dirs = ["inc"]
defines = ["N=4"]
sources = ["src/k.cu"]
"""


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up while it loads
    spec.loader.exec_module(mod)
    return mod


def test_an_empty_manifest_materialises_an_empty_tree(tmp_path):
    (tmp_path / "set.toml").write_text(EMPTY)
    dest = tmp_path / "tree"
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "realcorpus_build.py"), str(tmp_path / "set.toml"),
                          str(dest), "--mirrors", str(tmp_path / "none")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "0 sources in 0 projects" in run.stdout
    assert [p.name for p in dest.iterdir()] == ["manifest.toml"]


def test_the_scoreboard_and_the_oracle_run_read_no_project_from_it_and_one_from_a_real_one(tmp_path):
    board, oracle = _load("scoreboard"), _load("oracle_corpus")
    (tmp_path / "manifest.toml").write_text(EMPTY)
    assert board.load_projects(str(tmp_path)) == []
    assert oracle.tree_files(tmp_path, configure=True) == [] and oracle.build_flags(tmp_path) == []
    # the look-alike: one project is still read, with its flags
    (tmp_path / "demo" / "src").mkdir(parents=True)
    (tmp_path / "demo" / "src" / "k.cu").write_text("__global__ void k(int* x) { x[0] = N; }\n")
    (tmp_path / "manifest.toml").write_text(ONE)
    (project,) = board.load_projects(str(tmp_path))
    assert project.name == "demo" and project.defines == ["N=4"]
    assert oracle.tree_files(tmp_path) == [tmp_path / "demo" / "src" / "k.cu"]
    assert oracle.build_flags(tmp_path) == [(str(tmp_path / "demo"), ["inc"], ["N=4"], {})]
