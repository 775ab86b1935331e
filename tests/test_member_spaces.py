"""Out-of-line member definitions whose execution space the in-class declaration lacks
(kernelport/member_spaces.py): nvcc takes the definition's `__device__`, clang (hipcc) refuses
the definition, so the HIP port gives the declaration the same words."""
from __future__ import annotations

import pytest

from conftest import hip_compiles
from port_support import port_text

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
    return port_text(code, "m.cu")


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


# GBGPU's cuda_complex.hpp (libc++'s <complex> for CUDA), reduced: the explicit specializations'
# converting constructors are declared in the class with no space and defined out of it through a
# macro that expands to `__host__ __device__`; nvcc takes it, clang refuses ("__host__ __device__
# function 'complex' cannot overload __host__ function 'complex'").  Look-alikes: the primary
# template's member of the same name, and a specialization's member defined plainly.
MACRO_SPACES = """
#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif
template<class T> class complex { public: HD complex(T re = T()) : r(re) {} T r; };
template<> class complex<double>;
template<> class complex<float> {
    float r;
public:
    HD complex(float re = 0.0f) : r(re) {}
    explicit complex(const complex<double>& c);
    float real() const;
    HD float get() const { return r; }
};
template<> class complex<double> {
    double r;
public:
    HD complex(double re = 0.0) : r(re) {}
    complex(const complex<float>& c);
    HD double real() const { return r; }
};
inline HD complex<float>::complex(const complex<double>& c) : r(c.real()) {}
inline complex<double>::complex(const complex<float>& c) : r(c.get()) {}
inline float complex<float>::real() const { return r; }
__global__ void k(float* o) { complex<double> d(2.0); complex<float> f(d); o[0] = f.get(); }
"""


def test_a_specializations_declaration_gets_the_spaces_a_macro_gives_its_definition():
    text = hip(MACRO_SPACES)
    assert "    __host__ __device__ explicit complex(const complex<double>& c);\n" in text
    # look-alikes: complex<double>'s converting constructor and complex<float>::real are defined
    # with no space (host, as declared): as written
    assert "    complex(const complex<float>& c);\n" in text
    assert "    float real() const;\n" in text
    assert "template<class T> class complex { public: HD complex(T re = T()) : r(re) {} T r; };" in text


# The same header's operators: function templates declared plainly ahead of the class and defined
# below it under the macro; nvcc takes the definitions' spaces (warning 20040), clang refuses them.
# Look-alikes: an overload of the same name and arity with other parameter types that is defined
# plainly, a prototype that already names its space, and a plain prototype of a plain definition.
PROTOTYPES = """
#define HD __host__ __device__
namespace cm {
template<class T> struct cx { T r; HD cx(T v = T()) : r(v) {} };
template<class T> cx<T> operator*(const cx<T>& a, const cx<T>& b);
template<class T> cx<T> operator*(const cx<T>& a, const T& b);
HD float half(float x);
int twice(int x);
template<class U> HD cx<U> operator*(const cx<U>& x, const cx<U>& y) { return cx<U>(x.r * y.r); }
template<class U> cx<U> operator*(const cx<U>& x, const U& y) { return cx<U>(x.r * y); }
HD float half(float x) { return x / 2; }
int twice(int x) { return 2 * x; }
}
__global__ void k(float* o) { cm::cx<float> a(2.0f), b(3.0f); o[0] = cm::half((a * b).r); }
"""


def test_a_plain_prototype_gets_the_spaces_its_definition_has():
    text = hip(PROTOTYPES)
    assert "template<class T> __host__ __device__ cx<T> operator*(const cx<T>& a, const cx<T>& b);" in text
    assert "template<class T> cx<T> operator*(const cx<T>& a, const T& b);" in text
    assert "\nHD float half(float x);" in text and "__host__ __device__ HD" not in text
    assert "\nint twice(int x);" in text


@pytest.mark.parametrize("name", ["CODE", "SPECIALIZATIONS", "MACRO_SPACES", "PROTOTYPES"])
def test_the_port_compiles_with_hipcc(tmp_path, name):
    hip_compiles(tmp_path, hip(globals()[name]), "m.hip")
