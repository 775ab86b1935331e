"""scripts/labelled_sources.py: a labelled set's files, written from a local clone as the fixing
commit's parent held them, with the headers they include and the project's license."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from labelled_support import script


def _script():
    return script("labelled_sources")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


def _project(tmp_path: Path) -> tuple[Path, str]:
    """A clone at MIRROR/acme+kit/repo whose second commit fixes src/k.cu; (mirror, that commit)."""
    repo = tmp_path / "mirror" / "acme+kit" / "repo"
    (repo / "include" / "kit").mkdir(parents=True)
    (repo / "src").mkdir()
    _git(repo.parent, "init", "-q", "repo")
    _git(repo, "config", "user.email", "t@t")
    _git(repo, "config", "user.name", "t")
    (repo / "LICENSE").write_text("MIT\n")
    (repo / "include" / "kit" / "warp.h").write_text("#pragma once\n#define LANES 32\n")
    (repo / "include" / "unused.h").write_text("#pragma once\n")
    (repo / "src" / "k.cu").write_text('#include <kit/warp.h>\n#include <cstdio>\nint lane = LANES;\n')
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    (repo / "src" / "k.cu").write_text('#include <kit/warp.h>\nint lane = warpSize;\n')
    _git(repo, "commit", "-qam", "fix")
    return tmp_path / "mirror", _git(repo, "rev-parse", "HEAD")


def test_files_are_written_as_the_parent_held_them(tmp_path: Path):
    mirror, fix = _project(tmp_path)
    base = tmp_path / "set"
    base.mkdir()
    folder = f"kit/{fix[:10]}"
    (base / "sources.tsv").write_text(f"# header\n{folder}\tacme/kit\t{fix}\tsrc/k.cu\tLICENSE\n")
    (base / "build_flags.tsv").write_text(f"# header\n{folder}\t-I include\twhere\n")
    assert _script().materialize(base, mirror) == [folder]
    assert (base / folder / "src" / "k.cu").read_text().endswith("int lane = LANES;\n")  # before the fix
    assert (base / folder / "include" / "kit" / "warp.h").is_file()  # included through -I include
    assert not (base / folder / "include" / "unused.h").exists()  # not included: not copied
    assert (base / "kit" / "LICENSE").read_text() == "MIT\n"


def test_a_missing_clone_is_a_located_error(tmp_path: Path):
    base = tmp_path / "set"
    base.mkdir()
    (base / "sources.tsv").write_text("kit/0123456789\tacme/kit\t" + "0" * 40 + "\tsrc/k.cu\tLICENSE\n")
    with pytest.raises(SystemExit, match="no clone of acme/kit"):
        _script().materialize(base, tmp_path / "mirror")


def test_a_short_row_names_its_line(tmp_path: Path):
    base = tmp_path / "set"
    base.mkdir()
    (base / "sources.tsv").write_text("# header\nkit/0123456789\tacme/kit\n")
    with pytest.raises(SystemExit, match=r"sources.tsv:2: expected 5"):
        _script().materialize(base, tmp_path / "mirror")


def test_a_license_added_later_is_read_at_the_commit_the_cell_names(tmp_path: Path):
    """`PATH@REV`: a project whose tree had no license before the labelled commit (mgawan/ADEPT's
    hip branch) takes the license file as the commit that added it holds it."""
    mirror, fix = _project(tmp_path)
    repo = mirror / "acme+kit" / "repo"
    (repo / "COPYING").write_text("BSD-3-Clause\n")
    _git(repo, "add", "COPYING")
    _git(repo, "commit", "-qm", "license")
    added = _git(repo, "rev-parse", "HEAD")
    base = tmp_path / "set"
    base.mkdir()
    folder = f"kit/{fix[:10]}"
    (base / "sources.tsv").write_text(f"{folder}\tacme/kit\t{fix}\tsrc/k.cu\tCOPYING@{added}\n")
    _script().materialize(base, mirror)
    assert (base / "kit" / "LICENSE").read_text() == "BSD-3-Clause\n"
    (base / "sources.tsv").write_text(f"{folder}\tacme/kit\t{fix}\tsrc/k.cu\tCOPYING\n")  # not at fix^
    with pytest.raises(subprocess.CalledProcessError):
        _script().materialize(base, mirror)
