"""Atomics on a template parameter are checked per instance and written `atomic<T>` where every instance has
the atomic (kernelport/backends/metal/atomic_instances.py).  gridinf's graphcut.cu (heldout64) calls
`atomicSub(&excess[i], flow)` / `atomicAdd` on `T *excess` in a `__device__` template helper its template
kernels call: main refused KP212 "no atomics on 'T'" though the instances are int (and float), which Metal's
device atomics support."""
from __future__ import annotations

from conftest import metal_checked, metal_port

_PUSH = """
    template <typename T>
    __device__ void push(T *excess, T *residue, int i, int j) {
        T flow = min(residue[i], excess[i]);
        atomicSub(&excess[i], flow);
        atomicAdd(&excess[j], flow);
        atomicAdd(&residue[j], flow);
    }
    template <typename T>
    __global__ void pushKernel(int *height, T *excess, T *residue, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i + 1 < n && excess[i] > 0 && height[i] == height[i + 1] + 1) push(excess, residue, i, i + 1);
    }
    void run(int *h, TYPE *e, TYPE *r, int n) { pushKernel<<<n / 64, 64>>>(h, e, r, n); }
"""


def _kp212(code: str) -> list[tuple[int, str]]:
    port, _ = metal_port(code)
    return [(d.location.line, d.format()) for d in port.diagnostics if d.code == "KP212"]


def test_a_helpers_atomic_on_t_ports_for_int_instances():
    text = metal_checked(_PUSH.replace("TYPE", "int"))
    assert "atomic_fetch_sub_explicit((device atomic<T>*)(&excess[i]), flow, memory_order_relaxed);" in text
    assert "atomic_fetch_add_explicit((device atomic<T>*)(&residue[j]), flow, memory_order_relaxed);" in text


def test_float_and_int_instances_both_check():
    code = _PUSH.replace("TYPE", "int") + "void runf(int *h, float *e, float *r, int n) { pushKernel<<<1, 64>>>(h, e, r, n); }\n"
    text = metal_checked(code)
    assert text.count("(device atomic<T>*)") == 3


def test_lookalike_a_double_instance_is_refused_at_the_launch_naming_double():
    # stop 61: the instance over double is double's refusal (KP214) at the launch that deduces it, not KP212 at
    # each atomic (one cause, one code)
    port, _ = metal_port(_PUSH.replace("TYPE", "double"))
    got = [(d.code, d.location.line, d.message) for d in port.diagnostics if d.severity == "error"]
    assert got == [("KP214", 14, "Metal has no double-precision type: the instance pushKernel<double> (Metal "
                    "names each instance of a template kernel)")], got


def test_lookalike_a_float_max_is_refused_naming_the_instance():
    got = _kp212(_PUSH.replace("atomicSub", "atomicMax").replace("TYPE", "float"))
    assert [line for line, _ in got] == [5], got
    assert "no float atomic max ('T' = float in an instance of push<...>)" in got[0][1]


def test_lookalike_a_helper_whose_caller_is_not_known_keeps_its_refusal():
    got = _kp212("""
        template <typename T> __device__ void bump(T *c) { atomicAdd(c, (T)1); }
        template <typename T> __global__ void k(T *c) { bump(c); }
    """)
    assert [line for line, _ in got] == [2] and "'T'" in got[0][1], got


def _chain(helpers: int) -> str:
    """A template atomic in h0, reached from an int kernel through `helpers` template helpers h1..hN."""
    lines = ["template <typename T> __device__ void h0(T *p, T v) { atomicAdd(&p[0], v); }"]
    lines += [f"template <typename T> __device__ void h{i}(T *p, T v) {{ h{i - 1}(p, v); }}" for i in range(1, helpers + 1)]
    return "\n".join(lines + [f"__global__ void k(int *p) {{ h{helpers}(p, 1); }}"]) + "\n"


def test_a_caller_chain_past_the_depth_followed_is_a_located_refusal_not_a_traceback():
    # function_instances stops following callers past _DEPTH: main iterated `[None]` there and raised
    # "TypeError: cannot unpack non-iterable NoneType object" out of translate
    got = _kp212(_chain(7))
    assert [line for line, _ in got] == [1] and "the instances of h0<...> are not known here" in got[0][1], got


def test_lookalike_a_chain_within_the_depth_ports_as_atomic_t():
    text = metal_checked(_chain(3))
    assert "atomic_fetch_add_explicit((device atomic<T>*)(&p[0]), v, memory_order_relaxed);" in text, text
