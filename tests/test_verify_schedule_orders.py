"""verify where a kernel's outputs hang on the order its threads run in (schedule_orders; heldout83's
120-days fast_ml_threshold.cu compacts keypoints with `list[atomicAdd(cnt, 1)] = i`): in the warp schedule
the original itself fills the list in another order than its block-schedule oracle, so the ports' checks
there are skips that say so, not failures; a port that computes something else where the original's own
run in that schedule agrees with the oracle still fails.  And a Metal port that takes the original's
`__constant__ float` scalars by value (`constant float& w0`) is given their values (it failed: `a scalar
parameter but got an array`)."""
from __future__ import annotations

import json
from unittest import mock

from trust_support import kp_inproc

COMPACT = """#include <cuda_runtime.h>
__global__ void compact(const int* flag, int* list, int* cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i]) list[BODY] = i;
}
int main() {
  const int n = 2048;
  int *flag, *list, *cnt;
  cudaMalloc(&flag, n * sizeof(int));
  cudaMalloc(&list, n * sizeof(int));
  cudaMalloc(&cnt, sizeof(int));
  cudaMemset(cnt, 0, sizeof(int));
  compact<<<n / 256, 256>>>(flag, list, cnt, n);
  return 0;
}
"""

SCALARS = """#include <cuda_runtime.h>
__constant__ float w0, w1;
__global__ void scale(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = w0 + w1 * in[i];
}
int main() {
  const int n = 512;
  float *in, *out, a = 0.5f, b = 2.0f;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpyToSymbol(w0, &a, sizeof(float));
  cudaMemcpyToSymbol(w1, &b, sizeof(float));
  scale<<<n / 128, 128>>>(in, out, n);
  return 0;
}
"""


def _verify(path, schedules: str, *more) -> tuple[int, list[dict], str]:
    from kernelport.verify import Verifier
    from kernelport.verify_compiles import Compiles
    with mock.patch.object(Verifier, "_compile_start", lambda self, path, ports: Compiles(None)):
        rc, out, err = kp_inproc("verify", path, "--schedules", schedules, "--format", "json", "--no-cache", *more)
    return rc, (json.loads(out)[0]["checks"] if out.lstrip().startswith("[") else []), out + err


def _numeric(checks, backend: str, schedule: str) -> list[dict]:
    return [c for c in checks if c["kind"] == "numeric" and c["backend"] == backend and c.get("schedule") == schedule]


def test_outputs_that_follow_the_threads_order_are_not_compared_in_another_schedule(tmp_path):
    path = tmp_path / "compact.cu"
    path.write_text(COMPACT.replace("BODY", "atomicAdd(cnt, 1)"))
    rc, checks, text = _verify(path, "block,warp")
    assert rc == 0 and not [c for c in checks if c["status"] == "fail"], text
    assert {c["status"] for c in _numeric(checks, "hip", "block")} == {"pass"}, text
    warp = _numeric(checks, "hip", "warp")
    assert warp and all(c["status"] == "skip" and "depend on the order its threads run in" in c["detail"]
                        and "in the original's own run in this schedule" in c["detail"] for c in warp), text


def test_a_wrong_port_still_fails_where_the_originals_own_run_agrees(tmp_path):
    """The look-alike: `list[i] = i` is the same in any order; the HIP port planted with `i + 1` fails in
    the warp schedule too (the original's own warp run matches its oracle)."""
    path = tmp_path / "compact.cu"
    path.write_text(COMPACT.replace("BODY", "i"))
    assert kp_inproc("translate", path, "--to", "hip")[0] == 0
    hip = next(tmp_path.glob("compact.hip*"))
    hip.write_text(hip.read_text().replace("list[i] = i;", "list[i] = i + 1;"))
    rc, checks, text = _verify(path, "block,warp")
    warp = _numeric(checks, "hip", "warp")
    assert rc == 1 and warp and all(c["status"] == "fail" for c in warp), text


def test_a_metal_port_is_given_the_originals_constant_scalars(tmp_path):
    path = tmp_path / "scale.cu"
    path.write_text(SCALARS)
    rc, checks, text = _verify(path, "block")
    metal = _numeric(checks, "metal", "block")
    assert rc == 0 and metal and all(c["status"] == "pass" for c in metal), text


BESIDE = """#include <cuda_runtime.h>
__global__ void compact(const int* flag, const float* in, int* list, int* cnt, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = in[i];
  __syncthreads();
  out[i] = s[(t + 64) % 256];
  if (flag[i]) list[atomicAdd(cnt, 1)] = i;
}
int main() {
  const int n = 1024;
  int *flag, *list, *cnt;
  float *in, *out;
  cudaMalloc(&flag, n * sizeof(int));
  cudaMalloc(&list, n * sizeof(int));
  cudaMalloc(&cnt, sizeof(int));
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(cnt, 0, sizeof(int));
  compact<<<n / 256, 256>>>(flag, in, list, cnt, out, n);
  return 0;
}
"""


def test_a_wrong_port_beside_an_order_moved_buffer_still_fails(tmp_path):
    """The order moves `list` (the original's own warp run differs from its oracle there), not `out`: the
    HIP port planted without its barrier matches in block lockstep and reads a slot no thread wrote yet in
    the warp schedule; that failure in `out` is the port's and stays a failure (it was a skip: every buffer
    was excused once one was the order's).  The original's port keeps the skip for `list` alone."""
    path = tmp_path / "compact.cu"
    path.write_text(BESIDE)
    rc, checks, text = _verify(path, "block,warp")
    warp = _numeric(checks, "hip", "warp")
    assert warp and all(c["status"] == "skip" for c in warp), text
    assert kp_inproc("translate", path, "--to", "hip")[0] == 0
    hip = next(tmp_path.glob("compact.hip*"))
    assert "__syncthreads();" in hip.read_text()
    hip.write_text(hip.read_text().replace("__syncthreads();", ""))
    rc, checks, text = _verify(path, "block,warp")
    assert {c["status"] for c in _numeric(checks, "hip", "block")} == {"pass"}, text
    warp = _numeric(checks, "hip", "warp")
    assert rc == 1 and warp and all(c["status"] == "fail" and "out[" in c["detail"] for c in warp), text
