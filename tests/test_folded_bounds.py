"""A device-local array bound nvcc folds from `const` floating-point locals, written as its value on HIP
(kernelport/folded_bounds.py).

Cloned_Dynamics_Lyapunov_Exponents (heldout65) sizes its Lyapunov buffers `double L[dim][nMax + 1]` with
`const int nMax = ((t_final - t_init) / t_gsr)` over `const double` locals: nvcc folds it (a constant size),
clang reads a variable-length array and ROCm 5.2's AMDGPU backend stops (`Cannot select: stacksave`), so main's
port never compiled.  Checked: the bound becomes the value C's conversions give (a double quotient truncated to
int; float arithmetic rounded to float) and the port compiles for gfx90a and gfx1030; look-alikes keep their
bound: an integral chain (clang folds it), a constant read from memory, a name declared twice, a parameter, host
code, and a backend whose compiler takes such a bound."""
from __future__ import annotations

from kernelport import backends

from conftest import hip_compiles, require_tool
from port_support import ported

SRC = """#define DIM 3

__global__ void lyap(const double *H, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int dim = DIM;
    const double t_init = 0;
    const double t_final = 10.0;
    const double t_gsr = 0.5;
    const int nMax = ((t_final - t_init) / t_gsr);
    const float third = 0.7f;
    const int rounded = third * 10;
    double local[dim][nMax + 1];
    float tail[rounded];
    for (int k = 0; k <= nMax; k++) {
        local[0][k] = H[i] * k;
    }
    tail[0] = (float)local[0][nMax];
    out[i] = tail[0] + local[dim - 1][0];
}
"""


def test_bounds_from_const_floating_locals_become_their_values(tmp_path):
    port, body = ported(SRC, "lyap.cu", dedent=False)
    assert "double local[dim][21 /* nMax + 1 */];" in body  # (10.0 - 0) / 0.5 = 20, + 1
    assert "float tail[7 /* rounded */];" in body  # 0.7f * 10 in float is 7.0f (in double, 6.99999988: 6)
    assert "const int nMax = ((t_final - t_init) / t_gsr);" in body  # the constants themselves stay
    assert sum("as its value" in n.why for n in port.notes) == 2
    hip_compiles(tmp_path, body, "lyap.hip")


def test_the_values_are_the_sizes_nvcc_gives(tmp_path):
    """The original, with its sizes asserted at the values the port writes, compiles with nvcc: nvcc folds the
    bounds to exactly those (a wrong truncation or float rounding fails the static_assert)."""
    import subprocess
    nvcc = require_tool("nvcc")
    checked = SRC.replace("    for (int k", "    static_assert(sizeof(local) == 3 * 21 * sizeof(double), \"21\");\n"
                          "    static_assert(sizeof(tail) == 7 * sizeof(float), \"7\");\n    for (int k")
    (tmp_path / "lyap.cu").write_text(checked)
    done = subprocess.run([nvcc.path, "-c", "lyap.cu", "-o", "lyap.o"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr


LOOKALIKES = """const int FILE_N = 4;

__device__ float integral(float *v)
{
    const int a = 4;
    const int b = a * 2 + FILE_N;
    float x[b + 1];
    x[0] = v[0];
    return x[0];
}

__device__ float from_memory(const double *H, float *v)
{
    const double h = H[0];
    const int n = 1.0 / h;
    float x[n];
    x[0] = v[0];
    return x[0];
}

__device__ float twice(float *v, int c)
{
    const double t = 2.0;
    if (c) {
        const double t = 3.0;
        v[1] = t;
    }
    const int n = t * 2;
    float x[n];
    x[0] = v[0];
    return x[0];
}

__device__ float param(float *v, const double t)
{
    const int n = t * 2;
    float x[n];
    x[0] = v[0];
    return x[0];
}

void host_side(float *v)
{
    const double t = 2.0;
    const int n = t * 2;
    float x[n];
    x[0] = v[0];
}
"""


def test_look_alikes_keep_their_bounds():
    port, body = ported(LOOKALIKES, "same.cu", dedent=False)
    for bound in ("x[b + 1]", "x[n];"):
        assert bound in body
    assert body.count("float x[n];") == 4 and "/*" not in body
    assert not [n for n in port.notes if "as its value" in n.why]


def test_a_backend_whose_compiler_takes_the_bound_keeps_it(monkeypatch):
    """The rewrite is the backend's data (`device_vla_refused`), not a test of its name."""
    monkeypatch.setattr(backends.get("hip"), "device_vla_refused", None)
    port, body = ported(SRC, "lyap.cu", dedent=False)
    assert "double local[dim][nMax + 1];" in body and "float tail[rounded];" in body
