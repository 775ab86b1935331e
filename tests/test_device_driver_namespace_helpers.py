"""The GPU driver's own helpers stay its own under the `using namespace` lines it says for a namespaced kernel
(review of stop 64's merge of h/verify64).

The driver says `using namespace gnss_gpu;` so the parameter types the kernel's namespace declares resolve; its
main then called `check(...)`, `load<...>(...)` and `save<...>(...)` unqualified.  A namespace with its own error
checker `check(cudaError_t, const char*)` (the commonest helper of CUDA code) made each call in main ambiguous:
nvcc refused the driver, so the kernel was never run on the GPU.  A namespace helper with another signature
(`check(int, const char*)`) would have been chosen by overload resolution instead of the driver's.  The driver
now calls its helpers by their global names (`::check`).  Built with the real nvcc for sm_90.
"""
from __future__ import annotations

from test_device_driver_namespaces import _build, _kernel

CLASHING = """\
#include <cstdio>
namespace gnss_gpu {
inline void check(cudaError_t e, const char* what) { if (e != cudaSuccess) std::printf("%s\\n", what); }
template <typename E, typename F> E* load(const char* path, size_t count) { return nullptr; }
template <typename E, typename F> void save(const char* path, const E* dev, size_t count) {}
struct Params { float scale; };
__global__ void weight_kernel(float* y, const Params* p) { y[threadIdx.x] = p[0].scale; }
}  // namespace gnss_gpu
"""

# the look-alike: the same helpers at file scope of a file whose kernel is in no namespace (the driver's
# includes come first, its own helpers after: it compiled before and must still)
PLAIN = """\
namespace util {
inline void check(cudaError_t e, const char* what) {}
}
__global__ void weight_kernel(float* y, const float* p) { y[threadIdx.x] = p[0]; }
"""


def test_the_namespace_s_own_check_load_save_do_not_clash_with_the_driver_s(tmp_path):
    f, kernel = _kernel(CLASHING, "weight_kernel", tmp_path / "n.cu")
    assert _build(tmp_path, f, kernel).exists()
    text = (tmp_path / "build" / "driver.cu").read_text()
    assert "using namespace gnss_gpu;" in text and '::check(cudaGetLastError(), "launch");' in text


def test_a_kernel_in_no_namespace_beside_a_namespace_check_still_builds(tmp_path):
    f, kernel = _kernel(PLAIN, "weight_kernel", tmp_path / "p.cu")
    assert _build(tmp_path, f, kernel).exists()
    assert "using namespace" not in (tmp_path / "build" / "driver.cu").read_text()
