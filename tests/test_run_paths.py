"""kernelport/run_paths.py: a run asks the filesystem once per directory for its compile_commands.json
and once per path for its resolved form; the next run (one process, several runs) asks again."""
from __future__ import annotations

import pathlib
import shutil
from pathlib import Path

import pytest
from trust_support import kp_inproc

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "project"
KERNEL = """__global__ void k{i}(float* x) {{
    float v = x[threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 16);
    x[threadIdx.x] = v;
}}
"""


def _database_stats(monkeypatch, *files: Path) -> int:
    """How many times `lint FILES` stats a compile_commands.json."""
    seen = []
    is_file = pathlib.Path.is_file

    def counting(self):
        if self.name == "compile_commands.json":
            seen.append(self)
        return is_file(self)
    monkeypatch.setattr(pathlib.Path, "is_file", counting)
    rc, out, err = kp_inproc("lint", "--format", "json", "-j", "1", *files)
    monkeypatch.undo()
    assert rc in (0, 1), err
    return len(seen)


def test_a_directory_is_searched_for_its_database_once_per_run(tmp_path, monkeypatch):
    d = tmp_path / "a" / "b"
    d.mkdir(parents=True)
    for i in range(4):
        (d / f"k{i}.cu").write_text(KERNEL.format(i=i))
    one = _database_stats(monkeypatch, d / "k0.cu")
    assert one > 0  # (the search stats the directory and each parent's build/)
    assert _database_stats(monkeypatch, d) == one  # four files of one directory: one search (main: four)


def test_a_database_made_between_two_runs_is_seen_by_the_second(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(FIXTURE, proj)
    db = proj / "build" / "compile_commands.json"
    away = tmp_path / "cc.json"
    shutil.move(db, away)
    k = proj / "src" / "sort.cu"
    assert kp_inproc("translate", k, "--to", "hip", "-o", proj / "o1")[0] == 0
    assert not (proj / "o1" / "inc" / "lane_ops.hip.h").exists()  # no database: no -I inc
    shutil.move(away, db)
    assert kp_inproc("translate", k, "--to", "hip", "-o", proj / "o2")[0] == 0
    assert (proj / "o2" / "inc" / "lane_ops.hip.h").exists()  # the same process: found now


def test_a_relative_path_is_resolved_from_the_working_directory_of_its_run(tmp_path, monkeypatch):
    from kernelport import run_paths
    for sub in ("x", "y"):
        (tmp_path / sub).mkdir()
    run_paths.clear()
    monkeypatch.chdir(tmp_path / "x")
    assert run_paths.resolved(Path("k.cu")) == (tmp_path / "x" / "k.cu").resolve()
    monkeypatch.chdir(tmp_path / "y")  # (within a run the directory stays; a relative key carries it all the same)
    assert run_paths.resolved(Path("k.cu")) == (tmp_path / "y" / "k.cu").resolve()


@pytest.mark.parametrize("start", ["config", "project", "verify"])
def test_each_run_forgets_what_the_last_one_found(tmp_path, start):
    from kernelport import run_paths
    from kernelport.lint import config
    from kernelport.project import Project
    from kernelport.verify import verify_paths
    sentinel = tmp_path / "gone"
    run_paths._FOUND[sentinel] = None
    {"config": config.clear_cache, "project": Project, "verify": lambda: verify_paths([tmp_path])}[start]()
    assert sentinel not in run_paths._FOUND
