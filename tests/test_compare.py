"""The comparison verify's numeric checks stand on (kernelport.compare): every tolerance mode at
the edge of its bound, NaN and infinity, shapes; and one verify run whose port is wrong by a few
ulps more than its carried bound."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kernelport.compare import U32, compare

F32 = np.float32
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def one(got, want, mode="auto", values=None, kb=None):
    got = np.array([got], F32) if not isinstance(got, np.ndarray) else got
    want = np.array([want], np.float64) if not isinstance(want, np.ndarray) else want
    kbs = None if kb is None else {"o": np.array([kb], F32) if np.ndim(kb) == 0 else kb}
    return compare({"o": got}, {"o": want}, mode, values, kbs, None)


# ---------------------------------------------------------------------------------------------
# auto: |got - want| <= kernel bound + u * |want| (u = 2^-24, the rounding of the exact value)
# ---------------------------------------------------------------------------------------------
def test_auto_bound_is_the_final_rounding_when_the_kernel_carried_none():
    # want is 1 + 1.5u in double; of its float32 neighbours 1 + 2u is 0.5u away (under the
    # bound u * want) and 1 is 1.5u away (over it)
    want = 1.0 + 1.5 * U32
    assert one(F32(1.0 + 2 * U32), want, kb=0.0).ok
    c = one(F32(1.0), want, kb=0.0)
    assert not c.ok and c.mismatch.index == 0
    assert c.mismatch.bound == pytest.approx(U32 * want, rel=1e-12)
    assert c.max_abs == pytest.approx(1.5 * U32, rel=1e-9)


@pytest.mark.parametrize("scale", [1e-30, 1.0, 3e4, 1e30])
def test_auto_just_under_and_just_over_the_carried_bound(scale):
    want = 1.2345678 * scale
    got = F32(want * (1 + 40 * U32))            # some 40 ulps off
    diff = abs(float(got) - want)
    allowance = U32 * abs(want)                   # the final rounding
    kb_exact = (diff - allowance)                 # the kernel bound that makes it exactly equal
    assert one(got, want, kb=np.array([kb_exact * (1 + 1e-6)], np.float64)).ok
    c = one(got, want, kb=np.array([kb_exact * (1 - 1e-4)], np.float64))
    assert not c.ok and c.mismatch.count == 1
    # the bound reported is the one compared against, and the error is only just over it
    assert 1.0 < diff / c.mismatch.bound < 1.001


def test_auto_bound_is_per_element_and_first_mismatch_is_reported():
    want = np.array([1.0, 2.0, 3.0, 4.0])
    got = np.array([1.0, 2.0 + 2e-6, 3.0 + 4e-6, 4.0], F32)
    kb = np.array([0.0, 3e-6, 3e-6, 0.0], F32)
    c = compare({"o": got}, {"o": want}, "auto", None, {"o": kb}, None)
    assert not c.ok and c.mismatch.index == 2 and c.mismatch.count == 1
    assert c.mismatch.got == pytest.approx(3.0 + 4e-6) and c.mismatch.want == 3.0


def test_auto_float64_buffer_adds_no_float32_rounding():
    want = np.array([1.0])
    got = np.array([1.0 + 2 ** -40])
    assert not compare({"o": got}, {"o": want}, "auto", None, {"o": np.zeros(1)}, None).ok
    assert compare({"o": got}, {"o": want}, "auto", None, {"o": np.array([2.0 ** -40])}, None).ok


def test_auto_half_buffer_adds_the_rounding_to_half():
    # as for float32 with half's unit roundoff u = 2^-11: want = 1 + 1.5u; of its half neighbours
    # 1 + 2u is 0.5u away (under the bound u * want) and 1 is 1.5u away (over it)
    u = 2.0 ** -11
    want, zero = {"o": np.array([1.0 + 1.5 * u])}, {"o": np.zeros(1)}
    assert compare({"o": np.array([1.0 + 2 * u], np.float16)}, want, "auto", None, zero, None).ok
    c = compare({"o": np.array([1.0], np.float16)}, want, "auto", None, zero, None)
    assert not c.ok and c.mismatch.bound == pytest.approx(u * (1.0 + 1.5 * u), rel=1e-12)


def test_auto_integers_are_exact():
    c = compare({"o": np.array([5, 7], np.int32)}, {"o": np.array([5, 8], np.int32)}, "auto", None,
                {"o": np.array([10.0, 10.0])}, None)
    assert not c.ok and c.mismatch.index == 1


def test_auto_reference_bound_is_added():
    want = np.array([1.0])
    got = np.array([1.0 + 1e-5], F32)
    kb = {"o": np.array([4e-6], F32)}
    assert not compare({"o": got}, {"o": want}, "auto", None, kb, None).ok
    assert compare({"o": got}, {"o": want}, "auto", None, kb, {"o": np.array([7e-6])}).ok


# ---------------------------------------------------------------------------------------------
# exact and explicit
# ---------------------------------------------------------------------------------------------
def test_exact_is_bit_for_bit():
    x = F32(0.1)
    assert one(x, np.array([x], F32), "exact").ok
    c = one(np.nextafter(x, F32(1)), np.array([x], F32), "exact")
    assert not c.ok and c.mismatch.bound == 0.0
    assert compare({"o": np.array([3], np.int64)}, {"o": np.array([3], np.int64)}, "exact").ok
    assert not compare({"o": np.array([3], np.int64)}, {"o": np.array([4], np.int64)}, "exact").ok


@pytest.mark.parametrize("abs_, rel", [(1e-3, 0.0), (0.0, 1e-3), (1e-4, 1e-3)])
def test_explicit_abs_rel_edges(abs_, rel):
    want = 8.0
    bound = abs_ + rel * want
    vals = {k: v for k, v in (("abs", abs_), ("rel", rel)) if v}
    under = np.array([want + bound * 0.99], np.float64)
    over = np.array([want + bound * 1.01], np.float64)
    w = np.array([want])
    assert compare({"o": under}, {"o": w}, "explicit", vals).ok
    c = compare({"o": over}, {"o": w}, "explicit", vals)
    assert not c.ok and c.mismatch.bound == pytest.approx(bound)


# ---------------------------------------------------------------------------------------------
# NaN, infinity, shapes
# ---------------------------------------------------------------------------------------------
MODES = [("auto", None, np.inf), ("auto", None, 1e-3), ("exact", None, None), ("explicit", {"abs": 1e-3}, None),
         ("explicit", {"rel": 1e-3}, None)]


@pytest.mark.parametrize("mode,vals,kb", MODES)
def test_nan_matches_only_nan(mode, vals, kb):
    nan = np.nan
    assert one(F32(nan), np.array([nan]), mode, vals, kb).ok
    assert not one(F32(nan), np.array([1.0]), mode, vals, kb).ok     # even under an infinite bound
    assert not one(F32(1.0), np.array([nan]), mode, vals, kb).ok


@pytest.mark.parametrize("mode,vals,kb", MODES)
def test_infinity_matches_only_the_same_infinity(mode, vals, kb):
    inf = np.inf
    assert one(F32(inf), np.array([inf]), mode, vals, kb).ok
    assert one(F32(-inf), np.array([-inf]), mode, vals, kb).ok
    assert not one(F32(-inf), np.array([inf]), mode, vals, kb).ok
    assert not one(F32(3.0e38), np.array([inf]), mode, vals, kb).ok   # a finite value is not infinity
    assert not one(F32(inf), np.array([1.0]), mode, vals, kb).ok


def test_reference_beyond_float32_range_rounds_to_infinity():
    # the exact value 4e38 is infinity in a float32 buffer (round to nearest)
    assert one(F32(np.inf), np.array([4e38]), "auto", None, 0.0).ok
    assert not one(F32(3.0e38), np.array([4e38]), "auto", None, 0.0).ok


def test_length_mismatch_fails():
    c = compare({"o": np.zeros(4, F32)}, {"o": np.zeros(5)}, "auto", None, {"o": np.zeros(4, F32)}, None)
    assert not c.ok and c.mismatch.buffer == "o" and c.mismatch.count == 5
    assert c.mismatch.index == 0  # the report points at the buffer's first element, not past it


def test_every_buffer_is_compared():
    z = np.zeros(3, F32)
    c = compare({"a": z, "b": z + 1}, {"a": np.zeros(3), "b": np.zeros(3)}, "exact")
    assert not c.ok and c.mismatch.buffer == "b"


def test_a_buffer_of_another_shape_is_a_mismatch_either_way():
    for n_got, n_want in ((3, 4), (4, 3), (1, 1)):
        got, want = np.ones(n_got, F32), np.ones(n_want)
        c = compare({"o": got}, {"o": want}, "exact")
        assert c.ok is (n_got == n_want)
        if not c.ok:
            assert c.mismatch.count == max(n_got, n_want) and c.max_abs == np.inf


def test_relative_error_is_over_the_reference_and_zero_where_both_are_zero():
    got = np.array([1.5, 0.0, 0.0, 3.0], F32)
    want = np.array([1.0, 0.0, 2.0, 4.0])
    c = compare({"o": got}, {"o": want}, "explicit", {"abs": 10.0})
    assert c.ok and c.max_abs == 2.0 and c.max_rel == 1.0      # |0 - 2| / 2
    c = compare({"o": got[:2]}, {"o": want[:2]}, "explicit", {"abs": 10.0})
    assert c.max_rel == 0.5                                     # |1.5 - 1| / 1; 0 against 0 is no error
    c = compare({"o": np.array([1e-3], F32)}, {"o": np.zeros(1)}, "explicit", {"abs": 1.0})
    assert c.max_rel == np.inf                                  # any error against an exact zero


# ---------------------------------------------------------------------------------------------
# profile: per bin of the buffer, the element nearest its bound (what verify's plot draws)
# ---------------------------------------------------------------------------------------------
def test_profile_gives_each_bin_its_element_nearest_the_bound():
    want = np.ones(12)
    got = want.astype(F32)
    # 4 bins of 3: the worst of each bin by |diff| / bound, not by |diff| alone (bin 2's largest
    # diff sits under a bound twice as loose)
    got[[1, 5, 6, 7, 11]] += F32(2 ** -10) * np.array([1, 2, 2, 3, 4], F32)
    kb = np.full(12, 2 ** -9, F32)
    kb[7] = 2 ** -7
    c = compare({"o": got}, {"o": want}, "auto", None, {"o": kb}, None, profile_bins=4)
    p = c.profiles["o"]
    assert p["n"] == 12 and p["index"] == [1, 5, 6, 11]
    assert p["diff"] == pytest.approx([2 ** -10, 2 ** -9, 2 ** -9, 2 ** -8])
    assert p["bound"] == pytest.approx([2 ** -9 + U32] * 4, rel=1e-6)
    # more bins than elements: one bin per element; no bins asked: no profile
    c = compare({"o": got[:3]}, {"o": want[:3]}, "auto", None, {"o": kb[:3]}, None, profile_bins=10)
    assert c.profiles["o"]["index"] == [0, 1, 2]
    assert compare({"o": got}, {"o": want}, "auto", None, {"o": kb}, None).profiles is None


# ---------------------------------------------------------------------------------------------
# verify end to end: a port a few ulps off, just past its carried bound
# ---------------------------------------------------------------------------------------------
def test_verify_fails_a_port_a_few_ulps_over_its_bound(tmp_path):
    for suffix in (".cu", ".hip", ".metal", ".metal.json"):
        shutil.copy(EXAMPLES / f"saxpy{suffix}", tmp_path / f"saxpy{suffix}")
    port = tmp_path / "saxpy.hip"
    text = port.read_text()
    assert "y[i] = a * x[i] + y[i];" in text
    # a * (1 + 4 ulps): each product is 4 ulps off, the port's own bound allows about 1-2
    port.write_text(text.replace("y[i] = a * x[i] + y[i];", "y[i] = a * 1.0000005f * x[i] + y[i];", 1))
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "verify", str(tmp_path / "saxpy.cu"), "--format", "json",
                        "--schedules", "block", "--explain"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 1, r.stdout + r.stderr
    cs = [c for f in json.loads(r.stdout) for c in f["checks"]]
    bad = [c for c in cs if c["status"] == "fail"]
    numeric = [c for c in bad if c["kind"] == "numeric"]
    assert sorted((c["backend"], c["wave"]) for c in numeric) == [("hip", 32), ("hip", 64)]
    assert {c["kind"] for c in bad} == {"numeric", "drift"}   # drift: the port was edited by hand
    ok = {(c["backend"], c["wave"]) for c in cs if c["kind"] == "numeric" and c["status"] == "pass"}
    assert ("cuda", 32) in ok and ("metal", 32) in ok
    for c in numeric:
        e = c["explain"]
        assert c["detail"].startswith(f"y[{e['index']}] = ")
        err = abs(e["port"] - e["reference"])
        # wrong for the right reason: over the bound, but by a few ulps, not grossly
        assert e["bound"] < err < 10 * e["bound"], (err, e["bound"])


def test_relative_error_above_one_is_reported_as_it_is():
    """A port off by more than the value itself (3.5 for 1, -2 for 0.5): the report's relative
    error is |got - want| / |want| (2.5, 5), not folded below 1."""
    c = compare({"o": np.array([3.5, -2.0], F32)}, {"o": np.array([1.0, 0.5])}, "exact")
    assert not c.ok and c.max_rel == 5.0 and c.mismatch.max_rel == 5.0 and c.max_abs == 2.5
    c = one(F32(3.5), 1.0, "exact")
    assert c.max_rel == 2.5 and c.mismatch.max_rel == 2.5


def test_exact_mode_takes_nan_against_nan_as_equal():
    nan = float("nan")
    assert compare({"o": np.array([nan, 1.0], F32)}, {"o": np.array([nan, 1.0])}, "exact").ok
    c = compare({"o": np.array([nan, 1.0], F32)}, {"o": np.array([0.0, 1.0])}, "exact")
    assert not c.ok and c.mismatch.index == 0


def test_explicit_bound_is_against_the_exact_reference_not_its_rounding():
    """The port's float 1.0 is 1e-9 from the double reference 1 + 1e-9, although rounding the
    reference to float gives 1.0: an explicit abs=1e-12 does not cover it (auto mode's final
    rounding does), and the worst error reported is that 1e-9."""
    want = 1.0 + 1e-9
    c = one(F32(1.0), want, "explicit", {"abs": 1e-12})
    assert not c.ok and c.max_abs == pytest.approx(1e-9, rel=1e-6)
    c = one(F32(1.0), want, "auto", kb=0.0)
    assert c.ok and c.max_abs == pytest.approx(1e-9, rel=1e-6)


def test_a_profile_bin_takes_the_largest_ratio_of_difference_to_bound():
    """Per bin, nearest its bound is the largest |diff| / bound: a difference equal to its bound (ratio 1)
    beats a tiny difference under a bound 8 times its size (ratio 1/8), in either order in the bin."""
    want = np.ones(4)
    got = want + np.array([2.0 ** -20, 2.0 ** -10, 2.0 ** -10, 2.0 ** -20])
    kb = np.array([2.0 ** -17, 2.0 ** -10, 2.0 ** -10, 2.0 ** -17])
    c = compare({"o": got}, {"o": want}, "auto", None, {"o": kb}, None, profile_bins=2)
    assert c.ok and c.profiles["o"]["index"] == [1, 2]
    assert c.profiles["o"]["diff"] == [2.0 ** -10] * 2 and c.profiles["o"]["bound"] == [2.0 ** -10] * 2


def test_a_profile_bin_skips_an_exact_zero_for_the_element_nearest_its_bound():
    """An element with no error and no bound (0 against an exact 0) is no candidate: the bin's
    element is the one nearest its bound (0/0 is no ratio)."""
    got = np.array([0.0, 1.0 + 2 * U32], F32)
    c = compare({"o": got}, {"o": np.array([0.0, 1.0])}, "auto", None, {"o": np.array([0.0, 4 * U32], F32)}, None,
                profile_bins=1)
    assert c.ok and c.profiles["o"]["index"] == [1] and c.profiles["o"]["n"] == 2


def test_an_array_of_structs_is_compared_field_by_field():
    dt = np.dtype([("pos", [("x", "f4"), ("y", "f4")]), ("keys", "i4", (3,)), ("alive", "?")], align=True)
    want = np.zeros(4, dt)
    want["pos"]["x"] = [1, 2, 3, 4]
    want["keys"] = np.arange(12).reshape(4, 3)
    got = want.copy()
    assert compare({"p": got}, {"p": want}, "auto").ok  # a look-alike: same values, padding never compared
    got["pos"]["x"][3] = 4.5
    m = compare({"p": got}, {"p": want}, "auto").mismatch
    assert (m.where, m.got, m.want) == ("p[3].pos.x", 4.5, 4.0)
    got = want.copy()
    got["keys"][2, 1] = 99
    assert compare({"p": got}, {"p": want}, "exact").mismatch.where == "p[2].keys[1]"
    got = want.copy()
    got["alive"][1] = True
    assert compare({"p": got}, {"p": want}, "auto").mismatch.where == "p[1].alive"


def test_a_bool_buffer_is_compared_exactly_in_auto_mode():
    """A bool output (a flag per element) has no rounding: auto compares it exactly, like integers."""
    got, want = np.array([True, False, True]), np.array([True, True, True])
    c = compare({"o": got}, {"o": want}, "auto", None, None, None)
    assert not c.ok and (c.mismatch.index, c.mismatch.count) == (1, 1)
    assert compare({"o": got}, {"o": got.copy()}, "auto", None, None, None).ok


def test_elements_nan_in_both_differ_by_nothing_in_the_profile():
    """NaN where the reference has NaN is a match: its difference is 0 in the per-bin profile (the
    report's worst element per bin), never a negative or NaN number."""
    nan = float("nan")
    got = np.array([nan, nan, 1.0, 2.0], F32)
    want = np.array([nan, nan, 1.0, 2.5])
    c = compare({"o": got}, {"o": want}, "explicit", {"abs": 1.0}, None, None, profile_bins=2)
    assert c.ok and c.profiles["o"]["diff"] == [0.0, 0.5] and c.max_abs == 0.5


def test_a_reference_beyond_the_buffer_type_s_range_matches_its_rounding_to_infinity():
    """A float64 reference of 1e39 is +inf once rounded to float (the buffer's type): a float output
    of +inf matches it, a finite float output does not."""
    want = np.array([1e39, 1.0])
    assert compare({"o": np.array([np.inf, 1.0], F32)}, {"o": want}, "auto", None, None, None).ok
    assert not compare({"o": np.array([3e38, 1.0], F32)}, {"o": want}, "auto", None, None, None).ok


@pytest.mark.parametrize("ref", [np.inf, -np.inf, np.nan])
def test_an_integer_buffer_matches_no_infinite_or_nan_reference_however_loose_the_tolerance(ref):
    """A reference computed in floating point for an integer buffer: an infinity or NaN there is no
    value any integer holds, so it is a mismatch even under a relative bound (rel * inf is no bound)."""
    got = np.array([7, 100], np.int32)
    for mode, vals in (("explicit", {"rel": 0.5}), ("explicit", {"abs": 1.0, "rel": 1.0}), ("auto", None)):
        c = compare({"o": got}, {"o": np.array([7.0, ref])}, mode, vals, None, None)
        assert not c.ok and (c.mismatch.index, c.mismatch.count) == (1, 1), (mode, vals)
        # the look-alike: a finite reference within the bound
        assert compare({"o": got}, {"o": np.array([7.0, 120.0])}, mode, vals, None, None).ok == (mode != "auto")


def test_an_infinity_matched_exactly_is_never_a_bin_s_element_nearest_its_bound():
    """explicit abs 1 over [inf, 1.0 vs 1.5]: the matched infinity's bound is abs + 0 * inf (NaN) and
    its difference 0; the bin's element nearest its bound is the one 0.5 off."""
    got = np.array([np.inf, 1.5], F32)
    c = compare({"o": got}, {"o": np.array([np.inf, 1.0])}, "explicit", {"abs": 1.0}, None, None, profile_bins=1)
    assert c.ok and c.profiles["o"]["index"] == [1] and c.profiles["o"]["diff"] == [0.5]


@pytest.mark.parametrize("mode,vals", [("auto", None), ("exact", None), ("explicit", {"abs": 0.1, "rel": 0.1})])
def test_comparing_nan_infinite_and_mismatched_elements_warns_nothing(mode, vals):
    """numpy's divide/invalid warnings would land on the user's terminal beside the verdict."""
    import warnings

    got = np.array([np.nan, np.inf, -np.inf, 1.0, 2.0, 0.0, np.nan], F32)
    want = np.array([np.nan, np.inf, np.inf, 1.0, 3.0, 0.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = compare({"o": got}, {"o": want}, mode, vals, None, None, profile_bins=3)
    assert not c.ok and c.mismatch.index == 2 and c.mismatch.count == 3


def test_a_mode_read_from_a_file_compares_as_the_same_word_written_in_code():
    """A caller's mode read from JSON is an equal string, not the interned literal: explicit bounds
    apply all the same (1.05 against 1.0 under abs=0.1 matches; under auto it would not)."""
    mode, vals = json.loads('["explicit", {"abs": 0.1}]')
    got, want = np.array([1.05], F32), np.array([1.0])
    assert compare({"o": got}, {"o": want}, mode, vals, None, None).ok
    assert not compare({"o": got}, {"o": want}, json.loads('"auto"'), None, None, None).ok
