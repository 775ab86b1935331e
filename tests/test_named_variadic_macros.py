"""`#define panic(args...)`: GCC's named variadic macro parameter (kernelport/directive_tokens.py,
macros._standard_variadic). A robotics suite's log.h defines its panic/warn/info macros so; the
grammar takes only `...` in a parameter list, so the header did not parse ("cannot parse '...'"),
was left unported (KP222) and its includers' HIP ports still included it, and with it
<cuda_runtime.h>, so hipcc failed. The grammar now sees `(    ...)`; the port keeps the user's text
(hipcc and nvcc take it), and the macro table reads the parameter as the standard `...` with its
name as `__VA_ARGS__` in the body."""
from __future__ import annotations

from kernelport import directive_tokens, macros
from kernelport.source import SourceFile
from kernelport.translate import translate

HEADER = """#include <cstdio>
#include <cstdlib>
#define panic(args...) \\
{ \\
    fprintf(stderr, "Panic on %s:%d: ", __FILE__, __LINE__); \\
    fprintf(stderr, args); \\
    exit(1); \\
}
#define warn(fmt, rest...) fprintf(stderr, fmt, rest)
"""
KERNEL = """__global__ void twice(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
void run(float *d, int n) {
    if (n < 0) panic("bad n %d", n);
    if (n == 0) warn("empty %s %d", "input", n);
    twice<<<(n + 255) / 256, 256>>>(d, n);
}
"""


def test_a_named_variadic_parameter_parses():
    assert SourceFile.from_text(HEADER, "log.h").syntax_errors() == []


def test_the_port_keeps_the_users_definitions():
    port, whole = translate(SourceFile.from_text(HEADER + KERNEL, "log.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "#define panic(args...)" in whole and "#define warn(fmt, rest...)" in whole, whole
    port, whole = translate(SourceFile.from_text(HEADER + KERNEL, "log.cu"), "metal")  # (host code left out)
    assert port.ok and "kernel void twice(" in whole, port.diagnostics


def test_the_macro_table_reads_the_standard_form():
    d = macros.definitions(HEADER, "log.h")
    assert d["panic"].params == ("...",) and "fprintf(stderr, __VA_ARGS__)" in d["panic"].body
    assert d["warn"].params == ("fmt", "...") and d["warn"].body == "fprintf(stderr, fmt, __VA_ARGS__)"


def test_only_named_variadic_parameters_are_seen_otherwise_and_lengths_stay():
    data = (b"#define A(args...) f(args)\n#define B(x, more ...) g(x, more)\n#define C(...) h(__VA_ARGS__)\n"
            b"#define D(a, b) a ... b\nint printf(const char *fmt, ...);\n  #  define E( a,rest... ) e\n")
    seen = directive_tokens.seen(data)
    assert len(seen) == len(data)
    assert seen == (b"#define A(    ...) f(args)\n#define B(x,      ...) g(x, more)\n#define C(...) h(__VA_ARGS__)\n"
                    b"#define D(a, b) a ... b\nint printf(const char *fmt, ...);\n  #  define E( a,    ... ) e\n")
