"""Inline-asm operands written without their comma (`: "r"(x) "r"(y)`): nvcc binds them as two operands, clang
and the grammar reject the statement.  The parsed copy sees the comma (kernelport.asm_operand_commas), the PTX
readers split the operands as nvcc does, and a port that keeps the statement writes the comma."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

_HEAD = "__global__ void k(unsigned *o, const unsigned *a) {\n  unsigned r, x = a[threadIdx.x], y = a[threadIdx.x + 32];\n"
_TAIL = "  o[threadIdx.x] = r;\n}\n"


def _src(asm: str) -> SourceFile:
    return SourceFile.from_text(_HEAD + asm + _TAIL, "t.cu")


def test_operands_without_commas_parse_and_port_as_nvcc_reads_them():
    missing = _src('  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x) "r"(y)\n      "r"(4u));\n')
    assert not missing.tree.root_node.has_error
    port, whole = translate(missing, "hip")
    assert port.ok, port.diagnostics
    written = _src('  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y),\n      "r"(4u));\n')
    assert translate(written, "hip")[1].count("kp_bfe_u32(x, y, 4u)") == whole.count("kp_bfe_u32(x, y, 4u)") == 1


def test_a_kept_statement_is_written_with_its_commas_and_nothing_else_moves():
    src = _src('  // "r"(x) "r"(y) in a comment stays\n#if defined(__CUDA_ARCH__)\n'
               '  asm("vadd.u32.u32.u32 %0, %1, %2;" : "=r"(r) : "r"(x) "r"(y));\n#else\n  r = x + y;\n#endif\n')
    port, whole = translate(src, "hip")
    assert port.ok, port.diagnostics
    assert ': "=r"(r) : "r"(x), "r"(y));' in whole
    assert '// "r"(x) "r"(y) in a comment stays' in whole


def test_written_commas_are_not_doubled_and_glued_operands_stay_a_located_parse_error():
    src = _src('#if defined(__CUDA_ARCH__)\n  asm("vadd.u32.u32.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y));\n'
               '#else\n  r = x + y;\n#endif\n')
    whole = translate(src, "hip")[1]
    assert ': "r"(x), "r"(y));' in whole and ",," not in whole and ", ," not in whole
    glued = _src('  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(x)"r"(y));\n')
    assert glued.tree.root_node.has_error  # no blank to read a comma in: left as written (nvcc's leniency only)


def test_a_constraint_of_two_adjacent_literals_parses_and_is_read_joined():
    # C joins `"=" "r"` in translation phase 6 (nvcc, gcc and clang read "=r"); the grammar stopped at it (KP001)
    src = _src('  asm volatile("mov.u32 %0, %%laneid;" : "=" "r"(r));\n  r += x;\n')
    assert not src.tree.root_node.has_error
    port, whole = translate(src, "hip")
    assert port.ok, port.diagnostics
    assert "r = (__lane_id() & 31);" in whole and "asm" not in whole
    kept = _src('#if defined(__CUDA_ARCH__)\n  asm("vadd.u32.u32.u32 %0, %1, %2;" : "=" "r"(r) : "r"(x), "r"(y));\n'
                '#else\n  r = x + y;\n#endif\n')
    assert not kept.tree.root_node.has_error
    assert ': "=" "r"(r) : "r"(x), "r"(y));' in translate(kept, "hip")[1]  # the user's spelling, clang joins it


def test_adjacent_literals_outside_asm_operands_are_not_joined():
    # a look-alike: string literals joined in a call's argument list are not followed by `(`, or are a format
    src = SourceFile.from_text('__device__ void f(const char *);\n__global__ void k() { f("=" "r"); }\n', "t.cu")
    assert b'f("=" "r")' in src.data and not src.tree.root_node.has_error
    assert 'f("=" "r")' in translate(src, "hip")[1]
