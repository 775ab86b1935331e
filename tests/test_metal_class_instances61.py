"""Template kernels launched by a member of a class template, instantiated by the class's explicit
instantiations, macro-generated (stop 61; held-out set 74, cupressor's templateInstantiation.cu).

`kernel_shiftData<TYPE><<<...>>>` in `template <typename TYPE> void Buf<TYPE>::shift()`, and
`INSTANTIATE(float)` expanding (through a second macro) to `template class Buf<float>;`: C++ instantiates
`shift` for each, so each kernel instance exists; main refused KP216 "has no instantiation".  A launch whose
instance stays unknown beside known ones is a KP216 warning (it was silent), never a guessed instance.
"""
from __future__ import annotations

from conftest import metal_checked, metal_port

CLASS = """
template <typename TYPE>
__global__ void shiftData(TYPE* in, TYPE* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) out[i] = in[i + 1];
}
template <typename TYPE>
class Buf {
public:
    TYPE *a, *b;
    int n;
    void shift();
};
template <typename TYPE>
void Buf<TYPE>::shift() {
    shiftData<TYPE><<<(n + 255) / 256, 256>>>(a, b, n);
}
"""

MACROS = """
#define INSTANTIATE_CLASS(CLASS, TYPE) \\
    template class CLASS<TYPE>;
#define INSTANTIATE_ALL(TYPE) \\
    INSTANTIATE_CLASS(Buf, TYPE)
INSTANTIATE_ALL(float)
INSTANTIATE_ALL(int)
"""


def test_macro_generated_class_instantiations_name_the_kernel_instances():
    text = metal_checked(CLASS + MACROS)
    assert 'template [[host_name("shiftData_float")]] kernel void shiftData<float>(' in text
    assert 'template [[host_name("shiftData_int")]] kernel void shiftData<int>(' in text


def test_a_written_class_instantiation_too():
    text = metal_checked(CLASS + "template class Buf<float>;\n")
    assert 'kernel void shiftData<float>(' in text and "shiftData<int>" not in text


def test_an_extern_instantiation_is_another_units():
    """(Read from the text: the grammar does not parse `extern template class`, so no translation here.)"""
    from kernelport.backends.metal.class_instances import ClassInstances
    from kernelport.source import SourceFile

    class Unit(ClassInstances):
        def __init__(self, text):
            self.src = SourceFile.from_text(text, "t.cu")

    unit = Unit(CLASS + MACROS + "extern template class Buf<double>;\n// template class Buf<short>;\n"
                "template class Other<char>;\ntemplate class Buf<Pair<int, 2>>;\n")
    assert unit.explicit_class_instances("Buf") == [["float"], ["int"], ["Pair<int, 2>"]]


def test_a_class_never_instantiated_keeps_kp216():
    port, _ = metal_port(CLASS + "template <typename T> struct Other { T v; };\ntemplate struct Other<float>;\n")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP216"]


def test_a_member_template_parameter_stays_unknown():
    code = CLASS.replace("    void shift();", "    template <typename U> void shift2(U *c) { shiftData<U><<<1, 256>>>(c, c, n); }")
    port, _ = metal_port(code + "template class Buf<float>;\n")
    warn = [d for d in port.diagnostics if d.code == "KP216"]
    assert any("shiftData<U>" in d.message for d in warn), [d.format() for d in port.diagnostics]


def test_an_unknown_instance_beside_known_ones_is_a_warning_at_its_launch():
    port, text = metal_port(CLASS + """
        template <typename T> void wrap(T *a, T *b, int n) { shiftData<T><<<1, 256>>>(a, b, n); }
        void run(unsigned char *a, unsigned char *b, int n) { shiftData<unsigned char><<<1, 256>>>(a, b, n); }
        """)
    assert port.ok
    warn = [d for d in port.diagnostics if d.code == "KP216"]
    assert len(warn) == 2 and all(d.severity == "warning" for d in warn), [d.format() for d in port.diagnostics]
    assert {d.location.line for d in warn} == {16, 19}  # Buf<TYPE>::shift's launch and wrap's
    assert "the port names shiftData<unsigned char> only" in warn[0].message
    assert 'kernel void shiftData<unsigned char>(' in text
