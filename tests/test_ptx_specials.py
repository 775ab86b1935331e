"""PTX special registers (kernelport/ptx_specials.py, ptx_idioms' FORMS): `%smid` is ROCm's `__smid()` and
`%nsmid` its bound, 64 (`(SE_ID << 4) + CU_ID`, /usr/include/hip/amd_detail/amd_device_functions.h); `%warpid`,
`%nwarpid`, `%gridid` and the `%lanemask_*` registers are KP201 with the reason, at their asm statement.  On main
all of them were KP201 without one.  `%globaltimer` (nanoseconds) is KP201 saying to scale `wall_clock64()` by
hipDeviceAttributeWallClockRate: its rate is the board's (the driver's reference clock), no constant of a target."""
from __future__ import annotations

import pytest

from conftest import hip_compiles
from kernelport.source import SourceFile
from kernelport.translate import translate
from port_support import port_text

SMID = """\
__device__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ unsigned nsmid() { unsigned r; asm("mov.u32 %0, %nsmid;" : "=r"(r)); return r; }
__device__ unsigned lane() { unsigned r; asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__global__ void k(unsigned* out) { out[blockIdx.x] = smid() < nsmid() ? smid() : 0xffffffffu; out[64] = lane(); }
"""


def test_smid_is_rocms_smid_and_nsmid_its_bound(tmp_path):
    text = port_text(SMID, "smid.cu")
    assert "r = __smid(); return r;" in text and "r = 64u; return r;" in text, text
    assert "r = __lane_id(); return r;" in text, text  # the look-alike: %laneid as before
    hip_compiles(tmp_path, text)


@pytest.mark.parametrize("reg, says", [
    ("warpid", "the warp's slot in its SM"),
    ("nwarpid", "the number of warp slots of an SM"),
    ("gridid", "the launch's temporal grid number"),
    ("lanemask_lt", "`(1u << lane) - 1u`"),
    ("globaltimer", "hipDeviceAttributeWallClockRate"),
    ("globaltimer_lo", "then its low 32 bits"),
    ("globaltimer_hi", "then its high 32 bits"),
    ("lanemask_ge", "`~((1u << lane) - 1u)`"),
])
def test_a_register_without_a_port_is_refused_with_why(reg, says):
    src = SMID.replace("%%smid", f"%%{reg}")
    port, _ = translate(SourceFile.from_text(src, "r.cu"), "hip")
    errors = [d for d in port.diagnostics if d.severity == "error" and d.code == "KP201"]
    assert [d.location.line for d in errors] == [1], [d.format() for d in port.diagnostics]
    assert says in errors[0].message, errors[0].message  # (a lane mask stored in 32 bits is also KP207)


TIMERS = """\
__device__ unsigned long long ns() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ unsigned long long cycles() { unsigned long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)); return t; }
__global__ void k(unsigned long long* out) { out[0] = cycles(); out[1] = ns(); }
"""


def test_globaltimer_is_refused_at_its_line_and_clock64_still_ported(tmp_path):
    port, _ = translate(SourceFile.from_text(TIMERS, "t.cu"), "hip")
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line) for d in errors] == [("KP201", 1)], [d.format() for d in port.diagnostics]
    assert "scale on the host" in errors[0].message and "nanosecond" in errors[0].message, errors[0].message
    # the look-alike: the cycle counter (%clock64, which CUDA's clock64() reads) keeps its port
    text = port_text(TIMERS.replace("%%globaltimer", "%%clock64"), "c.cu")
    assert text.count("((unsigned long long)clock64())") == 2, text
    hip_compiles(tmp_path, text)
