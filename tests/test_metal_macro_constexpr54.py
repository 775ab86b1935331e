"""Metal instances of a template kernel whose template arguments are a launcher's `constexpr` locals
initialised from macros: the command line's -D (`constexpr int matrixSize = MATRIXSIZE;`), the file's
`#define`s, earlier such locals, and GCC's bit builtins folded at compile time
(`1 << (32 - __builtin_clz(n - 1))`).  Held-out 54's batched LU (sumukhashridhar/matrixInversion)
launched `batched_lu_subwarp<FpType, matrixSize, threadsPerMatrix, ...><<<...>>>` this way and its Metal
port was refused KP216; the snippets are written for the test (kernelport.backends.metal.host_constants)."""
from __future__ import annotations

from pathlib import Path

from kernelport import cexpr
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

LAUNCHER = """\
#define BLOCK 256
typedef float real;
template <typename T, int N, int PER>
__global__ void scale(T *a) { a[blockIdx.x * N + threadIdx.x % N] *= (T)PER; }
int main() {
    constexpr int n = SIZE;
    constexpr int pow2 = 1 << (32 - __builtin_clz(n - 1));
    constexpr int per = BLOCK / pow2;
    real *d = nullptr;
    scale<real, pow2, per><<<4, BLOCK>>>(d);
    return 0;
}
"""


def _translate(code: str, tmp_path: Path, defines=()):
    return translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal", defines=list(defines))


def _errors(port) -> list[tuple[str, int]]:
    return [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]


def test_constexpr_locals_from_command_line_macros_name_the_instance(tmp_path: Path):
    port, text = _translate(LAUNCHER, tmp_path, [("SIZE", "20")])
    assert _errors(port) == []
    # SIZE 20: the next power of two 32, BLOCK / 32 = 8
    assert 'template [[host_name("scale_real_32_8")]] kernel void scale<real, 32, 8>(' in port.body
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    assert [str(d) for d in check_metal_source(text, "t.metal")] == []


def test_the_file_define_is_read_like_the_command_lines(tmp_path: Path):
    code = "#define SIZE 8\n" + LAUNCHER
    port, _ = _translate(code, tmp_path)
    assert _errors(port) == []
    assert 'kernel void scale<real, 8, 32>(' in port.body


def test_a_macro_nothing_defines_still_refuses_located(tmp_path: Path):
    # look-alike: SIZE without -D or #define: its value is not known here, so no instance (KP216 at the kernel's line)
    port, _ = _translate(LAUNCHER, tmp_path)
    assert _errors(port) == [("KP216", 4)]
    # nor a local whose initialiser is a run-time value
    runtime = LAUNCHER.replace("constexpr int n = SIZE;", "const int n = rand() % 32 + 1;")
    port, _ = _translate(runtime, tmp_path, [("SIZE", "20")])
    assert _errors(port) == [("KP216", 4)]


def test_function_like_macros_are_not_taken_for_values(tmp_path: Path):
    code = "#define SQ(x) ((x) * (x))\n" + LAUNCHER.replace("constexpr int n = SIZE;", "constexpr int n = SQ;")
    port, _ = _translate(code, tmp_path, [("SIZE", "20")])
    assert _errors(port) == [("KP216", 5)]  # (the kernel, one line lower)


def test_gcc_bit_builtins_fold_as_the_compiler_does():
    assert cexpr.evaluate("1 << (32 - __builtin_clz(20 - 1))", {}) == 32
    assert cexpr.evaluate("__builtin_clz(1)", {}) == 31
    assert cexpr.evaluate("__builtin_clzll(1)", {}) == 63
    assert cexpr.evaluate("__builtin_ctz(48)", {}) == 4
    assert cexpr.evaluate("__builtin_popcount(-1)", {}) == 32  # the operand is unsigned int
    assert cexpr.evaluate("__builtin_popcountll(-1)", {}) == 64
    for bad, words in (("__builtin_clz(0)", "undefined"), ("__builtin_ctz(1.5)", "integers"),
                       ("__builtin_clz(1, 2)", "takes 1 arguments")):
        try:
            cexpr.evaluate(bad, {})
        except cexpr.CExprError as e:
            assert words in str(e)
        else:
            raise AssertionError(f"{bad} evaluated")
