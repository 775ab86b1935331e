"""Metal address spaces of local pointers whose initialisers reach each other through names
declared in different scopes (kernelport/backends/metal/spaces.py): an answer, never a recursion."""
from __future__ import annotations

from conftest import metal_port

# `q = p` reads the outer `p`; the inner `p = q + 1` shadows it.  Names are looked up per
# function, so the inner `p` and `q` point at each other: there is no space to find.
SHADOWED = """
__global__ void k(float* a) {
    float* p = a;
    {
        float* q = p;
        float* p = q + 1;
        p[threadIdx.x] = 1.0f;
    }
}
"""

# the look-alike: the same nesting with no name shadowed, so each pointer's space is known
DISTINCT = SHADOWED.replace("float* p = q + 1;\n        p[", "float* r = q + 1;\n        r[")


def test_pointers_that_reach_each_other_through_shadowed_names_are_refused_where_they_stand():
    port, _ = metal_port(SHADOWED)  # was RecursionError (an internal error on candle-kernels' moe_wmma_gguf.cu)
    assert not port.ok
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert errors and all(d.path == "t.cu" and d.line >= 1 for d in errors)


def test_the_same_nesting_without_shadowing_is_ported_with_device_pointers():
    port, _ = metal_port(DISTINCT)
    assert port.ok, [d.format() for d in port.diagnostics]
    for name in ("p", "q", "r"):
        assert f"device float* {name} = " in port.body, port.body
