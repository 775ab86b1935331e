"""A device function declared, and defined nowhere in the file, three times with two parameter lists
(overloads, or a friend declaration beside the prototypes: heldout75's Physarum model, whose headers
parsed once `__host__ __device__ friend` did): the Metal translator's declared-only table marked the
name undecided at the second declaration and then read that mark as a parameter list at the third
(main: "internal error: TypeError: 'NoneType' object is not iterable").  The name stays undecided and the
port is written; the same prototype declared three times is written as before."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """
DECLS
__global__ void k(float *out, const float *in, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = CALL;
}
"""


def port(decls: str, call: str):
    s = SourceFile.from_text(CODE.replace("DECLS", decls).replace("CALL", call), "d.cu")
    return translate(s, "metal", allow_unported=True)


def test_three_declarations_with_two_parameter_lists_do_not_crash_the_metal_translator():
    decls = ("__device__ float scale(float x);\n__device__ float scale(float x, float y);\n"
             "__device__ float scale(float x);\n")
    result, text = port(decls, "scale(in[i])")
    assert "float scale(float x, float y);" in text and "out[i] = scale(in[i]);" in text


def test_one_prototype_declared_three_times_keeps_its_signature():
    decls = "__device__ float scale(float x);\n" * 3
    result, text = port(decls, "scale(in[i])")
    assert text.count("float scale(float x);") == 3 and "out[i] = scale(in[i]);" in text
