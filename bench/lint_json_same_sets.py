"""Byte-compare `kernelport lint --format json` of two builds on every labelled file of the given sets.

    python bench/lint_json_same_sets.py EXE_A EXE_B tests/labelled9 [tests/labelledN ...]

bench/lint_json_same.py lints whole directories, where the git-ignored files of the sets that
scripts/labelled_sources.py materialises (tests/labelled5..11) are not lint inputs: its output for
them is `[]` on any build.  This lints each labelled file alone with the -I/-D its project builds it
with (bench/lint_recall.py's build_flags), as lint_recall runs it.  Exit 1 when any output differs.
"""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lint_recall as lr  # noqa: E402  (a sibling script)
a, b = sys.argv[1], sys.argv[2]
differ = 0
for s in sys.argv[3:]:
    base = Path(s)
    files = sorted({lb.file for lb in lr.read_labels(base / "labels.tsv")})
    def run(exe, f):
        return subprocess.run([exe, "lint", "--format", "json", "--exit-zero", "-j", "1", *lr.build_flags(base, f), str(base / f)],
                              capture_output=True).stdout
    with ThreadPoolExecutor(2) as pool:
        outs = list(pool.map(lambda f: (run(a, f), run(b, f)), files))
    bad = [f for f, (x, y) in zip(files, outs) if x != y]
    total = sum(len(y) for _, y in outs)
    differ += len(bad)
    print(f"{s:32} {len(files):3} files {total:>8} bytes  {'same' if not bad else 'DIFFERENT: ' + ', '.join(bad)}", flush=True)
print("all byte-identical" if not differ else f"{differ} files differ")
sys.exit(1 if differ else 0)
