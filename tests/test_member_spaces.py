"""Out-of-line member definitions whose execution space the in-class declaration lacks
(kernelport/member_spaces.py): nvcc takes the definition's `__device__`, clang (hipcc) refuses
the definition, so the HIP port gives the declaration the same words."""
from __future__ import annotations

import textwrap

import pytest

from kernelport import toolchains
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

# The CUDA Handbook's spinlockReduction.cu, reduced: a lock declared plainly in its class and
# defined `inline __device__` below it.
CODE = """
class Spinlock {
public:
    Spinlock(int* p);
    void acquire();
    void acquire(int spins);
    __host__ __device__ int tries() const;
    void reset();
private:
    int* m_p;
};
struct Other { void acquire(); };

inline __device__ Spinlock::Spinlock(int* p) { m_p = p; }
inline __device__ void Spinlock::acquire() { while (atomicCAS(m_p, 0, 1)) {} }
__host__ __device__ int Spinlock::tries() const { return 1; }
void Spinlock::reset() { m_p = 0; }
void Other::acquire() {}

__global__ void k(int* lock, int* out) {
    Spinlock s(lock);
    s.acquire();
    out[threadIdx.x] = s.tries();
    atomicExch(lock, 0);
}
"""


def hip(code: str) -> str:
    port, text = translate(SourceFile.from_text(textwrap.dedent(code), "m.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    return text


def test_the_declaration_gets_the_out_of_line_definitions_device():
    text = hip(CODE)
    assert "    __device__ Spinlock(int* p);\n" in text
    assert "    __device__ void acquire();\n" in text
    # look-alikes: an overload of another arity, a declaration that already says where it runs, a
    # host member, and another class's member of the same name are left as written
    assert "    void acquire(int spins);\n" in text
    assert "    __host__ __device__ int tries() const;\n" in text and "__device__ __host__" not in text
    assert "    void reset();\n" in text
    assert "struct Other { void acquire(); };" in text


# jetson-utils' cudaVector.h, reduced: a `__device__` primary template and `__host__ __device__`
# explicit specializations, which nvcc takes and clang does not match ("no function template
# matches function template specialization"); and look-alikes that must stay as written.
SPECIALIZATIONS = """
#include <stdint.h>
template<class T> struct Info {};
template<> struct Info<uchar4> { typedef uint8_t Base; };
template<> struct Info<float4> { typedef float Base; };
template<typename T> inline __device__ typename Info<T>::Base alpha(T vec, typename Info<T>::Base d = 255) { return 0; }
template<> inline __host__ __device__ uint8_t alpha(uchar4 vec, uint8_t d) { return vec.w; }
template<> inline __host__ __device__ float alpha(float4 vec, float d) { return vec.w; }
template<typename T> T twice(T x) { return 2 * x; }
template<> __device__ int twice(int x) { return x + x; }
template<typename T> __host__ __device__ T same(T x) { return x; }
template<> __host__ __device__ int same(int x) { return x; }
template<typename T> __device__ T other(T x) { return x; }
__global__ void k(float4* p, float* o) { o[0] = alpha(p[0]) + twice(1) + same(2) + other(3); }
"""


def test_a_templates_specializations_and_primary_get_the_same_spaces():
    text = hip(SPECIALIZATIONS)
    assert "template<typename T> __host__ inline __device__ typename Info<T>::Base alpha(" in text
    assert "template<> inline __host__ __device__ uint8_t alpha(uchar4 vec" in text
    # a host primary (no words) with a device specialization: both run on both sides
    assert "template<typename T> __host__ __device__ T twice(T x)" in text
    assert "template<> __host__ __device__ int twice(int x)" in text
    # the same spaces already, and a template without specializations: as written
    assert "template<typename T> __host__ __device__ T same(T x)" in text
    assert "template<> __host__ __device__ int same(int x)" in text
    assert "template<typename T> __device__ T other(T x)" in text


@pytest.mark.parametrize("name", ["CODE", "SPECIALIZATIONS"])
def test_the_port_compiles_with_hipcc(tmp_path, name):
    require_tool("hipcc")
    port = tmp_path / "m.hip"
    port.write_text(hip(globals()[name]))
    res = toolchains.compile_hip(port, toolchains.HIP_ARCHS)
    assert res.ok, res.output or res.reason
