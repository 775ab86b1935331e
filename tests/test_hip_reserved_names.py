"""A name the CUDA file declares that HIP's headers #define (heldout50, Lyra's GPU attack on yescrypt:
yescrypt.h's `extern int yescrypt_init_local(yescrypt_local_t * __local);`): ROCm's
device_library_decls.h has `#define __local __attribute__((address_space(3)))`, so hipcc read the
parameter as an address space ("parameter may not be qualified with an address space") and the port
did not compile.  The HIP port renames such a name everywhere it names the file's declaration, as the
Metal port renames Metal's words (kernelport/reserved_names.py, the backends' `reserved_words`)."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import ported, port_text

CODE = """
typedef struct { int n; } local_t;
extern int init_local(local_t * __local);
__device__ int scaled(int __local) { return __local * 2; }
__global__ void k(int* out, int __local_) {
    int __local = out[threadIdx.x];
    out[threadIdx.x] = scaled(__local) + __local_;
}
"""


def test_a_declared_macro_name_of_hips_headers_is_renamed_everywhere():
    port, text = ported(CODE)
    assert "extern int init_local(local_t * __local_2);" in text
    assert "__device__ int scaled(int __local_2) { return __local_2 * 2; }" in text
    assert "int __local_2 = out[threadIdx.x];" in text
    assert "out[threadIdx.x] = scaled(__local_2) + __local_;" in text  # the file's own `__local_`, as written
    assert "__local " not in text and "__local)" not in text and "__local;" not in text
    assert port.renamed == {"__local": "__local_2"}
    assert any("macro of HIP's headers" in n.why for n in port.notes)


def test_the_port_compiles_with_hipcc(tmp_path):
    hip_compiles(tmp_path, port_text(CODE), "r.hip")


def test_look_alikes_are_left_as_written():
    """`__local` only in a comment and a string, and names that merely contain it: nothing to rename."""
    code = """
    // the __local buffer
    __global__ void k(int* out, int __localx, int local) {
        const char* s = "__local";
        out[threadIdx.x] = __localx + local + s[0];
    }
    """
    port, text = ported(code)
    assert "int __localx, int local" in text and '"__local"' in text and "// the __local buffer" in text
    assert port.renamed == {}


def test_the_portable_port_renames_it_too():
    """The portable port is compiled by hipcc on AMD: the same header macro."""
    text = port_text(CODE, to="portable")
    assert "__device__ int scaled(int __local_2) { return __local_2 * 2; }" in text


def test_metal_still_renames_its_own_words_and_opencls_address_spaces():
    """The pass is shared now: Metal's words as before (`thread` -> `thread_`), and OpenCL's `__local`, an
    address space to the checker's clang (on main: KP224, "parameter may not be qualified with an address space")."""
    port, text = ported("""
    __global__ void k(float* out, int __local) {
        int thread = threadIdx.x;
        out[thread] = (float)__local;
    }
    """, to="metal")
    assert "int thread_ = " in text and "out[thread_]" in text
    assert "constant int& __local_ [[buffer(1)]]" in text and "(float)__local_;" in text
    assert port.renamed == {"thread": "thread_", "__local": "__local_"}
