"""KP225 for a 64 in a platform test's branch that the port no longer compiles on hipcc (kernelport/kept_hazards.py).

    #if defined(__CUDACC__)        // the port: #if defined(__HIPCC__): hipcc takes the CUDA branch
    #define WARP_SIZE 32
    #else
    #define WARP_SIZE 64           // lint's WS014 in the original (hipcc took it); no AMD build's in the port
    #endif

Main refused the port (KP225, WS014 kept as written) though the port's test sends hipcc to the CUDA branch,
which the port handles as any 32 (the emulator: the port at waves 64 and 32 is the original at 32), and the
port's own lint no longer reports the 64.  A test the port keeps (`!defined(__HIPCC__)`,
`!defined(__HIP_PLATFORM_AMD__)`, `defined(__CUDACC__) && !defined(__HIPCC__)`) leaves the `#else 64` every
AMD build's, RDNA's 32-lane waves too: still KP225."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, ported, refusal

KERNEL = """{guard}
#define WARP_SIZE 32
#else
#define WARP_SIZE 64
#endif
__global__ void k(const int* in, int* out)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x % WARP_SIZE) == 0) out[i / WARP_SIZE] = v;
}}
"""


@pytest.mark.parametrize("guard", ["#if defined(__CUDACC__)", "#ifdef __CUDACC__"])
def test_a_64_the_ports_test_takes_away_from_hipcc_is_no_kept_hazard(tmp_path, guard):
    code = KERNEL.format(guard=guard)
    port, text = ported(code, dedent=False)
    assert "__HIPCC__" in port.body.split("\n")[0] and "#define WARP_SIZE 64" in port.body, port.body
    x = np.random.default_rng(5).integers(-9, 10, 256).astype(np.int32)
    from kernelport.emulator import run_kernel
    want = run_kernel(code, "k", args={"in": x, "out": np.zeros(256, np.int32)}, grid=(2, 1, 1), block=(128, 1, 1),
                      wave=32).outputs["out"]
    assert_port_at_64_is_original_at_32(code, text, "k", {"in": x, "out": np.zeros(256, np.int32)}, (2, 1, 1),
                                        (128, 1, 1))
    got = run_kernel(text, "k", args={"in": x, "out": np.zeros(256, np.int32)}, grid=(2, 1, 1), block=(128, 1, 1),
                     wave=32, backend="hip").outputs["out"]
    assert np.array_equal(got, want)
    hip_compiles(tmp_path, text, "retested.hip")


@pytest.mark.parametrize("guard", ["#if !defined(__HIPCC__)", "#ifndef __HIP_PLATFORM_AMD__",
                                   "#if defined(__CUDACC__) && !defined(__HIPCC__)"])
def test_a_64_every_amd_build_still_takes_is_still_kept(guard):
    errors = refusal(KERNEL.format(guard=guard), dedent=False, expect="KP225")
    assert [(e.code, e.line, e.column) for e in errors] == [("KP225", 4, 19)] and "WS014" in errors[0].message
