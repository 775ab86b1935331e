"""`__device__` functions that call a host-only function of the file (kernelport/wrong_side_calls.py):
nvcc compiles them only where it never emits them, clang refuses the call while parsing; the HIP
port makes them `__host__ __device__`, where clang defers the call to code it never emits."""
from __future__ import annotations

from conftest import hip_compiles
from test_member_spaces import hip  # translate to HIP, the port must be written

# gkylzero's translate_dim (gkyl_translate_dim_priv.h and translate_dim_cu.cu), reduced: a macro
# that is `__device__` under nvcc, a static device chooser whose GPU path calls the host launcher.
# Look-alikes: a device function calling a function declared `__device__`, one calling a name the
# file declares both plainly and `__device__`, and a `__host__ __device__` function calling the
# launcher (clang already defers that).
CODE = """
#define CU_D __device__
struct kernels { int k; };
void choose_kernel_cu(struct kernels *ks, int dir);
__device__ int twice(int x);
int both(int x);
__device__ int both(int x, int y);

CU_D static void choose_kernel(struct kernels *ks, int dir, bool use_gpu)
{
  if (use_gpu) {
    choose_kernel_cu(ks, dir);
    return;
  }
  ks->k = dir;
}
__device__ int uses_device(int x) { return twice(x); }
__device__ int uses_both(int x) { return both(x, x); }
__host__ __device__ static void hd_choose(struct kernels *ks) { choose_kernel_cu(ks, 0); }

__device__ int twice(int x) { return 2 * x; }
__global__ void set_ptrs(struct kernels *ks, int dir) { ks->k = dir; }
void choose_kernel_cu(struct kernels *ks, int dir) { set_ptrs<<<1, 1>>>(ks, dir); }
"""


def test_a_device_function_calling_a_host_function_becomes_host_device():
    text = hip(CODE)
    assert "\nCU_D __host__ static void choose_kernel(struct kernels *ks, int dir, bool use_gpu)" in text
    assert "\n__device__ int uses_device(int x)" in text
    assert "\n__device__ int uses_both(int x)" in text
    assert "\n__host__ __device__ static void hd_choose(" in text


def test_the_port_compiles_with_hipcc(tmp_path):
    hip_compiles(tmp_path, hip(CODE), "w.hip")
