"""NVTX's ranges and marks in roctx's spelling (HIP's `header_counterparts`, kernelport/header_uses.py).

roctracer's <roctracer/roctx.h> (ROCm 5.3.3's, installed with ROCm's roctracer-dev; Debian packages no
roctracer) declares `roctxMarkA(const char*)`, `int roctxRangePushA(const char*)` and `int roctxRangePop()`
(nested ranges per CPU thread, levels 0-based, a negative Pop where none is open: NVTX's contract),
`roctx_range_id_t roctxRangeStartA(const char*)` and `roctxRangeStop(roctx_range_id_t)` (a uint64_t, as
nvtxRangeId_t).  NVTX's undecorated `nvtxRangePush` / `nvtxMark` / `nvtxRangeStart` are its A forms where
UNICODE is undefined (nvToolsExt.h), the only form roctx has.  Everything else of NVTX (event attributes,
`...Ex`, wide strings, domains, resource naming, counters, nvtx3's C++ API) has no roctx counterpart and stays
KP209 at its use.  The annotations change nothing a program computes; a program that links the port adds
`-lroctx64`.
"""
from __future__ import annotations

_NVTX = {"nvtxRangePushA": "roctxRangePushA", "nvtxRangePush": "roctxRangePushA", "nvtxRangePop": "roctxRangePop",
         "nvtxMarkA": "roctxMarkA", "nvtxMark": "roctxMarkA", "nvtxRangeStartA": "roctxRangeStartA",
         "nvtxRangeStart": "roctxRangeStartA", "nvtxRangeEnd": "roctxRangeStop", "nvtxRangeId_t": "roctx_range_id_t"}
# header (its file name, as the source backend's header_declares keys it) -> (the target's header, names)
HEADER_COUNTERPARTS = {"nvToolsExt.h": ("roctracer/roctx.h", _NVTX)}
