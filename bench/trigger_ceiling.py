"""What a unit-level trigger skip could save at most: lint's units split by whether a probe's words reach them.

    PYTHONPATH=CHECKOUT python -P bench/trigger_ceiling.py [DIR ...]   (default: tests/realcorpus examples)

One `kernelport lint -j 1 --exit-zero --format json DIRS` in this process; each unit's thread CPU inside
`lint_unit` (its context, warpflow, the rules; not the include walk that lists what reaches it) is added to
the side of each probe it meets.  A probe is met where lint.triggers' `Selector` finds it in a text that can
reach the unit's parse (its text, its reached headers, its macros' values), as a rule's trigger is:
  concepts  - any name the dialect tables give an index built-in (threadIdx, blockDim, warpSize, simd_lane, ...)
              or a warp-level concept (shuffles, votes, ballots, lane masks, warp barriers), every backend's;
  warpwords - the warp-level, warp-size, lane-id and warp-id names only, a `<<<` launch, or a number literal
              warpflow gives a site (32, 31, 16, 5 in any base, the 32-bit all-ones mask; not 1).
A unit no probe word reaches is the most any trigger narrower than the probe could skip: the rules that
read warpflow (the lane-index and warp-size rules) need at least such a word to report anything.
"""
from __future__ import annotations

import contextlib
import io
import re
import resource
import sys
import time

DIRS = sys.argv[1:] or ["tests/realcorpus", "examples"]


def main() -> None:
    from kernelport import backends, dialect
    from kernelport.lint import engine, triggers
    names = [(n, c) for b in backends.names() for n, c in dialect._by_name(b).items()]
    concepts = frozenset(n for n, c in names if c.kind == "index" or c.warp_level)
    warp = frozenset(n for n, c in names if c.warp_level or c.key in ("warp_size", "lane_id", "warp_id")) | {"<<<"}
    number = re.compile(r"(?<![\w.])(?:32|31|16|5|0[xX]0*(?:20|1[fF]|10|5|[fF]{8})|040|037|020|05)[uUlL]*(?![\w.])")
    probes = {"concepts": lambda t: any(w in t for w in concepts),
              "warpwords": lambda t: any(w in t for w in warp) or number.search(t) is not None}
    split = {p: {True: [0, 0, 0.0], False: [0, 0, 0.0]} for p in probes}
    real = engine.lint_unit

    def timed(unit, settings):
        t0 = time.thread_time()
        got = real(unit, settings)
        dt = time.thread_time() - t0
        texts = triggers.Selector(unit).texts()
        for p, met in probes.items():
            s = split[p][any("##" in t or met(t) for t in texts)]
            s[0] += 1
            s[1] += unit.text.count("\n")
            s[2] += dt
        return got
    engine.lint_unit = timed
    from kernelport.entry import main as cli
    sys.argv = ["kernelport", "lint", "-j", "1", "--exit-zero", "--format", "json", *DIRS]
    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
        cli()
    total = resource.getrusage(resource.RUSAGE_SELF)
    print(f"{' '.join(DIRS)}: process {total.ru_utime + total.ru_stime:.2f} s CPU")
    for p, s in split.items():
        print(f"{p}: met by {s[True][0]} units ({s[True][1]:,} lines, {s[True][2]:.2f} s in lint_unit); "
              f"not met by {s[False][0]} ({s[False][1]:,} lines, {s[False][2]:.2f} s)")


if __name__ == "__main__":
    main()
