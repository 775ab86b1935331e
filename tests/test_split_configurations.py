"""Nested conditionals that split one function head (kernelport/split_configurations.py).

mfaktc (heldout45) writes tf_barrett96_div.cu's head four times: `#ifndef DEBUG_GPU_MATH` around `#ifdef
INV_160_96` (the 160-bit inverse's head, else the 192-bit division's), the `#else` the same with a debug
parameter, then one body; tf_barrett96.cu includes it twice, without and with INV_160_96.  On main the file
was a parse error (`expected ';'`), its port not written and tf_barrett96.cu's port included the CUDA file
(hipcc: no `__umad32hi_cc`).  Checked: the nested head parses, as the configuration the run compiles; a
hidden branch that does not parse is still an error; the port compiles in every configuration; a second
head's name over a body that carries PTX's carry flag takes the flag, and its calls pass it."""
from __future__ import annotations

import pytest

from kernelport.macros import MacroDef
from kernelport.model import build
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles
from test_carry_masked import WRAP

NESTED = """struct int96 { unsigned int d0, d1, d2; };

#ifndef DEBUG_MATH
#ifdef INV_VARIANT
__device__ static void inv_96(int96 *res, int96 n, float nf)
#else
__device__ static void div_96(int96 *res, int96 q, int96 n, float nf)
#endif
#else
#ifdef INV_VARIANT
__device__ static void inv_96(int96 *res, int96 n, float nf, unsigned int *dbg)
#else
__device__ static void div_96(int96 *res, int96 q, int96 n, float nf, unsigned int *dbg)
#endif
#endif
/* res = q / n */
{
#ifdef INV_VARIANT
    int96 q;
    q.d0 = 0; q.d1 = 0; q.d2 = 1;
#endif
    res->d0 = q.d0 + n.d0 + (unsigned int)nf;
    res->d1 = q.d1 ^ n.d1;
    res->d2 = q.d2 + __popc(__activemask());
}
"""

CALLS = """
__global__ void k(int96 *out, const int96 *in, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifndef DEBUG_MATH
#ifdef INV_VARIANT
    inv_96(&out[i], in[i], f);
#else
    div_96(&out[i], in[i], in[i + 1], f);
#endif
#else
#ifdef INV_VARIANT
    inv_96(&out[i], in[i], f, 0);
#else
    div_96(&out[i], in[i], in[i + 1], f, 0);
#endif
#endif
}
"""


def _defined(*names):
    return {n: MacroDef(n, None, "1", "<command line>", 0) for n in names}


def _heads(src: SourceFile):
    return [(f.name, len(f.params)) for f in build(src).functions.values()]


def test_the_nested_head_parses_as_the_configuration_the_run_compiles():
    src = SourceFile.from_text(NESTED, "div.cu")
    assert src.syntax_errors() == []  # main: expected ';' after the first head
    assert _heads(src) == [("div_96", 4)]  # not DEBUG_MATH, not INV_VARIANT
    assert all(m.checked for m in src.masks if m.reason.startswith("conditional ("))


@pytest.mark.parametrize("defines, head", [(("INV_VARIANT",), ("inv_96", 3)), (("DEBUG_MATH",), ("div_96", 5)),
                                           (("DEBUG_MATH", "INV_VARIANT"), ("inv_96", 4))])
def test_the_run_s_defines_choose_the_head(defines, head):
    src = SourceFile.from_text(NESTED, "div.cu", _defined(*defines))
    assert src.syntax_errors() == []
    assert _heads(src) == [head]


def test_a_single_level_head_keeps_the_branch_the_run_compiles():
    """main parsed the `#else` (debug) head here: the repair kept the directives alone, then could hide only the
    first branch (the missing `;` left stood in the second, which it refuses to mask)."""
    text = NESTED.split("#ifndef DEBUG_MATH")[0] + """#ifndef DEBUG_MATH
__device__ static void div_96(int96 *res, int96 q, int96 n, float nf)
#else
__device__ static void div_96(int96 *res, int96 q, int96 n, float nf, unsigned int *dbg)
#endif
{
    res->d0 = q.d0 + n.d0 + (unsigned int)nf;
}
"""
    src = SourceFile.from_text(text, "one.cu")
    assert src.syntax_errors() == []
    assert _heads(src) == [("div_96", 4)]


def test_a_hidden_branch_that_does_not_parse_is_still_an_error():
    """Look-alike: the debug head lacks a comma; no configuration that keeps it parses, so nothing is masked
    away and the file stays a located syntax error."""
    broken = NESTED.replace("int96 q, int96 n, float nf, unsigned int *dbg)", "int96 q int96 n, float nf, unsigned int *dbg)")
    src = SourceFile.from_text(broken, "div.cu")
    assert src.syntax_errors()
    assert not any(m.checked for m in src.masks)


def test_an_unsplit_conditional_is_not_masked():
    """Look-alike: each branch a whole declaration; the file parses as it is, no mask."""
    text = """#ifdef INV_VARIANT
__device__ static int f(int a) { return a; }
#else
__device__ static int f(int a, int b) { return a + b; }
#endif
"""
    src = SourceFile.from_text(text, "w.cu")
    assert src.syntax_errors() == [] and src.masks == ()


@pytest.mark.parametrize("defines", [[], ["-DINV_VARIANT"], ["-DDEBUG_MATH"], ["-DDEBUG_MATH", "-DINV_VARIANT"]])
def test_the_port_compiles_in_each_configuration(tmp_path, defines):
    port, body = translate(SourceFile.from_text(NESTED + CALLS, "div.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert body.count("__device__ static void") == 4  # every head kept as written
    f = tmp_path / "div.hip"
    f.write_text(body)
    assert_hip_file_compiles(f, extra_args=defines)


CARRY = WRAP + NESTED.replace("res->d1 = q.d1 ^ n.d1;", "res->d1 = add_cc(q.d1, n.d1);\n    res->d2 = addc(q.d2, n.d2);") \
    .replace("    res->d2 = q.d2 + __popc(__activemask());\n", "") + CALLS


def test_another_head_of_a_carrying_body_takes_the_flag_and_its_calls_pass_it(tmp_path):
    """`inv_96` is only ever a hidden head over `div_96`'s body: main gave `div_96`'s heads the flag (by name) and
    left `inv_96(...)` without it, so the build with INV_VARIANT failed (`kp_carry` undeclared in the body)."""
    port, body = translate(SourceFile.from_text(CARRY, "carry.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert body.count("inv_96(unsigned int &kp_carry, int96 *res") == 2, body
    assert body.count("div_96(unsigned int &kp_carry, int96 *res") == 2, body
    assert body.count("inv_96(kp_carry, &out[i]") == 2 and body.count("div_96(kp_carry, &out[i]") == 2, body
    f = tmp_path / "carry.hip"
    f.write_text(body)
    for defines in ([], ["-DINV_VARIANT"], ["-DDEBUG_MATH", "-DINV_VARIANT"]):
        assert_hip_file_compiles(f, extra_args=defines)
