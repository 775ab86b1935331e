"""`#if defined(A) || defined(B)` decided by the run's -D (heldout49: ala_rtree's search2.cu, built with
-DCALC_POINT, keeps a declaration list for the other build under `#else`, written without its `;`s: a
parse error at 404:11 on main).  The repair's second start masks the branches the run decides
(macro_repair.Repair.run_decided); it decided `#ifdef X`, `#if defined(X)` and `#if` over integer -D values,
not an `#if` whose test combines `defined` terms.  Now a `defined(X)` term holds for a -D, fails for an
ordinary name nothing visible defines, and is unknown otherwise; the test is decided where every value of
its unknown terms gives one answer (macro_groups._cmdline_value)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import hip_compiles
from trust_support import kp_inproc

# the shape of ala_rtree's first/search2.cu: the build's branch declares, the other branch's
# declarations have no `;` (no compile of this build reads them)
KERNEL = """\
    typedef unsigned int indexer;
    #if defined(CALC_CIRCLE) || defined(CALC_POINT)
    extern "C"
    indexer* search_rect2(float x_min, float y_min, indexer* count_items);
    __global__ void search_impl(const float* xs, indexer* out, indexer n);
    #else
    extern "C"
    indexer* search_rect2(float x_min, float y_min, indexer* count_items)
    __global__ indexer* search_impl(void* nd, indexer n)
    #endif

    __global__ void search_impl(const float* xs, indexer* out, indexer n) {
        indexer i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n && xs[i] > 0.0f) {
            atomicAdd(out, 1u);
        }
    }
    """


def _file(tmp_path: Path) -> Path:
    f = tmp_path / "search2.cu"
    f.write_text(textwrap.dedent(KERNEL))
    return f


def test_an_or_of_defined_terms_that_the_runs_define_decides_is_ported_and_compiles(tmp_path):
    f = _file(tmp_path)
    rc, out, err = kp_inproc("translate", f, "--to", "hip", "-DCALC_POINT", "-o", tmp_path / "out")
    assert rc == 0, err
    port = (tmp_path / "out" / "search2.hip").read_text()
    assert "indexer* search_rect2(float x_min, float y_min, indexer* count_items)\n__global__ indexer*" in port  # as written
    hip_compiles(tmp_path / "out", port, "search2.hip", extra_args=("-DCALC_POINT",))


def test_without_the_define_the_branch_the_build_compiles_does_not_parse_and_is_located(tmp_path):
    # look-alike: no -D, so nothing defines CALC_CIRCLE or CALC_POINT and the build compiles the `#else`,
    # which does not parse (nvcc fails there too): a located error, as before
    f = _file(tmp_path)
    for defines in ((), ("-DUSE_CUDA",)):  # no -D; a -D of another name (the run decides the `#else`)
        rc, out, err = kp_inproc("translate", f, "--to", "hip", *defines, "-o", tmp_path / "out")
        assert rc != 0 and "search2.cu:9:11:" in err and "syntax error" in err, err


def _value(expr: str, cmdline: dict[str, str], files: tuple[str, ...] = ()):
    from kernelport.macro_groups import _cmdline_value
    from kernelport.macros import MacroDef
    macros = {n: MacroDef(n, None, v, "<command line>", 0) for n, v in cmdline.items()}
    macros.update({n: MacroDef(n, None, "1", "defs.h", 1) for n in files})
    return _cmdline_value(expr, macros)


def test_defined_terms_hold_for_a_define_fail_for_an_undefined_name_and_are_unknown_for_a_files():
    assert _value("defined(CALC_CIRCLE) || defined(CALC_POINT)", {"CALC_POINT": "1"}) == 1
    assert _value("defined CALC_CIRCLE || defined CALC_POINT", {"CALC_POINT": "1"}) == 1  # without parentheses
    assert _value("defined(CALC_CIRCLE) || defined(CALC_POINT)", {"USE_CUDA": "1"}) == 0  # nothing defines either
    assert _value("!defined(CALC_POINT) && NDIM > 1", {"CALC_POINT": "1", "NDIM": "2"}) == 0
    assert _value("defined(CALC_POINT) && NDIM > 1", {"CALC_POINT": "1", "NDIM": "2"}) == 1
    # a name a file defines may be defined under a condition: decided only where it cannot matter
    assert _value("defined(GUARD_H) || defined(CALC_POINT)", {"CALC_POINT": "1"}, ("GUARD_H",)) == 1
    assert _value("defined(GUARD_H) && defined(CALC_POINT)", {"CALC_POINT": "1"}, ("GUARD_H",)) is None
    assert _value("defined(__CUDA_ARCH__) && defined(CALC_POINT)", {"CALC_POINT": "1"}) is None  # the compiler's own
    # what was undecided stays so: a name no -D gives, a -D that is no number
    assert _value("defined(CALC_POINT) && LEVEL > 1", {"CALC_POINT": "1"}) is None
    assert _value("defined(CALC_POINT) && DTYPE", {"CALC_POINT": "1", "DTYPE": "float"}) is None
