"""bench/lint_recall.py --project: one lint run per commit folder (and build-flags row), findings given back per file."""
from __future__ import annotations

from pathlib import Path

from labelled_support import lint_recall


def _set(tmp_path: Path) -> Path:
    for f in ("p/c1/a.cu", "p/c1/inc/h.cuh", "p/c1/other/x.cu", "q/c2/b.cu"):
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_text("int x = 32;\n")
    (tmp_path / "build_flags.tsv").write_text("p/c1/other\t-D X=1\nq/c2\t-I .\n")
    (tmp_path / "labels.tsv").write_text("".join(
        f"{k}\t{f}\t1\tp\tc\twhy\tint x = 32;\n" for k, f in
        (("hazard", "p/c1/a.cu"), ("hazard", "p/c1/inc/h.cuh"), ("lookalike", "p/c1/other/x.cu"), ("hazard", "q/c2/b.cu"))))
    return tmp_path


def test_project_runs_group_a_commit_folders_files_that_share_flags(tmp_path):
    b = lint_recall()
    base = _set(tmp_path)
    files = sorted({lb.file for lb in b.read_labels(base / "labels.tsv")})
    runs = b.project_runs(base, files)
    assert [fs for fs, _ in runs] == [["p/c1/a.cu", "p/c1/inc/h.cuh"], ["p/c1/other/x.cu"], ["q/c2/b.cu"]]
    assert runs[1][1] == ["-D", "X=1"] and runs[2][1] == ["-I", str(base / "q/c2")]


def test_a_project_run_scores_each_finding_on_its_own_file(tmp_path):
    b = lint_recall()
    base = _set(tmp_path)
    calls = []

    def run(paths, flags=()):  # a run that flags line 1 of its last input only
        calls.append([Path(p).name for p in paths])
        last = str(paths[-1])
        return last, [{"code": "WS001", "severity": "error", "line": 1, "path": last, "message": "", "related": []}], 0, ""

    labels = b.read_labels(base / "labels.tsv")
    one = b.measure(run, labels, base, jobs=1)
    calls_one, calls[:] = list(calls), []
    proj = b.measure(run, labels, base, jobs=1, project=True)
    assert calls_one == [["a.cu"], ["h.cuh"], ["x.cu"], ["b.cu"]] and calls == [["a.cu", "h.cuh"], ["x.cu"], ["b.cu"]]
    assert (one["lint"]["found"], one["lint"]["false_positives"]) == (3, 1)
    # a.cu's run was shared with h.cuh, whose finding is h.cuh's: a.cu is missed, nothing is misattributed
    assert (proj["lint"]["found"], proj["lint"]["false_positives"]) == (2, 1)
    assert proj["lint"]["misses"] == ["p/c1/a.cu:1: int x = 32;"] and not proj["failures"]
