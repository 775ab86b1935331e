"""A kernel's local struct filled with device pointers (heldout67 KINC kinc-mini.cu: `GMM gmm = {
&work_gmm_data[i * n], ... };` passed as `&gmm` to helpers that load `gmm->MP`, KP215 on main): the
members are `device T*`, and what a helper loads from them is a `device` pointer.  A host-only struct
with a member of the same name (KINC's `std::vector<char> labels`) does not hide the device one.
Look-alikes: a member filled with a threadgroup pointer, or a struct filled member by member, stay
refused at their line."""
from __future__ import annotations

import pytest

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port as metal, require_tool
    from .port_support import metal_checker as checker
except ImportError:  # pragma: no cover
    from conftest import metal_port as metal, require_tool
    from port_support import metal_checker as checker


FILLED = """\
    #include <vector>
    struct Work { float *acc; char *labels; int count; };
    struct HostRow { std::vector<char> labels; int n; };

    __device__ float step(Work *w, float v, int i)
    {
        float *a = w->acc;
        a[i] += v;
        w->labels[i] = 1;
        return a[i];
    }

    __global__ void k(const float *x, float *work, char *labels, float *out, int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        Work w = { &work[i * 4], &labels[i * 4], 0 };
        out[i] = step(&w, x[i], i);
    }

    void host(int n) { std::vector<HostRow> rows(n); (void)rows; }
"""


def test_a_struct_a_kernel_fills_with_device_pointers_has_device_members():
    require_tool("clang")
    port, text = metal(FILLED)
    assert [d.format() for d in port.diagnostics if d.severity == "error"] == []
    assert "struct Work { device float *acc; device char *labels; int count; };" in text
    assert "device float *a = w->acc;" in text
    assert checker(text) == []
    assert "gpuAddress" not in port.extra_files[".json"]  # no host-written address: the MSL floor stays


@pytest.mark.parametrize("change", [
    # a member filled with a threadgroup pointer
    ("Work w = { &work[i * 4], &labels[i * 4], 0 };",
     "__shared__ float tile[64];\n    Work w = { tile, &labels[i * 4], 0 };"),
    # filled member by member: not followed
    ("Work w = { &work[i * 4], &labels[i * 4], 0 };",
     "Work w;\n    w.acc = &work[i * 4];\n    w.labels = &labels[i * 4];"),
])
def test_look_alikes_stay_refused_at_their_line(change):
    port, text = metal(FILLED.replace(*change))
    assert "device float *acc" not in text
    errs = [d for d in port.diagnostics if d.severity == "error"]
    assert errs and all(d.location.line > 0 for d in errs), [d.format() for d in errs]


def test_a_device_struct_with_a_member_of_that_name_still_hides_it():
    """The name says which struct an expression reads: another struct device code names keeps it unknown."""
    _, text = metal(FILLED.replace("struct HostRow { std::vector<char> labels; int n; };",
                                   "struct Row { int *labels; };\n__device__ int first() { int t[2] = {0, 1}; "
                                   "Row r = {t}; return r.labels[0]; }"))  # (built over a thread array: heldout77)
    assert "device float *acc;" in text and "device char *labels;" not in text
