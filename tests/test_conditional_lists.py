"""A carrier call whose argument list holds a preprocessor conditional (heldout45: mfaktc's
tf_barrett96_gs.cu calls `test_FC96_barrett92(f, ..., bit_max64 #ifdef DEBUG_GPU_MATH , modbasecase_debug
#endif)`, the function defined in tf_barrett96_core.cu, which it includes, whose head holds `#ifdef CPU_SIEVE`
and `#ifdef DEBUG_GPU_MATH` parameters; the cases here are synthetic).  The parse saw every branch's items,
six arguments against seven parameters, so the call found no function, was not given PTX's carry flag and
hipcc failed.  kernelport/conditional_lists.py counts both lists per configuration (one truth value per test,
the same test in both read alike).  Look-alikes: a call whose count fits in no configuration, and an
overload that takes no carry matching in one configuration, are not given the flag."""
from __future__ import annotations

import pytest

from conftest import assert_hip_file_compiles, require_tool
from test_carry_masked import WRAP  # the carry chain's two PTX wrappers

HEADER = WRAP + """
__device__ static void add64(unsigned int *lo, unsigned int *hi, unsigned int a, unsigned int b
#ifdef CPU_SIEVE
                             , int shift
#endif
#ifdef DEBUG_MATH
                             , int *dbg
#endif
)
{
    *lo = add_cc(a, b);
    *hi = addc(a, b);
}
"""

UNIT = """\
#include "carry.cuh"

__global__ void k(const unsigned int *x, unsigned int *out, int *dbg)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lo, hi;
    add64(&lo, &hi, x[2 * i], x[2 * i + 1]
#ifdef DEBUG_MATH
          , dbg
#endif
    );
    out[2 * i] = lo;
    out[2 * i + 1] = hi;
}
"""


def _port(tmp_path, header: str, unit: str):
    from trust_support import kp_inproc
    (tmp_path / "carry.cuh").write_text(header)
    (tmp_path / "k.cu").write_text(unit)
    out = tmp_path / "out"
    rc, _, err = kp_inproc("translate", str(tmp_path / "k.cu"), "--to", "hip", "-o", str(out))
    return rc, err, out


def test_a_carrier_call_with_a_conditional_argument_passes_the_carry(tmp_path):
    rc, err, out = _port(tmp_path, HEADER, UNIT)
    assert rc == 0, err
    body = (out / "k.hip").read_text()
    assert "add64(kp_carry, &lo, &hi, x[2 * i], x[2 * i + 1]\n#ifdef DEBUG_MATH\n          , dbg\n#endif\n    );" in body
    assert "add64(unsigned int &kp_carry, unsigned int *lo" in (out / "carry.hip.h").read_text()


@pytest.mark.parametrize("define", [[], ["-DDEBUG_MATH"], ["-DDEBUG_MATH", "-DCPU_SIEVE"]])
def test_the_port_compiles_in_each_configuration_the_lists_agree_on(tmp_path, define):
    rc, err, out = _port(tmp_path, HEADER, UNIT.replace("#ifdef DEBUG_MATH\n", "#ifdef CPU_SIEVE\n          , 0\n#endif\n"
                                                        "#ifdef DEBUG_MATH\n"))
    assert rc == 0, err
    require_tool("hipcc")
    assert_hip_file_compiles(out / "k.hip", ["gfx90a", "gfx1030"], extra_args=define)


def test_an_else_branch_counts_against_its_if(tmp_path):
    """A head `..., unsigned int b #ifdef DEBUG_MATH , int *dbg #else , int level #endif)` takes 5 arguments in
    every build (the parse saw 6 parameters): a call of 5 is given the carry, one of 6 is not."""
    header = HEADER.replace("#ifdef CPU_SIEVE\n                             , int shift\n#endif\n", "").replace(
        ", int *dbg\n#endif\n", ", int *dbg\n#else\n                             , int level\n#endif\n")
    five = UNIT.replace("#ifdef DEBUG_MATH\n          , dbg\n#endif\n", "          , 0\n")
    rc, err, out = _port(tmp_path, header, five)
    assert rc == 0, err
    assert "add64(kp_carry, &lo" in (out / "k.hip").read_text()
    rc, err, out = _port(tmp_path, header, five.replace(", 0\n", ", 0, 1\n"))
    assert rc == 0, err
    assert "add64(kp_carry" not in (out / "k.hip").read_text()


def test_a_count_no_configuration_fits_is_not_given_the_carry(tmp_path):
    """A fixed extra argument fits where CPU_SIEVE adds the parameter (and DEBUG_MATH does not): two, never."""
    header = HEADER.replace("#ifdef DEBUG_MATH\n                             , int *dbg\n#endif\n", "")
    unit = UNIT.replace("add64(&lo, &hi, x[2 * i], x[2 * i + 1]\n", "add64(&lo, &hi, x[2 * i], x[2 * i + 1], 7\n")
    rc, err, out = _port(tmp_path, header, unit)  # 5 or 6 arguments; 4 or 5 parameters, 5 only where CPU_SIEVE
    body = (out / "k.hip").read_text() if rc == 0 else ""
    assert "add64(kp_carry" in body  # 5 fits (DEBUG_MATH undefined, CPU_SIEVE defined)
    unit = unit.replace(", 7\n", ", 7, 8\n")  # 6 or 7 arguments: never
    rc, err, out = _port(tmp_path, header, unit)
    body = (out / "k.hip").read_text() if rc == 0 else ""
    assert "add64(kp_carry" not in body


def test_an_overload_that_takes_no_carry_matching_one_configuration_refuses_the_call(tmp_path):
    header = HEADER + ("__device__ static void add64(unsigned int *lo, unsigned int *hi, unsigned int a, unsigned int b,"
                       " int *dbg, int extra) { *lo = a; *hi = b; }\n")
    unit = UNIT.replace("          , dbg\n", "          , dbg, 0\n")  # 4 or 6 arguments: either overload
    rc, err, out = _port(tmp_path, header, unit)
    assert rc != 0 and "KP201" in err and "k.cu:7:" in err, err
