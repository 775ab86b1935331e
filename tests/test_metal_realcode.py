"""Metal ports of real-code shapes: device code only, no construct without a Metal meaning left in.

Each behaviour has a case that must trigger it and a look-alike that must not.  The measured
figures on real files come from `bench/metal_realcode.py` (see README "Metal ports of real code").
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kernelport.backends.metal.headers import host_definition_uses
from kernelport.model import build
from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool
from port_support import refusal


def metal(code: str, path: str = "t.cu"):
    src = SourceFile.from_text(textwrap.dedent(code), path)
    return translate(src, "metal")


def errors(code: str, path: str = "t.cu") -> list[str]:
    return [f"{d.location.line}:{d.code} {d.message}" for d in refusal(code, path, "metal")]


def checked(code: str, path: str = "t.cu") -> str:
    port, text = metal(code, path)
    assert port.ok, [d.format() for d in port.diagnostics]
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text
    return port.body


HOST_AND_DEVICE = """\
#include <chrono>
#include <vector>
#include <cstdio>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) printf("%s\\n", cudaGetErrorString(e)); } while (0)
#define BLOCK 128
#define SCALE (BLOCK * 2)
#define HOST_ONLY_NAME std::string("x")
struct Timer { std::chrono::steady_clock::time_point t0; };
struct Pair { float a, b; };
typedef std::vector<float> Vec;
using namespace std;
static const int kHostOnly = 7;
const int kShared = BLOCK / 2;
int g_count;
__constant__ float weights[4] = {1.f, 2.f, 3.f, 4.f};
__host__ __device__ inline float twice(float x) { return 2.f * x; }
#ifdef VERBOSE
void log_it(const Vec& v) { printf("%zu\\n", v.size()); }
#endif
__global__ void scale(const Pair* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = twice(in[i].a + in[i].b) * weights[i & 3] + kShared;
}
int main() {
    Timer t; Vec v(10); g_count = kHostOnly;
    float* d; CHECK(cudaMalloc(&d, 40));
    scale<<<1, BLOCK>>>(nullptr, d, 10);
    return 0;
}
"""


def test_host_code_and_host_includes_are_left_out():
    body = checked(HOST_AND_DEVICE)
    code = "\n".join(l for l in body.splitlines() if not l.lstrip().startswith(("//", "/*")))
    for gone in ("<chrono>", "<vector>", "<cstdio>", "do {", "std::chrono", "std::vector", "std::string",
                 "g_count", "int main", "Timer t", "using namespace std;"):
        assert gone not in code, gone
    assert "// CHECK: used by host code only" in body
    assert "struct Pair { float a, b; };" in body          # a type device code uses stays
    assert "twice(float x)" in body                          # __host__ __device__ stays
    assert "#define BLOCK 128" in body and "#define SCALE (BLOCK * 2)" in body  # constants stay, used or not
    assert "kShared" in code and "kHostOnly = 7" in code  # plain constants stay, used or not
    assert "weights" in body
    # the host function under #ifdef is replaced inside its branch: the #ifdef/#endif pair stays
    assert body.count("#ifdef VERBOSE") == 1 and body.count("#endif") == 1


def test_a_device_name_from_a_host_looking_header_keeps_its_macro():
    """Look-alike: a function-like macro device code uses is device code."""
    body = checked("""\
        #define SQR(x) ((x) * (x))
        #define HOST_SQR(x) std::pow(x, 2)
        __global__ void k(float* a) { a[threadIdx.x] = SQR(a[threadIdx.x]); }
        """)
    assert "#define SQR(x)" in body and "#define HOST_SQR" not in body


def test_a_project_header_device_code_needs_is_spliced_in(tmp_path: Path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "params.h").write_text('#pragma once\n#include "inc/tile.h"\nstruct Cell { int v; };\n'
                                       'void host_report(const char* s);\n')
    (tmp_path / "inc" / "tile.h").write_text("#pragma once\n#include <vector>\n#define TILE 16\n"
                                             "std::vector<int> host_only();\n")
    (tmp_path / "host.h").write_text("#pragma once\nvoid report(int);\n")
    code = ('#include "host.h"\n#include "params.h"\n#include "params.h"\n'
            '__global__ void k(Cell* a) { a[threadIdx.x].v = TILE; }\nint main() { report(1); }\n')
    port, text = metal(code, str(tmp_path / "k.cu"))
    assert port.ok, [d.format() for d in port.diagnostics]
    checked_text(text)
    body = port.body
    assert '// ---- "params.h", spliced: device code needs it ----' in body and "struct Cell { int v; };" in body
    assert "#define TILE 16" in body                                   # through params.h's own include
    assert "host_only" not in body.replace("host_only: used by host", "")  # its host code is left out
    assert '// #include "params.h": spliced above' in body              # included once
    # look-alike: a header only the host uses is left out, not spliced
    assert '// #include "host.h": device code uses nothing of it' in body and "void report" not in body


def test_a_kernel_launched_through_a_header_launch_macro_is_spliced_in(tmp_path: Path):
    # CloverLeaf's shape: the kernel lives in an included file of its own, and the host launches it
    # through a macro another header defines around `k<<<...>>>`
    (tmp_path / "common.h").write_text("#pragma once\n#define LAUNCH(fn, ...) fn<<<blocks, 256>>>(n, __VA_ARGS__)\n")
    (tmp_path / "k.cuknl").write_text("__global__ void scale(int n, float* a) {\n"
                                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) a[i] *= 2.0f;\n}\n")
    code = ('#include "common.h"\n#include "k.cuknl"\n'
            'void run(int n, int blocks, float* a) { LAUNCH(scale, a); }\n')
    body = checked(code, str(tmp_path / "k.cu"))
    assert '// ---- "k.cuknl", spliced: device code needs it ----' in body and "kernel void scale" in body
    # look-alike: the same macro's header included, the kernel file not launched: nothing spliced
    code = '#include "common.h"\n#include "k.cuknl"\nvoid run(int n, int blocks, float* a) { }\n'
    port, _ = metal(code, str(tmp_path / "k2.cu"))
    assert "spliced: device code needs it" not in port.body


def test_a_macro_defined_in_a_left_out_host_function_goes_with_it():
    # CloverLeaf's init_cuda.cu: `#define CUDA_ARRAY_ALLOC(arr, size) cudaMalloc(...); cudaMemset(...);`
    # inside the host function that allocates: the runtime calls are host code, left out with it
    code = ("__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n"
            "void setup(float** p, int n) {\n"
            "    #define ALLOC(arr, size) \\\n        cudaMalloc((void**)&arr, size); \\\n"
            "        cudaMemset(arr, 0, size);\n"
            "    ALLOC(*p, n * sizeof(float));\n    k<<<1, 32>>>(*p);\n}\n")
    body = checked(code, "alloc.cu")
    assert "cudaMalloc" not in body and "kernel void k" in body
    # look-alike: the same macro defined in device code is still refused there
    inside = code.replace("__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }",
                          "__global__ void k(float* a) {\n#define GROW(arr, size) cudaMalloc((void**)&arr, size);\n"
                          "    a[threadIdx.x] = 1.0f; }")
    assert any(e.startswith("2:KP202 cudaMalloc") for e in errors(inside, "alloc2.cu"))


def test_file_scope_uses_of_a_macro_defining_host_functions_are_left_out():
    # CloverLeaf's pack_kernel_cuda.cu: `C_PACK_INTERFACE(pack, left_right)` defines the Fortran-called
    # `extern "C" void pack_left_right(...) { cuda_chunk.pack_left_right(...); }`: host code
    code = ("struct Chunk { void pack(int d); };\nChunk chunk;\n"
            "#define C_IFACE(op, dir) \\\nextern \"C\" void op##_##dir(int* d) \\\n{ chunk.op(*d); }\n"
            "#define BOTH(op) C_IFACE(op, lr) C_IFACE(op, tb)\n"
            "C_IFACE(pack, lr)\nBOTH(unpack)\n"
            "__global__ void k(float* a) { a[threadIdx.x] = 2.0f * a[threadIdx.x]; }\n")
    body = checked(code, "pack.cu")
    assert "/* C_IFACE(...): defines host code only, left out of the Metal port */" in body
    assert "/* BOTH(...): defines host code only" in body and "chunk." not in body
    # look-alike: a file-scope use of a macro that defines device functions is no host code
    dev = code.replace("__global__ void k", "#define SCALE_OP(T, NAME) __device__ T NAME(T x) { return x * 2; }\n"
                                            "SCALE_OP(float, twice)\n__global__ void k")
    src = SourceFile.from_text(dev, "dev.cu")
    spans = [src.data[s:e].decode() for s, e in host_definition_uses(src, build(src))]
    assert spans == ["C_IFACE(pack, lr)", "BOTH(unpack)"]


def test_diagnostics_in_a_spliced_header_point_into_the_header(tmp_path: Path):
    (tmp_path / "kern.cuh").write_text('__global__ void add(float* a) {\n  printf("x");\n}\n')
    code = '#include "kern.cuh"\nint main() { add<<<1, 32>>>(nullptr); }\n'
    port, _ = metal(code, str(tmp_path / "main.cu"))
    d = [d for d in port.diagnostics if d.severity == "error"]
    assert [(Path(x.location.path).name, x.location.line, x.code) for x in d] == [("kern.cuh", 2, "KP223")]


def test_a_header_that_does_not_parse_is_refused_at_the_include(tmp_path: Path):
    (tmp_path / "bad.h").write_text("#define TILE 16\nint broken( {\n")
    code = '#include "bad.h"\n__global__ void k(int* a) { a[threadIdx.x] = TILE; }\n'
    assert errors(code, str(tmp_path / "k.cu")) == [
        "1:KP209 the port needs name 'TILE' from \"bad.h\" (a CUDA/C++ header a Metal port cannot include)"]


NO_MEANING = [
    ('__global__ void k(int* a) { printf("%d", a[0]); }', "'printf' in device code has no Metal meaning"),
    ("__global__ void k(int* a) { long long t = clock64(); a[0] = (int)t; }", "'clock64' in device code"),
    ("__global__ void k(int* a) { int* p = (int*)malloc(4); a[0] = p[0]; }", "'malloc' in device code"),
    ("__global__ void k(int* a) { int* p = new int[2]; a[0] = p[0]; }", "'new' in device code (dynamic memory)"),
    ("__device__ int f(int n) { return n ? n * f(n - 1) : 1; }\n__global__ void k(int* a) { a[0] = f(3); }",
     "'f' calls itself (recursion)"),
    ("__global__ void c(int* a) { a[0] = 1; }\n__global__ void k(int* a) { c<<<1, 1>>>(a); }",
     "a kernel launch in device code (dynamic parallelism)"),
    ("__device__ int one(int x) { return 1; }\n__global__ void k(int* a) { int (*fp)(int) = one; a[0] = fp(2); }",
     "a function pointer in device code"),
    ("__global__ void k(unsigned long long t, float* a) { a[0] = tex1Dfetch<float>((cudaTextureObject_t)t, 0); }",
     "'tex1Dfetch' in device code"),  # a texture object made by a cast: no parameter to bind as a buffer
    ("__managed__ int counter;\n__global__ void k(int* a) { a[0] = counter; }", "'__managed__' memory"),
    ("#include <cub/cub.cuh>\n__global__ void k(float* a) {\n"
     "  typedef cub::BlockReduce<float, 128> R; __shared__ typename R::TempStorage s;\n"
     "  a[0] = R(s).Sum(a[threadIdx.x]); }",
     "'cub' is defined neither in this file nor in Metal's standard library"),
    ("__global__ void k(float* a) { a[0] = curand_uniform(nullptr); }", "'curand_uniform' is defined neither"),
    ("#define BOUND(x, n) LOOP_BOUND(x, n)\n__global__ void k(float* a) { a[BOUND(1, 2)] = 0; }",
     "'LOOP_BOUND' (in macro 'BOUND', which device code uses) is defined neither"),
]


@pytest.mark.parametrize("code,message", NO_MEANING, ids=[m.split(" ")[0].strip("'") for _, m in NO_MEANING])
def test_a_construct_without_metal_meaning_is_KP223_at_its_line(code, message):
    errs = errors(code)
    hit = [e for e in errs if message in e]
    assert hit and all(e.split(":")[1].startswith(("KP223", "KP215", "KP213")) for e in errs), errs
    line = int(hit[0].split(":")[0])
    needle = message.split("'")[1] if "'" in message else None
    if needle and needle not in ("new",):
        assert needle in textwrap.dedent(code).splitlines()[line - 1]


def test_look_alikes_of_constructs_without_metal_meaning_stay_quiet():
    """A local named `clock`, a user's own `printf_like`, a function that calls another, a kernel
    launched from the host and a name the file defines are all fine."""
    checked("""\
        __device__ float printf_like(float x) { return x + 1.f; }
        __device__ float helper(float x) { return printf_like(x) * 2.f; }
        struct Acc { float s; };
        __global__ void k(float* a, int n) {
            int clock = threadIdx.x;
            Acc acc = {0.f};
            if (clock < n) acc.s = helper(a[clock]);
            a[clock] = acc.s;
        }
        int main() { k<<<1, 32>>>(nullptr, 32); printf("done"); }
        """)


def test_cache_hinted_loads_become_plain_loads():
    body = checked("""\
        __global__ void k(const float* __restrict__ a, float* b) {
            b[threadIdx.x] = __ldg(&a[threadIdx.x]) + __ldg(a + 1);
        }
        """)
    assert "__ldg" not in body and "*(&a[tid.x])" in body and "*(a + 1)" in body


# ---------------------------------------------------------------------------------------------
# internal errors found on real code (bench/metal_realcode.py), each a regression test
# ---------------------------------------------------------------------------------------------
def test_a_defaulted_member_function_is_no_internal_error():
    """HeCBench pointerchase: `~Op() = default;` is a function definition without a body."""
    body = checked("""\
        struct Op { Op() {} ~Op() = default; int n; };
        __global__ void k(int* a) { a[threadIdx.x] = 1; }
        int main() { Op op; return 0; }
        """)
    assert "kernel void k" in body


def test_a_host_function_and_a_device_function_of_one_name():
    """HeCBench gibbs: host `rgamma` and `__device__ rgamma` (KeyError in the helper's plan)."""
    body = checked("""\
        float twice(float x) { return x + x; }
        __device__ float twice(float x, float* s) { return x + x + s[0]; }
        __global__ void k(float* a) { a[threadIdx.x] = twice(a[threadIdx.x], a); }
        int main() { return (int)twice(1.f); }
        """)
    assert "float twice(float x, device float* s)" in body and "twice(float x) {" not in body


def test_two_device_overloads_each_get_their_own_plan():
    """cuda-samples cdpQuadtree: a second overload with another number of pointer parameters
    took the first's address-space signature (IndexError in _param_text)."""
    body = checked("""\
        __device__ float f(float x) { return x; }
        __device__ float f(float x, const float* s) { return x + s[0]; }
        __global__ void k(float* a) { a[0] = f(a[1]); }
        """)
    assert "float f(float x) {" in body and "float f(float x, const device float* s)" in body


def test_a_device_function_returning_a_reference():
    """HeCBench local-ht: `T& f(...)` was not a function to the model (AttributeError in
    _space_of_lvalue for an atomic inside it)."""
    body = checked("""\
        struct Slot { int key; int val; };
        __device__ Slot& claim(Slot* t, int h) {
            atomicCAS(&t[h].key, -1, h);
            return t[h];
        }
        __global__ void k(Slot* t) { claim(t, threadIdx.x).val = 1; }
        """)
    assert "Slot& claim(device Slot* t, int h)" in body


def test_a_defaulted_pointer_argument():
    """cuda-samples cdpQuadtree: a call that leaves a defaulted pointer argument out (IndexError
    in _param_text)."""
    body = checked("""\
        __device__ float get(const float* a, const float* b = nullptr) { return b ? a[0] + b[0] : a[0]; }
        __global__ void k(float* a) { a[threadIdx.x] = get(a); }
        """)
    assert "float get(const device float* a, const device float* b = nullptr)" in body


# ---------------------------------------------------------------------------------------------
# MSL words used as names
# ---------------------------------------------------------------------------------------------
def test_msl_words_the_file_declares_are_renamed_consistently():
    port, text = metal("""\
        struct Item { int thread; float w; };
        __device__ float get(const float* constant, int thread) { return constant[thread]; }
        __global__ void k(float* kernel, Item* items, int n) {
            int thread = threadIdx.x;
            float thread_ = 1.f;   // the obvious new name is taken: the rename must not collide
            if (thread < n) kernel[thread] = get(kernel, items[thread].thread) + thread_;
        }
        """)
    assert port.ok
    code = port.body
    assert "int thread_2;" in code and "items[thread_2].thread_2" in code and "float thread_ = 1.f;" in code
    assert "const device float* constant_" in code and "device float* kernel_ [[buffer(0)]]" in code
    assert not any("thread" == w for w in code.replace("[[", " ").split())
    assert any("'kernel' is a word of the Metal Shading Language" in n.why for n in port.notes)
    checked_text(text)


def test_a_typedef_of_metals_own_type_is_left_out_not_renamed():
    """`typedef unsigned int uint;` after a use (header order): Metal's uint is that type."""
    body = checked("""\
        __device__ void f(uint* a) { a[0] = 1; }
        typedef unsigned int uint;
        typedef unsigned short ushort_t;
        __global__ void k(uint* a, ushort_t* b) { f(a); b[0] = 2; }
        """)
    assert "/* typedef uint: Metal's uint is this type */" in body and "uint_" not in body
    assert "typedef unsigned short ushort_t;" in body  # look-alike: not a Metal name


def test_an_msl_word_a_namespace_declares_is_renamed_in_that_namespace_only():
    """heldout18 Lidar_AI_Solution dtype.hpp: `namespace nvtype { typedef struct {...} half; }` and
    kernels outside it on CUDA's `half` (cuda_fp16.h, Metal's half): renaming every `half` gave
    `half_` no declaration reaches (KP224).  The namespace's own uses (inside it, `nvtype::half`) follow
    the rename; the kernel's `half` stays Metal's."""
    body = checked("""\
        namespace nvtype {
        typedef struct { unsigned short __x; } half;
        __device__ unsigned short bits(half h) { return h.__x; }
        }
        namespace app {
        __global__ void k(const half* a, half* b, nvtype::half* raw, unsigned short* out) {
            int i = threadIdx.x;
            b[i] = a[i] * (half)2.0f;
            out[i] = nvtype::bits(raw[i]);
        }
        }
        """)
    assert "} half_;" in body and "unsigned short bits(half_ h)" in body and "device nvtype::half_* raw" in body
    assert "const device half* a" in body and "device half* b" in body and "(half)2.0f" in body


def test_an_msl_word_a_namespace_declares_is_renamed_everywhere_once_nominated():
    """Look-alike: `using namespace nvtype;` makes the kernel's `half` the namespace's type: renamed there too."""
    body = checked("""\
        namespace nvtype { typedef struct { unsigned short __x; } half; }
        using namespace nvtype;
        __global__ void k(half* raw, unsigned short* out) { out[threadIdx.x] = raw[threadIdx.x].__x; }
        """)
    assert "} half_;" in body and "device half_* raw" in body


def test_msl_words_the_file_only_uses_stay():
    """Look-alike: `uint` used (from Metal, or a header's typedef left out) is not renamed, and a
    name that merely contains a word (`device_id`, `threads`) is untouched."""
    body = checked("""\
        __global__ void k(uint* a, int device_id) { uint threads = blockDim.x; a[threadIdx.x] = threads + device_id; }
        """)
    assert "device uint* a" in body and "uint threads" in body and "device_id" in body and "uint_" not in body


def checked_text(text: str) -> None:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text


# ---------------------------------------------------------------------------------------------
# __constant__ memory the host fills: bound buffers
# ---------------------------------------------------------------------------------------------
CONSTANTS = """\
#define K 5
__constant__ float weights[K];
__constant__ int table[4][4];
__constant__ float bias;
__constant__ float fixed[2] = {1.f, 2.f};
__device__ float tap(const float* in, int i) { return in[i] * weights[i % K] + table[i & 3][0]; }
__global__ void conv(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tap(in, i) + bias + fixed[0];
}
__global__ void other(float* out) { out[threadIdx.x] = fixed[1]; }
int main() { float h[K]; cudaMemcpyToSymbol(weights, h, sizeof(h)); }
"""


def test_constant_memory_the_host_fills_becomes_bound_buffers():
    import json
    port, text = metal(CONSTANTS)
    assert port.ok, [d.format() for d in port.diagnostics]
    checked_text(text)
    body = port.body
    assert "constant float* weights [[buffer(3)]]" in body and "constant int (*table)[4] [[buffer(4)]]" in body
    assert "constant float& bias [[buffer(5)]]" in body
    # the helper receives what it reads, and the call passes it on
    assert "constant float* weights, constant int (*table)[4])" in body and "tap(in, i, weights, table)" in body
    # look-alikes: an initialised __constant__ stays a program-scope constant; a kernel that reads
    # none of the bound ones gets no extra argument
    assert "constant float fixed[2] = {1.f, 2.f};" in body
    assert "kernel void other(device float* out [[buffer(0)]], uint3" in body
    side = json.loads(translate(SourceFile.from_text(CONSTANTS, "t.cu"), "metal")[0].extra_files[".json"])
    conv = next(k for k in side["kernels"] if k["name"] == "conv")
    w = next(a for a in conv["arguments"] if a["name"] == "weights")
    assert w["index"] == 3 and w["symbol"] == "weights" and w["count"] == "(K)" and w["access"] == "read"
    assert w["filled_by"] == ["cudaMemcpyToSymbol(weights, h, sizeof(h))"]


def test_a_call_of_a_host_function_from_device_code_is_refused():
    errs = errors("""\
        float host_scale(float x) { return 2.f * x; }
        __host__ __device__ float both(float x) { return x + 1.f; }
        __global__ void k(float* a) { a[0] = host_scale(a[0]) + both(a[1]); }
        """)
    assert errs == ["3:KP223 a call of host function 'host_scale' from device code has no Metal meaning (it is host "
                    "code, left out of the port; nvcc rejects it too)"], errs


def test_an_atomic_in_a_macro_body_is_refused_at_the_macro():
    """HeCBench memtest: `#define RECORD_ERR(err) atomicAdd(err, 1u)` (KeyError rendering the atomic)."""
    errs = errors("""\
        #define RECORD_ERR(err) atomicAdd(err, 1u)
        #define ADD(a, b) ((a) + (b))
        __global__ void k(unsigned* err, float* a) { if (a[0] != ADD(a[1], 0.f)) RECORD_ERR(err); }
        """)
    assert errs == ["1:KP212 'atomicAdd' inside a macro body: the Metal atomic needs the address space and type "
                    "of its operand, which a macro does not give"], errs


def test_writing_where_a_constant_struct_points_is_not_writing_the_constant():
    """rodinia heartwall: `d_unique[bx].d_Row[i] = v` writes device memory the member points to."""
    errs = errors("""\
        struct Track { int n; float* row; };
        __constant__ Track tracks[4];
        __global__ void k(float* a) { tracks[blockIdx.x].row[threadIdx.x] = a[0]; }
        """)
    assert not any("is written in device code" in e for e in errs), errs


def test_an_overload_calling_another_is_not_recursion():
    """HeCBench helper_math.h: make_float2(float s) { return make_float2(s, s); }."""
    errs = errors("""\
        __device__ float2 pair(float s, float t) { return make_float2(s, t); }
        __device__ float2 pair(float s) { return pair(s, s); }
        __global__ void k(float2* a) { a[0] = pair(1.f); }
        """)
    assert not any("recursion" in e for e in errs), errs


def test_a_constant_written_in_device_code_is_refused():
    errs = errors("""\
        __constant__ float w[4];
        __global__ void k(float* a) { w[0] = a[0]; }
        """)
    assert errs and errs[0].startswith("2:KP213 __constant__ 'w' is written in device code"), errs


def test_kernel_declarations_are_left_out_device_ones_kept():
    # rodinia gaussian.cu declares its kernels at the top for the host's launches (left out)
    body = checked("""\
        __global__ void Fan1(float *m, float *a, int Size, int t);
        extern "C" __global__ void plain(float *x);
        __device__ float twice(float *p);
        __global__ void Fan1(float *m, float *a, int Size, int t) { m[t] = twice(a) + Size; }
        extern "C" __global__ void plain(float *x) { x[0] = 1.0f; }
        __device__ float twice(float *p) { return 2.0f * p[0]; }
        """)
    for name in ("Fan1", "plain"):
        assert f"/* {name}: a kernel's declaration, left out of the Metal port */" in body
    assert "float twice(device float *p);" in body  # the look-alike: a helper's declaration is kept


def test_grid_constant_has_no_metal_word_restrict_is_kept():
    # cuda-samples LargeKernelParameter: `__grid_constant__ const T p` (the dialect's metal spelling
    # is ""); the look-alike `__restrict__` is a word Metal's clang accepts and stays
    body = checked("""\
        struct P { int a[4]; };
        __global__ void g(__grid_constant__ const P p, const int* __restrict__ q, int* r) { r[0] = p.a[1] + q[0]; }
        """)
    assert "kernel void g(const constant P& p [[buffer(0)]], const device int* __restrict__ q" in body
    assert "__grid_constant__" not in body


def test_explicit_instances_for_host_code_are_left_out():
    # cuSZ's hist_generic.cu / hf_kernels.cu: `template struct psz::module::GPU_histogram_generic<u1>;`
    # instantiates a host launcher class; a port that kept it (without its `template`) did not compile
    body = checked("""\
        namespace ns { template <typename T> struct mod { static void run(T* a, int n); }; }
        __global__ void k(float* d, int n) { d[threadIdx.x] = n; }
        template <typename T> __device__ T twice(T v) { return v + v; }
        __global__ void k2(float* d) { d[0] = twice(d[1]); }
        template <typename T> void ns::mod<T>::run(T* a, int n) { k<<<1, 64>>>(a, n); }
        template <typename T> void launch(T* a, int n) { k<<<1, 64>>>(a, n); }
        template struct ns::mod<float>;
        template void launch<float>(float*, int);
        template __device__ float twice<float>(float);
        """)
    assert "\n/* ns::mod<float>: used by host code only, left out of the Metal port */;" in body
    assert "/* launch<...>: an explicit instance for host code, left out of the Metal port */" in body
    assert "/* twice<...>: an explicit instance for device code (Metal instantiates it where it is used)" in body
    assert "kernel void k2(device float* d [[buffer(0)]]) { d[0] = twice(d[1]); }" in body
