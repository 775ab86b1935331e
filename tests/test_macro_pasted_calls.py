"""A file-scope macro whose replacement ends by calling a macro whose name is pasted from a parameter
(heldout58's sync-ubench Explicit_Barrier_Kernel.cu: `KERNEL_DDEP(BASE,TCOM,float,DULL)` whose body is
`BASE##_KERNEL(COM,TYPE,OP,1) ... BASE##_KERNEL(...,128)`, each `BASE_KERNEL` / `COA_KERNEL` a
`__global__` definition; issue 11): macros.ends_definition resolves the pasted name to every macro it
may name, so the use is known to define what it expands to and parses; where one of those names is no
definition, or none is defined, the use is not taken for one."""
from __future__ import annotations

import textwrap

from kernelport import macros
from kernelport.source import SourceFile

from conftest import hip_compiles
from port_support import port_text

PASTED = r"""
#define BASE_KERNEL(COM,TYPE,DEP)\
__global__ void k_base_##COM##_##TYPE##_##DEP(TYPE *a){\
    a[threadIdx.x] += (TYPE)DEP;\
}
#define COA_KERNEL(COM,TYPE,DEP)\
__global__ void k_coa_##COM##_##TYPE##_##DEP(TYPE *a){\
    a[threadIdx.x] *= (TYPE)DEP;\
}
#define KERNEL_DDEP(BASE,COM,TYPE)\
	BASE##_KERNEL(COM,TYPE,1)\
	BASE##_KERNEL(COM,TYPE,2)

KERNEL_DDEP(BASE,TCOM,float)
KERNEL_DDEP(COA,CCOM,float)

int main() {
    float *a;
    cudaMalloc(&a, 128 * sizeof(float));
    k_base_TCOM_float_1<<<1, 32>>>(a);
    k_coa_CCOM_float_2<<<1, 32>>>(a);
    cudaDeviceSynchronize();
    return 0;
}
"""


def test_a_use_ending_in_a_pasted_definition_macro_parses_and_its_port_compiles(tmp_path):
    s = SourceFile.from_text(PASTED, "m.cu")
    assert s.syntax_errors() == []
    text = port_text(PASTED, "m.cu")
    assert "KERNEL_DDEP(BASE,TCOM,float)\nKERNEL_DDEP(COA,CCOM,float)\n" in text
    assert "hipMalloc(&a, 128 * sizeof(float));" in text
    hip_compiles(tmp_path, text, "m.hip")


def _defs(extra: str):
    return macros.definitions(textwrap.dedent(PASTED) + extra)


def test_every_macro_the_paste_may_name_must_end_a_definition():
    defs = _defs("#define PRE_SQ(x) ((x) * (x))\n#define EXPR(P, x) P##_SQ(x)\n"
                 "#define MID(P, T) k_##P##_KERNEL(T, T, 1)\n#define ONE(T) BASE##_KERNEL(T, T, 1)\n")
    assert macros.ends_definition(defs["KERNEL_DDEP"], defs)
    assert macros.ends_definition(defs["ONE"], defs)  # a paste of two names: `BASE_KERNEL` itself
    # the look-alikes: the paste names an expression macro; it names no macro defined here
    assert not macros.ends_definition(defs["EXPR"], defs)
    assert not macros.ends_definition(defs["MID"], defs)
    # one candidate that is no definition is enough to refuse (`P##_KERNEL` may name it)
    more = _defs("#define SQ_KERNEL(a, b, c) ((a) + (b) + (c))\n")
    assert not macros.ends_definition(more["KERNEL_DDEP"], more)


def test_a_use_whose_paste_names_an_expression_macro_is_still_a_parse_error():
    code = PASTED.replace("#define KERNEL_DDEP", "#define SQ_KERNEL(a, b, c) ((a) + (b) + (c))\n#define KERNEL_DDEP")
    assert SourceFile.from_text(code, "m.cu").syntax_errors() != []
