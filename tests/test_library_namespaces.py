"""Thrust's CUDA system namespaces as rocThrust names them (kernelport/library_namespaces.py, the HIP
backend's `nested_namespaces`): gunrock's `thrust::for_each(thrust::cuda::par.on(0), ...)` (held-out
set 11, examples/experiments/enable_if.cu) failed hipcc with rocThrust present ("no member named
'cuda' in namespace 'thrust'") because the port kept `thrust::cuda`."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """
#include <thrust/for_each.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
struct F { __device__ void operator()(int i) const {} };
namespace mine { namespace cuda { inline int par = 0; } }
namespace cuda { inline int par = 1; }
void run(cudaStream_t s) {
  thrust::for_each(thrust::cuda::par.on(s), thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(8), F());
  thrust::for_each(::thrust::system::cuda::par, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(8), F());
  thrust::cuda_cub::tag t;
  int x = mine::cuda::par + cuda::par;
}
#ifdef __HIP_PLATFORM_AMD__
void other() { thrust::for_each(thrust::hip::par, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(8), F()); }
#else
void other() { thrust::for_each(thrust::cuda::par, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(8), F()); }
#endif
"""


def port(backend: str):
    p, _ = translate(SourceFile.from_text(textwrap.dedent(CODE), "t.cu"), backend)
    return p


def test_thrusts_cuda_system_is_rocthrusts_hip_system_with_a_note():
    p = port("hip")
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "thrust::for_each(thrust::hip::par.on(s)," in p.body
    assert "thrust::for_each(::thrust::system::hip::par," in p.body
    assert "thrust::hip_rocprim::tag t;" in p.body
    notes = [(n.location.line, n.before, n.after) for n in p.notes if n.category == "api:library-namespace"]
    assert notes == [(9, "thrust::cuda", "thrust::hip"), (10, "thrust::system::cuda", "thrust::system::hip"),
                     (11, "thrust::cuda_cub", "thrust::hip_rocprim")]


def test_a_cuda_namespace_thrust_does_not_qualify_stays_as_written():
    """The bare name is not Thrust's: a project's own `cuda::`/`mine::cuda::` (and libcu++'s
    `cuda::std::`), and the CUDA branch of a file that already has its AMD one, keep `cuda`."""
    p = port("hip")
    assert "int x = mine::cuda::par + cuda::par;" in p.body
    assert "namespace mine { namespace cuda {" in p.body and "namespace cuda { inline int par = 1; }" in p.body
    assert "void other() { thrust::for_each(thrust::cuda::par," in p.body  # the #else of __HIP_PLATFORM_AMD__

