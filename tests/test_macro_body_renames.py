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


UTIL = """#pragma once
template <typename T> constexpr __host__ __device__ T max(T a, T b) { return a > b ? a : b; }
"""
INCLUDER = """#include "util.cuh"
#define SLOTS(n) max<int>((n) / 32, 1)
__global__ void k(float* x)
{
    __shared__ float s[SLOTS(256)];
    __shared__ float t[max<int>(4, 2)];
    s[threadIdx.x % SLOTS(256)] = x[threadIdx.x];
    t[0] = 1.0f;
    x[threadIdx.x] = s[0] + t[0];
}
"""


def _project(tmp_path, includer: str):
    import os
    import subprocess
    import sys
    (tmp_path / "util.cuh").write_text(UTIL)
    (tmp_path / "k.cu").write_text(includer)
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "translate", "k.cu", "--to", "hip", "-o", "out"],
                       cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    assert r.returncode == 0, r.stdout + r.stderr
    return (tmp_path / "out" / "k.hip").read_text(), (tmp_path / "out" / "util.hip.h").read_text()


def test_a_headers_constexpr_template_used_with_arguments_in_its_includer_calls_the_copy(tmp_path):
    text, header = _project(tmp_path, INCLUDER)
    assert "constexpr __host__ __device__ T kp_max(T a, T b)" in header  # written for the includers' uses
    assert "#define SLOTS(n) kp_max<int>((n) / 32, 1)" in text and "__shared__ float t[kp_max<int>(4, 2)];" in text
    from conftest import assert_hip_file_compiles
    assert_hip_file_compiles(tmp_path / "out" / "k.hip", extra_args=("-std=c++17",))
    # look-alike: an includer that declares a `max` of its own means its own
    own = INCLUDER.replace("#define SLOTS", "template <typename T> __host__ __device__ constexpr T max(T a, T b, T c) "
                           "{ return a; }\n#define SLOTS")
    text, _ = _project(tmp_path, own)
    assert "kp_max" not in text and "t[max<int>(4, 2)]" in text
