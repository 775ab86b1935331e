"""Constant-size `alloca` in device code held as a local array on HIP (kernelport/device_allocas.py).

evogp (heldout46) keeps its GP interpreters' stacks as `(float *)alloca(MAX_STACK * sizeof(float))` in device
functions; clang 15 (ROCm 5.2's hipcc) segfaults at -O3 on alloca in AMDGPU device code (the llvm#59250 class),
so main's port, right as written, never compiled.  Checked: a proved constant size outside loops becomes an
array of the same elements, aligned as CUDA aligns alloca's memory, living as long (hoisted to the function's
body from an inner block), and the port compiles for gfx90a and gfx1030; look-alikes (a run-time size, a call in
a loop, a function with `goto`, host code, a backend whose compiler takes alloca) keep the call, the device ones
with a KP238 warning naming the toolchain's bug."""
from __future__ import annotations

import pytest

from kernelport import backends
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles
from port_support import ported

SRC = """#include <cstdint>
#define DEPTH 4
constexpr auto MAX_STACK = 256, OTHER = 3;
struct Node { float v; int16_t kind; };

__device__ float eval(const float *v, int n)
{
    float *stack = (float *)alloca(MAX_STACK * sizeof(float));
    int16_t *infos = (int16_t *)alloca(2 * MAX_STACK * sizeof(int16_t));
    Node *nodes = (Node *)alloca(sizeof(Node) * DEPTH);
    int top = 0;
    for (int i = 0; i < n; i++) {
        stack[top] = v[i];
        infos[top] = (int16_t)i;
        top++;
        if (top > 1 && (infos[top - 1] & 1)) {
            stack[top - 2] += stack[top - 1];
            top--;
        }
    }
    nodes[0].v = stack[0];
    return nodes[0].v;
}

__global__ void k(const float *v, float *out, int n, int points)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float fit = 0.f;
    if (i < points) {
        float *acc = (float *)alloca(MAX_STACK * sizeof(float));
        acc[0] = eval(v + i * n, n);
        fit = acc[0];
    }
    out[i] = fit;
}
"""


def test_constant_sizes_become_local_arrays():
    port, body = ported(SRC, "gp.cu", dedent=False)
    assert "alignas(16) alignas(float) float kp_stack_storage[MAX_STACK]; float *stack = kp_stack_storage;" in body
    assert "alignas(16) alignas(int16_t) int16_t kp_infos_storage[2 * MAX_STACK]; int16_t *infos = kp_infos_storage;" in body
    assert "alignas(16) alignas(Node) Node kp_nodes_storage[DEPTH]; Node *nodes = kp_nodes_storage;" in body
    assert "alloca" not in body
    assert not [d for d in port.diagnostics if d.code == "KP238"]


def test_an_inner_block_s_array_lives_as_long_as_the_function():
    """alloca's memory lives until the function returns: the array is declared at the function's body."""
    _, body = ported(SRC, "gp.cu", dedent=False)
    head = body.index("__global__ void k(")
    kernel = body[head:]
    assert kernel.index("float kp_acc_storage[MAX_STACK];") < kernel.index("if (i < points)")
    assert "        float *acc = kp_acc_storage;" in kernel


def test_the_port_compiles_at_o3_for_gfx90a_and_gfx1030(tmp_path):
    """main's port kept the allocas: hipcc -O3 segfaults (clang 15, 'unable to execute command: Segmentation fault')."""
    _, body = ported(SRC, "gp.cu", dedent=False)
    f = tmp_path / "gp.hip"
    f.write_text(body)
    assert_hip_file_compiles(f)


def test_the_portable_port_holds_the_array_too():
    _, body = ported(SRC, "gp.cu", to="portable", dedent=False)
    assert "float kp_stack_storage[MAX_STACK]; float *stack = kp_stack_storage;" in body


LOOKALIKES = """#include <cstdint>
#define SIZE 64
__device__ float run(int n)
{
    float *dyn = (float *)alloca(n * sizeof(float));
    dyn[0] = 1.f;
    float s = dyn[0];
    for (int r = 0; r < n; r++) {
        float *tmp = (float *)alloca(SIZE * sizeof(float));
        tmp[0] = r;
        s += tmp[0];
    }
    return s;
}

__device__ float jumps(int n)
{
again:
    float *t = (float *)alloca(SIZE * sizeof(float));
    t[0] = n;
    if (--n > 0) goto again;
    return t[0];
}

float host_side(int n)
{
    float *h = (float *)alloca(SIZE * sizeof(float));
    h[0] = n;
    return h[0];
}

__global__ void k(float *out, int n) { out[threadIdx.x] = run(n) + jumps(n); }
"""


def test_unproved_allocas_stay_with_a_warning_that_names_the_bug():
    port, body = ported(LOOKALIKES, "gp.cu", dedent=False)
    assert body.count("alloca(") == 4 and "_storage" not in body
    warned = {d.location.line: d.message for d in port.diagnostics if d.code == "KP238"}
    assert set(warned) == {5, 9, 19}, warned  # run-time size, in a loop, a function with goto; not host_side's
    assert "not proved constant" in warned[5] and "in a loop" in warned[9] and "goto" in warned[19]
    assert all("llvm/llvm-project#59250" in m for m in warned.values())
    assert all(d.severity == "warning" for d in port.diagnostics if d.code == "KP238")


def test_a_backend_whose_compiler_takes_alloca_keeps_it(monkeypatch):
    """The rewrite is the backend's data (`device_alloca_crash`), not a test of its name."""
    monkeypatch.setattr(backends.get("hip"), "device_alloca_crash", None)
    port, body = ported(SRC, "gp.cu", dedent=False)
    assert body.count("alloca(") == 4 and "_storage" not in body
    assert not [d for d in port.diagnostics if d.code == "KP238"]


@pytest.mark.parametrize("form", ["(float *)alloca(MAX_STACK)", "(int *)alloca(MAX_STACK * sizeof(float))"])
def test_a_size_that_is_not_a_count_of_the_element_stays(form):
    src = SRC.replace("(float *)alloca(MAX_STACK * sizeof(float));\n    int16_t", form + ";\n    int16_t")
    port, body = translate(SourceFile.from_text(src, "gp.cu"), "hip")
    assert form in body
    assert any(d.code == "KP238" and d.location.line == 8 for d in port.diagnostics)
