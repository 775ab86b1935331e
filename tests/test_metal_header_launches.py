"""A unit whose kernels all live in the headers it includes, launched by host code of those headers
(quantumlib/qsim's apps: `main` runs a template class of simulator_cuda.h whose methods launch the
kernels of simulator_cuda_kernels.h; cuda-samples' fastWalshTransform.cu calls `fwtBatchGPU`, which
its _kernel.cuh defines beside the kernels): the Metal port splices the headers and ports their
kernels.  Before, the unit itself launched nothing and defined no device code, so nothing was
spliced and KP227 said "no device code" while each header's own translation said "translate a
source that includes it": no port either way."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

KERNELS = """
    #pragma once
    template <typename FP>
    __global__ void ScaleKernel(FP a, FP* v, unsigned n) {
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) v[i] *= a;
    }
"""

SIM = """
    #pragma once
    #include "sim_kernels.h"
    struct Simulator {
        template <typename Vector>
        void Scale(float a, Vector v, unsigned n) const {
            ScaleKernel<float><<<(n + 63) / 64, 64>>>(a, v, n);
        }
    };
"""

APP = """
    #include <cstdio>
    #include "util.h"
    #include "../lib/sim.h"
    int main() {
        float* v = nullptr;
        cudaMalloc(&v, 256 * sizeof(float));
        Simulator().Scale(2.0f, v, 256);
        printf("%d\\n", Twice(1));
        return 0;
    }
"""

UTIL = """
    #pragma once
    inline int Twice(int x) { return 2 * x; }
"""

# a header whose host code launches a kernel defined in another unit (only declared here)
LAUNCHER_ONLY = """
    #pragma once
    __global__ void ScaleKernel(float a, float* v, unsigned n);
    inline void Scale(float a, float* v, unsigned n) { ScaleKernel<<<(n + 63) / 64, 64>>>(a, v, n); }
"""


def _write(root, files):
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text).lstrip())


def _metal(path, include_dirs=()):
    return translate(SourceFile.read(path), "metal", include_dirs=include_dirs)


def test_kernels_launched_by_a_header_s_host_code_are_ported_with_the_unit(tmp_path):
    _write(tmp_path, {"lib/sim_kernels.h": KERNELS, "lib/sim.h": SIM, "apps/util.h": UTIL, "apps/app.cu": APP})
    port, text = _metal(tmp_path / "apps" / "app.cu", (str(tmp_path / "lib"),))
    assert port.ok and not port.empty, [d.format() for d in port.diagnostics]
    assert not [d for d in port.diagnostics if d.code == "KP227"]
    assert '"../lib/sim.h", spliced' in text and '"sim_kernels.h", spliced' in text
    assert "kernel void ScaleKernel" in text
    assert '"util.h", spliced' not in text and "Twice" not in text  # it defines no kernel: not spliced


def test_a_host_launcher_in_the_same_header_as_its_kernels(tmp_path):
    """fastWalshTransform's shape: the header defines the kernel and the host function that launches it."""
    _write(tmp_path, {"fwt_kernel.cuh": KERNELS.replace("#pragma once", "#pragma once\nvoid ScaleGPU(float* v);")
                      + "\nvoid ScaleGPU(float* v) { ScaleKernel<float><<<4, 64>>>(2.0f, v, 256u); }\n",
                      "fwt.cu": '#include "fwt_kernel.cuh"\nint main() { ScaleGPU(nullptr); return 0; }\n'})
    port, text = _metal(tmp_path / "fwt.cu")
    assert port.ok and not port.empty, [d.format() for d in port.diagnostics]
    assert "kernel void ScaleKernel" in text


def test_a_header_launching_a_kernel_no_header_defines_still_has_no_port(tmp_path):
    """The look-alike: the launched kernel is defined in another unit, so no header has device code
    for this unit's port: still KP227, nothing written."""
    _write(tmp_path, {"launch.h": LAUNCHER_ONLY,
                      "main.cu": '#include "launch.h"\nint main() { Scale(2.0f, nullptr, 256); return 0; }\n'})
    port, _ = _metal(tmp_path / "main.cu")
    assert port.ok and port.empty
    assert [d.code for d in port.diagnostics] == ["KP227"]


MACRO_KERNELS = """
    #pragma once
    template <int L>
    __global__ static void eval_kernel(float* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = float(L) * out[i];
    }
    #define eval_launch(l) eval_kernel<l><<<grid, block>>>(out, n)
    #define eval_case(l) case l: eval_launch(l); break
    template <int Unused>
    int eval_driver(float* out, int n, int l) {
        dim3 grid((n + 63) / 64), block(64);
        switch (l) { eval_case(0); eval_case(1); }
        return 0;
    }
"""

# a macro whose kernel is its parameter names no kernel by itself
PARAM_MACRO = """
    #pragma once
    __global__ void other_kernel(float* out);
    #define LAUNCH(k, out) k<<<1, 64>>>(out)
    inline void run(float* out) { LAUNCH(other_kernel, out); }
"""


def test_a_kernel_launched_in_a_header_macro_s_body_is_spliced(tmp_path):
    """gpu4pyscf's evaluation.cuh: `#define density_kernel_macro(li, lj) evaluate_density_kernel<...>
    <<<...>>>(...)`, used inside another macro in a template driver; the parse sees the uses as
    blanks, so the launch is read from the macro's body.  The header's kernel is then in the port
    (here refused at its line: a template kernel whose launches give no instance, KP216), not a
    KP227 "no device code"."""
    _write(tmp_path, {"evaluation.cuh": MACRO_KERNELS,
                      "eval_xc.cu": '#include "evaluation.cuh"\nint run(float* o) { return eval_driver<0>(o, 64, 1); }\n'})
    port, _ = _metal(tmp_path / "eval_xc.cu")
    assert not port.empty
    assert [(d.code, d.location.path.endswith("evaluation.cuh"), d.location.line) for d in port.diagnostics
            if d.severity == "error"] == [("KP216", True, 3)]


def test_a_macro_whose_kernel_is_a_parameter_names_no_kernel(tmp_path):
    _write(tmp_path, {"launch.h": PARAM_MACRO, "main.cu": '#include "launch.h"\nint main() { run(nullptr); }\n'})
    port, _ = _metal(tmp_path / "main.cu")
    assert port.empty and [d.code for d in port.diagnostics] == ["KP227"]
