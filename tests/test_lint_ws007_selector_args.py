"""WS007 reads a per-platform selector macro per platform (kernelport/lint/amdargs.py): `#ifdef __HIP_PLATFORM_AMD__`
/ `#define SEL(c, h) h` / `#else` / `#define SEL(c, h) c`, used as `SEL(__shfl_down_sync(0xffffffff, v, o),
__shfl_down(v, o))`: the AMD build never compiles the first argument, so its 32-bit mask is no hazard there.

Look-alikes that stay flagged: the mask in the argument AMD selects; a macro a feature switch (not a platform)
picks, which both builds compile alike; a macro whose AMD definition uses both arguments.
"""
from __future__ import annotations

import json
from pathlib import Path

from trust_support import kp_inproc

from kernelport.lint.engine import lint_text

SELECT = """\
#ifdef __HIP_PLATFORM_AMD__
#define SEL(c, h) h
#else
#define SEL(c, h) c
#endif
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += SEL(__shfl_down_sync(0xffffffff, v, o), __shfl_down(v, o));
    return v;
}
"""
AMD_ARG = SELECT.replace("SEL(__shfl_down_sync(0xffffffff, v, o), __shfl_down(v, o))",
                         "SEL(__shfl_down(v, o), __shfl_down_sync(0xffffffff, v, o))")


def _ws007(text: str) -> list[int]:
    return [f.line for f in lint_text(text, "t.cu") if f.code == "WS007"]


def test_the_argument_amd_never_compiles_is_quiet():
    assert _ws007(SELECT) == []
    hip_cfg = SELECT.replace("#ifdef __HIP_PLATFORM_AMD__", "#if defined(USE_ROCM)")
    assert _ws007(hip_cfg) == []
    # a project's own HIP switch, told by the HIP header it includes
    own = "#ifdef MYLIB_HIP\n#include <hip/hip_runtime.h>\n#endif\n" + SELECT.replace("__HIP_PLATFORM_AMD__", "MYLIB_HIP")
    assert _ws007(own) == []


def test_the_argument_amd_selects_stays_flagged():
    assert _ws007(AMD_ARG) == [8]
    assert _ws007(SELECT.replace("#ifdef", "#ifndef")) == [8]  # the branches the other way round


def test_a_feature_switch_or_a_macro_using_both_stays_flagged():
    switch = SELECT.replace("__HIP_PLATFORM_AMD__", "USE_FAST_PATH")
    assert _ws007(switch) == [8]
    assert _ws007(switch.replace("SEL(__shfl_down_sync(0xffffffff, v, o), __shfl_down(v, o))",
                                 "SEL(__shfl_down(v, o), __shfl_down_sync(0xffffffff, v, o))")) == [8]
    both = SELECT.replace("#define SEL(c, h) h", "#define SEL(c, h) ((void)(c), h)")
    assert _ws007(both) == [8]


def test_a_headers_selector_read_in_a_project_run(tmp_path):
    (tmp_path / "inc").mkdir()
    head, _, body = SELECT.partition("__device__")
    (tmp_path / "inc" / "sel.h").write_text("#pragma once\n" + head)
    (tmp_path / "k.cu").write_text('#include "inc/sel.h"\n__device__' + body + "\n__device__"
                                   + AMD_ARG.partition("__device__")[2].replace("warp_sum", "warp_sum2"))
    rc, out, err = kp_inproc("lint", "--format", "json", tmp_path)
    assert rc in (0, 1), err
    got = sorted((Path(f["path"]).name, f["line"]) for f in json.loads(out) if f["code"] == "WS007")
    assert got == [("k.cu", 10)]  # warp_sum2's AMD argument; warp_sum's NVIDIA one (line 4) is quiet
