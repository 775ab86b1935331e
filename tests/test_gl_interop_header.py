"""<cuda_gl_interop.h>, CUDA's OpenGL interop header, is HIP's <hip/hip_gl_interop.h> (HIPIFY's header
map lacks it, so main refused the include, KP209, though the table maps every function it declares:
cudaGraphicsGLRegisterBuffer -> hipGraphicsGLRegisterBuffer, ...). ROCm 5.2 has no such header and
declares those functions in hip_runtime_api.h, which a port's hip_runtime.h includes, so the port
includes the header only where the compiler has it and carries nothing else. Held-out set 62's
test_curandpoisson (src/cuda_globals.hpp) was refused at that include.
"""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

GL = """\
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>
__global__ void fill(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 1.0f; }
int share(unsigned int vbo, int n) {
  cudaGraphicsResource *res;
  if (cudaGraphicsGLRegisterBuffer(&res, vbo, cudaGraphicsRegisterFlagsNone) != cudaSuccess) return 1;
  cudaGraphicsMapResources(1, &res, 0);
  float *p; size_t bytes;
  cudaGraphicsResourceGetMappedPointer((void **)&p, &bytes, res);
  fill<<<(n + 255) / 256, 256>>>(p, n);
  cudaGraphicsUnmapResources(1, &res, 0);
  return cudaGraphicsUnregisterResource(res) != cudaSuccess;
}
"""


def test_the_gl_interop_header_is_hips_where_the_compiler_has_it(tmp_path):
    port, text = translate(SourceFile.from_text(GL, str(tmp_path / "gl.cu")), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#if __has_include(<hip/hip_gl_interop.h>)\n#include <hip/hip_gl_interop.h>\n#endif\n" in text
    assert "cuda_gl_interop" not in text and "hipGraphicsGLRegisterBuffer(&res, vbo, hipGraphicsRegisterFlagsNone)" in text
    require_tool("hipcc")
    out = tmp_path / "gl.hip"
    out.write_text(text)
    assert_hip_file_compiles(out, ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


def test_an_interop_header_hip_lacks_is_still_refused_at_the_include(tmp_path):
    """The look-alike: VDPAU's interop header has no HIP counterpart; its include stays a located KP209."""
    src = GL.replace("cuda_gl_interop.h", "cuda_vdpau_interop.h")
    port, _ = translate(SourceFile.from_text(src, str(tmp_path / "vdpau.cu")), "hip")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP209", 2)]
