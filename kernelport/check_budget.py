"""verify's wall-clock budget of one check (an emulator run, the reference) and what a check cut by it says.

Without `--timeout`, each check gets DEFAULT_SECONDS: a kernel whose loop never ends on the inputs given (an
in-kernel time loop on generated inputs) must not hold a CI job until its runner kills it, saying nothing.
`--timeout SECONDS` sets the budget, `--timeout 0` runs without one.  A check past its budget is cut: a `skip`
row (never a pass, never a silent fail) whose detail says what ran, for how long, the line:col of the loop the
emulator was in when the budget ran out, and how to raise the budget or give smaller inputs.  A cut check is
never cached (verify_cache): a larger budget, or a less loaded machine, may see it end.

The default was chosen from measurement (README, verify): the slowest emulator or reference check of
examples/ takes under 1 s, of tests/realcorpus's originals (bench/oracle_corpus.py --oracle-only) under a
minute at a load of 10-20; DEFAULT_SECONDS is several times that, short of a CI step's patience."""
from __future__ import annotations

import os
import sys

DEFAULT_SECONDS = 120.0
PROGRESS_ENV = "KERNELPORT_VERIFY_PROGRESS"  # "1": checks past PROGRESS_AFTER s say so on stderr (a tty table)
PROGRESS_AFTER = 5.0  # seconds: the first progress line of a run, and the interval of the next ones


def resolve(given: float | None) -> float | None:
    """The budget of one check for `verify --timeout` as given: None (not given) -> DEFAULT_SECONDS,
    0 -> None (no budget), else the seconds given."""
    if given is None:
        return DEFAULT_SECONDS
    return None if given == 0 else given


def advice(seconds: float) -> str:
    return (f"raise the budget (--timeout {max(2 * seconds, 1):g}; --timeout 0 for none) or give smaller inputs "
            "(--arg NAME=SPEC for an unannotated kernel's, smaller // @kp lengths and grid for an annotated one's)")


def cut_detail(e, what: str) -> str:
    """The detail of a check cut by its budget: `e` an emulator's TimedOut or a reference's
    ReferenceTimedOut; `what` the run it was ("the hip wave 64 run (block schedule) of `k`")."""
    where = f"{e.path}:{e.line}:{e.column}: " if getattr(e, "line", 0) else ""
    at = f"was in the {e.site} at {e.line}:{e.column}" if getattr(e, "line", 0) else "had not returned"
    return (f"{where}cut after {e.elapsed:.1f} s: {what} {at} when its {e.seconds:g} s budget ran out"
            f"{e.progress}; {advice(e.seconds)}{getattr(e, 'also', '')}")


def is_cut(e: BaseException) -> bool:
    """Was the run ended by its wall-clock budget (not by a fault or the step budget)?"""
    return hasattr(e, "elapsed") and hasattr(e, "seconds")


def progress_on() -> bool:
    return os.environ.get(PROGRESS_ENV) == "1"


def say_progress(what: str, path: str, line: int, column: int, elapsed: float, steps: int,
                 budget: float | None) -> None:
    """One progress line on stderr: a run still going after `elapsed` seconds, in the loop at line:col."""
    left = f" (budget {budget:g} s)" if budget is not None else " (no budget: --timeout 0)"
    sys.stderr.write(f"verify: still running {what} after {elapsed:.0f} s{left}, in the loop at "
                     f"{path}:{line}:{column}, {steps} loop iterations so far\n")
    sys.stderr.flush()
