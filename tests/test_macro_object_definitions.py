"""An object-like macro that supplies a whole function definition, used after its template head and
specifiers (DREAMPlace's `template <typename T> inline __device__ DEFINE_NET_WIRING_DISTRIBUTION_MAP_WEIGHT;`,
the macro `T netWiringDistributionMapWeight(int num_pins) { switch ... }`): nvcc sees a function
template; the grammar saw specifiers without a declarator, a located syntax error and no port
(heldout41: rudy_cuda_kernel.cu, exit 2 before).  The repair blanks the declaration (template head,
specifiers, the use and its `;`) for the grammar, the HIP port keeps the user's text and compiles;
Metal, which cannot see the function, refuses with a located KP230 (kernelport/macro_declarations.py).
Look-alikes keep their syntax error: a macro that expands to an expression, and one used where a
parameter list follows it."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

DEFINITION = """
#define DEFINE_WEIGHT \\
    T weight(int n)   \\
    {                 \\
        switch (n)    \\
        {             \\
        case 1: case 2: \\
            return 1.0; \\
        default:      \\
            return 2.0; \\
        }             \\
    }

template <typename T>
inline __device__ DEFINE_WEIGHT;

template <typename T>
__global__ void k(const int* n, T* out, int count)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < count)
        out[i] = weight<T>(n[i]);
}

void launch(const int* n, float* out, int count)
{
    k<float><<<(count + 255) / 256, 256>>>(n, out, count);
}
"""


def src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "m.cu")


def test_the_declaration_is_blanked_for_the_grammar_and_records_the_expansion():
    s = src(DEFINITION)
    assert s.syntax_errors() == [], s.syntax_errors()
    [m] = [m for m in s.masks if m.name == "DEFINE_WEIGHT"]
    assert s.data[m.start:m.end] == b"template <typename T>\ninline __device__ DEFINE_WEIGHT;"
    assert m.expansion is not None and m.expansion.startswith("T weight(int n)")


def test_the_hip_port_keeps_the_definition_and_compiles(tmp_path):
    port, text = translate(src(DEFINITION), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "template <typename T>\ninline __device__ DEFINE_WEIGHT;\n" in text
    hip_compiles(tmp_path, text, "m.hip")


def test_metal_refuses_with_a_located_diagnostic():
    port, _ = translate(src(DEFINITION), "metal")
    assert not port.ok
    line = DEFINITION.split("inline __device__ DEFINE_WEIGHT")[0].count("\n") + 1  # the use's line, template head before it
    assert any(d.code == "KP230" and d.line in (line - 1, line) for d in port.diagnostics), [d.format() for d in port.diagnostics]


def test_inside_a_namespace_macro_the_namespace_stays_and_the_port_compiles(tmp_path):
    # DREAMPlace's `DREAMPLACE_BEGIN_NAMESPACE` (`namespace DreamPlace {`) stands before the template head:
    # the blank starts at `template`, the namespace macro keeps its own repair
    code = DEFINITION.replace("template <typename T>\ninline __device__ DEFINE_WEIGHT;",
                              "BEGIN_NS\ntemplate <typename T>\ninline __device__ DEFINE_WEIGHT;") \
        + "\nEND_NS\n"
    code = "#define BEGIN_NS namespace ns {\n#define END_NS }\n" + code
    s = src(code)
    assert s.syntax_errors() == [], s.syntax_errors()
    [m] = [m for m in s.masks if m.name == "DEFINE_WEIGHT"]
    assert s.data[m.start:m.end] == b"template <typename T>\ninline __device__ DEFINE_WEIGHT;"
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    hip_compiles(tmp_path, text, "m.hip")


def test_a_macro_that_expands_to_an_expression_is_no_definition():
    s = src("#define LIMIT (4 + 4)\ntemplate <typename T>\ninline __device__ LIMIT;\n__global__ void k() {}\n")
    assert s.syntax_errors() != []
    assert not [m for m in s.masks if m.name == "LIMIT"]


def test_a_use_followed_by_a_parameter_list_is_no_definition():
    s = src("#define BODY T f(int n) { return n; }\ntemplate <typename T>\ninline __device__ BODY(int x);\n")
    assert not [m for m in s.masks if m.name == "BODY" and m.start < s.data.index(b"BODY(")]
