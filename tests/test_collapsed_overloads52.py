"""Overloads the HIP renames make one (kernelport/collapsed_overloads.py): the one kept is the first
whose body names nothing the target's release lacks (heldout52: CMS's cudaCheck.h, in cerati's
p2r-tests, puts `cudaCheck_(..., CUresult, ...)`, which calls cuGetErrorName, before its cudaError_t
twin; ROCm 5.2 has no hipDrvGetErrorName, so keeping the first gave a port hipcc refused)."""
from __future__ import annotations

from conftest import assert_hip_file_compiles
from port_support import ported

CHECK = """#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdlib>
namespace cuda {
inline bool check_(const char* file, int line, CUresult result) {
  if (result == CUDA_SUCCESS) return true;
  const char* error;
  cuGetErrorName(result, &error);
  std::abort();
}
inline bool check_(const char* file, int line, cudaError_t result) {
  if (result == cudaSuccess) return true;
  const char* error = cudaGetErrorName(result);
  std::abort();
}
}
#define cudaCheck(ARG) (cuda::check_(__FILE__, __LINE__, (ARG)))
void f() { cudaCheck(cudaDeviceSynchronize()); }
"""


def hip(code: str, full: bool = False):
    port, text = ported(code, "k.cu", dedent=False)
    return (port, text) if full else port


def kp231(port) -> list[tuple[str, int]]:
    return [(d.code, d.location.line) for d in port.diagnostics if d.code in ("KP231", "KP210")]


def test_the_overload_the_target_can_compile_is_the_one_kept(tmp_path):
    """The CUresult overload (line 5) names cuGetErrorName, absent from ROCm 5.2: it is the one left
    out, with KP231 at it and no KP210 for a call nothing compiles; the port compiles for both waves."""
    port, text = hip(CHECK, full=True)
    assert kp231(port) == [("KP231", 5)]
    assert "as the overload at line 11 is" in next(d.message for d in port.diagnostics if d.code == "KP231")
    dropped = port.body[port.body.index("#if 0"):port.body.index("#endif")]
    assert "CUresult result" in dropped and "cuGetErrorName" in dropped and "hipDrvGetErrorName" not in dropped
    assert "inline bool check_(const char* file, int line, hipError_t result) {" in port.body
    assert "hipGetErrorName(result)" in port.body and port.body.count("#if 0") == 1
    (tmp_path / "k.hip").write_text(text)
    assert_hip_file_compiles(tmp_path / "k.hip")


def test_where_both_or_neither_compile_the_first_is_kept():
    """Look-alikes: the CUresult overload without the driver call (neither lacks anything), and both
    overloads calling cuGetErrorName (both lack it): the first stays and the second is left out, as
    before; the KP210 warning still says what the kept one needs, and none is given in the one left out."""
    neither = hip(CHECK.replace("  cuGetErrorName(result, &error);\n", ""))
    assert kp231(neither) == [("KP231", 10)]
    both = hip(CHECK.replace("const char* error = cudaGetErrorName(result);",
                             "const char* error; cuGetErrorName(CUDA_SUCCESS, &error);"))
    assert sorted(kp231(both)) == [("KP210", 8), ("KP231", 11)]  # none at line 13: nothing compiles it
    assert "inline bool check_(const char* file, int line, hipError_t result) {\n  if (result == hipSuccess)" \
        in both.body.split("#if 0")[0]
