"""A build that defines a macro on which HIP's headers take the NVIDIA platform (ppf-contact-solver's
Makefile passes -D__NVCC__, heldout40): with those flags hipcc stopped in hip/hip_common.h ("Must
define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"), 8 of its 12 files.  The HIP
port now undefines it before its first include (the Hip backend's nvidia_platform_macros); another
command-line define, or none, leaves the prologue as it was."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text

CODE = """__global__ void scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
"""


def port(*defines: str) -> str:
    return port_text(CODE, "s.cu", dedent=False, defines=tuple((n, "1") for n in defines))


def test_a_command_line_nvcc_define_is_undefined_before_hips_headers(tmp_path):
    text = port("__NVCC__", "USE_FAST")
    assert text.index("#undef __NVCC__\n") < text.index("#include <hip/hip_runtime.h>")
    assert "#undef USE_FAST" not in text
    hip_compiles(tmp_path, text, extra_args=["-D__NVCC__", "-DUSE_FAST"])


def test_other_defines_leave_the_prologue_alone():
    assert "#undef" not in port("USE_FAST") and "#undef" not in port()
