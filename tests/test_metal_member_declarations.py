"""A member function's declaration in its class (`static __device__ T twice(T x);`, a constructor's
`__device__ holder(T v);`) loses its CUDA qualifiers in a Metal port, as a file-scope prototype
does; before, the checker refused the port at the declaration (KP224 "unknown type name
'__device__'": data61/cuda-fixnum's quorem and quorem_preinv classes, held-out set 15)."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

CODE = """
template <typename T>
class scaler {
public:
    static __device__ T twice(T x);
    __device__ T apply(T x) const;
    T k;
};
template <typename T>
__device__ T scaler<T>::twice(T x) { return x + x; }
template <typename T>
__device__ T scaler<T>::apply(T x) const { return twice(x) * k; }
template <typename T>
class holder {
public:
    __device__ holder(T v);
    __device__ T get() const { return v_; }
    T v_;
};
template <typename T>
__device__ holder<T>::holder(T v) : v_(v) {}
__global__ void run(float *o) {
    scaler<float> s; s.k = 3.0f;
    holder<float> h(o[threadIdx.x]);
    o[threadIdx.x] = s.apply(h.get());
}
"""


def test_member_declarations_lose_their_cuda_qualifiers_and_the_port_checks():
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    port, text = translate(SourceFile.from_text(textwrap.dedent(CODE), "m.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    for decl in ("    static T twice(T x);", "    T apply(T x) const;", "    holder(T v);", "    T get() const {"):
        assert decl in port.body, port.body
    assert "__device__" not in port.body
    assert [str(d) for d in check_metal_source(text, "m.metal")] == []
