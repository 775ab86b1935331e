"""Metal ports of real code (issue 11): what the port leaves out because Metal already has it, and
what it must never write silently.  Each behaviour has a case and a look-alike that must not
trigger it."""
from __future__ import annotations

import subprocess
import sys

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_port, require_tool
from port_support import refusal


def error_codes(code: str) -> list[str]:
    return [f"{d.location.line}:{d.code}" for d in refusal(code, to="metal")]


KERNEL = """
__global__ void k(const float3* a, const float3* b, float3* c, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float3 v = a[i] + b[i]; v -= s * b[i]; v *= s; c[i] = -v + v * s; }
}
"""

# helper_math.h / mumax3 float3.h style: every shape Metal's vector types already have
COMPONENTWISE = """
inline __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
inline __device__ float3 operator-(const float3& a) { return make_float3(-a.x, -a.y, -a.z); }
inline __device__ void operator-=(float3 &a, float3 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; }
inline __device__ float3 operator*(float s, float3 a) { return make_float3(s*a.x, s*a.y, s*a.z); }
inline __device__ float3 operator*(float3 a, float s) { return make_float3((a.x * s), a.y * s, a.z * s); }
__host__ __device__ inline float3& operator*=(float3 &a, float s) { a.z *= s; a.x = a.x * s; a.y *= s; return a; }
"""


def test_componentwise_vector_operators_are_left_out_as_metal_has_them():
    require_tool("clang")
    port, text = metal_port(COMPONENTWISE + KERNEL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "operator" not in text.replace("// operator", "")
    for sig in ("operator+(float3, float3)", "operator-(float3)", "operator-=(float3, float3)",
                "operator*(float, float3)", "operator*(float3, float)", "operator*=(float3, float)"):
        assert f"// {sig}: Metal's vector types define it (component-wise), left out" in text
    assert sum("component-wise, as Metal's built-in operator is" in n.why for n in port.notes) == 6


# (until h/metal57 each of these stayed in the port and the checker refused it, KP224 at its line: MSL allows no
# operator on its vector types.  Now it is a named helper, kp_operator_<op>, and each use C++ resolves to it
# calls it: kernelport/backends/metal/vector_op_calls.py; tests/test_metal_vector_op_calls.py.)
@pytest.mark.parametrize("definition,use,call", [
    # a dot product spelled operator*
    ("inline __device__ float operator*(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }",
     "c[i].x = a[i] * b[i];", "kp_operator_mul(a[i], b[i])"),
    # the lanes crossed (a.y where a.x belongs)
    ("inline __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.y + b.x, a.x + b.y, a.z + b.z); }",
     "", "kp_operator_add(a[i], b[i])"),
    # another operator on the lanes than the one defined
    ("inline __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }",
     "", "kp_operator_add(-v, v * s)"),
    # subtraction does not commute: s - a.x is not a - s
    ("inline __device__ float3 operator-(float3 a, float s) { return make_float3(s - a.x, s - a.y, s - a.z); }",
     "c[i] = c[i] - s;", "kp_operator_sub(c[i], s)"),
    # a lane left out of a compound assignment
    ("inline __device__ void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; }",
     "float3 w = a[i]; w += b[i]; c[i] = w;", "kp_operator_add_assign(w, b[i])"),
    # a vector of another width
    ("inline __device__ float3 operator*(float3 a, float4 b) { return make_float3(a.x * b.x, a.y * b.y, a.z * b.z); }",
     "c[i] = a[i] * make_float4(s, s, s, s);", "kp_operator_mul(a[i], make_float4(s, s, s, s))"),
])
def test_an_operator_metal_does_not_have_is_called_by_name(definition, use, call):
    require_tool("clang")
    kernel = KERNEL.replace("c[i] = -v + v * s; }", "c[i] = -v + v * s; " + use + " }")
    port, text = metal_port(definition + "\n" + kernel)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert call.replace("make_float4", "float4") in text, text
    assert "operator" not in text.replace("kp_operator_", "").replace("// operator", "")


NS_MACROS = "#pragma once\n#define MYNS_BEGIN namespace my {\n#define MYNS_END }\n"
NS_HELPER = "MYNS_BEGIN\n__device__ float twice(float x) { return 2.0f * x; }\nMYNS_END\n"
NS_KERNEL = """__global__ void k(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = my::twice(x[i]);
}
"""


def test_a_namespace_opened_by_a_macro_is_declared_and_its_macros_stay():
    require_tool("clang")
    port, text = metal_port(NS_MACROS + NS_HELPER + NS_KERNEL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#define MYNS_BEGIN namespace my {" in text and "#define MYNS_END }" in text


def test_a_header_whose_macros_a_spliced_header_uses_is_spliced_too(tmp_path):
    """The splice's re-parse of `util.cuh`'s text must know `ns.h`'s macros (spliced a round later):
    without them the namespace macros stop the parse and the splice is dropped."""
    require_tool("clang")
    (tmp_path / "ns.h").write_text(NS_MACROS)
    (tmp_path / "util.cuh").write_text('#pragma once\n#include "ns.h"\n' + NS_HELPER)
    (tmp_path / "main.cu").write_text('#include "util.cuh"\n' + NS_KERNEL)
    port, text = translate(SourceFile.read(tmp_path / "main.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert '// ---- "ns.h", spliced: device code needs it ----' in text
    assert "float twice(float x)" in text


def test_the_splice_reparses_with_the_macros_a_spliced_header_uses(tmp_path):
    """Round one splices util.cuh, whose body braces are macros of blocks.h (spliced in round two):
    re-parsed without blocks.h's macros the text does not parse, and the splice was dropped
    (KP209 at the include, KP223 at the call)."""
    require_tool("clang")
    (tmp_path / "blocks.h").write_text("#pragma once\n#define BODY_BEGIN {\n#define BODY_END }\n")
    (tmp_path / "util.cuh").write_text('#pragma once\n#include "blocks.h"\n'
                                       "__device__ inline float twice(float x) BODY_BEGIN return 2.0f * x; BODY_END\n")
    (tmp_path / "main.cu").write_text('#include "util.cuh"\n' + NS_KERNEL.replace("my::", ""))
    port, text = translate(SourceFile.read(tmp_path / "main.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert '// ---- "blocks.h", spliced: device code needs it ----' in text


@pytest.mark.parametrize("attr", ["__align__(16)", "__builtin_align__(16)"])
def test_cudas_alignment_attribute_is_alignas(attr):
    require_tool("clang")
    port, text = metal_port(f"typedef struct {attr} {{ float a, b; }} V2;\n" + """
__global__ void k(const V2* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i].a;
}
""")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "typedef struct alignas(16) { float a, b; } V2;" in text


def test_an_alignment_macros_body_is_alignas_too():
    """`#define ALIGN(n) __align__(n)` (a project's portable spelling): the body is code where the
    macro is used, though the parse saw it blanked; it was kept, and the port did not compile."""
    require_tool("clang")
    port, text = metal_port("""#define ALIGN(n) /* was __align__ */ __align__(n)
struct ALIGN(16) V4 { float x, y, z, w; };
__global__ void k(const V4* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i].w;
}
""")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#define ALIGN(n) /* was __align__ */ alignas(n)" in text  # the comment is the user's


HOST_ONLY = """#include <cstdio>
void launch(const float* x, float* y, int n);   // its kernel is in another file
int main() {
    float *x = nullptr, *y = nullptr;
    cudaMalloc(&x, 64); cudaMalloc(&y, 64);
    launch(x, y, 16);
    printf("done\\n");
    return 0;
}
"""


def test_a_host_only_file_has_no_metal_port_and_says_so(tmp_path):
    port, _ = metal_port(HOST_ONLY)
    assert port.ok and port.empty
    assert [(d.code, d.severity, d.location.line) for d in port.diagnostics] == [("KP227", "warning", 1)]
    (tmp_path / "main.cu").write_text(HOST_ONLY)
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "translate", "main.cu", "--to", "metal", "-o", "out"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "KP227 no Metal port written: the file has no device code" in r.stderr
    assert not (tmp_path / "out" / "main.metal").exists() and not (tmp_path / "out" / "main.metal.json").exists()


def test_a_host_file_launching_a_kernel_of_another_file_is_told_at_the_launch():
    port, _ = metal_port("__global__ void k(float* y);\nint main() {\n    float* y = nullptr;\n    k<<<1, 32>>>(y);\n}\n")
    assert port.empty
    assert [(d.code, d.location.line) for d in port.diagnostics] == [("KP227", 4)]
    assert "the kernel it launches, 'k', is defined in another file" in port.diagnostics[0].message


CONSTANT_ONLY = """struct Cache {
    int n;
    double* a12;   // filled by the host, read by kernels of other files
};
__constant__ Cache c_cache;
"""


def test_a_file_of_host_filled_constants_only_is_no_port_whatever_their_types():
    """gpu4pyscf's gint/constant.cu: only `__constant__ BasisProdCache c_bpcache;`, a struct of
    `double*` fields. No port holds it here (a host-filled constant is bound as a buffer of the
    kernels that read it, in their files), so its `double` is no refusal: KP227, as for a struct of
    floats; before, KP214 refused the file."""
    port, _ = metal_port(CONSTANT_ONLY)
    assert port.ok and port.empty
    assert [(d.code, d.severity) for d in port.diagnostics] == [("KP227", "warning")]
    assert "the double of its file-scope declarations (t.cu:3:5)" in port.diagnostics[0].message


def test_a_kernel_reading_a_constant_of_a_struct_with_doubles_is_still_refused():
    port, _ = metal_port(CONSTANT_ONLY + "__global__ void k(int* o) { o[0] = c_cache.n; }\n")
    assert not port.empty
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP214", 3)]


def test_a_file_with_device_code_is_not_empty():
    port, text = metal_port("__device__ float twice(float x) { return 2.0f * x; }\n")
    assert not port.empty and "float twice(float x)" in text
    assert not [d for d in port.diagnostics if d.code == "KP227"]


KERNEL_LOOP = """#define CUDA_KERNEL_LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
__device__ void scale_all(const float* x, float* y, int n) {
    CUDA_KERNEL_LOOP(j, n) {
        y[j] = 2.0f * x[j];
    }
}
__global__ void k(const float* x, float* y, int n) {
    CUDA_KERNEL_LOOP(i, n) {
        y[i] = x[i] + 1.0f;
    }
    scale_all(x, y, n);
}
"""


def test_a_statement_macro_with_a_block_is_the_body_not_a_host_function():
    """`CUDA_KERNEL_LOOP(i, n) { ... }` reads as a function definition nested in the body: it was
    left out as host code, and the port (an empty loop-less kernel) passed the checker."""
    require_tool("clang")
    port, text = metal_port(KERNEL_LOOP)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "host code" not in text
    assert "y[i] = x[i] + 1.0f;" in text and "y[j] = 2.0f * x[j];" in text
    # the built-ins the macro's value uses are parameters of the kernel and the helper alike
    assert "#define CUDA_KERNEL_LOOP(i, n) for (int i = bid.x * bdim.x + tid.x; i < (n); i += bdim.x * gdim.x)" in text
    assert text.count("uint3 gdim") == 2, text


INTRINSICS = """__global__ void k(const unsigned int* x, unsigned int* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __byte_perm(x[i], x[n + i], x[2 * n + i]) ^ __funnelshift_l(x[i], x[n + i], 7)
                    ^ __funnelshift_lc(x[i], x[n + i], x[2 * n + i]) ^ __funnelshift_r(x[i], x[n + i], x[2 * n + i])
                    ^ __funnelshift_rc(x[i], x[n + i], x[2 * n + i]) ^ __umulhi(x[i], x[n + i]) ^ (unsigned)__mulhi((int)x[i], -3);
}
"""


def _cuda_reference(name: str, a: int, b: int, s: int) -> int:
    """CUDA's definitions (CUDA Math API, integer intrinsics), on Python integers."""
    word, m = (b << 32) | a, 0xFFFFFFFF
    if name == "byte_perm":
        data = word.to_bytes(8, "little")
        return sum(data[(s >> (4 * n)) & 7] << (8 * n) for n in range(4))
    if name in ("funnelshift_l", "funnelshift_lc"):
        k = s & 31 if name == "funnelshift_l" else min(s, 32)
        return ((word << k) >> 32) & m
    if name in ("funnelshift_r", "funnelshift_rc"):
        k = s & 31 if name == "funnelshift_r" else min(s, 32)
        return (word >> k) & m
    if name == "umulhi":
        return (a * b) >> 32
    raise KeyError(name)


def test_byte_and_funnel_shift_intrinsics_are_kp_helpers_with_cudas_meaning(tmp_path):
    """The kp_ helpers of a port, compiled as C++ and run against CUDA's definitions."""
    import random
    require_tool("clang")
    gxx = require_tool("g++")
    port, text = metal_port(INTRINSICS)
    assert port.ok, [d.format() for d in port.diagnostics]
    for name in ("byte_perm", "funnelshift_l", "funnelshift_lc", "funnelshift_r", "funnelshift_rc", "umulhi", "mulhi"):
        assert f"kp_{name}(" in text.split("kernel void")[1]
    helpers = text.split("using namespace metal;", 1)[1].split("kernel void", 1)[0]
    rng = random.Random(7)
    cases = [(rng.getrandbits(32), rng.getrandbits(32), s) for s in (0, 1, 7, 31, 32, 33, 40, 63, 0x5410, 0x3210,
                                                                      0x7654, rng.getrandbits(32), rng.getrandbits(16))]
    names = ("byte_perm", "funnelshift_l", "funnelshift_lc", "funnelshift_r", "funnelshift_rc", "umulhi")
    calls = "\n".join(f'    printf("%u\\n", kp_{n}({a}u, {b}u{"" if n == "umulhi" else f", {s}u"}));'
                      for a, b, s in cases for n in names)
    prog = tmp_path / "helpers.cpp"
    prog.write_text("#include <cstdio>\ntypedef unsigned int uint;\n"
                    "inline uint mulhi(uint a, uint b) { return (uint)(((unsigned long long)a * b) >> 32); }\n"
                    "inline int mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }\n"
                    + helpers + "int main() {\n" + calls + "\n}\n")
    exe = tmp_path / "helpers"
    subprocess.run([str(getattr(gxx, "path", gxx)), "-std=c++14", "-o", str(exe), str(prog)], check=True, capture_output=True)
    got = [int(v) for v in subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()]
    want = [_cuda_reference(n, a, b, s) for a, b, s in cases for n in names]
    assert got == want


HELPER_HEADER = """#pragma once
__device__ __forceinline__ unsigned long long as_bits(double d) { return __double_as_longlong(d); }
__device__ __forceinline__ unsigned int rotl(unsigned int x, int n) { return (x << n) | (x >> (32 - n)); }
"""


def test_a_spliced_headers_device_function_no_device_code_reaches_is_left_out(tmp_path):
    require_tool("clang")
    (tmp_path / "helper.h").write_text(HELPER_HEADER)
    (tmp_path / "main.cu").write_text('#include "helper.h"\n' + NS_KERNEL.replace("my::twice(x[i])", "rotl(x[i], 3)")
                                      .replace("const float* x, float* y", "const unsigned* x, unsigned* y"))
    port, text = translate(SourceFile.read(tmp_path / "main.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert 'as_bits(): in "helper.h", reached by none of this file\'s device code: left out' in text
    assert "unsigned int rotl(unsigned int x, int n)" in text
    # the same function reached from the kernel is still refused at its line
    (tmp_path / "main.cu").write_text('#include "helper.h"\n' + NS_KERNEL.replace("my::twice(x[i])", "(float)as_bits(x[i])"))
    codes = [(d.code, d.location.path.rsplit("/", 1)[-1], d.location.line)
             for d in translate(SourceFile.read(tmp_path / "main.cu"), "metal")[0].diagnostics if d.severity == "error"]
    assert ("KP223", "helper.h", 2) in codes, codes
    # a header's kernel stays (another file may launch it), and so does what it calls
    (tmp_path / "helper.h").write_text(HELPER_HEADER + "__device__ unsigned rotr(unsigned x) { return (x >> 5) | (x << 27); }\n"
                                       "__global__ void rot(unsigned* y) { y[0] = rotr(y[0]); }\n")
    (tmp_path / "main.cu").write_text('#include "helper.h"\n__global__ void own(unsigned* y) { y[1] = rotl(y[1], 3); }\n')
    port, text = translate(SourceFile.read(tmp_path / "main.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "unsigned rotr(unsigned x)" in text and "as_bits(): in" in text


ARCH_BRANCHES = """#if !defined(__CUDA_ARCH__)
#define USE_ASM 0
#else
#define USE_ASM 1
#endif
__device__ __forceinline__ unsigned long long make64(unsigned lo, unsigned hi) {
#if __CUDA_ARCH__ >= 130
    return __double_as_longlong(__hiloint2double(hi, lo));
#else
    return (unsigned long long)lo | ((unsigned long long)hi << 32);
#endif
}
__global__ void k(const unsigned* x, unsigned long long* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if USE_ASM
    asm("trap;");
#endif
    if (i < n) y[i] = make64(x[i], x[n + i]);
}
"""


def test_a_branch_no_metal_compile_reaches_holds_nothing_to_refuse():
    """A branch of a platform test that no Metal compile reaches holds nothing to refuse (the `#if USE_ASM` asm).
    Re-pinned at stop 51: `#if __CUDA_ARCH__ >= 130` with an #else was ported as its #else (Metal defines no
    platform macro), the branch of GPUs no CUDA toolkit builds; the port is now the branch current GPUs run
    (kernelport/arch_branches.py, KP237), and its `__hiloint2double`, which Metal lacks, is refused at its line."""
    require_tool("clang")
    port, text = metal_port(ARCH_BRANCHES)
    assert [(d.code, d.line) for d in port.diagnostics if d.severity == "error"] == [("KP224", 8)], port.diagnostics
    assert any(d.code == "KP237" and "line 9 (`#else`)" in d.message for d in port.diagnostics)
    port, text = metal_port(ARCH_BRANCHES.replace("__CUDA_ARCH__ >= 130", "defined(__NVCC__)"))  # a platform test
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "(unsigned long long)lo" in text or "(ulong)lo" in text, text


def test_a_redeclared_cuda_builtin_goes_from_the_metal_port():
    require_tool("clang")
    port, text = metal_port("extern __device__ __device_builtin__ void __syncthreads(void);\n"
                            "__global__ void k(float* y) { __syncthreads(); y[0] = 1.0f; }\n")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "(a CUDA built-in, declared by the target) */" in text


def test_a_template_parameter_shadows_a_host_variable_of_its_name():
    """ccminer's keccak512: `static int BLOCKSIZE = 84;` for the host, `template <int BLOCKSIZE>` on
    the kernel: device code names the parameter, not the writable variable (no KP213)."""
    require_tool("clang")
    port, text = metal_port("static int BLOCKSIZE = 84;\n"
                            "template <int BLOCKSIZE> __global__ void k(float* y) { y[threadIdx.x] = BLOCKSIZE; }\n"
                            "void run(float* y, int len) { BLOCKSIZE = len; if (BLOCKSIZE == 84) k<84><<<1, 32>>>(y); }\n")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "BLOCKSIZE: host-side state, left out of the Metal port" in text


DEVICE_TABLES = """__device__ unsigned int d_T0[4] = {1u, 2u, 3u, 4u};
__device__ unsigned int d_filled[4];
__device__ unsigned int __byte_perm(unsigned int a, unsigned int b, unsigned int c);
__global__ void k(const unsigned* x, unsigned* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __byte_perm(x[i], d_T0[i & 3], 0x5410) + d_filled[i & 3];
}
void fill(const unsigned* h) { cudaMemcpyToSymbol(d_filled, h, sizeof(unsigned) * 4); }
"""


def test_device_memory_device_code_only_reads_is_constant_or_a_bound_buffer():
    """ccminer's AES tables: an initialised `__device__` array no device code writes is a program-scope
    `constant`; one the host fills is a `constant` buffer argument, as `__constant__` memory is; a
    prototype of CUDA's own intrinsic does not make it the file's (the call is still kp_byte_perm)."""
    require_tool("clang")
    port, text = metal_port(DEVICE_TABLES)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "constant unsigned int d_T0[4] = {1u, 2u, 3u, 4u};" in text
    assert "constant unsigned int* d_filled [[buffer(3)]]" in text
    assert "kp_byte_perm(x[i], d_T0[i & 3], 0x5410)" in text
    side = next(a for kk in __import__("json").loads(port.extra_files[".json"])["kernels"] for a in kk["arguments"]
                if a["name"] == "d_filled")
    assert side["role"] == "__device__" and side["filled_by"] == ["cudaMemcpyToSymbol(d_filled, h, sizeof(unsigned) * 4)"]


def test_device_memory_device_code_writes_stays_refused():
    codes = error_codes("__device__ unsigned int d_T0[4] = {1u, 2u, 3u, 4u};\n__device__ unsigned int d_n[4];\n"
                        "__global__ void k(unsigned* y) { d_T0[threadIdx.x & 3] = y[0]; d_n[0] += 1; y[1] = d_n[1]; }\n")
    assert "1:KP213" in codes and "2:KP213" in codes, codes


def test_an_initialised_device_table_the_host_refills_is_not_a_constant():
    codes = error_codes("__device__ unsigned int d_T0[4] = {1u, 2u, 3u, 4u};\n"
                        "__global__ void k(unsigned* y) { y[threadIdx.x] = d_T0[threadIdx.x & 3]; }\n"
                        "void set(const unsigned* h) { cudaMemcpyToSymbol(d_T0, h, 16); }\n")
    assert codes == ["1:KP213"], codes


def test_the_runs_defines_the_file_names_are_defined_in_the_metal_port(tmp_path):
    """A Metal port is compiled on its own: `-D MYR=__restrict__` and `-D USE_HALF` of the CUDA build
    are #defines at its top (without them MYR named nothing, and the `#ifdef` took the other branch)."""
    require_tool("clang")
    (tmp_path / "k.cu").write_text("""__global__ void k(const float* MYR x, float* MYR y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef USE_HALF
    if (i < n) y[i] = 0.5f * x[i];
#else
    if (i < n) y[i] = x[i];
#endif
}
""")
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "translate", "k.cu", "--to", "metal", "--stdout",
                        "-D", "MYR=__restrict__", "-D", "USE_HALF", "-D", "UNUSED=3"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "#define MYR __restrict__  // -D MYR=__restrict__ of this run" in r.stdout
    assert "#define USE_HALF 1  // -D USE_HALF=1 of this run" in r.stdout
    assert "UNUSED" not in r.stdout


def test_cache_hinted_stores_are_plain_stores():
    require_tool("clang")
    port, text = metal_port("__global__ void k(const float* x, float* y, int n) {\n"
                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "    if (i < n) { __stcs(y + i, x[i] * 2.0f); __stcg(&y[n + i], __ldg(&x[i])); }\n}\n")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "(*(y + i) = (x[i] * 2.0f));" in text and "(*(&y[n + i]) = (*(&x[i])));" in text


def test_small_integer_vector_makers_are_metals_constructors():
    require_tool("clang")
    port, text = metal_port("__global__ void k(uchar4* y, short2* z) {\n"
                            "    y[threadIdx.x] = make_uchar4(1, 2, 3, 4); z[threadIdx.x] = make_short2(-1, 2);\n}\n")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "uchar4(1, 2, 3, 4)" in text and "short2(-1, 2)" in text


def test_a_pointers_brace_initialiser_gives_its_address_space():
    """`T* const p{reinterpret_cast<T*>(&v)}` (cuda-gemm-optimization's masking of a local vector) points
    where its one value points, as `T* p = ...` does; was KP215 'cannot tell which address space'."""
    port, text = metal_port("""\
        __global__ void k(float4* o, const float* a, int n) {
            float4 v{0, 0, 0, 0};
            float* const p{reinterpret_cast<float*>(&v)};
            const float* g{a + n};
            for (int i = 0; i < n; ++i) p[3 - i] = g[i];
            o[threadIdx.x] = v;
        }
        """)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "thread float* const p{reinterpret_cast<thread float*>(&v)};" in text, text
    assert "const device float* g{a + n};" in text, text
    # an empty brace initialiser (a null pointer) says nothing: still refused at the line
    assert error_codes("""\
        __global__ void k(float* o) { float* p{}; o[0] = p[0]; }
        """) == ["1:KP215"]


def test_a_class_static_member_defined_out_of_line_is_named_where_it_is_left_out():
    """`unsigned Params::nextId(0);` (heldout56 CudaSynth): host state, left out under its qualified name;
    main wrote `// None: host-side state` (the declarator holds no plain identifier)."""
    require_tool("clang")
    port, text = metal_port("struct Params { static unsigned nextId; };\n"
                            "unsigned Params::nextId(0);\n"
                            "__global__ void k(float* y) { y[threadIdx.x] = 1.0f; }\n")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "// Params::nextId: host-side state, left out of the Metal port" in text
    assert "None" not in text
