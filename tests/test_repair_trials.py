"""The macro repair's record of failed candidates (kernelport/repair_trials.py): after a mask is
kept, a candidate that did not help is tried again only where it acts near that mask, and an error
site is read again only where something near it changed.  A header with errors at many places (read
without the macros its includer defines: OpenHurricane's cuArrayBase.hpp) costs trial parses in
proportion to its sites, not its sites times its kept masks; a failed candidate beside a kept mask is
still tried again (rodinia mummergpu's `#if !NODETEX` directives only parse after their neighbours')."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport import source
from kernelport.repair_trials import Trials

ROOT = Path(__file__).resolve().parent.parent


class _Range:
    def __init__(self, a: int, b: int):
        self.start_byte, self.end_byte = a, b


def _trials(lines: int = 100, width: int = 10) -> Trials:
    """A ledger over a text of `lines` lines of `width` bytes each (line k is bytes [k*width, (k+1)*width))."""
    return Trials([k * width + width - 1 for k in range(lines)], lines * width)


def test_a_failed_candidate_far_from_a_kept_mask_stays_failed():
    t = _trials()
    t.fail(("attribute", 15, "A"), [(15, 16, b" ")], [])  # line 1
    t.fail(("attribute", 805, "B"), [(805, 806, b" ")], [_Range(800, 900)])  # lines 80-89
    t.kept([(505, 506, b" ")], [_Range(500, 520)])  # lines 50-51: three lines either side is 47-54
    assert ("attribute", 15, "A") in t and ("attribute", 805, "B") in t


def test_a_failed_candidate_near_a_kept_mask_is_tried_again():
    t = _trials()
    t.fail(("attribute", 545, "A"), [(545, 546, b" ")], [])  # line 54: within three lines of line 51
    t.fail(("statement", 565, "B"), [(565, 566, b" ")], [])  # line 56: not
    t.kept([(505, 506, b" ")], [_Range(500, 520)])
    assert ("attribute", 545, "A") not in t and ("statement", 565, "B") in t


def test_the_changed_ranges_of_either_side_count():
    t = _trials()
    # its bytes far away, but its trial parse changed the structure up to line 49
    t.fail(("attribute", 15, "A"), [(15, 16, b" ")], [_Range(10, 495)])
    t.fail(("attribute", 905, "B"), [(905, 906, b" ")], [])
    t.kept([(705, 706, b" ")], [_Range(520, 910)])  # a kept mask whose parse changed lines 52-91
    assert ("attribute", 15, "A") not in t and ("attribute", 905, "B") not in t


def test_a_candidate_skipped_without_a_parse_is_asked_again_after_any_kept_mask():
    t = _trials()
    t.skip(("conditional", "taken", "X", None))
    assert ("conditional", "taken", "X", None) in t
    t.kept([(995, 996, b" ")], [])
    assert ("conditional", "taken", "X", None) not in t


def test_a_site_is_read_again_only_where_one_of_its_candidates_can_be_tried():
    t = _trials()
    keys = [("attribute", 105, "A"), ("expansion", 0, "")]
    assert [k for k, *_ in t.at((100, 110), iter([(k, [], []) for k in keys]), lambda: (80, 140))] == keys
    for k in keys:
        t.fail(k, [(k[1], k[1] + 1, b" ")], [])
    given = []

    def candidates():
        given.append(True)
        yield from [(k, [], []) for k in keys]
    assert list(t.at((100, 110), candidates(), lambda: (80, 140))) == [] and not given  # not even generated
    t.kept([(905, 906, b" ")], [])  # far from the site and from both keys: still nothing to try
    assert list(t.at((100, 110), candidates(), lambda: (80, 140))) == []
    t.kept([(5, 6, b" ")], [])  # near the whole-file candidate's edit (byte 0): it is tried again, from here
    assert [k for k, *_ in t.at((100, 110), candidates(), lambda: (80, 140))] == keys
    t.fail(keys[0], [(105, 106, b" ")], [])
    t.fail(keys[1], [(0, 1, b" ")], [])
    t.kept([(405, 406, b" ")], [_Range(120, 130)])  # its changed ranges meet the site's reach
    assert [k for k, *_ in t.at((100, 110), candidates(), lambda: (80, 140))] == keys


def _header(n: int) -> str:
    """A class template whose constructors stand behind an attribute macro the file does not define
    (a header read alone; each an error the repair cannot mend) and whose member templates are
    `= delete`d (a grammar gap the repair masks), n of each, one after the other."""
    parts = ["#pragma once\nnamespace ns {\ntemplate <typename T> class Arr {\npublic:\n"]
    for i in range(n):
        parts.append(f"    cu_host inline Arr(const int n{i})\n        : p_(nullptr), n_(n{i}) {{\n        grow();\n    }}\n"
                     f"    template <class V> Arr& operator+=(const V& v{i}) = delete;\n")
    return "".join(parts) + "private:\n    T* p_;\n    int n_;\n};\n}\n"


@pytest.mark.parametrize("n", [20, 40])
def test_trial_parses_grow_with_the_error_sites(monkeypatch, n):
    """On main each kept `= delete` sent the repair back over every failed candidate above it: 163
    parses (its bound) masked 17 of 20 (and 17 of 40); here every one is masked, in about two
    trial parses per site."""
    parses = []
    real = source._parser()

    class Counting:
        def parse(self, *a):
            parses.append(1)
            return real.parse(*a)
    monkeypatch.setattr(source, "_parser", lambda: Counting())
    got = source.SourceFile._parse(_header(n), "arr.hpp", None)
    assert sum(m.name == "= delete" for m in got.masks) == n
    assert len(parses) <= 2 * n + 4


def test_a_failed_candidate_beside_a_kept_mask_still_wins_on_its_retry():
    """mummergpu's `#if !NODETEX` directives: their candidate fails at first and is kept after a mask
    beside it (the one real case in realcorpus); the file parses clean, as on main."""
    path = ROOT / "tests/realcorpus/rodinia/cuda/mummergpu/src/mummergpu_kernel.cu"
    got = source.SourceFile._parse(path.read_text(), str(path), None)
    assert got.syntax_errors() == []
    nodetex = [(m.start, m.end) for m in got.masks if m.name == "if !NODETEX"]
    assert len(nodetex) == 16 and len(got.masks) == 119

