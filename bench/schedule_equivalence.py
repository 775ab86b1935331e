"""Whether verify's watched block runs that stand for the warp and thread schedules really do.

    PYTHONPATH=. python -P bench/schedule_equivalence.py [PATH ...]   (default: examples)

Runs `verify` over the annotated files (its compiles and lint gate left out: the numeric runs are the
point) and, for every block run it watches (emulator.order), prints whether the run is independent;
where it is, the warp and thread runs are made too and compared with it: outputs, error bounds, races
and diagnostics, bit for bit.  Ends with the count of independent runs and whether every one matched.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import kernelport.emulator as E
from kernelport.verify import Verifier


def _copy(kw):
    kw = dict(kw)
    kw["args"] = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in kw["args"].items()}
    return kw


def _same(a, b) -> bool:
    return (all(np.array_equal(a.outputs[n], b.outputs[n]) for n in a.outputs)
            and (a.bounds is None or all(np.array_equal(a.bounds[n], b.bounds[n]) for n in a.bounds))
            and [str(r) for r in a.races] == [str(r) for r in b.races]
            and sorted(map(str, a.diagnostics)) == sorted(map(str, b.diagnostics)))


def main() -> None:
    run, rows = E.run_kernel, []

    def watched(text, kernel, **kw):
        r = run(text, kernel, **_copy(kw))
        if kw["schedule"] == "block" and kw.get("watch"):
            same = []
            if r.independent:
                for schedule in ("warp", "thread"):
                    other = _copy(kw)
                    other.update(schedule=schedule, watch=False)
                    same.append(_same(r, run(text, kernel, **other)))
            rows.append((kw.get("path"), kernel, kw.get("port_of"), kw.get("wave"), r.independent, same))
        return r

    E.run_kernel = watched  # (verify imports it from the package at each file)
    Verifier._compile = lambda *a, **k: None
    Verifier._lint = lambda *a, **k: None
    for p in sys.argv[1:] or ["examples"]:
        for f in sorted(Path(p).glob("*.cu")) if Path(p).is_dir() else [Path(p)]:
            Verifier(cache=False).verify(f)
    for path, kernel, port_of, wave, independent, same in rows:
        print(f"{path} {kernel} {port_of} wave {wave}: " +
              ("independent, warp and thread runs " + ("equal" if all(same) else "DIFFER") if independent
               else "dependent"))
    ind = [r for r in rows if r[4]]
    print(f"{len(ind)} of {len(rows)} watched block runs independent; "
          + ("every one equal to its warp and thread runs" if all(all(r[5]) for r in ind) else "SOME DIFFER"))


if __name__ == "__main__":
    main()
