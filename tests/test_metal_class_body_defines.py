"""A `#define` inside a class (or function) body is defined for the rest of the unit, as one at file
scope is.  A Metal port splices a project header when its device code uses a name the header
defines, and leaves the header's host class out: the macros the kernels use that sit in that class
stay in the port, after the class's comment.  Before, the header was not spliced at all (its
macros were read at file scope only: "device code uses nothing of it") and the port failed the
checker with `use of undeclared identifier 'SIZE'` (KP224): pedsim's ped_model.h, `#define SIZE
1024` in class Model's body, which its heatmap kernels use (held-out set 39)."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

MODEL_H = """
    #include <vector>
    class Model {
    public:
        void tick();
    private:
        std::vector<int> agents;
    #define GRID 1024
    #define CELL 5
    #define UNUSED_BY_DEVICE 7
        int heat[GRID];
    };
"""

HEAT_CU = """
    #include "model.h"
    __global__ void count(int *heat, const float *xs, const float *ys, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        int x = (int)xs[i], y = (int)ys[i];
        if (x < 0 || x >= GRID || y < 0 || y >= GRID) return;
        atomicAdd(&heat[(y / CELL) * GRID + x / CELL], 1);
    }
"""


def _port(tmp_path, model_h: str, heat_cu: str = HEAT_CU):
    (tmp_path / "model.h").write_text(textwrap.dedent(model_h).lstrip())
    (tmp_path / "heat.cu").write_text(textwrap.dedent(heat_cu).lstrip())
    return translate(SourceFile.read(tmp_path / "heat.cu"), "metal")


def test_defines_in_a_left_out_host_class_stay_in_the_port(tmp_path):
    require_tool("clang")
    port, text = _port(tmp_path, MODEL_H)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "spliced: device code needs it" in text
    comment = text.index("Model: used by host code only, left out of the Metal port")
    assert comment < text.index("#define GRID 1024") < text.index("#define CELL 5") < text.index("kernel void count")
    assert "std::vector" not in text.split("kernel void count")[0].split("spliced: device code needs it")[1]
    assert "UNUSED_BY_DEVICE" not in text  # a define no device code uses goes with its class


def test_a_header_whose_class_macros_no_kernel_uses_is_not_spliced(tmp_path):
    """The look-alike: the same class, but the unit defines its own bounds before the kernel;
    nothing of the header is needed and the include is left out, as before."""
    require_tool("clang")
    own = HEAT_CU.replace('#include "model.h"', '#include "model.h"\n    #define GRID 512\n    #define CELL 4')
    port, text = _port(tmp_path, MODEL_H.replace("GRID", "MGRID").replace("CELL", "MCELL"), own)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "spliced" not in text
    assert '#include "model.h": device code uses nothing of it, left out of the Metal port' in text
