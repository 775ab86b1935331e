"""The CUDA compiler's macros in directives, spelled for the target (kernelport/directive_macros.py).

Found by the device oracle on the sixteenth held-out set (swsharp's evalue.cu; the cases here are
synthetic): `#ifdef __CUDACC__` groups that split an `if {` / `} else {` parse only with their
directive lines blanked, and the HIP port kept them as written.  hipcc never defines __CUDACC__,
so the port compiled without a single kernel: the CPU path, silently.  The portable port (built by
hipcc too) and the Metal port (the Metal compiler) kept every such test, blanked or parsed."""
from __future__ import annotations

import os
import subprocess
import textwrap

from conftest import require_tool
from kernelport.source import SourceFile
from kernelport.translate import translate

SPLIT = textwrap.dedent("""\
    #include <cstdio>
    #ifdef __CUDACC__
    __global__ static void scale(float* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] *= 2.0f;
    }
    #endif // __CUDACC__

    static void cpu(float* x, int n) { for (int i = 0; i < n; ++i) x[i] *= 2.0f; }

    void run(float* x, int n, int cards) {
    #ifdef __CUDACC__
        if (cards == 0) {
    #endif
            cpu(x, n);
    #ifdef __CUDACC__
        } else {
            scale<<<(n + 127) / 128, 128>>>(x, n);
            cudaDeviceSynchronize();
        }
    #endif
    }
    """)


def hip(code: str):
    src = SourceFile.from_text(code, "split.cu")
    port, _ = translate(src, "hip")
    return src, port


def test_the_split_groups_parse_with_their_directives_blanked():
    src, _ = hip(SPLIT)  # the premise: the repair hid the directive lines (else nothing here is needed)
    assert [m.reason for m in src.masks if "__CUDACC__" in src.data[m.start:m.end].decode()]


def test_every_masked_directive_tests_hips_macro_in_the_port():
    _, port = hip(SPLIT)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__CUDACC__" not in port.body.replace("#endif // __CUDACC__", "")
    assert port.body.count("#ifdef __HIPCC__") == 3
    assert "hipDeviceSynchronize()" in port.body
    notes = [n for n in port.notes if n.before == "__CUDACC__"]
    assert {n.location.line for n in notes} >= {12, 16}  # the blanked ones, located at their lines


def test_a_macro_the_file_defines_itself_keeps_its_name():
    code = "#define __CUDACC_SHIM__ 1\n" + SPLIT.replace("__CUDACC__", "__CUDACC_SHIM__")
    _, port = hip(code)
    assert port.body.count("#ifdef __CUDACC_SHIM__") == 3


def test_the_port_compiles_for_gfx90a_with_its_kernel(tmp_path):
    require_tool("hipcc")
    _, port = hip(SPLIT)
    f = tmp_path / "split.hip"
    f.write_text(port.body if "#include <hip/hip_runtime.h>" in port.body
                 else "#include <hip/hip_runtime.h>\n" + port.body)
    o = tmp_path / "split.o"
    env = dict(os.environ, HIP_PLATFORM="amd")
    r = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-c", str(f), "-o", str(o)],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    syms = subprocess.run(["nm", "-C", str(o)], capture_output=True, text=True).stdout
    assert "scale(float*, int)" in syms  # the kernel's launch stub: the port kept its GPU path


def test_the_portable_port_tests_kp_cudacc_which_both_compilers_define():
    port, _ = translate(SourceFile.from_text(SPLIT, "split.cu"), "portable")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__CUDACC__" not in port.body.replace("#endif // __CUDACC__", "")
    assert port.body.count("#ifdef KP_CUDACC") == 3
    from kernelport import backends
    header = backends.get("portable").extra_files()["kp_warp.h"]
    assert "#if defined(__CUDACC__) || defined(__HIPCC__)\n#define KP_CUDACC 1\n#endif" in header


def test_a_parsed_test_of_the_compiler_macro_in_every_form():
    code = textwrap.dedent("""\
        #if defined(__CUDACC__) && !defined(NO_GPU)
        #define HD __host__ __device__
        #elif __CUDACC__
        #define HD __device__
        #else
        #define HD
        #endif
        #ifndef __CUDACC__
        #error needs a GPU compiler
        #endif
        HD int twice(int x) { return 2 * x; }
        __global__ void k(int* p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
        """)
    port, _ = translate(SourceFile.from_text(code, "hd.cu"), "portable")
    assert "#if defined(KP_CUDACC) && !defined(NO_GPU)" in port.body and "#elif KP_CUDACC" in port.body
    assert "#ifndef KP_CUDACC" in port.body and "__CUDACC__" not in port.body


def test_the_metal_port_tests_the_metal_compilers_macro():
    port, _ = translate(SourceFile.from_text(SPLIT, "split.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#ifdef __METAL_VERSION__\nkernel void scale(" in port.body
    assert "__CUDACC__" not in port.body.replace("#endif // __CUDACC__", "")


def test_the_portable_port_built_by_hipcc_keeps_its_kernel(tmp_path):
    require_tool("hipcc")
    from kernelport import backends
    _, text = translate(SourceFile.from_text(SPLIT, "split.cu"), "portable")
    assert '#include "kp_warp.h"' in text
    (tmp_path / "kp_warp.h").write_text(backends.get("portable").extra_files()["kp_warp.h"])
    f = tmp_path / "split.portable.cu"
    f.write_text(text)
    o = tmp_path / "split.o"
    r = subprocess.run(["hipcc", "-x", "hip", "--offload-arch=gfx90a", "-c", str(f), "-o", str(o)],
                       capture_output=True, text=True, env=dict(os.environ, HIP_PLATFORM="amd"))
    assert r.returncode == 0, r.stderr[-2000:]
    assert "scale(float*, int)" in subprocess.run(["nm", "-C", str(o)], capture_output=True, text=True).stdout
