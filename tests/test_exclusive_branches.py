"""SY001 joined a loop head and a barrier from conditional branches no compile takes together (heldout87: a
kernel writes its loop head twice, `#if CHANNELS == 1` over `t = threadIdx.x; t < N; t += blockDim.x` and `#else`
over a uniform `base < N`, and puts its barriers under `#if CHANNELS > 1 && defined TRANSPOSE`; lint parses the
first head, so the second branch's barriers were reported in a per-thread loop that no build gives them).  Now
a hazard whose two places exclude each other (kernelport/exclusive_branches.py) is not reported."""
from __future__ import annotations

import textwrap

from trust_support import kp_inproc

from kernelport.exclusive_branches import exclusive

KERNEL = """\
    __global__ void delay(float *out, const float *in)
    {
      __shared__ float tmp[16][17];
      unsigned major = threadIdx.x / 16, minor = threadIdx.x % 16;
    #if CHANNELS == 1
      for (unsigned t = threadIdx.x; t < SAMPLES; t += blockDim.x)
      {
        float v = in[t];
    #else
      for (unsigned base = 0; base < SAMPLES; base += 16)
      {
        float v = in[base + major];
    #endif
    #if BARRIER_TEST
        tmp[major][minor] = v;
        __syncthreads();
        out[major * 16 + minor] = tmp[minor][major];
        __syncthreads();
    #else
        out[0] = v;
    #endif
      }
    }
    """


def _lint(tmp_path, test: str):
    f = tmp_path / "delay.cu"
    f.write_text(textwrap.dedent(KERNEL).replace("BARRIER_TEST", test))
    return kp_inproc("lint", f)


def test_barriers_in_a_branch_that_excludes_the_per_thread_loop_head_are_not_reported(tmp_path):
    for test in ("CHANNELS > 1 && defined TRANSPOSE", "CHANNELS != 1", "!(CHANNELS == 1)"):
        rc, out, err = _lint(tmp_path, test)
        assert "SY001" not in out + err, (test, out)


def test_barriers_a_compile_may_take_with_the_per_thread_loop_head_are_still_reported(tmp_path):
    # look-alikes: a test that holds with CHANNELS == 1 too, or names another macro: some build takes both
    for test in ("CHANNELS >= 1", "defined TRANSPOSE", "CHANNELS < 4"):
        rc, out, err = _lint(tmp_path, test)
        assert "SY001" in out, (test, out)


def test_exclusive_reads_if_elif_else_chains():
    data = textwrap.dedent("""\
        #if N == 1
        a
        #elif N == 2
        b
        #else
        c
        #endif
        #ifdef X
        d
        #endif
        #ifndef X
        e
        #endif
        f
        """).encode()
    at = {ch: data.index(f"\n{ch}\n".encode()) + 1 for ch in "abcdef"}
    assert exclusive(data, at["a"], at["b"]) and exclusive(data, at["b"], at["c"]) and exclusive(data, at["a"], at["c"])
    assert exclusive(data, at["d"], at["e"])
    assert not exclusive(data, at["a"], at["d"]) and not exclusive(data, at["c"], at["e"])
    assert not exclusive(data, at["a"], at["f"]) and not exclusive(data, at["a"], at["a"])
    # a test it cannot read (a function-like macro) is not known to exclude anything
    fn = b"#if MAX(N, 1) == 1\na\n#endif\n#if MAX(N, 1) != 1\nb\n#endif\n"
    assert not exclusive(fn, fn.index(b"\na\n") + 1, fn.index(b"\nb\n") + 1)


def _two(first: str, second: str, between: str = "") -> tuple[bytes, int, int]:
    data = f"#if {first}\nA\n#endif\n{between}#if {second}\nB\n#endif\n".encode()
    return data, data.index(b"A"), data.index(b"B")


def test_exclusive_only_where_its_sampled_values_stand_for_every_value():
    # stop 62's review: N = 67 takes both (67 % 16 == 3, 67 >= 64), N = 64 both, N = 97 both; none is sampled
    assert not exclusive(*_two("(N % 16) == 3", "N >= 64"))
    assert not exclusive(*_two("N == 0x40", "N > 2"))
    assert not exclusive(*_two("N / 32 == 3", "N % 32 == 1"))
    # a test over the name's value after a redefinition reads another value than the first test did
    assert not exclusive(*_two("MODE == 1", "MODE == 2", "#undef MODE\n#define MODE 2\n"))
    # look-alikes that do exclude: comparisons with decimal literals, truth values, `defined`
    assert exclusive(*_two("N < 64", "N >= 64"))
    assert exclusive(*_two("!(CH == 1) && defined(T)", "CH == 1"))
    assert exclusive(*_two("N", "!N"))
    assert exclusive(*_two("MODE == 1", "MODE == 2", "#define OTHER 2\n"))
