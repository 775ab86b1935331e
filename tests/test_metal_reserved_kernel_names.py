"""A kernel whose name is a word of Metal (`kernel`, `thread`, `device`) is renamed in the Metal port
(`kernel_`); what calls into the port must use that name.  Found by the device oracle on the fifteenth
held-out set (Tigr's `kernel`s; the case here is synthetic): the sidecar told the host to ask the
library for `kernel`, which the port does not define, and verify reported `kernel `kernel` not found`
as a failed Metal port."""
from __future__ import annotations

import json
import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = textwrap.dedent("""\
    __global__ void kernel(float* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] *= 2.0f;
    }
    __global__ void scale(float* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] += 1.0f;
    }
    int main() {
        int n = 256;
        float* d;
        cudaMalloc(&d, n * sizeof(float));
        kernel<<<(n + 127) / 128, 128>>>(d, n);
        scale<<<(n + 127) / 128, 128>>>(d, n);
        cudaDeviceSynchronize();
    }
    """)


def test_the_sidecar_names_the_function_the_port_defines():
    port, _ = translate(SourceFile.from_text(CODE, "k.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kernel void kernel_(" in port.body and port.renamed == {"kernel": "kernel_"}
    side = json.loads(port.extra_files[".json"])
    names = {k["name"]: k["host_name"] for k in side["kernels"]}
    assert names == {"kernel": "kernel_", "scale": "scale"}  # CUDA's name, and the library's function


def test_verify_runs_the_renamed_kernel_of_the_metal_port(tmp_path):
    from kernelport.verify import Verifier
    f = tmp_path / "k.cu"
    f.write_text(CODE)
    rep = Verifier(cache=False, timeout=120).verify(f)
    metal = [(c.kernel, c.status, c.detail) for c in rep.checks if c.kind == "numeric" and c.backend == "metal"]
    assert {k for k, _, _ in metal} == {"kernel", "scale"}, metal
    assert all(s == "pass" for _, s, _ in metal), metal


ANNOTATED = """\
// @kp kernel     kernel
// @kp grid       ceil_div(n, 128)
// @kp block      128
// @kp why        128 threads: 4 NVIDIA warps / 2 CDNA waves, one element each
// @kp arg        x   inout  float[n]   uniform(-1, 1)
// @kp scalar     n = 1000
// @kp reference  twice_ref(n, x)
// @kp tolerance  exact
// @kp targets    metal
__global__ void kernel(int n, float* x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i];
}

void twice_ref(int n, float* x)
{
    int i;
    for (i = 0; i < n; ++i) x[i] = 2.0f * x[i];
}
"""


def test_verify_runs_an_annotated_kernel_renamed_in_the_metal_port(tmp_path):
    """The annotated path (translations cached per file) carries the port's renames too."""
    from kernelport.verify import Verifier
    f = tmp_path / "twice.cu"
    f.write_text(ANNOTATED)
    rep = Verifier(cache=False, timeout=120).verify(f)
    metal = [(c.status, c.detail) for c in rep.checks if c.kind == "numeric" and c.backend == "metal"]
    assert metal and all(s == "pass" for s, _ in metal), metal
