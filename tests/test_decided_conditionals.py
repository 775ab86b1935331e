"""Two conditionals that each split a construct, in one file: an `extern "C" {` opened under
`#ifdef CUDA` (an `#elif defined(FW_OPENCL)` beside it) and closed under a later `#ifdef CUDA`, and
a loop head written twice under `#ifdef IS_POW2 ... #else ... #endif` (a phylogenetics likelihood
library's kernels; heldout26: parse errors).  Masking either alone leaves the parse no better, so the
repair's one-at-a-time loop kept neither.  When the loop leaves errors, the repair starts again from
the conditionals the run decides, masked at once as the compiler sees them (`#ifdef CUDA` under
-DCUDA, `FW_OPENCL` that nothing defines), then tries the file's other conditionals first
(macro_repair.Repair.run_decided); it is kept only where the parse ends better."""
from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import hip_compiles
from trust_support import kp_inproc

DEFS = """\
    #define REAL float
    #ifdef CUDA
        #define KW_GLOBAL_KERNEL __global__
        #define KW_GLOBAL_VAR
        #define KW_LOCAL_MEM __shared__
        #define KW_LOCAL_FENCE __syncthreads()
        #define KW_LOCAL_ID_0 threadIdx.x
    #endif
    #define N 64
    """

KERNELS = """\
    #ifdef CUDA
        #include "defs.h"
        extern "C" {
    #elif defined(FW_OPENCL)
        #define __umul24(x, y) (x * y)
    #endif
    KW_GLOBAL_KERNEL void reset(KW_GLOBAL_VAR REAL* f, int start, int end) {
        int p = start + KW_LOCAL_ID_0;
        if (p < end) {
            f[p] = 0.0f;
        }
    }

    KW_GLOBAL_KERNEL void reduce(KW_GLOBAL_VAR REAL* p, int n) {
        int state = KW_LOCAL_ID_0;
        KW_LOCAL_MEM REAL s[N];
        s[state] = p[state];
        KW_LOCAL_FENCE;
    #ifdef IS_POW2
        for (int i = N / 2; i > 0; i >>= 1) {
            if (state < i) {
    #else
        for (int i = 32; i > 0; i >>= 1) {
            if (state < i && state + i < N) {
    #endif
                s[state] += s[state + i];
            }
            KW_LOCAL_FENCE;
        }
        p[state] = s[0];
    }
    #ifdef CUDA
    } // extern "C"
    #endif
    """


def _project(tmp_path: Path) -> Path:
    d = tmp_path / "proj"
    d.mkdir()
    (d / "defs.h").write_text(textwrap.dedent(DEFS))
    (d / "kernels.cu").write_text(textwrap.dedent(KERNELS))
    return d


def test_split_constructs_under_decided_and_open_conditionals_port_and_compile(tmp_path):
    d = _project(tmp_path)
    rc, out, err = kp_inproc("translate", d / "kernels.cu", "--to", "hip", "-DCUDA", "-o", d / "out")
    assert rc == 0, err
    port = (d / "out" / "kernels.hip").read_text()
    assert "#ifdef IS_POW2\n    for (int i = N / 2;" in port and "#elif defined(FW_OPENCL)" in port  # kept as written
    hip_compiles(d / "out", port, "kernels.hip", extra_args=("-DCUDA", f"-I{d}"))
    hip_compiles(d / "out", port, "kernels.hip", extra_args=("-DCUDA", "-DIS_POW2", f"-I{d}"))


def test_without_the_runs_define_nothing_is_decided_and_the_error_is_located(tmp_path):
    # look-alike: no -DCUDA, so the run compiles neither the header nor extern "C": a located error, as before
    d = _project(tmp_path)
    rc, out, err = kp_inproc("translate", d / "kernels.cu", "--to", "hip", "-o", d / "out")
    assert rc != 0 and "kernels.cu:" in err and "syntax error" in err, err


def test_the_second_start_stops_where_the_decided_masks_leave_the_parse_no_better():
    """A file the decided masks leave as broken as before (beagle-lib kernelsAll.cu: one ERROR over
    the file) is not given the one-at-a-time loop again: one parse, not up to the loop's 160
    (kernelsAll.cu: 160 parses, 2.11 s -> 1 parse, 0.02 s)."""
    from kernelport.macro_repair import Repair, error_sites, _score
    from kernelport.macros import MacroDef
    from kernelport.source import _parser
    data = textwrap.dedent("""\
        #ifdef CUDA
        int a;
        #endif
        } } ) int (( [ %s ;
        """ % " ".join(f"KW{i} x{i} (( ;" for i in range(40))).encode()
    parse = _parser().parse
    tree = parse(data)
    macros = {"CUDA": MacroDef("CUDA", None, "1", "<command line>", 0)}
    r = Repair(data, macros, parse)
    r.run_decided(data, _score(error_sites(tree)))
    assert r.parses == 1


def _decided_masks(text: str, **defines: str):
    from kernelport.macro_repair import Repair, error_sites, _score
    from kernelport.macros import MacroDef
    from kernelport.source import _parser
    data = textwrap.dedent(text).encode()
    parse = _parser().parse
    macros = {k: MacroDef(k, None, v, "<command line>", 0) for k, v in defines.items()}
    r = Repair(data, macros, parse)
    seen, tree = r.run_decided(data, _score(error_sites(parse(data))))
    return seen.decode(), r


# deepwave's scalar.cu (heldout38) splits its kernels' and host functions' parameter lists with `#if
# DW_NDIM >= 2` / `#if DW_NDIM >= 3` and a loop head with `#if DW_NDIM == 3` ... `#elif DW_NDIM == 2` ...
# `#else`, built with -DDW_NDIM=1: more groups than the one-at-a-time loop's 160 parses repair, so the
# file stopped at a parse error ("cannot parse 'int set_config('").  The second start decided only
# `#ifdef X` / `#if defined(X)`; it now decides an `#if` over the run's integer -D values too.
SPLIT = """\
    int set_config(
    #if NDIM >= 3
        float const rdz_h, long const nz_h,
    #endif
    #if NDIM >= 2
        float const rdy_h, long const ny_h,
    #endif
        float const rdx_h, long const nx_h) {
    #if NDIM == 3
      for (long z = 0; z < nz_h; ++z) {
    #elif NDIM == 2
      for (long y = 0; y < ny_h; ++y) {
    #else
      {
    #endif
        (void)rdx_h;
      }
      return 0;
    }
    """


def test_the_second_start_decides_an_if_over_the_runs_integer_defines():
    seen, r = _decided_masks(SPLIT, NDIM="1")
    assert "float const rdz_h" not in seen and "float const rdy_h" not in seen  # `#if NDIM >= k`: not taken
    assert "for (long z" not in seen and "for (long y" not in seen and "\n  {\n" in seen  # the #else of the chain
    assert "float const rdx_h, long const nx_h) {" in seen and "#if" not in seen and "#endif" not in seen
    seen, r = _decided_masks(SPLIT, NDIM="2")
    assert "float const rdz_h" not in seen and "float const rdy_h, long const ny_h," in seen
    assert "for (long y = 0; y < ny_h; ++y) {" in seen and "for (long z" not in seen  # the #elif's branch


def test_an_if_over_a_define_that_is_no_number_or_not_given_is_left_to_the_loop():
    # look-alikes: `-DNDIM=float` is no integer, and a name no -D gives (a file's own macro) is not decided
    for defines in ({"NDIM": "float"}, {"OTHER": "1"}):
        seen, r = _decided_masks(SPLIT, **defines)
        assert not r.masks and "#if NDIM >= 2" in seen, defines
