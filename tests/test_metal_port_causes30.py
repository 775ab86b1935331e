"""Causes of Metal ports of the thirtieth held-out set (bench/heldout30.toml, cryptography) that the
port's own checker refused (KP224) or that were refused for a name the file does define (KP223), each
as a minimal CUDA snippet written for the test (no fetched file is read).  Each snippet's port was
refused on main before the fix (the cause named in each test)."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool


def _port(code: str, tmp_path: Path):
    require_tool("clang")
    port, text = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text
    return port


def test_device_const_tables_lose_the_cuda_space_word(tmp_path: Path):
    # FrodoKEM/Kyber fips202.cu `__device__ static const uint64_t KeccakF_RoundConstants_DEV[24] = {...}`,
    # atpqc zetas_table.cu `__device__ const std::int16_t zetas[128]`, bellman ff_config.cu
    # `__device__ __constant__ uint32_t inv_p = ...`: the port kept `__device__` (KP224 unknown type name
    # '__device__'), and `std::int16_t` (KP224 use of undeclared identifier 'std')
    code = ("#include <cstdint>\n"
            "__device__ const std::int16_t zetas[4] = {1, 2, 3, 4};\n"
            "__device__ static const uint64_t RC[2] = {1ULL, 2ULL};\n"
            "static __device__ const int rot[2] = {1, 2};\n"
            "__device__ __constant__ uint32_t inv_p = 0xe4866389;\n"
            "__global__ void k(int* out) {\n"
            "  out[threadIdx.x] = zetas[threadIdx.x % 4] + (int)RC[0] + rot[1] + (int)inv_p;\n"
            "}\n")
    body = _port(code, tmp_path).body
    assert "__device__" not in body
    assert "constant const int16_t zetas[4] = {1, 2, 3, 4};" in body  # std::int16_t is Metal's int16_t
    assert "constant static const uint64_t RC[2]" in body and "static constant const int rot[2]" in body
    assert "\nconstant uint32_t inv_p = 0xe4866389;" in body


def test_a_nested_namespace_declares_each_name_and_a_metal_word_among_them_is_renamed(tmp_path: Path):
    # atpqc-cuda: `namespace atpqc_cuda::fips202_ws::device {` (KP224 expected '{': `device` is Metal's
    # address space) and `...::global {` (a word of the checker's OpenCL, none of Metal's); a use
    # `lib::fips::device::twice` was refused KP223 'lib' is defined neither in this file nor ...
    code = ("namespace lib::fips::device {\n"
            "__device__ int twice(int x) { return 2 * x; }\n"
            "}\n"
            "namespace lib::fips::global {\n"
            "__global__ void k(int* out) { out[threadIdx.x] = lib::fips::device::twice(threadIdx.x); }\n"
            "}\n")
    body = _port(code, tmp_path).body
    assert "namespace lib::fips::device_ {" in body and "lib::fips::device_::twice(tid.x)" in body
    assert "namespace lib::fips::global {" in body  # no Metal word: kept


def test_opencl_words_are_plain_names_to_the_checker():
    # `global`, `local`, `generic`, ... are keywords of the checker's C++ for OpenCL, not of Metal: a port
    # naming a variable so was refused by the model, not by Metal
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    text = ("#include <metal_stdlib>\nusing namespace metal;\n"
            "kernel void k(device int* out [[buffer(0)]], uint3 tid [[thread_position_in_threadgroup]]) {\n"
            "  int global = 1, local = 2, generic = 3, pipe = 4;\n"
            "  out[tid.x] = global + local + generic + pipe;\n}\n")
    assert [str(d) for d in check_metal_source(text, "t.metal")] == []
    bad = text.replace("int global = 1", "int global = undefined_name")
    assert any("'undefined_name'" in str(d) for d in check_metal_source(bad, "t.metal"))


def test_a_parameter_named_as_a_builtin_shadows_it(tmp_path: Path):
    # FrodoKEM fips202.cu `__device__ void sha3_keccakf_Sh(uint64_t *st_io, int threadIdx)`: its uses
    # read the parameter, but the port made them the built-in and added it again (KP224 redefinition of
    # parameter 'tid')
    code = ("__device__ void f(unsigned long long *st, int threadIdx)\n"
            "{\n  st[threadIdx] += 1;\n}\n"
            "__global__ void k(unsigned long long* st) { f(st, threadIdx.x); }\n")
    body = _port(code, tmp_path).body
    assert "void f(device ulong *st, int threadIdx)\n{\n  st[threadIdx] += 1;\n}" in body
    assert "f(st, tid.x);" in body


def test_a_helper_no_kernel_reaches_gives_its_callees_their_spaces(tmp_path: Path):
    # Kyber fips202.cu: shake128_absorb(uint64_t* s, ...) (called from other files only: device memory)
    # calls keccak_absorb(s, ...), which kernels call with a local array: only the kernels' calls gave
    # keccak_absorb its overloads (KP224 cannot pass pointer to address space 'device' as a pointer to
    # address space 'thread')
    code = ("__device__ void absorb(unsigned long long* s, const unsigned char* in) { s[0] ^= in[0]; }\n"
            "__device__ void shake(unsigned long long* s, const unsigned char* in) { absorb(s, in); }\n"
            "__global__ void k(const unsigned char* in, unsigned long long* out) {\n"
            "  unsigned long long s[25] = {0};\n  absorb(s, in);\n  out[threadIdx.x] = s[0];\n}\n")
    body = _port(code, tmp_path).body
    assert "void absorb(thread ulong* s, const device unsigned char* in)" in body
    assert "void absorb(device ulong* s, const device unsigned char* in)" in body
    assert "void shake(device ulong* s, const device unsigned char* in)" in body


def test_a_cast_of_a_program_scope_constant_keeps_the_constant_space(tmp_path: Path):
    # NewHope fips202.cu `((uint64_t*)noise_seed_const)[0]` of a host-filled `__constant__ uint8_t
    # noise_seed_const[32]`: the cast's pointer was a `thread` one (KP224 C-style cast from 'constant
    # uint8_t *' to 'thread uint64_t *' converts between mismatching address spaces)
    code = ("#include <cstdint>\n"
            "__constant__ uint8_t seed[32];\n"
            "__device__ __constant__ uint8_t seed2[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
            "__device__ const uint32_t one = 1u;\n"
            "__device__ uint32_t first(const uint32_t* p) { return p[0]; }\n"
            "__global__ void k(uint64_t* out, const uint8_t* in) {\n"
            "  out[0] = ((uint64_t*)seed)[0] + ((const uint64_t*)seed2)[0] + first(&one);\n"
            "  out[1] = ((uint64_t*)in)[1];\n"
            "}\n")
    body = _port(code, tmp_path).body
    assert "((constant uint64_t*)seed)[0] + ((const constant uint64_t*)seed2)[0]" in body
    assert "uint32_t first(const constant uint32_t* p)" in body
    assert "((device uint64_t*)in)[1]" in body


def test_member_functions_get_their_extras_at_calls_and_in_their_class_declarations(tmp_path: Path):
    # atpqc verify_cmov_ws: `vc.cmov(r, x, len, vc.verify(a, b, len))` of member functions reading threadIdx
    # (KP224 too few arguments to function call, expected 5, have 3); ntt_ctgs_64t: `void operator()(short2*)
    # const;` declared in the class, defined out of it (KP224 out-of-line definition of 'operator()' does not
    # match any declaration), and called as `ntt(tmp_poly)` of a local `fwdntt ntt;` with threadgroup memory
    code = ("namespace dev {\n"
            "class fwd {\n public:\n"
            "  __device__ void operator()(short* p) const;\n"
            "  __device__ int twice(int* q);\n"
            "  __device__ int lane_or(int r) { return r | __shfl_xor_sync(0xffffffff, r, 1) | threadIdx.x; }\n"
            "};\n"
            "__device__ void fwd::operator()(short* p) const { p[threadIdx.x] += 1; }\n"
            "__device__ int fwd::twice(int* q) { return 2 * q[threadIdx.x]; }\n"
            "}\n"
            "__global__ void k(short* a, int* b) {\n"
            "  __shared__ short s[64];\n  dev::fwd f;\n"
            "  s[threadIdx.x] = a[threadIdx.x];\n  f(s);\n"
            "  b[threadIdx.x] = f.twice(b) + f.lane_or(s[threadIdx.x]);\n}\n")
    body = _port(code, tmp_path).body
    assert "  void operator()(threadgroup short* p, uint3 tid) const;\n  int twice(device int* q, uint3 tid);" in body
    assert "void fwd::operator()(threadgroup short* p, uint3 tid) const {" in body
    assert "f(s, tid);" in body and "f.twice(b, tid) + f.lane_or(s[tid.x], tid)" in body


def test_a_table_another_file_defines_is_a_constant_buffer_and_a_namespace_constexpr_is_constant(tmp_path: Path):
    # atpqc kyber: zetas_table.cuh `__device__ extern const std::int16_t zetas[128];` (defined in
    # zetas_table.cu; KP224 unknown type name '__device__'), read as `zetas_table::zetas[k]`; params.cuh
    # `template <class V> inline constexpr unsigned k = k_type<V>::value;` over explicit specializations of
    # `std::integral_constant` (KP224 program-scope variables must be in the constant address space; the
    # specializations were left out as host code; 'std' undeclared)
    code = ("#include <cstdint>\n#include <type_traits>\n"
            "struct v512 {}; struct v768 {};\n"
            "template <class V> struct k_type {};\n"
            "template <> struct k_type<v512> : std::integral_constant<unsigned, 2> {};\n"
            "template <> struct k_type<v768> : std::integral_constant<unsigned, 3> {};\n"
            "namespace params {\ninline constexpr unsigned n = 256;\n"
            "template <class V>\ninline constexpr unsigned k = k_type<V>::value;\n}\n"
            "namespace zetas_table {\n__device__ extern const std::int16_t zetas[4];\n}\n"
            "__global__ void kern(int* out) {\n"
            "  out[threadIdx.x] = params::n * params::k<v512> + zetas_table::zetas[threadIdx.x % 4];\n}\n")
    port = _port(code, tmp_path)
    body = port.body
    assert "template <> struct k_type<v512> : metal::integral_constant<unsigned, 2> {};" in body
    assert "template <> struct k_type<v768>" not in body  # a variant device code never names: host code's
    assert "inline constexpr constant unsigned n = 256;" in body
    assert "template <class V>\ninline constexpr constant unsigned k = k_type<V>::value;" in body
    assert "constant int16_t* zetas [[buffer(1)]]" in body and "+ zetas[tid.x % 4]" in body
    import json
    arg = next(a for a in json.loads(port.extra_files[".json"])["kernels"][0]["arguments"] if a["name"] == "zetas")
    assert "the file that defines it" in arg["from"] and arg["access"] == "read"


def test_a_headers_extern_declaration_of_the_files_own_table_goes(tmp_path: Path):
    # atpqc fips202_ws: device.cuh `__device__ extern const unsigned offset_constants[32];`, device.cu
    # defines it with its values (KP224 unknown type name '__device__')
    code = ("__device__ extern const unsigned offsets[4];\n"
            "__device__ const unsigned offsets[4] = {1u, 2u, 3u, 4u};\n"
            "__global__ void k(unsigned* out) { out[threadIdx.x] = offsets[threadIdx.x % 4]; }\n")
    body = _port(code, tmp_path).body
    assert "constant const unsigned offsets[4] = {1u, 2u, 3u, 4u};" in body and "[[buffer(1)]]" not in body


def test_a_file_with_no_device_code_is_not_refused_for_its_host_items(tmp_path: Path):
    # NewHope precomp.cu: tables under `#if (NEWHOPE_N == 512) ... #elif (NEWHOPE_N == 1024) ... #else #error`,
    # NEWHOPE_N from params.h; bellman allocator.cu: a class template's host members. No port is written
    # (KP227), yet the checker's reading of the empty port refused the file (KP224 "NEWHOPE_N must be ...")
    require_tool("clang")
    (tmp_path / "params.h").write_text("#pragma once\n#define N_PARAM 1024\n")
    code = ('#include "params.h"\n'
            "#if (N_PARAM == 512)\n__device__ unsigned short table[2] = {1, 2};\n"
            "#elif (N_PARAM == 1024)\n__device__ unsigned short table[4] = {1, 2, 3, 4};\n"
            '#else\n#error "N_PARAM must be either 512 or 1024"\n#endif\n'
            "template <class T> struct box { T* p; box(); operator T*(); };\n"
            "template <class T> box<T>::box() : p(nullptr) {}\n"
            "template <class T> box<T>::operator T *() { return p; }\n"
            "template struct box<int>;\n")
    port, _ = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")
    assert port.ok and port.empty, [d.format() for d in port.diagnostics]
    assert [d.code for d in port.diagnostics] == ["KP227"]
    # device code the parse missed still shows: a file-scope item with a device word is checked
    bad = code + "__device__ const undefined_type t = 1;\n"
    port, _ = translate(SourceFile.from_text(bad, str(tmp_path / "k2.cu")), "metal")
    assert not port.ok and any(d.code in ("KP223", "KP224") for d in port.diagnostics)


def test_a_cache_hinted_store_defined_only_under_an_if_is_still_a_plain_store(tmp_path: Path):
    # llm.c dev/cuda/common.h defines a bf16 `__stcs` for nvcc < 12 under `#if defined(ENABLE_BF16) && ...`:
    # the name counted as the file's own, so `__stcs(mean + idx, m)` stayed as written (KP224 use of undeclared
    # identifier '__stcs', llm.c fused_residual_forward.cu, layernorm_forward.cu)
    code = ("#if defined(ENABLE_BF16) && (__CUDACC_VER_MAJOR__ < 12)\n"
            "__device__ void __stcs(unsigned short* address, unsigned short value) { *address = value; }\n"
            "#endif\n"
            "__global__ void k(float* mean, float m) { if (threadIdx.x == 0) __stcs(mean + blockIdx.x, m); }\n")
    body = _port(code, tmp_path).body
    assert "if (tid.x == 0) (*(mean + bid.x) = (m));" in body
    # a definition of the name the file always has is its own: called as written
    own = ("__device__ void __stcs(float* address, float value) { *address = 2.0f * value; }\n"
           "__global__ void k(float* mean, float m) { __stcs(mean + blockIdx.x, m); }\n")
    body = _port(own, tmp_path).body
    assert "__stcs(mean + bid.x, m);" in body
