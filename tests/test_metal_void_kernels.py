"""A kernel declared with C's empty parameter list, `(void)` (heldout60 bitonic-sort-cuda's
`__global__ static void kernel_wakeup(void) {}`, KP224 'kernel parameter (unnamed) has no attribute' on
main): the port writes `()`, as hand-written MSL does.  Look-alikes: a helper's `(void)` stays, and a
`(void)` kernel that reads a built-in gets the built-in alone."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_port, require_tool


def test_a_void_kernel_is_written_with_an_empty_list():
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    port, text = metal_port("""\
        __device__ int one(void) { return 1; }
        __global__ static void wake(void) {}
        __global__ void tick(void) { if (threadIdx.x == 0) (void)one(); }
        __global__ void k(float *a) { a[threadIdx.x] = (float)one(); }
    """)
    assert [d.format() for d in port.diagnostics if d.severity == "error"] == []
    assert "kernel void wake() {}" in text
    assert "int one(void)" in text  # a helper's C empty list is C++ too: as written
    assert "kernel void tick(uint3 tid [[thread_position_in_threadgroup]])" in text
    assert [str(d) for d in check_metal_source(text, "t.metal")] == []
