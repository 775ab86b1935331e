"""Renames the port makes to a file's code are made in its own macros' bodies too (kernelport/macro_body_words.py;
stop 62 left them out): a body is code where the macro expands.  `#define SLOTS(n) max<int>((n) / 32, 1)` in a
device array bound kept `max<int>`, the project's constexpr template whose `__device__` the port drops for the
header's non-constexpr one (hipcc: not a constant expression), where the file's own uses call `kp_max`;
`#define PUSH(s) nvtxRangePushA(s)` kept NVTX's name beside an include the port made roctx's, and a file whose
only NVTX names were in macro bodies lost the include ("uses none of them").  Look-alikes: a comparison
`max < (n)` and a qualified `std::max<int>` in a body stay as written; an NVTX name roctx lacks in a body is
refused at its `#define` (KP209, naming it).  The snippets are written here."""
from __future__ import annotations

from pathlib import Path

from conftest import hip_compiles
from port_support import port_text, refusal

ROCM_HEADERS = ("-I", str(Path(__file__).parent / "fixtures" / "rocm_headers"))

TEMPLATE = """#include <algorithm>
template <typename T> constexpr __host__ __device__ T max(T a, T b) { return a > b ? a : b; }
#define SLOTS(n) max<int>((n) / 32, 1)
#define ABOVE(x, n) (x > max < (n))
#define STD_SLOTS(n) std::max<int>((n) / 32, 1)
__global__ void k(float* x, int n)
{
    __shared__ float s[SLOTS(256)];
    __shared__ float t[max<int>(4, 2)];
    int max = n;
    s[threadIdx.x % SLOTS(256)] = x[threadIdx.x];
    t[0] = ABOVE(1, 2) ? 1.0f : 0.0f;
    x[threadIdx.x] = s[0] + t[0];
}
int host_slots() { return STD_SLOTS(256); }
"""


def test_a_constexpr_templates_use_in_a_macro_body_calls_the_copy(tmp_path):
    text = port_text(TEMPLATE, dedent=False)
    assert "#define SLOTS(n) kp_max<int>((n) / 32, 1)" in text and "__shared__ float t[kp_max<int>(4, 2)];" in text
    assert "#define ABOVE(x, n) (x > max < (n))" in text  # a comparison with the local `max`
    assert "#define STD_SLOTS(n) std::max<int>((n) / 32, 1)" in text  # qualified: another template
    hip_compiles(tmp_path, text, extra_args=("-std=c++17",))


NVTX = """#include <nvtx3/nvToolsExt.h>
#define PUSH(s) nvtxRangePushA(s)
#define POP() nvtxRangePop()
__global__ void twice(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2.0f;
}
void run(float* d, int n) { PUSH("twice"); twice<<<(n + 255) / 256, 256>>>(d, n); POP(); }
"""


def test_nvtx_names_in_macro_bodies_are_roctxs(tmp_path):
    text = port_text(NVTX, dedent=False)
    assert "#include <roctracer/roctx.h>" in text
    assert "#define PUSH(s) roctxRangePushA(s)" in text and "#define POP() roctxRangePop()" in text
    hip_compiles(tmp_path, text, extra_args=ROCM_HEADERS)
    lacked = NVTX.replace("nvtxRangePushA(s)", "nvtxDomainRangePushEx(0, s)")
    errors = refusal(lacked, expect="KP209", dedent=False)
    assert [(e.code, e.line) for e in errors] == [("KP209", 2)] and "`nvtxDomainRangePushEx`" in errors[0].message
