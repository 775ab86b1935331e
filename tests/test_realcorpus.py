"""Every file of the real-code corpus (tests/realcorpus, 207 CUDA sources from five public
projects) gives exactly its pinned `translate --to hip` and `--to metal` outcome, and none
ends in an internal error (exit 3).

The outcomes are pinned in tests/realcorpus_outcomes.txt (written, refused with which KP codes
at which lines, parse error at which line, bad input). Each change of a pinned outcome must be
reviewed: after an intended improvement, re-pin with `python tests/realcorpus_support.py --repin`
and say in the commit message which lines changed and why. Translation only (no compiler runs):
the compile figures are the scoreboard's (bench/scoreboard.py).
"""
from __future__ import annotations

import pytest

from realcorpus_support import BACKENDS, read_pinned, outcome, sources

# Internal errors kernelport still has on the corpus: strict xfails naming the bug, so a fix
# turns them into failures that say to delete the entry (and re-pin).
KNOWN_INTERNAL: dict[tuple[str, str], str] = {}  # (path, backend) -> the bug it names; none open

SOURCES = sources()
PINNED = read_pinned()


def test_every_corpus_source_is_pinned_once():
    assert len(SOURCES) >= 150
    assert sorted(PINNED) == sorted(SOURCES), "re-pin: python tests/realcorpus_support.py --repin"


def test_no_pin_accepts_an_internal_error():
    """Only a known bug's entry may pin one (its test is a strict xfail until the fix)."""
    bad = [(rel, b) for rel, outs in PINNED.items() for b, o in zip(BACKENDS, outs)
           if o.startswith(("internal", "exit")) and (rel, b) not in KNOWN_INTERNAL]
    assert not bad
    assert all(len(outs) == len(BACKENDS) for outs in PINNED.values())


def _case(rel: str, backend: str):
    reason = KNOWN_INTERNAL.get((rel, backend))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(rel, backend, marks=marks, id=f"{rel}-{backend}")


@pytest.mark.parametrize("rel,backend", [_case(r, b) for r in SOURCES for b in BACKENDS])
def test_translate_outcome_is_the_pinned_one(rel, backend):
    got, text = outcome(rel, backend)
    assert got != "internal_error", f"{rel} --to {backend}: internal error (exit 3)\n{text[-2000:]}"
    if (rel, backend) in KNOWN_INTERNAL:
        return  # fixed: this strict xfail now passes, so delete its KNOWN_INTERNAL entry and re-pin
    want = PINNED[rel][BACKENDS.index(backend)]
    assert got == want, (f"{rel} --to {backend}: pinned {want!r}, got {got!r}; if intended, re-pin "
                         f"(python tests/realcorpus_support.py --repin) and review the diff\n{text[-1500:]}")
