"""Kernels and device functions defined by a macro's expansion at file scope, in a Metal port (heldout81:
a profiler's example defines 32 kernels as `GFL_KERNEL(0) ... GFL_KERNEL(31)`, each use of
`#define GFL_KERNEL(K) __global__ void distinct_kernel_##K(...) { ... }`).  The grammar sees the uses as
blanks, so main's Metal translation found no device code and wrote nothing, saying (KP227) that the
kernels the file launches are "defined in another file"; with a plain kernel beside them its checker
stopped on the uses' text (`__global__`, `blockIdx` unknown).  Now KP245 refuses the port at the first
use of each such macro, naming the function it defines and its uses (kernelport/backends/metal/
macro_kernels.py); the HIP port keeps the macro (hipcc expands it).  Look-alikes are untouched: an
expression macro, a statement macro inside a kernel, a macro defining a host function, one never used,
and a host-only file that launches kernels defined elsewhere (still KP227)."""
from __future__ import annotations

from conftest import metal_checked, metal_port
from kernelport.source import SourceFile
from kernelport.translate import translate

MADE = r"""
#define MAKE_SCALE(K)                                    \
    __global__ void scale_##K(float* a, int n) {         \
        int i = blockIdx.x * blockDim.x + threadIdx.x;   \
        if (i < n) a[i] = a[i] * (float)K;               \
    }

MAKE_SCALE(2)  MAKE_SCALE(3)
MAKE_SCALE(4)

int main() {
    float* d = 0;
    cudaMalloc(&d, 64 * sizeof(float));
    scale_2<<<1, 64>>>(d, 64);
    cudaFree(d);
    return 0;
}
"""

PLAIN = r"""
__global__ void plain(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
}
"""


def _kp245(code: str):
    port, _ = metal_port(code)
    found = [d for d in port.diagnostics if d.code == "KP245"]
    return port, found


def test_a_kernel_made_by_a_macro_refuses_the_metal_port_at_its_first_use():
    port, found = _kp245(MADE)
    assert not port.ok and len(found) == 1 and found[0].severity == "error", [d.format() for d in port.diagnostics]
    d = found[0]
    assert (d.location.line, d.location.column) == (8, 1)
    assert "'MAKE_SCALE'" in d.message and "__global__ function 'scale_2' (the body's 'scale_##K')" in d.message
    assert "3 file-scope uses" in d.message
    assert not [x for x in port.diagnostics if x.code == "KP227"]  # no "defined in another file"
    # beside a plain kernel, the same refusal (main stopped in the checker on the uses' text)
    port, found = _kp245(PLAIN + MADE)
    assert not port.ok and [d.location.line for d in found] == [13]
    assert not [x for x in port.diagnostics if x.code == "KP224"], [x.format() for x in port.diagnostics]


def test_the_hip_port_keeps_the_macro():
    port, text = translate(SourceFile.from_text(MADE, "t.cu"), "hip")
    assert port.ok and "__global__ void scale_##K(float* a, int n)" in text and "MAKE_SCALE(2)  MAKE_SCALE(3)" in text


def test_through_a_macro_that_pastes_the_name_of_the_one_it_calls():
    code = r"""
#define BASE_KERNEL(T, D) __global__ void k_base_##T##_##D(T* a) { a[threadIdx.x] += (T)D; }
#define TWO_OF(BASE, T) BASE##_KERNEL(T, 1) BASE##_KERNEL(T, 2)
TWO_OF(BASE, float)
""" + PLAIN
    port, found = _kp245(code)
    assert not port.ok and [(d.location.line, d.location.column) for d in found] == [(4, 1)]
    # the name is the inner macro's, its arguments another use's: spelled as its body spells it
    assert "'TWO_OF'" in found[0].message and "function 'k_base_##T##_##D' by" in found[0].message


def test_a_device_function_made_by_a_macro_is_named_a_function():
    code = r"""
#define TWICE_FN(NAME) __device__ float NAME(float x) { return 2.0f * x; }
TWICE_FN(twice)
__global__ void use(float* a) { a[threadIdx.x] = twice(a[threadIdx.x]); }
"""
    port, found = _kp245(code)
    assert not port.ok and len(found) == 1
    assert "__device__ function 'twice' (the body's 'NAME')" in found[0].message and "no such function" in found[0].message
    assert "1 file-scope use of the macro" in found[0].message


def test_look_alikes_port_as_before():
    # an expression macro and a statement macro used inside a kernel
    metal_checked(r"""
        #define SQR(x) ((x) * (x))
        #define GUARD(i, n) if ((i) >= (n)) { return; }
        __global__ void k(float* a, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            GUARD(i, n)
            a[i] = SQR(a[i]);
        }
    """)
    # a macro that defines a kernel, never used: the port is written
    port, found = _kp245("#define MAKE_K(K) __global__ void made_##K(float* a) { a[0] = K; }\n" + PLAIN)
    assert port.ok and not found, [d.format() for d in port.diagnostics]
    # a macro that defines a host function, used at file scope: no KP245 (its uses are host code)
    port, found = _kp245("#define MAKE_HOST(K) int host_##K(void) { return K; }\nMAKE_HOST(1)\nMAKE_HOST(2)\n" + PLAIN)
    assert not found, [d.format() for d in port.diagnostics]
    # host code only, its kernel in another file: KP227 as before
    port, found = _kp245("void launch(float* d);\nint main() { float* d = 0; launch(d); return 0; }\n")
    assert port.ok and port.empty and not found and [d.code for d in port.diagnostics] == ["KP227"]
