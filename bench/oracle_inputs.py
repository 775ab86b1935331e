"""What verify's oracle would run each original with, without running it: per kernel of every
translating file of tests/realcorpus (or of a glob), the inputs verify infers (kernelport.verify's
caller search, host code and the project's files) or its not-run reason, and per file the hash of the
emulator's lowering of the original.  Two runs (two trees' kernelport on PYTHONPATH) that agree on
every row run every original on the same inputs and the same C text: bench/oracle_corpus.py's
--oracle-only verdicts cannot differ but for timing.

    PYTHONPATH=/work/main python -P bench/oracle_inputs.py --out before.json [--glob 'examples/**/*.cu']
    PYTHONPATH=.          python -P bench/oracle_inputs.py --out after.json
    python -P bench/oracle_inputs.py --compare before.json after.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))


def _record(files: list[Path]) -> dict[str, str]:
    from kernelport import annotations, verify_oracle as vo
    from kernelport.emulator.frontend.parse import lower
    from kernelport.model import build
    from kernelport.source import SourceFile
    from kernelport.verify import FileReport, Verifier
    out: dict[str, str] = {}
    rec: dict[str, str] = {}
    vo.port_texts = lambda *a, **k: {}  # no port: the oracle's inputs only
    vo.run_oracle = lambda self, src, module, n, g, *a, **k: rec.__setitem__(n, "RUN " + " | ".join(g.inferred))
    vo.not_run = lambda n, g: rec.__setitem__(n, "NOTRUN " + g.format())
    for f in files:
        rel, rec = str(f.relative_to(ROOT)), {}
        try:
            low = lower(f.read_text(errors="replace"), path=str(f))
            out[rel + "::<lowered>"] = hashlib.sha1(low.text.encode()).hexdigest()[:12]
        except BaseException as e:  # noqa: BLE001 - recorded, compared like a hash
            out[rel + "::<lowered>"] = f"ERROR {type(e).__name__}: {e}"[:300]
        try:
            src = SourceFile.read(f)
            module = build(src)
            if not annotations.parse(module, reference=False):
                Verifier(cache=False)._unannotated(f, src, module, FileReport(str(f)))
        except BaseException as e:  # noqa: BLE001
            rec["*"] = f"ERROR {type(e).__name__}: {e}"[:300]
        out.update({f"{rel}::{k}": t for k, t in rec.items()})
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--glob", help="files under the repository instead of tests/realcorpus's translating ones")
    ap.add_argument("--compare", nargs=2)
    a = ap.parse_args()
    if a.compare:
        x, y = (json.loads(Path(p).read_text()) for p in a.compare)
        changed = [k for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k)]
        kernels = [k for k in x if not k.endswith("::<lowered>")]
        print(f"{len(kernels)} kernels ({sum(x[k].startswith('RUN') for k in kernels)} run), "
              f"{len(x) - len(kernels)} files lowered; {len(changed)} rows differ")
        for k in changed:
            print(f"{k}\n  before: {x.get(k, '-')[:300]}\n  after:  {y.get(k, '-')[:300]}")
        return
    import oracle_corpus
    files = sorted(ROOT.glob(a.glob)) if a.glob else oracle_corpus.translating_files()
    got: dict[str, str] = {}
    threading.stack_size(512 << 20)  # the analyses recurse deeply (as verify's big_stack)
    sys.setrecursionlimit(100000)
    t = threading.Thread(target=lambda: got.update(_record(files)))
    t.start()
    t.join()
    Path(a.out).write_text(json.dumps(got, indent=0, sort_keys=True))


if __name__ == "__main__":
    main()
