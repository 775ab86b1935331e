"""`verify --device cuda`'s driver launches a kernel declared in a namespace by its qualified name (stop 64).

The H100 run over heldout86 had gnss's 8 kernels fail with "nvcc failed on the GPU driver ... identifier
"tropo_batch_kernel" is undefined": the kernels live in `namespace gnss_gpu { ... }` and the driver named them
unqualified.  The driver now names `::gnss_gpu::tropo_batch_kernel` (nested, `a::b`, inline namespaces by
their names; an anonymous one adds nothing, the driver being the original's translation unit) and says
`using namespace` for each so the parameter types the namespace declares resolve.  Built with the real nvcc
for sm_90 (no GPU needed to compile and link).
"""
from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace as NS

import numpy as np
import pytest

from kernelport import device, model
from kernelport.source import SourceFile

NAMESPACED = """\
namespace gnss_gpu {
struct Params { float scale; };
namespace inner::deeper {
inline namespace v2 {
template <typename T>
__global__ void tropo_kernel(T* y, const Params* p) { y[threadIdx.x] = p[0].scale; }
}
}
namespace {
__global__ void hidden_kernel(float* y, const Params* p) { y[threadIdx.x] = 2.0f * p[0].scale; }
}
}  // namespace gnss_gpu
"""

# the look-alike: a kernel at file scope, beside a namespace whose same-named function is not it
FILE_SCOPE = """\
namespace other { __host__ void k(float* y, const float* p) { y[0] = p[0]; } }
__global__ void k(float* y, const float* p) { y[threadIdx.x] = p[0]; }
"""


def _kernel(text: str, name: str, path: Path) -> tuple[Path, object]:
    path.write_text(text)
    mod = model.build(SourceFile.read(path))
    kernel = next(f for f in mod.functions.values() if f.name == name and f.is_kernel)
    return path, kernel


def _build(d: Path, source: Path, kernel, template_args=None):
    nvcc = shutil.which("nvcc")
    assert nvcc, "nvcc is needed (CI installs it)"
    spec = NS(dims=lambda what: (1,) if what == "grid" else (4,), shared_bytes=lambda: 0)
    args = {kernel.params[0].name: np.zeros(4, np.float32), kernel.params[1].name: np.ones(4, np.float32)}
    if kernel.params[1].type.endswith("Params*"):
        args[kernel.params[1].name] = np.zeros(1, np.dtype([("scale", np.float32)]))
    out = d / "build"
    out.mkdir(exist_ok=True)
    return device.build_driver(nvcc, "sm_90", (), out, source, kernel, spec, args, template_args)


def test_scopes_are_read_from_the_definition(tmp_path):
    f, tropo = _kernel(NAMESPACED, "tropo_kernel", tmp_path / "n.cu")
    assert device.kernel_namespaces(tropo.node) == ("gnss_gpu", "inner", "deeper", "v2")
    _, hidden = _kernel(NAMESPACED, "hidden_kernel", tmp_path / "n.cu")
    assert device.kernel_namespaces(hidden.node) == ("gnss_gpu",)
    _, k = _kernel(FILE_SCOPE, "k", tmp_path / "f.cu")
    assert device.kernel_namespaces(k.node) == ()
    assert device.launched_name("k", ()) == "k"


@pytest.mark.parametrize("name, targs", [("tropo_kernel", ["float"]), ("hidden_kernel", None)])
def test_a_namespaced_kernel_is_launched_by_its_qualified_name(tmp_path, name, targs):
    f, kernel = _kernel(NAMESPACED, name, tmp_path / "n.cu")
    assert _build(tmp_path, f, kernel, targs).exists()
    text = (tmp_path / "build" / "driver.cu").read_text()
    assert "using namespace gnss_gpu;" in text
    qualified = {"tropo_kernel": "::gnss_gpu::inner::deeper::v2::tropo_kernel<float><<<",
                 "hidden_kernel": "::gnss_gpu::hidden_kernel<<<"}[name]
    assert qualified in text


def test_a_file_scope_kernel_beside_a_same_named_namespace_function_stays_unqualified(tmp_path):
    f, kernel = _kernel(FILE_SCOPE, "k", tmp_path / "f.cu")
    assert _build(tmp_path, f, kernel).exists()
    text = (tmp_path / "build" / "driver.cu").read_text()
    assert "    k<<<" in text and "using namespace" not in text
