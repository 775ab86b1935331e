"""Out-of-line member definitions whose execution space the in-class declaration lacks
(kernelport/member_spaces.py): nvcc takes the definition's `__device__`, clang (hipcc) refuses
the definition, so the HIP port gives the declaration the same words."""
from __future__ import annotations

import textwrap

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


def test_the_port_compiles_with_hipcc(tmp_path):
    require_tool("hipcc")
    port = tmp_path / "m.hip"
    port.write_text(hip(CODE))
    res = toolchains.compile_hip(port, toolchains.HIP_ARCHS)
    assert res.ok, res.output or res.reason
