"""Lint's project reads every file with the run's options (-I, -D, [tool.kernelport],
compile_commands.json: lint.config.options_for), not only the file being linted: an includer whose
`#include "pbc/tasks.cu"` resolves only with `-I lib` (gpu4pyscf's pbc/create_tasks.cu, included by
pbc/rys_contract_jk_ip1.cu) is found, and its calls decide the helper's SY001
(kernelport/lint/sharedrefs.py).  Without the option (the file given alone: a directory run looks for the
include under its tree, kernelport.include_search) the include does not resolve and the file-alone
finding stays; a per-thread caller found through the option keeps it.  The same for a file given
alone or on stdin whose includer beside it reaches it only through -I (kernelport/includers.py)."""
from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path

from test_includers import LIB, PART
from test_lint_sharedrefs import LOCAL_CALLER, SHARED_CALLER, TASKS
from trust_support import kp_inproc

SYNC_IN_LOOP = ("tasks.cu", 15)  # the __syncthreads() in the loop whose bound reads the shared counters


def _tree(tmp_path: Path, caller: str, include: str = '#include "pbc/tasks.cu"', name: str = "proj") -> Path:
    """proj/lib/pbc/{tasks.cu, main.cu}: main.cu reaches tasks.cu only through -I proj/lib."""
    d = tmp_path / name / "lib" / "pbc"
    d.mkdir(parents=True)
    (d / "tasks.cu").write_text(TASKS)
    (d / "main.cu").write_text(textwrap.dedent(caller).replace('#include "tasks.cu"', include))
    return tmp_path / name


def _sy001(*args, stdin: str | None = None, monkeypatch=None) -> list[tuple[str, int]]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc, out, err = kp_inproc("lint", "--format", "json", "-j", "1", *map(str, args))
    assert rc in (0, 1), err
    found = json.loads(out)
    assert not [f for f in found if f["code"] in ("KP006", "KP001")]
    return sorted((Path(f["path"]).name, f["line"]) for f in found if f["code"] == "SY001")


def test_an_includer_reached_through_dash_i_refutes_the_finding(tmp_path):
    root = _tree(tmp_path, SHARED_CALLER)
    assert SYNC_IN_LOOP in _sy001(root / "lib" / "pbc" / "tasks.cu")  # given alone: its includer's include does not
    assert _sy001("-I", root / "lib", root) == []  # resolve, and the helper is judged alone
    assert _sy001(root) == []  # a directory run looks for it under the run's tree, as translate (include_search)


def test_a_per_thread_caller_through_dash_i_keeps_the_finding(tmp_path):
    root = _tree(tmp_path, LOCAL_CALLER)
    with_i = _sy001("-I", root / "lib", root)
    assert SYNC_IN_LOOP in with_i
    assert [x for x in with_i if x[0] == "tasks.cu"] == [x for x in _sy001(root) if x[0] == "tasks.cu"]


def test_the_configured_include_dirs_count_like_dash_i(tmp_path):
    root = _tree(tmp_path, SHARED_CALLER)
    (root / "pyproject.toml").write_text('[tool.kernelport]\ninclude-dirs = ["lib"]\n')
    assert _sy001(root) == []


def test_an_include_under_a_dash_d_condition_counts_only_with_it(tmp_path):
    root = _tree(tmp_path, SHARED_CALLER, '#ifdef WITH_TASKS\n#include "pbc/tasks.cu"\n#endif')
    assert SYNC_IN_LOOP in _sy001("-I", root / "lib", root)  # the include is not compiled
    assert _sy001("-I", root / "lib", "-D", "WITH_TASKS", root) == []


def _partway(tmp_path: Path) -> Path:
    """src/grp/lib.cu defines LANES 32 and then includes "grp/lib_part.cu" (only through -I src)."""
    d = tmp_path / "proj" / "src" / "grp"
    d.mkdir(parents=True)
    (d / "lib.cu").write_text(LIB.replace('#include "lib_part.cu"', '#include "grp/lib_part.cu"'))
    (d / "lib_part.cu").write_text(PART)
    return tmp_path / "proj"


def _codes(*args, stdin: str | None = None, monkeypatch=None) -> list[tuple[str, int, str]]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc, out, err = kp_inproc("lint", "--format", "json", "-j", "1", *map(str, args))
    assert rc in (0, 1), err
    return sorted((Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(out))


LANES_USE = ("lib_part.cu", 12, "WS001")  # `threadIdx.x % LANES`: LANES is 32 in its includer


def test_a_file_given_alone_finds_its_includer_beside_it_through_dash_i(tmp_path):
    root = _partway(tmp_path)
    part = root / "src" / "grp" / "lib_part.cu"
    assert LANES_USE not in _codes(part)  # the includer's include does not resolve: LANES is unknown
    assert LANES_USE in _codes("-I", root / "src", part)
    assert LANES_USE in _codes("-I", root / "src", root)


def test_stdin_finds_its_includer_beside_it_through_dash_i(tmp_path, monkeypatch):
    root = _partway(tmp_path)
    part = root / "src" / "grp" / "lib_part.cu"
    assert LANES_USE not in _codes("-", "--stdin-filename", part, stdin=PART, monkeypatch=monkeypatch)
    assert LANES_USE in _codes("-I", root / "src", "-", "--stdin-filename", part, stdin=PART,
                               monkeypatch=monkeypatch)
