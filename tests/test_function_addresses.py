"""A function's address held as `void *` (an emulator's opcode table: krocki/nv6502's optable and
krocki/nvgb's ops, heldout46), called back through a cast: nvcc converts the function pointer
implicitly, clang (hipcc) refuses it (main: "cannot initialize an array element of type 'void *' with
an rvalue of type 'void (*)(cpu *)'").  The HIP port writes `(void *)` before each function's address
(kernelport/function_addresses.py), also for a function declared only, or defined with an empty body
followed by `;` (which the grammar reads as a braced declaration); data pointers, a typed function
pointer table and an element already cast are left as written."""
from __future__ import annotations

import textwrap

from conftest import hip_compiles, require_tool
from kernelport import toolchains
from kernelport.source import SourceFile
from kernelport.translate import translate
from port_support import port_text

CODE = """
struct cpu { int a, pc; };
__device__ void op_inc(cpu *n) { n->a += 1; }
__device__ void op_dbl(cpu *n) { n->a *= 2; }
__device__ void op_nop(cpu *n) { /* nothing */ };
__device__ void op_late(cpu *n);
__device__ void *optable[4] = {&op_inc, &op_dbl, op_nop, &op_late};
__device__ void *grid[2][2] = {{&op_inc, op_dbl}, {&op_nop, (void *)&op_late}};
__device__ int counter;
__device__ float buffer[4];
__device__ void *data[2] = {&counter, buffer};
__device__ void (*typed[2])(cpu *) = {op_inc, &op_dbl};
__device__ void op_late(cpu *n) { n->a -= 1; }
__global__ void run(cpu *cpus, const unsigned char *prog, int steps)
{
    cpu *n = &cpus[blockIdx.x * blockDim.x + threadIdx.x];
    for (int s = 0; s < steps; s++) {
        unsigned char op = prog[n->pc++ % 16] & 3;
        ((void (*)(cpu *))optable[op])(n);
        ((void (*)(cpu *))grid[op >> 1][op & 1])(n);
        typed[op & 1](n);
    }
}
"""


def test_function_addresses_held_as_void_pointers_get_the_cast():
    text = port_text(CODE, "f.cu")
    assert "void *optable[4] = {(void *)&op_inc, (void *)&op_dbl, (void *)op_nop, (void *)&op_late};" in text
    assert "void *grid[2][2] = {{(void *)&op_inc, (void *)op_dbl}, {(void *)&op_nop, (void *)&op_late}};" in text
    assert text.count("(void *)") == 8 and "(void *)(void *)" not in text  # seven written, the user's one kept


def test_data_pointers_and_typed_function_pointers_are_left_as_written():
    _, text = translate(SourceFile.from_text(textwrap.dedent(CODE), "f.cu"), "hip")
    assert "void *data[2] = {&counter, buffer};" in text
    assert "void (*typed[2])(cpu *) = {op_inc, &op_dbl};" in text


def test_the_port_compiles_with_hipcc_and_the_original_with_nvcc(tmp_path):
    hip_compiles(tmp_path, port_text(CODE, "f.cu"), "f.hip")
    require_tool("nvcc")
    src = tmp_path / "f.cu"
    src.write_text(textwrap.dedent(CODE))
    res = toolchains.compile_cuda(src)
    assert res.ok, res.output or res.reason
