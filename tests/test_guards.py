"""kernelport.guards: one reading of platform `#if` guards for translate and lint.

translate.py and lint/guards.py used to read guards with regexes that disagreed; each test below
is one of those disagreements, with the reading now shared and why it is the right one.
"""
from __future__ import annotations

import textwrap

import pytest

from kernelport import guards
from kernelport.lint import lint_text
from kernelport.source import SourceFile, walk
from kernelport.translate import translate


def at(code: str, marker: str):
    """(src, node) of the declaration whose text contains `marker`."""
    src = SourceFile.from_text(textwrap.dedent(code), "t.cu")
    node = next(n for n in walk(src.root) if n.type == "declaration" and marker in src.text_of(n))
    return src, node


def where(code: str, marker: str) -> tuple[bool, bool, str | None]:
    src, n = at(code, marker)
    return guards.cuda_only(n, src), guards.amd_only(n, src), guards.side_of(n, src)


def hip(code: str):
    port, _ = translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")
    return port


# -- translate read `#ifndef` from the node's text: `# ifndef` (a space, legal C) was missed ------
def test_ifndef_with_a_space_is_negated():
    code = """
    # ifndef __HIP_PLATFORM_AMD__
    int nv;
    # else
    int amd;
    # endif
    """
    assert where(code, "nv") == (True, False, "nvidia")
    assert where(code, "amd") == (False, True, "amd")


# -- translate took any test starting with `!` as negated, lint only a whole `!defined(X)`: both
#    wrong for `!defined(AMD) || FOO`, whose body AMD compiles when FOO is set -------------------
def test_compound_test_is_evaluated_not_pattern_matched():
    code = """
    #if !defined(__HIP_PLATFORM_AMD__) || defined(FOO)
    int either;
    #else
    int amd;
    #endif
    """
    assert where(code, "either") == (False, False, None)  # was cuda-only (translate) and "amd" (lint)
    assert where(code, "amd") == (False, True, "amd")
    conj = """
    #if !defined(__HIP_PLATFORM_AMD__) && defined(FOO)
    int nv;
    #else
    int either;
    #endif
    """
    assert where(conj, "nv") == (True, False, "nvidia")  # was "amd" for lint
    assert where(conj, "either") == (False, False, None)  # was amd-only for translate


# -- lint skipped the outer #if for code in its #elif / #else parts ------------------------------
def test_elif_chain_parts_are_off_the_platform_of_the_first_test():
    code = """
    #if defined(__HIP_PLATFORM_AMD__)
    int amd;
    #elif defined(FOO)
    int foo;
    #else
    int rest;
    #endif
    """
    assert where(code, "amd")[2] == "amd"
    assert where(code, "foo") == (True, False, "nvidia")  # lint: was unguarded
    assert where(code, "rest") == (True, False, "nvidia")


# -- lint took the #else of any NVIDIA test for AMD code; the #else of a CUDA *version* test is
#    what both hipcc and an old nvcc compile (xgboost's `__ballot` fallback) ------------------------
def test_else_of_a_cuda_version_test_is_compiled_on_both():
    code = """
    #if __CUDACC_VER_MAJOR__ > 8
    int new_nvcc;
    #else
    int old_or_amd;
    #endif
    """
    assert where(code, "new_nvcc") == (True, False, "nvidia")
    assert where(code, "old_or_amd") == (False, False, None)
    findings = lint_text(textwrap.dedent("""
    __device__ void f(bool p, int* out) {
    #if __CUDACC_VER_MAJOR__ > 8
        unsigned b = __ballot_sync(__activemask(), p);
    #else
        unsigned b = __ballot(p);
    #endif
        *out = __popc(b);
    }
    """), targets={"hip-cdna"}, select=["WS008"])
    assert [f.line for f in findings] == [6]  # the fallback hipcc compiles; the nvcc>8 branch is NVIDIA's


# -- `#ifndef __CUDA_ARCH__` is nvcc's host pass as well as AMD: not AMD-only for translate, but
#    its device code is AMD's alone (what lint asks) -------------------------------------------------
def test_ifndef_cuda_arch_is_host_or_amd():
    code = """
    #ifndef __CUDA_ARCH__
    int host_or_amd;
    #endif
    """
    assert where(code, "host_or_amd") == (False, False, "amd")


# -- the macro sets: translate knew only __CUDA_ARCH__ as NVIDIA's and lint missed USE_AMD_ROCM ---
def test_platform_macros_both_readers_missed():
    nvcc = """
    #ifdef __CUDACC__
    int nv;
    #endif
    """
    assert where(nvcc, "nv") == (True, False, "nvidia")  # translate: was not CUDA-only
    faiss = """
    #ifdef USE_AMD_ROCM
    int amd;
    #else
    int nv;
    #endif
    """
    assert where(faiss, "amd") == (False, True, "amd")  # lint: was unguarded
    assert where(faiss, "nv") == (True, False, "nvidia")


# -- an architecture test: lint leaves both branches alone (the honest per-arch wave width), and
#    its #else is still compiled on AMD (RDNA) and NVIDIA, so translate ports it -----------------
def test_architecture_test_branches():
    code = """
    #if __AMDGCN_WAVEFRONT_SIZE == 64
    int wave64;
    #else
    int other;
    #endif
    """
    assert where(code, "wave64") == (False, True, "arch")
    assert where(code, "other") == (False, False, "arch")


# -- KP208 (code only under a CUDA test, no #else): translate asked "does the test mention
#    __CUDA_ARCH__ un-negated"; now "is the test false on every AMD pass", what its message says ----
def test_kp208_asks_whether_the_test_is_false_on_amd():
    either = hip("""
    __global__ void k(int* x) {
    #if defined(__CUDA_ARCH__) || defined(KP_FORCE)
        x[threadIdx.x] = 1;
    #endif
    }
    """)
    assert "KP208" not in [d.code for d in either.diagnostics]  # true on AMD when KP_FORCE is set
    version = hip("""
    __global__ void k(int* x) {
    #if __CUDA_API_VERSION >= 11000
        x[threadIdx.x] = 1;
    #endif
    }
    """)
    assert [d.code for d in version.diagnostics] == ["KP208"]  # hipcc never defines __CUDA_API_VERSION
    # (CUDA_VERSION, whose value the CUDA backend's toolkit_versions gives, is evaluated: tests/test_version_host_code.py)


@pytest.mark.parametrize("name", ["CUDART_VERSION", "__CUDACC_VER_MINOR__", "__CUDA_API_VERSION"])
def test_the_toolkits_other_version_macros_are_nvidia_only(name):
    """cuda_runtime_api.h's CUDART_VERSION and nvcc's version macros read like CUDA_VERSION: hipcc
    defines none, so code under `#if NAME >= N` with no #else is compiled on no AMD pass (xmrig-cuda,
    cuSZ test CUDART_VERSION; it was an unknown macro, and the port kept the code without a word).
    Where the CUDA backend's toolkit_versions gives the value, a kernel's test is now evaluated with it
    (kernelport/version_branches.py; it was only where both of nvcc's passes compile the code): the port
    is the branch nvcc takes, with no KP208; a name it gives no value keeps KP208."""
    from kernelport import backends
    version = hip(f"""
    __global__ void k(int* x) {{
    #if {name} >= 11000
        x[threadIdx.x] = 1;
    #endif
    }}
    """)
    if name in backends.source().toolkit_versions:
        taken = backends.source().toolkit_versions[name] >= 11000  # (CUDA 13's minor version is 0)
        assert not version.diagnostics and "#if" not in version.body
        assert ("x[threadIdx.x] = 1;" in version.body) == taken
    else:
        assert [d.code for d in version.diagnostics] == ["KP208"]


def test_evaluate_arithmetic_and_unknowns():
    src = SourceFile.from_text("#if (__CUDA_ARCH__ >= 700) && (1 << 3) == 8\nint a;\n#endif\n", "t.cu")
    cond = next(n for n in walk(src.root) if n.type == "preproc_if")
    assert guards.holds(cond, src, guards.NVIDIA_DEVICE) is None  # the architecture number is unknown
    assert guards.holds(cond, src, guards.NVIDIA_HOST) == 0
    assert guards.holds(cond, src, guards.AMD_DEVICE) == 0


# -- a file's own switch whose value the platform decides (ccminer's cuda_helper.h): the asm under
#    `#if USE_XOR_ASM_OPTS` is compiled on no AMD pass, where the switch is 0 -----------------------
DERIVED = """
#ifndef HELPER_H
#define HELPER_H
#if !defined(__CUDA_ARCH__) || defined(_WIN64)
#define USE_ASM_OPTS 0
#else
#define USE_ASM_OPTS 1
#endif

#if USE_ASM_OPTS
__device__ unsigned long long xor1(unsigned long long a, unsigned long long b) {
    unsigned long long r;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r) :: "memory");  // a timer register: no C idiom
    return r ^ a ^ b;
}
#else
#define xor1(a, b) (a ^ b)
#endif
#endif
__global__ void k(unsigned long long* x) { x[threadIdx.x] = xor1(x[0], x[1]); }
"""


def test_a_switch_the_platform_decides_is_evaluated_per_pass():
    src, node = at(DERIVED, "unsigned long long r")
    assert guards.cuda_only(node, src) and not guards.amd_only(node, src)
    port = hip(DERIVED)
    assert port.ok and "KP201" not in {d.code for d in port.diagnostics}
    # the look-alikes: a switch that is 1 on the AMD passes too, or that only a -D may set, leaves the
    # asm compiled there, and it is refused
    on = DERIVED.replace("#define USE_ASM_OPTS 0", "#define USE_ASM_OPTS 1")
    src, node = at(on, "unsigned long long r")
    assert not guards.cuda_only(node, src) and "KP201" in {d.code for d in hip(on).diagnostics}
    plain = DERIVED.replace("#if !defined(__CUDA_ARCH__) || defined(_WIN64)\n#define USE_ASM_OPTS 0\n#else\n"
                            "#define USE_ASM_OPTS 1\n#endif\n", "")
    assert "KP201" in {d.code for d in hip(plain).diagnostics}


# -- a switch redefined under a test of itself (alpaka's BoostPredef.hpp): `#if defined(X) && X`,
#    `#undef X`, `#define X ...` asked for X's value while deciding X, until RecursionError --------
SELF_TESTED = """
#if defined(__HIP_PLATFORM_AMD__)
#define LANG_HIP 1
#if defined(LANG_CUDA) && LANG_CUDA
#undef LANG_CUDA
#define LANG_CUDA 0
#endif
#endif
#if !defined(LANG_CUDA)
#if defined(__CUDACC__)
#define LANG_CUDA 1
#else
#define LANG_CUDA 0
#endif
#endif
#if LANG_CUDA
__device__ int nv_only;
#endif
__device__ int either;
"""


def test_a_switch_tested_in_its_own_redefinition_is_unknown_not_a_recursion():
    src, node = at(SELF_TESTED, "nv_only")
    assert guards.side_of(node, src) is None  # LANG_CUDA's value depends on itself: unknown, never raised
    src, node = at(SELF_TESTED, "either")
    assert guards.side_of(node, src) is None
    assert not [f for f in lint_text(textwrap.dedent(SELF_TESTED), "t.cu") if f.code == "KP006"]
    # the look-alike: the same switch decided without the self-test keeps its per-pass value
    plain = SELF_TESTED.replace("#if defined(LANG_CUDA) && LANG_CUDA\n#undef LANG_CUDA\n#define LANG_CUDA 0\n#endif\n", "")
    src, node = at(plain, "nv_only")
    assert guards.cuda_only(node, src)


BUILTINS = """
#ifndef __CUDA_ARCH__
extern const dim3 blockDim;
extern const uint3 threadIdx;
#endif
extern __device__ void __syncthreads(void);
extern const dim3 myDims;
__global__ void k(float* x) { x[threadIdx.x] = blockDim.x; __syncthreads(); }
"""


def test_file_scope_redeclarations_of_cuda_builtins_go_from_the_port():
    port, text = translate(SourceFile.from_text(textwrap.dedent(BUILTINS), "t.cu"), "hip")
    assert port.ok
    for decl in ("extern const dim3 blockDim;", "extern const uint3 threadIdx;", "extern __device__ void __syncthreads(void);"):
        assert f"/* {decl} (a CUDA built-in, declared by the target) */" in text
    assert "\nextern const dim3 myDims;\n" in text  # the look-alike: the user's own name stays
    assert "x[threadIdx.x] = blockDim.x; __syncthreads();" in text


HOST_ASM = """
static inline unsigned bswap32(unsigned x) {
    __asm__ __volatile__ ("bswapl %0" : "=r" (x) : "0" (x));
    return x;
}
__device__ unsigned dev_swap(unsigned x) {
    unsigned r;
    asm("prmt.b32.f4e %0, %1, 0, 0x0123;" : "=r"(r) : "r"(x));  // a moded prmt: no port
    return r;
}
__global__ void k(unsigned* x) { x[threadIdx.x] = dev_swap(x[0]); }
int main() { return (int)bswap32(1u); }
"""


def test_asm_in_a_host_only_function_is_the_hosts_and_only_device_asm_is_refused():
    """sph_types.h (ccminer) byte-swaps with x86 `bswapl` in a host function: hipcc's host pass
    reads it as nvcc's does; it was KP201 'inline PTX', refusing every file that included it."""
    port = hip(HOST_ASM)
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 8)]
    device_line = next(ln for ln in HOST_ASM.splitlines(keepends=True) if "prmt.b32" in ln)
    assert hip(HOST_ASM.replace(device_line, "    r = x;\n")).ok  # the host's asm alone: a port
