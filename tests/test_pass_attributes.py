"""An attribute macro nvcc's device pass alone defines `__device__` (2DMeanField's shared/code_sharing.hpp
`__SHARED_CODE__`) is `__host__ __device__` on both of hipcc's passes where every use declares a function
(kernelport/pass_attributes.py); a variable beside such functions is KP242 at its use; look-alikes keep their text."""
from __future__ import annotations

from port_support import port_text, refusal

DEFINE = """\
#if defined(__CUDACC__) && defined(__CUDA_ARCH__)
#define SHARED_CODE __device__
#else
#define SHARED_CODE
#endif
"""

USES = """\
SHARED_CODE inline float twice(float x) { return 2.0f * x; }
struct Acc { SHARED_CODE float get(float x) const { return twice(x) + 1.0f; } };
__global__ void k(float *p) { Acc a; p[threadIdx.x] = a.get(p[threadIdx.x]); }
float on_host(float y) { return twice(y); }
"""

BOTH = "#define SHARED_CODE __host__ __device__"


def test_a_device_pass_attribute_macro_on_functions_is_host_device_on_both_hipcc_passes(tmp_path):
    from conftest import hip_compiles
    text = port_text(DEFINE + USES)
    assert "#if defined(__HIPCC__)\n" + BOTH + "\n#else\n#define SHARED_CODE\n#endif" in text, text
    hip_compiles(tmp_path, text)


def test_through_a_macro_whose_body_names_it(tmp_path):
    from conftest import hip_compiles
    code = DEFINE + "#define SC_INLINE SHARED_CODE inline\n" + USES.replace("SHARED_CODE inline", "SC_INLINE")
    text = port_text(code)
    assert "#if defined(__HIPCC__)\n" + BOTH + "\n#else\n#define SHARED_CODE\n#endif" in text, text
    hip_compiles(tmp_path, text)


def test_an_ifndef_host_first_spelling_is_mended_too(tmp_path):
    from conftest import hip_compiles
    code = "#ifndef __CUDA_ARCH__\n#define SHARED_CODE __host__\n#else\n#define SHARED_CODE __device__ __forceinline__\n" \
           "#endif\n" + USES.replace("inline float twice", "float twice")
    text = port_text(code)
    assert "#if defined(__HIPCC__)\n#define SHARED_CODE __host__ __device__ __forceinline__\n#else\n" \
           "#define SHARED_CODE __host__\n#endif" in text, text
    hip_compiles(tmp_path, text)


def test_a_variable_beside_the_functions_is_refused_at_its_use():
    errors = refusal(DEFINE + "SHARED_CODE float table[4];\n" + USES, expect="KP242")
    assert [(e.code, e.line, e.column) for e in errors] == [("KP242", 6, 1)], [e.format() for e in errors]


def test_look_alikes_keep_their_text():
    # variables alone: hipcc's two passes already read them as nvcc's
    only_vars = DEFINE + "SHARED_CODE float table[4];\n__global__ void k(float *p) { p[0] = 1.0f; }\n"
    assert "#define SHARED_CODE\n#endif" in port_text(only_vars) and BOTH not in port_text(only_vars)
    # a value per pass, not an execution space
    lanes = "#ifdef __CUDA_ARCH__\n#define LANES 32\n#else\n#define LANES 1\n#endif\n" \
            "__global__ void k(int *p) { p[threadIdx.x] = LANES; }\n"
    assert "#define LANES 1\n#endif" in port_text(lanes)
    # the same attributes on both passes (a compiler test, not a pass test)
    hd = "#ifdef __CUDACC__\n#define HD __host__ __device__\n#else\n#define HD\n#endif\n" \
         "HD inline float f(float x) { return x; }\n__global__ void k(float *p) { p[0] = f(p[0]); }\n"
    text = port_text(hd)
    assert "#ifdef __HIPCC__\n#define HD __host__ __device__\n#else\n#define HD\n#endif" in text, text


def test_a_headers_macro_is_judged_by_the_headers_that_use_it(tmp_path):
    from conftest import assert_hip_file_compiles
    from trust_support import kp_inproc
    d = tmp_path / "p"
    (d / "shared").mkdir(parents=True)
    (d / "shared" / "code_sharing.hpp").write_text("#pragma once\n" + DEFINE)
    (d / "shared" / "filter.hpp").write_text('#pragma once\n#include "code_sharing.hpp"\n' +
                                             USES.split("__global__")[0])
    (d / "k.cu").write_text('#include "shared/filter.hpp"\n'
                            "__global__ void k(float *p) { Acc a; p[threadIdx.x] = a.get(p[threadIdx.x]); }\n")
    rc, _, err = kp_inproc("translate", d / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    out = tmp_path / "out"
    assert rc == 0, err
    assert (out / "shared" / "code_sharing.hip.h").read_text().count(BOTH) == 2
    assert_hip_file_compiles(out / "k.hip")
    # a variable in another header: refused there, located
    (d / "shared" / "filter.hpp").write_text('#pragma once\n#include "code_sharing.hpp"\nSHARED_CODE float lut[4];\n' +
                                             USES.split("__global__")[0])
    rc, _, err = kp_inproc("translate", d / "k.cu", "--to", "hip", "-o", tmp_path / "out2")
    assert rc == 1 and "filter.hpp:3:1: error: KP242" in err, err


def test_the_portable_port_is_host_device_on_hipccs_passes_and_unchanged_for_nvcc(tmp_path):
    """The portable port is built by hipcc too (its `KP_CUDACC && __CUDA_ARCH__` test is false on both of
    hipcc's passes): on main hipcc stopped at "reference to __host__ function 'get' in __global__ function".
    nvcc, which does not define __HIPCC__, still reads the empty host-pass definition."""
    from conftest import require_tool
    from kernelport import backends, toolchains
    from port_support import ported
    port, text = ported(DEFINE + USES, to="portable", dedent=False)
    assert "#if defined(__HIPCC__)\n" + BOTH + "\n#else\n#define SHARED_CODE\n#endif" in text, text
    f = tmp_path / "t.portable.cu"
    f.write_text(text)
    (tmp_path / "kp_warp.h").write_text(backends.get("portable").extra_files()["kp_warp.h"])
    require_tool("hipcc")
    require_tool("nvcc")
    hip = toolchains.compile_hip(f, ("gfx90a", "gfx1030"))
    assert hip.ok, hip.output
    cuda = toolchains.compile_cuda(f)
    assert cuda.ok, cuda.output
