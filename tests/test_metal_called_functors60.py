"""A function object passed by value to a kernel and called (`template <class F> __global__ void apply(F f,
float* x, int n) { x[i] = f(x[i]); }` launched `apply<<<g, b>>>(Scale{2.f}, d, n)`: thrust-style
transforms).  The kernel's by-value argument is `constant F&` in Metal and MSL's unqualified operator() is
a thread object's: main's port was refused (KP224: "'this' object is in address space 'constant'").  The
argument is now bound as `kp_f` and copied at the kernel's entry, as CUDA's by-value parameter is the
thread's own copy (kernelport/backends/metal/argcopies.py).  Look-alikes keep their ports: a functor
passed by pointer, a struct of data read by value, a const member called on the argument (its `constant`
overload), a local functor copied from the argument."""
from __future__ import annotations

import re

from conftest import metal_checked
from trust_support import verify_checks

FUNCTORS = """
struct Scale {
    float s;
    __device__ float operator()(float v) const { return v * s; }
    __device__ float get() const { return s; }
};
struct AddOne {
    __host__ __device__ float operator()(float v) const { return v + 1.0f; }
};
struct Counter {
    int k;
    __device__ float operator()(float v) { return v * (++k); }
};
struct Params { float a; int n; };
struct Twice {
    template <typename T> __device__ T operator()(T v) const { return v + v; }
};
struct Offset {
    float o;
    __device__ float operator()(float v) const;
};
__device__ float Offset::operator()(float v) const { return v + o; }
"""


def test_a_template_kernel_copies_its_functor_argument_and_passes_the_checker():
    text = metal_checked(FUNCTORS + """
template <class F>
__global__ void apply(F f, float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = f(x[i]);
}
void run(float* d, int n) {
    apply<<<(n + 255) / 256, 256>>>(Scale{2.f}, d, n);
    apply<<<(n + 255) / 256, 256>>>(AddOne{}, d, n);
    apply<<<(n + 255) / 256, 256>>>(Twice{}, d, n);
    apply<<<(n + 255) / 256, 256>>>(Offset{1.f}, d, n);
}
""")
    assert "kernel void apply(constant F& kp_f [[buffer(0)]]" in text, text
    assert re.search(r"\{\n\s+F f = kp_f;  // a copy: MSL calls operator\(\) on a thread object\n", text), text
    assert "apply<Scale>(constant Scale& kp_f [[buffer(0)]]" in text and "apply<AddOne>(constant AddOne& kp_f" in text
    # a template operator() and one defined out of its class: the same copy serves every instance
    assert "apply<Twice>(constant Twice& kp_f" in text and "apply<Offset>(constant Offset& kp_f" in text, text
    # the functors' classes as written: no address-space overloads of operator()
    assert "float operator()(float v) const { return v * s; }" in text and "const constant" not in text, text


def test_plain_kernels_a_mutating_functor_and_a_member_beside_the_call():
    text = metal_checked(FUNCTORS + """
__global__ void both(Scale f, float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = f(x[i]) + f.get();
}
__global__ void mutating(Counter c, float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = c(x[i]) + (c)(1.0f);
}
""")
    assert "kernel void both(constant Scale& kp_f [[buffer(0)]]" in text and "Scale f = kp_f;" in text, text
    assert "kernel void mutating(constant Counter& kp_c [[buffer(0)]]" in text and "Counter c = kp_c;" in text, text
    # f.get() is called on the thread copy: its thread member, no `constant` one
    assert "float get() const { return s; }" in text and "const constant" not in text, text


def test_look_alikes_keep_their_ports():
    text = metal_checked(FUNCTORS + """
template <class F>
__global__ void by_pointer(const F* f, float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = (*f)(x[i]);
}
__global__ void plain(Params p, float* x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) x[i] *= p.a;
}
__global__ void member_only(Scale f, float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += f.get();
}
__global__ void local_copy(Scale f, float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { Scale g = f; x[i] = g(x[i]); }
}
void run(float* d, int n, Scale* ps) { by_pointer<<<1, 256>>>(ps, d, n); }
""")
    assert "kp_" not in text, text
    assert "kernel void by_pointer(const device F* f [[buffer(0)]]" in text, text
    assert "kernel void plain(constant Params& p [[buffer(0)]]" in text, text
    assert "kernel void member_only(constant Scale& f [[buffer(0)]]" in text, text
    assert "float get() const constant { return s; }" in text, text  # the constant argument's overload
    assert "kernel void local_copy(constant Scale& f [[buffer(0)]]" in text, text


def test_verify_runs_the_copied_functor_port_against_the_original(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("""
struct Axpy {
    float s;
    int bias;
    __host__ __device__ float operator()(float a, float b) const { return s * a - b + bias; }
};
template <class Op>
__global__ void combine(float* y, const float* x, int n, Op op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = op(x[i], y[i]);
}
int main() {
    int n = 1000;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    Axpy a; a.s = 2.0f; a.bias = 1;
    combine<<<(n + 127) / 128, 128>>>(y, x, n, a);
}
""")
    rc, checks, text = verify_checks(f, compiles=False)
    assert not [c for c in checks if c["kind"] == "translate"], text  # main: Metal not translated (KP224)
    metal = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "metal"]
    assert metal and all(c["status"] == "pass" for c in metal), text
    assert "op.s = 2.0" in text and "op.bias = 1" in text, text  # the functor's data reached the run
