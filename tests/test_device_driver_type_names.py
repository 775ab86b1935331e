"""`verify --device cuda`'s driver names a namespaced kernel's parameter types as the kernel does (stop 65).

The driver says `using namespace ns;` for a kernel in `namespace ns` so that the types its namespace declares
resolve in main; where the global scope declares a type of the same name (`struct Params` in both), main's
`Params` was ambiguous and nvcc refused the driver.  Each parameter's type is now an alias declared inside the
namespace (where the namespace's own name hides the global one, as in the kernel's signature), named by its
qualified name.  Look-alike: a kernel at file scope beside a namespace declaring the same name keeps the global
type.  Built with the real nvcc for sm_90 (no GPU needed to compile and link)."""
from __future__ import annotations

from test_device_driver_namespaces import _build, _kernel

BOTH = """\
struct Params { int pad; double scale; };
namespace gnss_gpu {
struct Params { float scale; };
__global__ void k(float* y, const Params* p) { y[threadIdx.x] = p[0].scale; }
}
"""

# the look-alike: the kernel at file scope reads the global Params (the namespace's is not its)
GLOBAL = """\
namespace gnss_gpu { struct Params { int pad; double scale; }; }
struct Params { float scale; };
__global__ void k(float* y, const Params* p) { y[threadIdx.x] = p[0].scale; }
"""


def test_a_type_both_scopes_declare_is_the_kernel_s_namespace_s(tmp_path):
    f, kernel = _kernel(BOTH, "k", tmp_path / "n.cu")
    assert _build(tmp_path, f, kernel).exists()  # (nvcc refused it: "Params" is ambiguous)
    text = (tmp_path / "build" / "driver.cu").read_text()
    assert "namespace gnss_gpu { typedef Params kp_param_1_t; }" in text
    assert "::gnss_gpu::kp_param_1_t" in text


def test_a_file_scope_kernel_keeps_the_global_type(tmp_path):
    f, kernel = _kernel(GLOBAL, "k", tmp_path / "g.cu")
    assert _build(tmp_path, f, kernel).exists()
    text = (tmp_path / "build" / "driver.cu").read_text()
    assert "kp_param_" not in text and "using namespace" not in text
