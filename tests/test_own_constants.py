"""`#if` tests over the file's own macros, which the run's -D values decide (heldout87: a radio-astronomy
beamformer kernel, built with its station count given by -D, derives a per-pass count through its own
`#define`s, one of them function-like, and guards unrolled steps with `#if PER_PASS >= k`; a step only a
larger count compiles lacks its `{`, which nvcc never reads: a parse error on main).  The repair's second
start decided `#if` over -D values and literals only; now a name the file defines once before the test,
outside any other conditional or under its own `#ifndef` guard, is read through its definition
(kernelport/own_constants.py, macro_groups._cmdline_value)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import hip_compiles
from trust_support import kp_inproc

from kernelport import macro_groups
from kernelport.macros import MacroDef

KERNEL = """\
    #define BIGGER(A, B) ((A) > (B) ? (A) : (B))
    #define PASSES BIGGER((N_IN + 6) / 16, 1)
    #ifndef PER_PASS
    #define PER_PASS ((N_IN + PASSES - 1) / PASSES)
    #endif

    __global__ void weigh(float *out, const float *in)
    {
      float w0 = 0.0f, w1 = 0.0f;
    #if PER_PASS >= 1
      if (threadIdx.x < N_IN) {
        float d = in[threadIdx.x];
        w0 = d;
      }
    #endif
    #if PER_PASS >= 19
      if (threadIdx.x + 18 < N_IN)
        float d = in[threadIdx.x + 18];
        w1 = d;
      }
    #endif
      out[threadIdx.x] = w0 + w1;
    }
    """


def _file(tmp_path: Path, text: str = KERNEL) -> Path:
    f = tmp_path / "weigh.cu"
    f.write_text(textwrap.dedent(text))
    return f


def test_an_if_over_the_files_own_macros_that_the_runs_define_decides_is_ported_and_compiles(tmp_path):
    f = _file(tmp_path)  # N_IN=48: PASSES 3, PER_PASS 16, so the broken step is not compiled
    rc, out, err = kp_inproc("translate", f, "--to", "hip", "-DN_IN=48", "-o", tmp_path / "out")
    assert rc == 0, err
    port = (tmp_path / "out" / "weigh.hip").read_text()
    assert "  if (threadIdx.x + 18 < N_IN)\n    float d = in[threadIdx.x + 18];" in port  # kept as written
    hip_compiles(tmp_path / "out", port, "weigh.hip", extra_args=("-DN_IN=48",))


def test_a_value_that_compiles_the_broken_step_stays_a_located_error(tmp_path):
    # look-alike: N_IN=19 gives PASSES 1, PER_PASS 19: the build compiles the step without its `{`, which
    # does not parse (nvcc fails there too): a located error, as before
    f = _file(tmp_path)
    rc, out, err = kp_inproc("translate", f, "--to", "hip", "-DN_IN=19", "-o", tmp_path / "out")
    assert rc != 0 and "weigh.cu:18:" in err and "syntax error" in err, err


def test_a_definition_the_text_gives_twice_or_under_another_test_leaves_the_test_undecided(tmp_path):
    # look-alikes: PER_PASS defined under a test the run does not decide, or redefined: no compile-wide value
    for text in (KERNEL.replace("#ifndef PER_PASS", "#ifdef FAST_PATH"),
                 KERNEL.replace("    #endif\n\n", "    #endif\n    #undef PER_PASS\n    #define PER_PASS 19\n\n", 1)):
        f = _file(tmp_path, text)
        rc, out, err = kp_inproc("translate", f, "--to", "hip", "-DN_IN=48", "-o", tmp_path / "out")
        assert rc != 0 and "syntax error" in err, (text, err)


def test_the_value_is_read_through_the_definitions_as_the_compiler_reads_it():
    data = textwrap.dedent(KERNEL).encode()
    given = MacroDef("N_IN", None, "48", "<command line>", 0)
    macros = {**{m.name: m for m in (
        MacroDef("BIGGER", ("A", "B"), "((A) > (B) ? (A) : (B))", "weigh.cu", 1),
        MacroDef("PASSES", None, "BIGGER((N_IN + 6) / 16, 1)", "weigh.cu", 2),
        MacroDef("PER_PASS", None, "((N_IN + PASSES - 1) / PASSES)", "weigh.cu", 4))}, "N_IN": given}
    end = len(data)
    assert macro_groups._cmdline_value("PER_PASS >= 16", macros, data, end) == 1
    assert macro_groups._cmdline_value("PER_PASS >= 17", macros, data, end) == 0
    # before the definitions (a test on line 1) nothing is read; without the text, as before
    assert macro_groups._cmdline_value("PER_PASS >= 16", macros, data, 0) is None
    assert macro_groups._cmdline_value("PER_PASS >= 16", macros) is None
    # a name the text does not define (a header's) stays unknown
    assert macro_groups._cmdline_value("PER_PASS + OTHER >= 16", {**macros, "OTHER": MacroDef(
        "OTHER", None, "1", "other.h", 1)}, data, end) is None


def test_a_default_under_its_own_ifndef_guard_yields_to_the_runs_define(tmp_path):
    # stop 62's review: `#ifndef N_IN` / `#define N_IN 20` built with -DN_IN=48: the compile skips the default,
    # so PER_PASS is 16 and the broken step is not compiled; reading the default (PER_PASS 20) kept that step
    # as compiled: a parse error where nvcc compiles the file (kernelport.own_constants.merged).
    f = _file(tmp_path, "#ifndef N_IN\n#define N_IN 20\n#endif\n" + textwrap.dedent(KERNEL))
    rc, out, err = kp_inproc("translate", f, "--to", "hip", "-DN_IN=48", "-o", tmp_path / "out")
    assert rc == 0, err
    port = (tmp_path / "out" / "weigh.hip").read_text()
    assert "  if (threadIdx.x + 18 < N_IN)\n    float d = in[threadIdx.x + 18];" in port  # kept as written
    hip_compiles(tmp_path / "out", port, "weigh.hip", extra_args=("-DN_IN=48",))
    # look-alikes: no -D of N_IN (the default is read), an unguarded `#define` (it replaces the -D, as the
    # preprocessor does), a guard over another name
    from kernelport import own_constants
    cmd = {"N_IN": MacroDef("N_IN", None, "48", "<command line>", 0)}
    for text, value in (("#ifndef N_IN\n#define N_IN 20\n#endif\n", "48"), ("#define N_IN 20\n", "20"),
                        ("#ifndef OTHER\n#define N_IN 20\n#endif\n", "20")):
        own = {"N_IN": MacroDef("N_IN", None, "20", "weigh.cu", 2)}
        assert own_constants.merged(cmd, own, text.encode())["N_IN"].body == value, text
        assert own_constants.merged({}, own, text.encode())["N_IN"].body == "20", text


def test_a_header_included_between_the_definition_and_the_test_leaves_the_test_undecided():
    # stop 62's review: `#define WIDE 0`, then `#include "cfg.h"` (which may `#undef WIDE` / `#define WIDE 1`),
    # then `#if WIDE + N_IN > 100`: the file's text alone does not say which value the test reads
    macros = {"N_IN": MacroDef("N_IN", None, "100", "<command line>", 0), "WIDE": MacroDef("WIDE", None, "0", "a.cu", 1)}
    text = b'#define WIDE 0\n#include "cfg.h"\n#if WIDE + N_IN > 100\nA\n#endif\n'
    assert macro_groups._cmdline_value("WIDE + N_IN > 100", macros, text, text.index(b"#if")) is None
    # the look-alike: the header first, then the definition: the test reads the file's 0
    text = b'#include "cfg.h"\n#define WIDE 0\n#if WIDE + N_IN > 100\nA\n#endif\n'
    assert macro_groups._cmdline_value("WIDE + N_IN > 100", macros, text, text.index(b"#if")) == 0
