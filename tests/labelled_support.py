"""bench/lint_recall.py as a module, for the tests of the labelled sets (tests/labelled*)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lint_recall():
    """The benchmark's module (loaded once: its dataclasses need their module registered)."""
    if "lint_recall" in sys.modules:
        return sys.modules["lint_recall"]
    spec = importlib.util.spec_from_file_location("lint_recall", ROOT / "bench" / "lint_recall.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["lint_recall"] = mod
    spec.loader.exec_module(mod)
    return mod


def script(name: str):
    """scripts/NAME.py as a module (labelled_sources, labelled_headers: the set-building scripts)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def assert_well_formed(base: Path, min_hazards: int, min_projects: int) -> None:
    """A labelled set's labels sit on their lines, no line is labelled twice, and it is as large as promised."""
    b = lint_recall()
    labels = b.read_labels(base / "labels.tsv")
    assert not b.check_labels(labels, base)
    hazards = [lb for lb in labels if lb.kind == "hazard"]
    assert len(hazards) >= min_hazards and len({lb.project for lb in hazards}) >= min_projects
    assert len({(lb.file, lb.line) for lb in labels}) == len(labels), "a line labelled twice"


def assert_traced(base: Path) -> None:
    """Every label names a full commit hash with a README row, a reason, and a file under
    PROJECT/COMMIT10/ with the project's license beside it."""
    import re

    b = lint_recall()
    readme = (base / "README.md").read_text(encoding="utf-8")
    for lb in b.read_labels(base / "labels.tsv"):
        assert re.fullmatch(r"[0-9a-f]{40}", lb.commit), lb
        assert lb.why.strip(), lb
        project, short, *path = Path(lb.file).parts
        assert project == lb.project and short == lb.commit[:10] and path, lb.file
        assert (base / project / "LICENSE").is_file(), project
        assert lb.commit[:10] in readme, f"README has no row for {lb.commit}"


def sources(base: Path) -> list[list[str]]:
    """A set's sources.tsv rows (folder, repo, commit, path, license): where each file comes from
    (sets whose projects' files are not committed, scripts/labelled_sources.py)."""
    return [row.split("\t") for row in (base / "sources.tsv").read_text(encoding="utf-8").splitlines()
            if row.strip() and not row.startswith("#")]


def assert_sourced_without_code(base: Path) -> None:
    """Each labelled file has a sources.tsv row with the label's commit, a label's text is a hash of
    its line, not the line, and every project folder is git-ignored (the set commits no project code)."""
    import re

    rows = {(folder, path): commit for folder, _repo, commit, path, _lic in sources(base)}
    for lb in lint_recall().read_labels(base / "labels.tsv"):
        project, short, *path = Path(lb.file).parts
        assert rows.get((f"{project}/{short}", "/".join(path))) == lb.commit, lb.file
        assert re.fullmatch(r"sha1:[0-9a-f]{12}", lb.text), lb
    ignored = (base / ".gitignore").read_text(encoding="utf-8").split()
    for folder, *_ in sources(base):
        assert f"/{folder.split('/')[0]}/" in ignored, folder


def assert_written(base: Path) -> None:
    """The files scripts/labelled_sources.py writes are there (the local tests lint them)."""
    missing = [f"{folder}/{path}" for folder, _repo, _commit, path, _lic in sources(base)
               if not (base / folder / path).is_file()]
    assert not missing, f"run `python scripts/labelled_sources.py tests/{base.name}` first: {missing[0]} is not written"


def assert_floors(measured: dict, recall: float, precision: float) -> None:
    """A set's measure keeps its floors: every file linted, recall and precision at least these, and
    no look-alike flagged where the precision floor is 1."""
    lint = measured["lint"]
    assert not measured["failures"] and not measured["internal_errors"], measured["failures"] + measured["internal_errors"]
    assert lint["recall"] >= recall, lint["misses"]
    assert lint["precision"] >= precision, lint["flagged_lookalikes"]
    assert precision < 1.0 or lint["flagged_lookalikes"] == [], lint["flagged_lookalikes"]


def local_set_checks(base: Path, min_hazards: int, min_projects: int, recall: float, precision: float):
    """The checks every set whose files are written from local clones runs by hand (its
    tests/local_labelledN.py binds them to module names, where pytest finds them): the files are
    there, the labels sit on their lines and are traced, and the measure keeps its floors.
    Returns (written, measured, test_labels, test_traced, test_floors)."""
    import pytest

    @pytest.fixture(scope="module", autouse=True)
    def written():
        assert_written(base)

    @pytest.fixture(scope="module")
    def measured():
        return measure_set(base)

    def test_labels_sit_on_their_lines():
        assert_well_formed(base, min_hazards=min_hazards, min_projects=min_projects)

    def test_every_label_is_traced_to_its_commit():
        assert_traced(base)

    def test_recall_and_precision_do_not_regress(measured):
        assert_floors(measured, recall, precision)

    return (written, measured, test_labels_sit_on_their_lines, test_every_label_is_traced_to_its_commit,
            test_recall_and_precision_do_not_regress)


def measure_set(base: Path) -> dict:
    """bench/lint_recall.py's measure of a labelled set, linted in this process."""
    b = lint_recall()
    return b.measure(lint_in_process, b.read_labels(base / "labels.tsv"), base, jobs=1)


def lint_in_process(path, flags=()):
    """Lint as the bench's runner does, with the file's -I and -D (build_flags.tsv), in this process
    (`path`: one file, or the list of one run's files)."""
    from kernelport.lint import config as configmod, engine
    from kernelport.project import parse_define

    pairs = list(zip(flags[::2], flags[1::2]))
    overrides = configmod.Overrides(include_dirs=tuple(v for k, v in pairs if k == "-I"),
                                    defines=tuple(parse_define(v) for k, v in pairs if k == "-D"))
    paths = list(path) if isinstance(path, (list, tuple)) else [path]
    res = engine.lint_paths(paths, overrides, jobs=1)
    data = [f.to_json() for r in res for f in r.findings]
    return str(paths[0]), data, 0, ""


def claims_by_line(text: str, name: str = "t.cu") -> dict[int, set[str]]:
    """Line -> the codes of lint's hazard claims there (warnings and errors; `info` advice left out)."""
    from kernelport.lint.engine import lint_text
    out: dict[int, set[str]] = {}
    for f in lint_text(text, name):
        if f.severity != "info":
            out.setdefault(f.line, set()).add(f.code)
    return out
