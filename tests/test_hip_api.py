"""CUDA API names and headers in the HIP port: HIPIFY's table, exact; a name it cannot spell is
KP210 at its line, never a guessed hipX; the user's own names (`cumsum`, `cur`, a declared
`cudaStatus`) are never taken for API."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kernelport import backends
from kernelport.backends import api_table
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles


def hip(code: str, **kw):
    src = SourceFile.from_text(textwrap.dedent(code), "t.cu")
    port, _ = translate(src, "hip", **kw)
    return port


def body(code: str) -> str:
    port = hip(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    return port.body


def errors(port) -> list[tuple[str, int, str]]:
    return [(d.code, d.location.line, d.message) for d in port.diagnostics if d.severity == "error"]


TABLE = backends.get("hip").api()


def test_the_table_names_hipify_its_commit_and_its_license():
    text = Path(backends.__file__).with_name("hip_api.tsv").read_text()
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert any("HIPIFY (https://github.com/ROCm/HIPIFY) commit " in line for line in head)
    assert any("Permission is hereby granted, free of charge" in line for line in head)  # MIT
    assert "commit" in TABLE.source and len(TABLE.entries) > 8000


@pytest.mark.parametrize("cuda, hip_name", [
    ("cudaDeviceProp", "hipDeviceProp_t"), ("cudaError_t", "hipError_t"), ("cudaStream_t", "hipStream_t"),
    ("CUdeviceptr", "hipDeviceptr_t"), ("cudaMemcpyKind", "hipMemcpyKind"), ("cublasHandle_t", "hipblasHandle_t"),
    ("curandState", "hiprandState"), ("cufftHandle", "hipfftHandle"), ("cusparseHandle_t", "hipsparseHandle_t"),
    ("__float2half", "__float2half"), ("__hmul2", "__hmul2"), ("cub", "hipcub"),
    ("cuda_fp16.h", "hip/hip_fp16.h"), ("curand_kernel.h", "hiprand/hiprand_kernel.h"), ("curand.h", "hiprand/hiprand.h"),
    ("cufft.h", "hipfft/hipfft.h"), ("cuda_runtime_api.h", "hip/hip_runtime_api.h"),
    # kernelport's own header paths: ROCm >= 5.2 installs the libraries in folders (the flag says so)
    ("cublas_v2.h", "hipblas/hipblas.h"), ("cusparse.h", "hipsparse/hipsparse.h"),
])
def test_table_spellings(cuda, hip_name):
    assert TABLE.spelling(cuda) == hip_name
    assert ("kernelport" in TABLE.get(cuda).flag_set) == (cuda in ("cublas_v2.h", "cusparse.h"))


def test_types_enums_functions_and_library_names_are_mapped_exactly():
    out = body("""
    #include <cuda_runtime.h>
    #include <cublas_v2.h>
    int main() {
        cudaDeviceProp prop;
        cudaGetDeviceProperties(&prop, 0);
        CUdeviceptr dp = 0;
        cudaMemcpyKind kind = cudaMemcpyHostToDevice;
        cublasHandle_t handle;
        cublasCreate(&handle);
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        return (int)dp + (int)kind;
    }
    """)
    assert "hipDeviceProp_t prop;" in out and "hipGetDeviceProperties(&prop, 0);" in out
    assert "hipDeviceptr_t dp = 0;" in out and "hipMemcpyKind kind = hipMemcpyHostToDevice;" in out
    assert "hipblasHandle_t handle;" in out and "hipblasCreate(&handle);" in out
    assert "hipStreamCreateWithFlags(&s, hipStreamNonBlocking);" in out
    assert "#include <hipblas/hipblas.h>" in out and "cublas_v2" not in out


def test_half_intrinsics_curand_and_cub():
    out = body("""
    #include <cuda_fp16.h>
    #include <curand_kernel.h>
    #include <cub/block/block_reduce.cuh>
    __global__ void k(__half* h, float* x, curandState* st) {
        int i = threadIdx.x;
        curand_init(1234, i, 0, &st[i]);
        h[i] = __hadd(h[i], __float2half(curand_uniform(&st[i])));
        typedef cub::BlockReduce<float, 128> BR;
        __shared__ typename BR::TempStorage tmp;
        x[0] = BR(tmp).Sum(__half2float(h[i]));
    }
    """)
    assert "#include <hip/hip_fp16.h>" in out and "#include <hiprand/hiprand_kernel.h>" in out
    assert "#include <hipcub/hipcub.hpp>" in out  # a cub sub-header: the library's main header
    assert "hiprandState* st" in out and "hiprand_init(1234, i, 0, &st[i]);" in out
    assert "__hadd(h[i], __float2half(hiprand_uniform(&st[i])))" in out  # same names on HIP: unchanged
    assert "typedef hipcub::BlockReduce<float, 128> BR;" in out


def test_unsupported_and_unknown_api_names_are_located_errors_never_guesses():
    port = hip("""
    #include <cuda_runtime.h>
    int main() {
        size_t v;
        cudaThreadGetLimit(&v, cudaLimitMallocHeapSize);
        cudaFooBar(1);
        cuFooBar();
        return 0;
    }
    """)
    errs = errors(port)
    # cuFooBar: the driver API's shape is user code's too (apex's cuWelfordMuSigma2): only the table decides
    assert [(c, line) for c, line, _ in errs] == [("KP210", 5), ("KP210", 6)]
    assert "`cudaThreadGetLimit` has no HIP equivalent (HIPIFY: unsupported)" in errs[0][2]
    assert "`cudaFooBar` has no HIP equivalent (HIPIFY has no such name)" in errs[1][2]
    assert port.diagnostics[0].location.column == 5


def test_measured_rocm_wins_over_hipify_only_where_the_probe_found_the_name_in_device_code():
    assert TABLE.get("make_half2").hipcc == "present" and TABLE.spelling("make_half2") == "make_half2"
    assert body("__global__ void k(__half2* h) { h[0] = make_half2(h[0].x, h[0].y); }\n")
    # HIPIFY's unsupported device function with no HIP name, that ROCm lacks too: KP210
    assert TABLE.get("__hfma_relu").hipcc == "-" and TABLE.spelling("__hfma_relu") is None
    # a row with no HIP name: only a device function the probe found present is spelled by its CUDA
    # name; one not probed (unchecked) or absent has no spelling
    for hipcc, target in (("present", "__hfoo"), ("unchecked", ""), ("absent", ""), ("ok", ""), ("-", "")):
        e = api_table.Entry("__hfoo", "", "device-function", "unsupported", "-", hipcc)
        assert e.target == target, hipcc
    port = hip("__global__ void k(__half* a) { a[0] = __hfma_relu(a[0], a[1], a[2]); }\n")
    assert [c for c, _, _ in errors(port)] == ["KP210"]


def test_unported_api_names_stay_as_written_behind_a_marker():
    port = hip("int main() { cudaFooBar(1); return 0; }\n", allow_unported=True)
    assert "/* KERNELPORT-UNPORTED KP210" in port.body and "cudaFooBar(1)" in port.body
    assert "hipFooBar" not in port.body


def test_user_names_that_look_like_api_are_left_alone():
    """Look-alikes: names that merely start with cu, a declared cudaX variable or helper, a macro."""
    out = body("""
    #define CUDA_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) return 1; } while (0)
    #define cudaCheck(x) (x)
    __device__ float cumsum(float* a, int n) { float s = 0; for (int cur = 0; cur < n; ++cur) s += a[cur]; return s; }
    static int cudaHelperCount(int cuda) { return cuda; }
    __global__ void k(float* a, int n) { a[0] = cumsum(a, n); }
    int main() {
        cudaError_t cudaStatus = cudaSuccess;
        float* p;
        CUDA_CHECK(cudaMalloc(&p, 4));
        cudaCheck(cudaStatus);
        return cudaHelperCount(1) + (cudaStatus != cudaSuccess);
    }
    """)
    assert "hipError_t cudaStatus = hipSuccess;" in out  # the variable is the user's: kept
    assert "cumsum(a, n)" in out and "cudaCheck(cudaStatus);" in out and "cudaHelperCount(1)" in out
    assert "CUDA_CHECK(hipMalloc(&p, 4));" in out
    assert "#define CUDA_CHECK(x) do { hipError_t e = (x); if (e != hipSuccess) return 1; } while (0)" in out


def test_a_declared_user_function_shaped_like_api_is_left_alone_on_every_backend():
    code = ("__device__ float cudaWelford(float x) { return x; }\n"
            "__global__ void k(float* x) { x[threadIdx.x] = cudaWelford(x[threadIdx.x]); }\n")
    for backend in ("hip", "metal", "portable"):
        port, _ = translate(SourceFile.from_text(code, "t.cu"), backend)
        assert port.ok and "cudaWelford(x[" in port.body, backend


def test_a_declared_name_is_not_refused_and_an_undeclared_one_is():
    declared = hip("int cudaOwnHelper(int x) { return x; }\nint main() { return cudaOwnHelper(1); }\n")
    assert declared.ok and "cudaOwnHelper(1)" in declared.body
    undeclared = hip("int main() { return cudaOwnHelper(1); }\n")
    assert [c for c, _, _ in errors(undeclared)] == ["KP210"]


def test_a_name_with_no_spelling_under_an_undecided_test_is_a_warning_left_as_written():
    """`#ifdef DEBUG` code (hecbench cfd's misspelt cudaMemDeviceToHost) is compiled by some builds only."""
    port = hip("""
    #ifndef T_H
    #define T_H
    void f(float* h, float* d, int n) {
    #ifdef DEBUG
        cudaMemcpy(h, d, n, cudaMemDeviceToHost);
    #endif
        cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
    }
    #endif
    """)
    assert port.ok and "cudaMemDeviceToHost" in port.body and "hipMemDeviceToHost" not in port.body
    (d,) = port.diagnostics
    assert (d.code, d.severity, d.location.line) == ("KP210", "warning", 6)
    # the same line outside the test (the include guard is no such test): an error
    bare = hip("#ifndef T_H\n#define T_H\nvoid f(float* h, float* d, int n) { cudaMemcpy(h, d, n, cudaMemDeviceToHost); }\n#endif\n")
    assert [c for c, _, _ in errors(bare)] == ["KP210"]


def test_cuda_only_code_is_not_refused():
    port = hip("""
    #ifdef __HIP_PLATFORM_AMD__
    int f() { return 0; }
    #else
    int f() { size_t v; cudaThreadGetLimit(&v, cudaLimitStackSize); return (int)v; }
    #endif
    """)
    assert port.ok and "cudaThreadGetLimit" in port.body


def test_a_name_missing_from_the_checked_rocm_is_a_warning_and_still_mapped():
    e = TABLE.get("cudaGraphNodeParams")
    assert e.hipcc == "absent" and e.since == "6.1.0"
    port = hip("void f(cudaGraphNodeParams* p) { }\n")
    assert port.ok and "void f(hipGraphNodeParams* p)" in port.body
    (d,) = port.diagnostics
    assert (d.code, d.severity, d.location.line) == ("KP210", "warning", 1)
    assert "ROCm 5.2" in d.message and "from ROCm 6.1.0" in d.message
    assert hip("void f(cudaStream_t s) { }\n").diagnostics == []  # present in ROCm 5.2: no warning


def test_toolkit_headers_without_a_counterpart_are_kp209_project_headers_are_kept():
    port = hip('#include <cuda_awbarrier.h>\n#include "cuda_helpers.h"\n#include <device_launch_parameters.h>\n'
               '__global__ void k(float* x) { x[0] = 1; }\n')
    assert [(c, line) for c, line, _ in errors(port)] == [("KP209", 1)]
    ok = body('#include "cuda_helpers.h"\n#include <device_launch_parameters.h>\n#include <thrust/device_vector.h>\n'
              '__global__ void k(float* x) { x[0] = 1; }\n')
    assert '#include "cuda_helpers.h"' in ok and "device_launch_parameters" not in ok
    assert "#include <thrust/device_vector.h>" in ok  # rocThrust keeps thrust/


@pytest.mark.parametrize("header", ["cupti.h", "cupti_callbacks.h", "nvperf_host.h", "nvml.h"])
def test_nvidias_profiling_and_management_headers_are_kp209_at_the_include(header):
    """CUPTI, NVPerf and NVML have no HIP counterpart in the API table: the include is refused at
    its line (gpu-benches' nvperf_host.h was kept, and the port then failed hipcc without a word)."""
    port = hip(f"#include <{header}>\n__global__ void k(float* x) {{ x[0] = 1; }}\n")
    assert [(c, line) for c, line, _ in errors(port)] == [("KP209", 1)]


def test_an_include_under_has_include_of_itself_is_the_authors_guard():
    """llm.c's mfu.h: `#if __has_include(<nvml.h>)` / `#include <nvml.h>` / `#else` / `#define
    USE_NVML 0`: hipcc takes the #else, so the include is not refused; in the #else it would be."""
    guarded = "#if __has_include(<nvml.h>)\n#include <nvml.h>\n#define USE_NVML 1\n#else\n#define USE_NVML 0\n#endif\n"
    assert errors(hip(guarded + "__global__ void k(float* x) { x[0] = USE_NVML; }\n")) == []
    misplaced = "#if __has_include(<nvml.h>)\n#define USE_NVML 1\n#else\n#include <nvml.h>\n#endif\n"
    assert [c for c, _, _ in errors(hip(misplaced + "__global__ void k(float* x) { x[0] = 1; }\n"))] == ["KP209"]


def test_api_renames_are_notes_with_their_kind():
    port = hip("#include <curand.h>\nint main() { cudaDeviceProp p; return 0; }\n")
    cats = sorted((n.before, n.after, n.category) for n in port.notes)
    assert cats == [("cudaDeviceProp", "hipDeviceProp_t", "api:runtime-type"),
                    ("curand.h", "hiprand/hiprand.h", "api:header-rand")]


def test_the_portable_header_spells_hips_runtime_from_the_table():
    text = backends.get("portable").extra_files()["kp_warp.h"]
    assert "hipDeviceProp_t" in text and "hipDeviceProp " not in text


def test_reader_skips_comments_and_the_column_line(tmp_path):
    f = tmp_path / "t.tsv"
    f.write_text("# HIPIFY commit abc\ncuda\thip\tkind\tflags\tsince\thipcc\n"
                 "cudaX\thipX\truntime-function\tunsupported\t-\t-\ncudaY\thipY\truntime-type\t-\t5.2.0\tok\n")
    t = api_table.read(f)
    assert set(t.entries) == {"cudaX", "cudaY"} and t.spelling("cudaX") is None and t.spelling("cudaY") == "hipY"
    assert t.source == "HIPIFY commit abc"


def test_a_name_declared_in_an_included_header_is_the_users_own(tmp_path):
    """llm.c's `cudaCheck` is a macro of its common header: the project's own name, not an API name
    to refuse (it was 460 KP210s over the corpus).  The look-alike: with the header's definition
    gone, the same call is refused."""
    import subprocess
    import sys

    (tmp_path / "common.h").write_text("#include <cstdio>\n#define cudaCheck(e) do { if ((e) != 0) "
                                       "printf(\"fail\\n\"); } while (0)\nvoid cudaFreeCheck(float* p);\n")
    (tmp_path / "k.cu").write_text('#include "common.h"\n__global__ void k(float* x) { x[threadIdx.x] = 1; }\n'
                                   "int main() { float* p; cudaCheck(cudaMalloc(&p, 4)); cudaFreeCheck(p); }\n")
    cmd = [sys.executable, "-m", "kernelport", "translate", str(tmp_path / "k.cu"), "--to", "hip", "--stdout"]
    ok = subprocess.run(cmd, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "cudaCheck(hipMalloc(&p, 4))" in ok.stdout and "cudaFreeCheck(p)" in ok.stdout
    (tmp_path / "common.h").write_text("#include <cstdio>\n")
    refused = subprocess.run(cmd, capture_output=True, text=True)
    assert refused.returncode == 1 and "KP210 `cudaCheck`" in refused.stderr and "KP210 `cudaFreeCheck`" in refused.stderr


# -- kernelport's own rows: call templates and CUDA's header guards -------------------------------

def test_cache_hinted_loads_and_stores_are_plain_accesses_nested_rewrites_compose():
    out = body("""
    __global__ void k(float* out, const float* in, int i) {
        float v = __ldcs(in + i);
        __stcg(&out[i], v + __ldcg(&in[threadIdx.x]));
        __stwt(out, __ldlu(in));
    }
    """)
    assert "float v = (*(in + i));" in out
    assert "(*(&out[i]) = (v + (*(&in[threadIdx.x]))));" in out
    assert "(*(out) = ((*(in))));" in out
    assert "__ld" not in out and "__st" not in out
    assert "kernelport" in TABLE.get("__stcg").flag_set and TABLE.spelling("__stcg") is None  # no plain name


def test_umin_and_friends_are_min_max_on_cudas_argument_type():
    out = body("__global__ void k(unsigned* a, long long* b) {\n"
               "  a[0] = umin(a[0], 3); b[0] = llmax(b[1], -1ll); b[1] = (long long)ullmin(b[2], 7);\n}\n")
    assert "a[0] = min((unsigned int)(a[0]), (unsigned int)(3));" in out
    assert "b[0] = max((long long int)(b[1]), (long long int)(-1ll));" in out
    assert "min((unsigned long long int)(b[2]), (unsigned long long int)(7))" in out


def test_a_templated_name_used_other_than_as_its_call_is_kp210_and_a_users_own_is_left():
    port = hip("__global__ void k(float* p) { p[0] = __ldcg(p, 1); }\n"
               "__global__ void g(float* p) { auto f = __stcs; f(p, 1.0f); }\n")
    errs = errors(port)
    assert [(c, line) for c, line, _ in errs] == [("KP210", 1), ("KP210", 2)]
    assert "only as a call with 1 argument(s): (*(arg1))" in errs[0][2]
    own = body("__device__ unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }\n"
               "__global__ void k(unsigned* a) { a[0] = umin(a[0], a[1]); }\n")
    assert "a[0] = umin(a[0], a[1]);" in own


def test_cuda_header_guards_become_hips_and_only_they():
    """cuda-samples' helper_cuda.h defines checkCudaErrors under `#ifdef __DRIVER_TYPES_H__`."""
    out = body("""
    #include <cuda_runtime.h>
    #ifdef __DRIVER_TYPES_H__
    #define checkCudaErrors(val) (val)
    #endif
    #if defined(__CUDA_RUNTIME_H__) && !defined(MY__DRIVER_TYPES_H__)
    int rt;
    #endif
    #ifdef cudaSomethingNew
    int n;
    #endif
    #if defined(cudaOther)
    int o;
    #endif
    """)
    assert "#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H\n" in out
    assert "#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H) && !defined(MY__DRIVER_TYPES_H__)" in out
    # a CUDA-looking macro the table does not know, only tested: false on HIP as written, never refused
    assert "#ifdef cudaSomethingNew" in out and "#if defined(cudaOther)" in out


def test_ifdef_names_a_macro_without_declaring_it():
    from kernelport.api_names import declared_names
    src = SourceFile.from_text("#ifdef cudaA\nint x;\n#endif\n#define cudaB 1\n", "t.cu")
    names = declared_names(src.index.order, src.text_of)
    assert "cudaB" in names and "cudaA" not in names


def test_a_macro_body_that_does_not_parse_gets_the_tables_renames_outside_literals():
    """cuda-samples simpleMPI: `#call` makes the body no statement; its API names still need HIP's."""
    out = body('''
    #include <cuda_runtime.h>
    #define CHECK(call) \\
        if ((call) != cudaSuccess) { \\
            cudaError_t err = cudaGetLastError(); \\
            printf("cudaSuccess? %s %c", #call, 'x'); \\
            myCudaHelper(err); \\
        }
    int myCudaHelper(int);
    int main() { CHECK(cudaDeviceSynchronize()); return 0; }
    ''')
    assert "if ((call) != hipSuccess) {" in out and "hipError_t err = hipGetLastError();" in out
    assert 'printf("cudaSuccess? %s %c", #call' in out
    assert "myCudaHelper(err)" in out  # declared in the file: the user's own
    # a name with no spelling stays as written in such a body (no call or line to refuse at)
    kept = body("#define F(x) if (x) { cudaThreadGetLimit(0, #x); }\n")
    assert "cudaThreadGetLimit(0, #x)" in kept


def test_a_template_call_names_an_api_function_without_declaring_it():
    """cuda-samples SobelFilter: `cudaCreateChannelDesc<uchar4>()` kept every call of the name as written."""
    out = body("#include <cuda_runtime.h>\n"
               "void f() { cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();\n"
               "  cudaChannelFormatDesc e = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned); }\n")
    assert "hipCreateChannelDesc<uchar4>()" in out and "hipCreateChannelDesc(8, 8, 8, 8," in out
    own = body("template <typename T> T cudaMine(T x) { return x; }\nint g() { return cudaMine<int>(1); }\n")
    assert "cudaMine<int>(1)" in own  # declared in the file: the user's own

def test_an_entry_names_its_api_and_role():
    table = backends.get("hip").api()
    e = table.get("cudaMalloc")
    assert (e.api, e.role, e.is_header) == ("runtime", "function", False)
    h = table.get("cuda_runtime.h")
    assert (h.api, h.role, h.is_header) == ("runtime", "header", True)
    assert table.get("cuInit").api == "driver"


# The CUDA Handbook's chCUDA.h: CUDA's header where CUDA is, stand-ins of its API where it is not.
STAND_INS = """
#ifndef NO_CUDA
#include <cuda_runtime.h>
#else
typedef int cudaError_t;
static inline cudaError_t cudaSetDevice(int device) { return 1; }
#endif
__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }
int main() { cudaSetDevice(0); return 0; }
"""


@pytest.mark.parametrize("code", [STAND_INS, STAND_INS.replace("#ifndef NO_CUDA\n#include <cuda_runtime.h>\n#else",
                                                               "#ifdef NO_CUDA").replace(
                                                                   "#endif", "#else\n#include <cuda.h>\n#endif")])
def test_stand_ins_for_builds_without_cuda_do_not_make_the_api_the_users_own(code):
    out = body(code)
    assert "int main() { hipSetDevice(0); return 0; }" in out
    assert "static inline hipError_t hipSetDevice(int device)" in out  # the stand-in follows, for its build


def test_the_same_declaration_outside_such_a_conditional_is_the_users_own():
    # look-alikes: declared unconditionally, or in a branch whose other branch includes no CUDA header
    for code in (STAND_INS.replace("#ifndef NO_CUDA\n#include <cuda_runtime.h>\n#else\n", "").replace("#endif\n", ""),
                 STAND_INS.replace("#include <cuda_runtime.h>", "#include <stdio.h>")):
        out = body(code)
        assert "int main() { cudaSetDevice(0); return 0; }" in out, out


def test_an_angled_include_found_on_the_include_path_is_the_projects_own_header(tmp_path):
    """ccminer writes `#include <cuda_helper.h>` for its own header, found through its build's `-I.`:
    a name shaped like the toolkit's is not a toolkit header where the run's include path holds it
    (it was KP209 'no HIP equivalent', refusing every file that included it)."""
    import subprocess
    import sys

    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "cuda_helper.h").write_text("#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))\n")
    (tmp_path / "k.cu").write_text("#include <cuda_helper.h>\n"
                                   "__global__ void k(unsigned* x) { x[threadIdx.x] = ROTL(x[0], 3); }\n")
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "hip", include_dirs=(str(tmp_path / "inc"),))
    assert port.ok and "#include <cuda_helper.h>" in port.body
    cmd = [sys.executable, "-m", "kernelport", "translate", str(tmp_path / "k.cu"), "--to", "hip", "--stdout"]
    ok = subprocess.run(cmd + ["-I", str(tmp_path / "inc")], capture_output=True, text=True)
    assert ok.returncode == 0 and "#include <cuda_helper.h>" in ok.stdout, ok.stderr
    # the look-alike: not on the include path, the same name is a toolkit-looking header with no counterpart
    refused = subprocess.run(cmd, capture_output=True, text=True)
    assert refused.returncode == 1 and "KP209 <cuda_helper.h>" in refused.stderr


def test_an_array_of_vector_types_zeroed_with_brace_zero_is_brace_empty_on_hip():
    """ccminer: `uint2 keccak_gpu_state[25] = { 0 };` -- CUDA's uint2 is an aggregate; HIP's is a class
    (HIP_vector_type): hipcc says "no viable conversion from 'int' to 'uint2'".  `{}` zeroes alike."""
    code = ("__global__ void k(unsigned long long* out) {\n"
            "    uint2 state[25] = { 0 };\n    uint2 one = { 0 };\n    int plain[4] = { 0 };\n"
            "    uint2 pair[2] = { 0, 1 };\n"
            "    out[threadIdx.x] = state[3].x + one.y + plain[1] + pair[1].x;\n}\n")
    text = body(code)
    assert "    uint2 state[25] = {};\n" in text
    # the look-alikes: an array of scalars, an initializer with values: as written; a single vector's short
    # list is completed with zeros (kernelport/vector_short_lists.py: hipcc reads `{x}` as a broadcast)
    assert "    uint2 one = { 0, 0};\n" in text and "    int plain[4] = { 0 };\n" in text and "{ 0, 1 }" in text
    metal, _ = translate(SourceFile.from_text(code, "t.cu"), "metal")  # Metal's vectors take it as written
    assert "uint2 state[25] = { 0 };" in metal.body


def test_cudas_own_attribute_spellings_are_the_targets():
    """ccminer's vector headers: `struct __builtin_align__(32) uint48`, `typedef __device_builtin__
    struct ulong8 ulong8;` -- CUDA's host_defines.h spellings; ROCm 5.2 has `__align__` and no
    `__device_builtin__` (hipcc: "unknown type name '__device_builtin__'")."""
    code = ("typedef struct __builtin_align__(32) uint48 { uint4 s0, s1; } uint48;\n"
            "struct __align__(16) pair { uint2 a, b; };\n"
            "typedef __device_builtin__ struct pair pair_t;\n"
            "// __builtin_align__ in a comment stays\n"
            "__global__ void k(uint48* p, pair_t* q) { p[threadIdx.x].s0.x = q[0].a.x; }\n")
    text = body(code)
    assert "typedef struct __align__(32) uint48 {" in text and "struct __align__(16) pair {" in text
    assert "typedef  struct pair pair_t;" in text and "__device_builtin__" not in text
    assert "// __builtin_align__ in a comment stays" in text


def test_the_register_storage_class_goes_from_the_hip_port(tmp_path):
    """gvdb's `register float ht[8];`: C++17 removed `register` (it had no effect); nvcc -std=c++17 warns
    and ignores it, hipcc refuses it ("ISO C++17 does not allow 'register' storage class specifier")."""
    code = ("__device__ float f(const float* p) {\n    register float ht[8];\n"
            "    register int i = 0;\n    for (; i < 8; i++) ht[i] = p[i];\n    return ht[7];  // register in a comment stays\n}\n"
            "__global__ void k(float* p) { register_me: p[0] = f(p); }\n")
    text = body(code)
    assert "    float ht[8];" in text and "    int i = 0;" in text and "register float" not in text
    assert "// register in a comment stays" in text and "register_me:" in text  # a longer name is no keyword
    # Metal drops it too (re-pinned in stop 48, h/metal48: this said Metal's C++14 takes it, but the MSL
    # specification lists `register` among the C++14 features Metal lacks, and the checker refused it)
    metal, _ = translate(SourceFile.from_text(code, "t.cu"), "metal")
    assert "    float ht[8];" in metal.body and "register float" not in metal.body and "register_me:" in metal.body
    from conftest import require_tool
    require_tool("hipcc")
    port, full = translate(SourceFile.from_text(code, "t.cu"), "hip")
    (tmp_path / "t.hip").write_text(full)
    assert_hip_file_compiles(tmp_path / "t.hip", ["gfx90a", "gfx1030"])  # -std=c++17

def test_trap_is_the_compilers_builtin_trap():
    """CUDA's __trap() stops the kernel; ROCm 5.2 declares no __trap, and its own abort() and device
    assert are __builtin_trap() (CGBN's error monitor halts an instance with __trap)."""
    out = body("__global__ void k(int* p) {\n  if (p[0] < 0) __trap();\n}\n")
    assert "if (p[0] < 0) __builtin_trap();" in out
    assert "kernelport" in TABLE.get("__trap").flag_set


def test_a_declaration_a_cuda_build_skips_stands_in_for_cudas_own():
    """gpujpeg's public header declares CUDA's stream type itself under `#ifndef __DRIVER_TYPES_H__`
    (for C users without the toolkit): a CUDA build skips it, so the name stays the toolkit's and
    every use is ported; under a user macro the same declaration is the user's own."""
    code = ("#ifndef __DRIVER_TYPES_H__\nstruct CUstream_st;\ntypedef struct CUstream_st *cudaStream_t;\n#endif\n"
            "#include <cuda_runtime.h>\nvoid run(cudaStream_t s) { cudaStreamSynchronize(s); }\n")
    out = body(code)
    assert "void run(hipStream_t s) { hipStreamSynchronize(s); }" in out
    assert "#ifndef HIP_INCLUDE_HIP_DRIVER_TYPES_H" in out
    out = body(code.replace("#ifndef __DRIVER_TYPES_H__", "#ifdef __CUDACC__\n#else"))
    assert "void run(hipStream_t s)" in out
    own = body(code.replace("__DRIVER_TYPES_H__", "MY_STREAMS"))
    assert "void run(cudaStream_t s)" in own


def test_an_elaborated_type_specifier_is_the_targets_bare_name():
    """`struct cudaGraphicsResource*` (gpujpeg), `enum cudaError`: HIP declares hipGraphicsResource and
    hipError_t only as typedefs, which `struct`/`enum` cannot name; the bare name means the same."""
    out = body("#include <cuda_runtime.h>\nstruct holder { struct cudaGraphicsResource* res; enum cudaError last; };\n"
               "int f(struct cudaGraphicsResource* r) { return sizeof(struct cudaChannelFormatDesc) + (r != 0); }\n")
    assert "struct holder { hipGraphicsResource* res; hipError_t last; };" in out
    assert "int f(hipGraphicsResource* r) { return sizeof(hipChannelFormatDesc) + (r != 0); }" in out


def test_host_get_device_pointer_takes_any_pointer_to_pointer():
    """CUDA's C++ API has cudaHostGetDevicePointer as a template over `T**` (xmrig-cuda passes a
    `uint8_t**`); HIP declares only `void**`: the overload row casts."""
    out = body("#include <cuda_runtime.h>\nint f(unsigned char** d, void* h) {\n"
               "  return cudaHostGetDevicePointer(d, h, 0);\n}\n")
    assert "return hipHostGetDevicePointer((void**)(d), h, 0);" in out


def test_cudas_calling_convention_macros_go():
    """The book's simpleCallback.cu: `void CUDART_CB my_callback(cudaStream_t, cudaError_t, void*)`;
    ROCm 5.2 defines no CUDART_CB (nor CUDAAPI): hipcc read it as a variable of type void."""
    code = ("#include <cstdio>\n"
            "void CUDART_CB cb(cudaStream_t s, cudaError_t e, void* d) { printf(\"%d\\n\", *(int*)d); }\n"
            "CUresult CUDAAPI probe(int* x);\n"
            "__global__ void k(int* x) { x[threadIdx.x] = 1; }\n"
            "int main() { int v = 1; cudaStreamAddCallback(0, cb, &v, 0); return 0; }\n")
    text = body(code)
    assert "void  cb(hipStream_t s, hipError_t e, void* d)" in text and "CUDART_CB" not in text
    assert "CUDAAPI" not in text


def test_a_globally_qualified_api_name_is_renamed_and_declares_nothing():
    """FLAMEGPU's `status = ::cudaFree(devPtr);`: the qualified name was taken for a declaration, so
    every use of the name in the file (the plain `cudaFree(p)` too) stayed CUDA's and the port did
    not compile. A qualified declarator still declares: `void S::cudaFoo()` is the user's own."""
    out = body("void f(void* p) { ::cudaFree(p); cudaFree(p); ::cudaError_t e = ::cudaGetLastError(); (void)e; }\n")
    assert "::hipFree(p); hipFree(p); ::hipError_t e = ::hipGetLastError();" in out
    own = body("struct S { static int cudaFoo(); };\nint S::cudaFoo() { return 1; }\nint g() { return S::cudaFoo(); }\n")
    assert "int S::cudaFoo() { return 1; }" in own and "return S::cudaFoo();" in own


WRAPPER = """#ifndef WRAP_H
#define WRAP_H
#ifdef PROJ_BUILDING_CUDA
#include <cuda_runtime.h>
#endif
#ifdef PROJ_BUILDING_HIP
#include <hip/hip_runtime.h>
#define cudaStream_t hipStream_t
#define cudaMemcpyToSymbolAsync(S, ...) hipMemcpyToSymbolAsync(HIP_SYMBOL(S), __VA_ARGS__)
#endif
#define cudaArray hipArray
#endif
"""


@pytest.mark.parametrize("defines", [["PROJ_BUILDING_CUDA"], []])
def test_a_projects_own_hip_layer_leaves_cuda_names_cudas_in_the_build_ported(tmp_path, defines):
    """ASTRA's gpu_runtime_wrapper.h: `#define cudaX hipX` under `#ifdef PROJ_BUILDING_HIP`, for the
    project's own HIP build. In the CUDA build that is ported, those macros are not compiled, so the
    names stay CUDA's and the port renames their uses (it kept every one, and no port compiled);
    an alias compiled in every build (`cudaArray` as `hipArray`, HIPIFY's very spelling) is
    renamed too, and the definitions keep the names they define. The look-alike: a macro of
    another meaning in a compiled branch stays the user's own."""
    import subprocess
    import sys

    (tmp_path / "wrap.h").write_text(WRAPPER)
    (tmp_path / "k.cu").write_text(
        '#include "wrap.h"\n__constant__ float c[4];\n__global__ void k(float* x) { x[threadIdx.x] = c[0]; }\n'
        "void f(float* h, cudaStream_t s, cudaArray* a) { cudaMemcpyToSymbolAsync(c, h, 16, 0, cudaMemcpyHostToDevice, s); }\n")
    cmd = [sys.executable, "-m", "kernelport", "translate", str(tmp_path / "k.cu"), "--to", "hip", "-o",
           str(tmp_path / "out"), *[f"-D{d}" for d in defines]]
    ok = subprocess.run(cmd, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    port = (tmp_path / "out" / "k.hip").read_text()
    assert "void f(float* h, hipStream_t s, hipArray* a) { hipMemcpyToSymbolAsync(" in port, port
    assert not (tmp_path / "out" / "wrap.hip.h").exists() or \
        "#define cudaArray hipArray" in (tmp_path / "out" / "wrap.hip.h").read_text()
    (tmp_path / "wrap.h").write_text(WRAPPER.replace("#ifdef PROJ_BUILDING_HIP", "#ifndef PROJ_BUILDING_NONE")
                                     .replace("hipMemcpyToSymbolAsync(HIP_SYMBOL(S), __VA_ARGS__)", "my_copy(S, __VA_ARGS__)"))
    own = subprocess.run(cmd, capture_output=True, text=True)
    assert own.returncode == 0, own.stderr
    assert "{ cudaMemcpyToSymbolAsync(c, h, 16, 0," in (tmp_path / "out" / "k.hip").read_text()


COLLAPSED = """#include <cuda.h>
#include <cuda_runtime.h>
#include <stdexcept>
namespace d {
inline void gpuAssert(cudaError_t code, const char *file, int line) {
    if (code != cudaSuccess) throw std::runtime_error(cudaGetErrorString(code));
}
inline void gpuAssert(CUresult code, const char* file, int line) {
    if (code != CUDA_SUCCESS) throw std::runtime_error("driver");
}
inline int other(int a) { return a; }
inline int other(float a) { return 1; }
}
void f() { d::gpuAssert(cudaDeviceSynchronize(), __FILE__, __LINE__); }
"""


def test_overloads_the_renames_make_one_keep_the_first_and_say_so():
    """FLAMEGPU's CUDAErrorChecking.cuh: `gpuAssert(cudaError_t, ...)` and `gpuAssert(CUresult, ...)`
    both take hipError_t on HIP, a redefinition hipcc refuses. The later one is left out under
    `#if 0` with KP231 at its line; overloads that stay apart (`int`/`float`) are kept."""
    port = hip(COLLAPSED)
    assert port.ok
    warn = [(d.code, d.location.line, d.severity) for d in port.diagnostics if d.code == "KP231"]
    assert warn == [("KP231", 8, "warning")]
    assert "`gpuAssert(CUresult, const char*, int)` is `gpuAssert(hipError_t, const char*, int)`" in \
        next(d.message for d in port.diagnostics if d.code == "KP231")
    assert "#if 0  // kernelport KP231" in port.body and "inline void gpuAssert(CUresult code" in port.body
    assert port.body.count("#if 0") == 1 and "inline int other(float a)" in port.body
    assert "inline void gpuAssert(hipError_t code, const char *file, int line)" in port.body


def test_an_enums_max_sentinel_is_spelled_with_cudas_value_in_hips_enum():
    """CU_MEM_ACCESS_FLAGS_PROT_MAX (HIPIFY: unsupported; gunrock's virtual_memory.hxx sets it for an
    unknown access kind) is cuda.h's 0x7FFFFFFF as a hipMemAccessFlags (scripts/gen_hip_api.py's
    ENUM_OVERRIDES), not a KP210 refusal; a look-alike with no such row is still refused."""
    src = "#include <cuda.h>\nvoid set(CUmemAccessDesc* d) { d->flags = CU_MEM_ACCESS_FLAGS_PROT_MAX; }\n"
    port, _ = translate(SourceFile.from_text(src, "vm.cu"), "hip")
    assert port.ok and "d->flags = ((hipMemAccessFlags)0x7FFFFFFF);" in port.body, port.diagnostics
    port, _ = translate(SourceFile.from_text(src.replace("CU_MEM_ACCESS_FLAGS_PROT_MAX", "CU_MEM_HANDLE_TYPE_MAX"),
                                             "vm.cu"), "hip")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP210"], port.diagnostics


def test_bfloat16_conversions_are_hip_bfloat16s_own():
    """decoding_attention's `__bfloat162float(RQ[i])` and `__float2bfloat16(acc)`: HIPIFY leaves them
    unsupported for ROCm 5.2, whose hip_bfloat16 (the port's __nv_bfloat16) converts to float and
    from float rounding to nearest even (CUDA's default and _rn) or truncating (_rz)."""
    out = body("#include <cuda_bf16.h>\n__global__ void k(__nv_bfloat16* b, float* f) {\n"
               "  f[0] = __bfloat162float(b[0]) * 2.0f; b[1] = __float2bfloat16(f[1] + 1.0f);\n"
               "  b[2] = __float2bfloat16_rn(f[2]); b[3] = __float2bfloat16_rz(f[3]);\n}\n")
    assert "#include <hip/hip_bfloat16.h>" in out
    assert "f[0] = static_cast<float>(b[0]) * 2.0f;" in out
    assert "b[1] = hip_bfloat16(static_cast<float>(f[1] + 1.0f));" in out
    assert "b[2] = hip_bfloat16(static_cast<float>(f[2]));" in out
    assert "b[3] = hip_bfloat16(static_cast<float>(f[3]), hip_bfloat16::truncate);" in out
    assert all("kernelport" in TABLE.get(n).flag_set for n in ("__bfloat162float", "__float2bfloat16"))


def test_float_arithmetic_rounded_toward_zero_is_the_prologues_exact_helpers():
    """gvdb's `__fadd_rz(__fmul_rz(a, b), c)`: HIPIFY leaves the _rz intrinsics unsupported and ROCm 5.2
    declares them only under OCML_BASIC_ROUNDED_OPERATIONS (its device libraries lack what they call).
    The port calls the prologue's kp_fmul_rz/kp_fmaf_rz (exact, tests/test_ptx_idioms.py); a sum or
    difference is a fused `a * 1 + b` (the product is exact, so only the sum is rounded)."""
    port, text = translate(SourceFile.from_text(
        "__global__ void k(float* v) {\n  v[0] = __fadd_rz(__fmul_rz(v[1], v[2]), v[3]);\n"
        "  v[4] = __fsub_rz(v[5], v[6] + v[7]); v[8] = __fmaf_rz(v[1], v[2], v[3]);\n}\n", "k.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    out = port.body
    assert "v[0] = kp_fmaf_rz(kp_fmul_rz(v[1], v[2]), 1.0f, v[3]);" in out
    assert "v[4] = kp_fmaf_rz(v[5], 1.0f, -(v[6] + v[7])); v[8] = kp_fmaf_rz(v[1], v[2], v[3]);" in out
    assert "__device__ inline float kp_fmaf_rz(float a, float b, float c)" in text  # the prologue defines them
    # look-alike: the other directed roundings are the prologue's kp_rnd_* (tests/test_directed_rounding.py);
    # a rounding intrinsic with neither stays a located KP210
    port, _ = translate(SourceFile.from_text("__global__ void k(float* v) {\n  v[0] = __fadd_ru(v[1], v[2]);\n}\n",
                                             "k.cu"), "hip")
    assert port.ok and "v[0] = kp_rnd_fma_f32(v[1], 1.0f, v[2], 1);" in port.body
    port, _ = translate(SourceFile.from_text("#include <cuda_fp16.h>\n__global__ void k(__half* v) {\n  v[0] = __hadd_rn(v[1], v[2]);\n}\n",
                                             "k.cu"), "hip")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP210", 3)]

_OWN_ATOMIC_MAX = """__device__ static float atomicMax(float* address, float val) {
    int* address_as_i = (int*)address;
    int old = *address_as_i, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_i, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}
__device__ double atomicMin(double *address, double val);
__device__ int atomicMax(int* address, unsigned long long val) { return 0; }
__global__ void k(float* in, float* out) { atomicMax(out, in[threadIdx.x]); }
"""


def test_a_projects_own_definition_of_an_overload_hip_declares_goes_from_the_port():
    """The softmax samples' CAS-loop `atomicMax(float*, float)`: ROCm 5.2 declares float and double
    CAS/sub/min/max itself (CUDA has them for integers only), so the definition would redefine it
    (hipcc: 'static declaration of atomicMax follows non-static declaration'); it goes under `#if 0`
    with a note and the call reaches HIP's, which means the same. Other signatures stay."""
    port = hip(_OWN_ATOMIC_MAX)
    assert port.ok, [d.format() for d in port.diagnostics]
    text = port.body
    assert "#if 0  // kernelport: HIP declares atomicMax(float*, float) itself\n__device__ static float atomicMax(" in text
    assert text.count("#if 0") == 1 and "__device__ int atomicMax(int* address, unsigned long long val)" in text
    assert "atomicMax(out, in[threadIdx.x]);" in text
    assert any("declares `atomicMax(float*, float)` itself" in n.why for n in port.notes)
