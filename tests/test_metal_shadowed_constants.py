"""A bound constant a kernel's parameter hides (stop 58's open item 'a kernel parameter named like a bound
constant'): `__constant__ float scale[4]` read by a helper that `k(float *a, int scale)` calls was bound as a
second parameter `scale` (KP224 'redefinition of parameter' via the checker).  The kernel binds it as
`kp_scale` and passes that on; kernels without such a parameter, the helper and the sidecar keep `scale`."""
from __future__ import annotations

import json
import re

import pytest


try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_port, require_tool

SHADOW = """\
    __constant__ float scale[4];
    __device__ float get(int i) { return scale[i]; }
    __global__ void k(float *a, int scale) { a[threadIdx.x] = get(threadIdx.x % 4) * scale; }
    __global__ void m(float *a) { a[threadIdx.x] *= scale[1] + get(0); }
"""


@pytest.mark.parametrize("body", ["a[threadIdx.x] = get(threadIdx.x % 4) * scale;",
                                  "scale += 1; a[threadIdx.x] = get(threadIdx.x % 4) * scale;"])  # argcopies' kp_scale too
def test_a_constant_a_kernel_parameter_hides_is_bound_under_another_name(body):
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    code = SHADOW.replace("a[threadIdx.x] = get(threadIdx.x % 4) * scale;", body)
    port, text = metal_port(code)
    assert [d.format() for d in port.diagnostics if d.severity == "error"] == []
    k = text[text.index("kernel void k("):text.index("kernel void m(")]
    m = text[text.index("kernel void m("):]
    bound = re.search(r"constant float\* (kp_scale\w*) \[\[buffer\(2\)\]\]", k)
    assert bound and f"get(tid.x % 4, {bound.group(1)})" in k
    assert "constant float* scale [[buffer(1)]]" in m and "get(0, scale)" in m  # no parameter hides it there
    assert "float get(int i, constant float* scale)" in text
    assert [str(d) for d in check_metal_source(text, "t.metal")] == []
    arg = json.loads(port.extra_files[".json"])["kernels"][0]["arguments"][2]
    assert (arg["index"], arg["symbol"], arg["name"]) == (2, "scale", "scale")  # the host fills `scale` there
