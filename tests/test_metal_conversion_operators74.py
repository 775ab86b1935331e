"""A host class's conversion operator defined outside the class, `template <typename T> Buf<T>::operator T*()
{ return get(); }` (heldout74, CU.Pressor's ACuBuffer.cu): the model registers no function for an
`operator_cast` declarator, so the Metal port left the class out and kept the two definitions, and the
checker refused the unit (KP224 "no template named 'Buf'").  They are host code (no `__device__`) and are
left out like every host function (kernelport/backends/metal/conversion_operators.py).  Look-alikes: a
`__host__ __device__` conversion operator defined inside a struct device code uses stays in the port (its
implicit use on a device object is refused, KP224: MSL's `this` is a thread one), and the HIP port keeps the
host operators as written."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

UNIT = """
    __global__ void scale(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }
    template <typename T> class Buf {
    public:
        T *p; int n;
        T *get() { return p; }
        operator T*();
        operator const T*();
        void run(float *q) { scale<<<1, 64>>>(q, n); }
    };
    template <typename T>
    Buf<T>::operator T*() { return get(); }
    template <typename T>
    Buf<T>::operator const T*() { return get(); }
    template class Buf<float>;
    DEVICE
"""
DEVICE_STRUCT = """
    struct Half2 { float a, b; __host__ __device__ operator float() const { return a + b; } };
    __global__ void sum(const Half2 *h, float *out) { out[threadIdx.x] = h[threadIdx.x]; }
"""


def _port(backend: str, device: str = ""):
    text = textwrap.dedent(UNIT).replace("DEVICE", textwrap.dedent(device))
    return translate(SourceFile.from_text(text, "buf.cu"), backend)


def test_out_of_class_host_conversion_operators_are_left_out_of_the_metal_port():
    port, text = _port("metal")
    assert port.ok and not port.empty, [d.format() for d in port.diagnostics]
    assert "Buf<T>::operator T*() is host code: left out of the Metal port." in text
    assert "Buf<T>::operator const T*() is host code" in text
    assert "{ return get(); }" not in text


def test_a_device_conversion_operator_stays_and_hip_keeps_the_host_ones():
    port, text = _port("metal", DEVICE_STRUCT)
    assert "operator float() const" in text
    # the implicit conversion runs the member on a device object, whose `this` MSL makes a thread one
    # (h/metal62's checker): Metal refuses it, so the port is refused at the line, not written to fail there
    assert not port.ok and [d.code for d in port.diagnostics if d.severity == "error"] == ["KP224"]
    assert any(":18:" in d.format() and "const device" in d.format() for d in port.diagnostics)
    port, text = _port("hip")
    assert port.ok and "Buf<T>::operator T*() { return get(); }" in text
