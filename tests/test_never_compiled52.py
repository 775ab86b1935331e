"""Code under a test no build takes, NVIDIA's included (`#if 0`), is not KP208 (kernelport/guards.py
never_compiled): heldout52's fastjet_gpu tri_matrix_empty.cu times empty kernels whose bodies sit
under `#if 0`; the original does nothing there, so the port doing nothing is the same program, and
main refused the file ("the HIP port would do nothing")."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def hip(code: str):
    port, _ = translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")
    return port


def codes(port) -> list[str]:
    return [d.code for d in port.diagnostics]


def test_a_kernel_whose_whole_body_no_build_compiles_is_ported_as_it_is():
    port = hip("""
    __global__ void set_jets(int* x) {
    #if 0
      x[threadIdx.x] = 1;
    #endif
    }
    __global__ void half(int* x) {
      x[0] = 2;
    #if 0 && defined(__CUDA_ARCH__)
      x[threadIdx.x] = 1;
    #endif
    }
    """)
    assert port.ok and "KP208" not in codes(port), port.diagnostics
    assert "__global__ void set_jets(int* x) {\n#if 0\n  x[threadIdx.x] = 1;\n#endif\n}" in port.body


def test_look_alikes_nvidia_compiles_are_still_kp208():
    """`#if __CUDA_API_VERSION >= 11000` and the like: nvcc's passes may have the body, no AMD pass
    does, and no toolkit value decides it: still refused (the whole body) as before.  (A test of
    CUDA_VERSION / CUDART_VERSION alone is now evaluated with the toolkit's version, h/hip54's
    version_branches: see the next test.)"""
    for test in ("__CUDA_API_VERSION >= 11000", "1 && __CUDA_API_VERSION >= 11000",
                 "!0 && __CUDA_API_VERSION >= 11000"):
        port = hip(f"""
        __global__ void k(int* x) {{
        #if {test}
          x[threadIdx.x] = 1;
        #endif
        }}
        """)
        assert codes(port) == ["KP208"] and not port.ok, (test, port.diagnostics)


def test_a_toolkit_version_test_takes_the_branch_nvcc_takes():
    """Not `#if 0`: the toolkit's version decides it (CUDA 13 >= 11000), so the body is kept and
    nothing is refused; an older-only branch is the one left out."""
    for test in ("CUDA_VERSION >= 11000", "1 && CUDA_VERSION >= 11000", "!0 && CUDART_VERSION >= 11000"):
        port = hip(f"""
        __global__ void k(int* x) {{
        #if {test}
          x[threadIdx.x] = 1;
        #endif
        }}
        """)
        assert "KP208" not in codes(port) and port.ok, (test, port.diagnostics)
        assert "x[threadIdx.x] = 1;" in port.body, test
