"""`extern __shared__` of a complete type (heldout103, chen-pbf's `extern __shared__ Particle sharedParticles[256];`).
nvcc 13 reads it as a static definition (warning #20044: the PTX holds a `.shared .b8 s[1024]` of the kernel's own,
whatever the launch's dynamic bytes); only an array of unknown bound is dynamic shared memory.  clang refused the HIP
port ("__shared__ variable 'sharedParticles' cannot be 'extern'"), and the Metal port, the lint's shared-memory rules
and the emulator read it as the block's dynamic buffer: every such array aliased the others (a Metal port that wrote
other values, no error).  kernelport/sized_extern_shared.py: the model's `dynamic` is an array of unknown bound; the
HIP port defines it (backend data `extern_shared_definitions_refused`); Metal declares it at kernel scope."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles, metal_checked
from port_support import port_text

KERNEL = """\
struct Particle {
    float x = 0.0f;
    float v = 0.0f;
    __host__ __device__ Particle(float p) : x(p), v(0.0f) {}
};
template <typename T>
__global__ void tile(T *o) {
    extern __shared__ T ts[128];
    ts[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = ts[127 - threadIdx.x];
}
__global__ void k(float *o, const Particle *q) {
    extern __shared__ float a[128];
    extern __shared__ Particle parts[128];
    extern __shared__ int count;
    extern __shared__ float dyn[];
    extern __shared__ float rows[][32];
    a[threadIdx.x] = o[threadIdx.x];
    parts[threadIdx.x] = q[threadIdx.x];
    if (threadIdx.x == 0) count = 3;
    dyn[threadIdx.x] = 1.0f;
    rows[1][threadIdx.x % 32] = 2.0f;
    __syncthreads();
    o[threadIdx.x] = a[127 - threadIdx.x] + parts[0].x + count + dyn[0] + rows[0][0];
}
template __global__ void tile<float>(float *);
"""


def _line(text: str, word: str) -> str:
    return next(ln for ln in text.splitlines() if word in ln)


def test_a_complete_extern_shared_is_defined_in_the_hip_port_and_compiles(tmp_path):
    port = port_text(KERNEL, dedent=False)
    assert _line(port, "float a[128]").strip() == "__shared__ float a[128];"
    assert _line(port, "int count").strip() == "__shared__ int count;"
    # a class (no default constructor, member initializers): the same bytes, uninitialised, as nvcc has them
    parts = _line(port, "kp_parts_storage")
    assert "__shared__ unsigned char kp_parts_storage[sizeof(Particle[128])]" in parts and "extern" not in parts
    assert "Particle (&parts)[128] = *reinterpret_cast<Particle (*)[128]>(kp_parts_storage);" in parts
    assert "T (&ts)[128] = *reinterpret_cast<T (*)[128]>(kp_ts_storage);" in port  # a template parameter's type
    # look-alikes: arrays of unknown bound are dynamic shared memory, which HIP declares as CUDA does
    assert _line(port, "dyn[]").strip() == "extern __shared__ float dyn[];"
    assert _line(port, "rows[][32]").strip() == "extern __shared__ float rows[][32];"
    hip_compiles(tmp_path, port)


def test_a_declaration_mixing_both_kinds_is_left_as_written():
    port = port_text("__global__ void k(float *o) {\n    extern __shared__ float d[], s[4];\n"
                     "    d[0] = s[0]; o[0] = d[1];\n}\n", dedent=False)
    assert "    extern __shared__ float d[], s[4];" in port


def test_the_model_reads_only_an_unknown_bound_as_dynamic():
    from kernelport.model import build
    from kernelport.source import SourceFile
    m = build(SourceFile.from_text(KERNEL, "t.cu"))
    dyn = {s.name: s.dynamic for s in m.shared}
    assert dyn == {"ts": False, "a": False, "parts": False, "count": False, "dyn": True, "rows": True}


def test_metal_declares_a_complete_one_at_kernel_scope_and_keeps_the_dynamic_one_as_threadgroup0():
    text = metal_checked("""\
        __global__ void k(float *o) {
            extern __shared__ float a[64];
            extern __shared__ float b[64];
            extern __shared__ float dyn[];
            a[threadIdx.x] = 1.0f; b[threadIdx.x] = 2.0f; dyn[threadIdx.x] = o[threadIdx.x];
            __syncthreads();
            o[threadIdx.x] = a[63 - threadIdx.x] + b[0] + dyn[1];
        }
        """)
    assert "    threadgroup float a[64];" in text and "    threadgroup float b[64];" in text
    assert "threadgroup float* dyn [[threadgroup(0)]]" in text and "extern" not in text.split("kernel void")[1]


def test_the_emulator_gives_each_complete_one_its_own_bytes_and_dynamic_ones_alias():
    from kernelport.emulator import run_kernel
    own = """
    __global__ void k(float *o) {
        extern __shared__ float a[64];
        extern __shared__ float b[64];
        a[threadIdx.x] = 1.0f; b[threadIdx.x] = 2.0f;
        __syncthreads();
        o[threadIdx.x] = a[63 - threadIdx.x];
    }
    """
    r = run_kernel(own, "k", args=dict(o=np.zeros(64, np.float32)), grid=(1, 1, 1), block=(64, 1, 1))
    assert (r.outputs["o"] == 1.0).all()
    alias = own.replace("a[64]", "a[]").replace("b[64]", "b[]")
    r = run_kernel(alias, "k", args=dict(o=np.zeros(64, np.float32)), grid=(1, 1, 1), block=(64, 1, 1),
                   shared_bytes=256)
    assert (r.outputs["o"] == 2.0).all()
