"""`double` in Metal device code: one cause, one code (KP214) and one wording, wherever it is met (stop 61).

Main reported it three ways: KP214 at a declaration's `double`; KP204 ("double is not available on METAL",
column 1) in a macro body (`#define real double`: a body is ported by a plain inner translator, where the
table's type concept has no Metal spelling), which `--demote-double` did not even demote; and KP224 from the
checker at each parameter and local of a template kernel's instance over double (`Mandelbrot0<double>`:
15 lines that name no double).  Now the backend's data (`Metal.lacked_types`) gives the code, wording and
demotion, read by the declaration pass, the table's pass, the instances (instance_types.py) and the
checker's findings (selfcheck.py); KP204 keeps its meaning for the other backends (portable's bfloat16).
"""
from __future__ import annotations

import textwrap

from conftest import metal_checked, metal_port

WORDING = "Metal has no double-precision type"


def _translate(code: str, **options):
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "metal", **options)


def _codes(port):
    return [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"]


MACRO = """\
#ifdef SINGLE
#define real float
#else
#define real double
#endif
__global__ void k(real *out, const real *in) { out[threadIdx.x] = in[threadIdx.x] * 2; }
"""


def test_a_macro_body_double_is_kp214_at_its_word():
    port, _ = metal_port(MACRO)
    assert _codes(port) == [("KP214", 4, 14)]
    d = port.diagnostics[0]
    assert d.message == WORDING and "--demote-double" in d.hint


def test_a_macro_body_double_is_demoted_by_demote_double():
    port, text = _translate(MACRO, demote_double=True)
    assert port.ok and "#define real float" in text and "double" not in text.split("kernel void")[0].split("#else")[1]


def test_a_macro_body_double_stays_double_on_hip():
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    port, text = translate(SourceFile.from_text(MACRO, "t.cu"), "hip")
    assert port.ok and "#define real double" in text


def test_a_macro_body_float_is_no_refusal():
    port, _ = metal_port(MACRO.replace("#define real double", "#define real float"))
    assert port.ok


TEMPLATE = """
template <class T>
__global__ void scale(T *out, const T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * out[i];
}
void run(float *f, double *d, int n)
{
    scale<float><<<1, 32>>>(f, 2.0f, n);
    scale<double><<<1, 32>>>(d, 2.0, n);
}
"""


def test_an_instance_over_double_is_kp214_at_the_launch_that_names_it():
    port, _ = metal_port(TEMPLATE)
    assert _codes(port) == [("KP214", 11, 5)]  # not KP224 at the kernel's parameter lines
    assert port.diagnostics[0].message == f"{WORDING}: the instance scale<double> (Metal names each instance of a template kernel)"


def test_demoted_the_instance_that_the_port_has_already_is_refused():
    port, _ = _translate(TEMPLATE, demote_double=True)
    assert _codes(port) == [("KP214", 11, 5)]
    assert "is scale<float>, which the port instantiates already" in port.diagnostics[0].message


def test_demoted_a_lone_double_instance_keeps_its_host_name():
    port, text = _translate(TEMPLATE.replace("    scale<float><<<1, 32>>>(f, 2.0f, n);\n", ""), demote_double=True)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert 'template [[host_name("scale_double")]] kernel void scale<float>(' in text
    assert "double" not in text.replace('"scale_double"', "")
    from kernelport.backends.metal.check import check_metal_source
    assert check_metal_source(text, "t.metal") == []


def test_an_instance_over_a_type_named_like_double_is_written():
    text = metal_checked("struct doubled { float v; };\n" + TEMPLATE.replace("double", "doubled")
                         .replace("2.0, n", "doubled{2.0f}, n").replace("a * out[i]", "out[i]"))
    assert 'kernel void scale<doubled>(' in text


def test_a_double_atomic_instance_is_the_instance_refusal_alone():
    port, _ = metal_port("""
        template <typename T>
        __global__ void acc(T *r, int n) { atomicAdd(&r[threadIdx.x], (T)n); }
        void run(int *a, double *b, int n) { acc<int><<<1, 32>>>(a, n); acc<double><<<1, 32>>>(b, n); }
        """)
    assert [c for c, _, _ in _codes(port)] == ["KP214"]  # no KP212 on 'double' beside it


def test_a_double_only_the_checker_finds_is_kp214_first_and_points_at_it_after():
    """A `double` the translation did not see (injected into the port here: none of the paths above leaves
    one) is the checker's, reported as KP214 with its wording, the later ones "see KP214 at line:col"; a
    translation that refused a double already has the cause reported, and the checker's are folded."""
    from kernelport.backends.metal.selfcheck import check_port
    from kernelport.backends.metal.translator import MetalTranslator
    from kernelport.source import SourceFile
    from kernelport import templates
    from conftest import require_tool
    require_tool("clang")
    code = "__global__ void k(float *o)\n{\n    float a = 1.0f;\n    float b = 2.0f;\n    o[threadIdx.x] = a + b;\n}\n"
    tr = MetalTranslator(SourceFile.from_text(code, "t.cu"))
    port = tr.run()
    assert port.ok
    port.body = port.body.replace("float a = 1.0f;", "double a = 1.0f;").replace("float b = 2.0f;", "double b = 2.0f;")
    check_port(tr, port, templates.render_port("metal", port.body, "t.cu", None, **port.context))
    got = [(d.code, d.location.line, d.message.split(" (the port")[0]) for d in port.diagnostics]
    assert got == [("KP214", 3, WORDING), ("KP214", 4, f"{WORDING}: see KP214 at 3:1")], got  # (a changed line: column 1)
    port.diagnostics[:] = [port.diagnostics[0]]  # a KP214 the translation gave: the checker's are folded
    check_port(tr, port, templates.render_port("metal", port.body, "t.cu", None, **port.context))
    assert [d.code for d in port.diagnostics] == ["KP214"]
