"""PTX special registers read by `mov` that have no port, and why (KP201's reason, ptx_idioms.why_not).

`%laneid`, `%clock`/`%clock64`, `%smid`, `%nsmid` and `%lanemask_*` are ptx_idioms' FORMS (HIP: `__lane_id()`, `clock64()`,
ROCm's `__smid()`, whose value, `(SE_ID << 4) + CU_ID` from the HW_ID register, is below 64 on every target:
that bound is `%nsmid`, "the maximum number of SM identifiers", which may exceed the count of SMs; a lane
mask is ported only in a logical 32-lane group, kernelport/logical_lanes.py, else refused with _MASK).  The
others below read what HIP has no device function for (`%globaltimer`'s nanoseconds: no rate known at compile time), or what the port cannot size without the group's
width; each is refused at its asm statement with the reason (PTX is never guessed).
"""
from __future__ import annotations

from . import lazy_re

MASKS = ("eq", "lt", "le", "gt", "ge")
_MASK = ("a 32-bit mask of the lanes of a 32-lane warp {what}, whichever lanes are active; kernelport ports it "
         "where the group keeps CUDA's 32-lane warps (its lane `__lane_id() & 31`), but this function's warp "
         "code runs at the wave's width (a native group), whose 64 lanes a 32-bit register cannot hold: write it "
         "from the lane in the CUDA source ({c}, with the lane `threadIdx.x & 31` or `%laneid`), or keep the "
         "function's warp code at 32 lanes (literal 32 widths, `__shfl_sync(..., 32)`)")
_TIMER = ("`%{reg}` is a nanosecond clock{part}, and no target has one of a rate known when the port is built: HIP's "
          "constant-rate counter (`wall_clock64()`, s_memrealtime) counts at a rate the driver reads from the board "
          "(hipDeviceAttributeWallClockRate, in kHz; 25 to 100 MHz, no constant of the target), Metal has no clock in "
          "shaders: on HIP read `wall_clock64()` and scale on the host by 1e6 / the rate hipDeviceGetAttribute(&khz, "
          "hipDeviceAttributeWallClockRate, dev) returns (or keep the ticks where only an order or a difference is used){half}")
REASONS = {
    "warpid": "`%warpid` is the warp's slot in its SM at the moment it is read (it may change while the warp runs); "
              "HIP has no device function that reads a wave's slot in its compute unit: for a warp index within "
              "the block write `threadIdx.x / 32` (CUDA's warp) or `/ warpSize` (the wave)",
    "nwarpid": "`%nwarpid` is the number of warp slots of an SM; HIP has no device function that reads a compute "
               "unit's wave slots (hipDeviceProp_t's maxThreadsPerMultiProcessor / warpSize on the host is the count)",
    "gridid": "`%gridid` is the launch's temporal grid number; HIP has no device function that reads one: pass an "
              "identifier of the launch as a kernel argument",
    # the rate is no constant of a target: ROCr reads s_memrealtime's frequency from the kernel driver
    # (libdrm's gpu_counter_freq: amdgpu's get_xclk, the board's reference clock, 25 MHz on early APUs,
    # 100 MHz on most), and LLVM libc's AMDGPU clock says the same (25 to 100 MHz, read from the driver)
    "globaltimer": _TIMER.format(reg="globaltimer", part="", half=""),
    "globaltimer_lo": _TIMER.format(reg="globaltimer_lo", part=" (its low 32 bits)", half=", then its low 32 bits"),
    "globaltimer_hi": _TIMER.format(reg="globaltimer_hi", part=" (its high 32 bits)", half=", then its high 32 bits"),
    "lanemask_eq": _MASK.format(what="(this lane's bit)", c="`1u << lane`"),
    "lanemask_lt": _MASK.format(what="(the lanes below this one)", c="`(1u << lane) - 1u`"),
    "lanemask_le": _MASK.format(what="(this lane and those below)", c="`(2u << lane) - 1u`"),
    "lanemask_gt": _MASK.format(what="(the lanes above this one)", c="`~((2u << lane) - 1u)`"),
    "lanemask_ge": _MASK.format(what="(this lane and those above)", c="`~((1u << lane) - 1u)`"),
}
_READ = lazy_re.compile(r"%%?(warpid|nwarpid|gridid|globaltimer(?:_lo|_hi)?|lanemask_(?:eq|lt|le|gt|ge))\b")


def why_not(template: str) -> str | None:
    """The reason for the first special register of REASONS the asm template reads (None: none)."""
    m = _READ.search(template)
    return REASONS[m.group(1)] if m else None
