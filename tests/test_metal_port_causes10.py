"""Causes of Metal ports of the tenth held-out set (bench/heldout10.toml) that were refused, each
as a minimal CUDA snippet written for the test (no fetched file is read)."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool


def _checked(text: str) -> None:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text


def test_a_header_needed_only_through_its_own_include_is_spliced(tmp_path: Path):
    # cuda-hashing-algos: md5.cu includes md5.cuh, which declares host entry points only and
    # includes config.h, whose typedefs (BYTE, WORD) device code uses: md5.cuh was not needed by
    # itself, so config.h was never reached (KP223 'BYTE' is defined neither in this file ...)
    (tmp_path / "config.h").write_text("#pragma once\ntypedef unsigned char BYTE;\ntypedef unsigned int WORD;\n")
    (tmp_path / "hash.cuh").write_text('#pragma once\n#include "config.h"\nvoid hash_batch(BYTE* in, int n);\n')
    (tmp_path / "unused.h").write_text('#pragma once\nvoid log_line(const char* s);\n')
    (tmp_path / "report.h").write_text('#pragma once\n#include "config.h"\nvoid report(WORD w);\n')
    code = ('#include "unused.h"\n#include "hash.cuh"\n#include "report.h"\n'
            "__device__ WORD mix(BYTE b) { return (WORD)b * 31u; }\n"
            "__global__ void k(BYTE* in, WORD* out) { out[threadIdx.x] = mix(in[threadIdx.x]); }\n"
            "void hash_batch(BYTE* in, int n) { log_line(\"batch\"); }\n")
    port, text = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "typedef unsigned char BYTE;" in port.body
    assert "void log_line" not in port.body  # a header nothing of which (nor of its includes) is needed: left out
    assert '"report.h", spliced' not in port.body  # what it includes is spliced already: no reason to splice it
    _checked(text)


def test_a_definition_takes_the_spaces_its_prototype_names_on_metal(tmp_path: Path):
    # solanity's ge.h declares `void __host__ __device__ ge_p3_to_p2(...)`, ge.cu defines it bare and
    # calls it from device code: nvcc gives the definition the prototype's spaces; the Metal port
    # read it as host code (KP223 a call of host function 'ge_p3_to_p2' from device code)
    code = ("typedef struct { int v[4]; } box;\n"
            "void __host__ __device__ box_add(box *r, const box *a);\n"
            "int __device__ twice(int x);\n"
            "int host_only(int x);\n"
            "void box_add(box *r, const box *a) { for (int i = 0; i < 4; i++) r->v[i] += a->v[i]; }\n"
            "int twice(int x) { return 2 * x; }\n"
            "int host_only(int x) { return x; }\n"
            "__global__ void k(int *o) {\n"
            "  box a = {{1, 2, 3, 4}}, b = {{0, 0, 0, 0}};\n"
            "  box_add(&b, &a);\n"
            "  o[threadIdx.x] = twice(b.v[threadIdx.x % 4]);\n"
            "}\n")
    port, text = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "int twice(int x) { return 2 * x; }" in port.body and "host_only(int x) {" not in port.body
    _checked(text)
    # a definition whose prototype names no space stays host code: called from a kernel, refused as before
    port, _ = translate(SourceFile.from_text(code.replace("twice(b.v", "host_only(b.v"), str(tmp_path / "k.cu")), "metal")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP223"]


# cuda-hashing-algos (md5.cu, sha1.cu, sha256.cu, md2.cu, blake2b.cu, keccak.cu) and solanity's crypt
# files: device code calls memset / memcpy (KP223 'memset' is defined neither in this file nor in
# Metal's standard library), keeps `unsigned long long` in a file-scope struct, and passes a struct's
# array member (`ctx->data`) to a helper, which got a `device` parameter for a thread-space array
HASH_STEP = """\
typedef unsigned char BYTE;
typedef struct { BYTE data[8]; unsigned long long bitlen; unsigned int len; } CTX;
__device__ unsigned int fold(CTX *ctx, const BYTE data[]) {
  unsigned int s = 0;
  for (int i = 0; i < 8; ++i) s = s * 31u + data[i];
  return s + (unsigned int)ctx->bitlen;
}
__device__ void init(CTX *ctx, const BYTE *key, BYTE *scratch) {
  memset(ctx, 0, sizeof(CTX));
  memcpy(ctx->data, key, 8);
  memcpy(scratch, ctx->data, 8);
  ctx->bitlen = 64;
}
__global__ void k(const BYTE *keys, unsigned int *out) {
  __shared__ BYTE scratch[8];
  CTX ctx;
  init(&ctx, keys + 8 * threadIdx.x, scratch);
  out[threadIdx.x] = fold(&ctx, ctx.data) + fold(&ctx, keys);
}
"""


def test_memcpy_memset_long_long_fields_and_array_members_port_to_metal(tmp_path: Path):
    port, text = translate(SourceFile.from_text(HASH_STEP, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    body = port.body
    assert "kp_memset(ctx, 0, sizeof(CTX));" in body and "kp_memcpy(ctx->data, key, 8);" in body
    assert "ulong bitlen;" in body and "long long" not in body
    # fold is called with a thread array (ctx.data) and a device buffer: one overload per space
    assert "fold(thread CTX *ctx, const thread BYTE data[])" in body
    assert "fold(thread CTX *ctx, const device BYTE data[])" in body
    assert "inline D kp_memcpy(D dst, S src, size_t n)" in text and "inline D kp_memset(D dst, int c, size_t n)" in text
    _checked(text)


def test_the_memory_polyfills_are_left_out_where_unused_and_a_pointer_member_is_not_an_array():
    code = ("struct Span { float *p; float v[2]; };\n"
            "__device__ float first(const float *q) { return q[0]; }\n"
            "__global__ void k(Span s, float *out) { Span t = s; out[0] = first(t.v) + first(s.p); }\n")
    port, text = translate(SourceFile.from_text(code, "k.cu"), "metal")
    assert "kp_memcpy" not in text and "kp_bytes" not in text
    # t.v is the thread copy's own array; s.p points wherever the host said: not taken as thread
    assert "first(const thread float *q)" in port.body


def test_an_extern_constant_from_a_header_is_a_bound_buffer(tmp_path: Path):
    # AliceVision's DeviceCameraParams.hpp: `extern __constant__ DeviceCameraParams
    # constantCameraParametersArray_d[100];`, defined in DeviceCameraParams.cu, read by kernels in
    # other files: the spliced declaration was left as CUDA (KP224 unknown type name '__constant__')
    (tmp_path / "params.h").write_text("#pragma once\nstruct Cam { float f; float c[2]; };\n"
                                       "#define NCAM 4\nextern __constant__ Cam cams_d[NCAM];\n")
    user = '#include "params.h"\n__global__ void k(float *o) { o[threadIdx.x] = cams_d[threadIdx.x % NCAM].f; }\n'
    port, text = translate(SourceFile.from_text(user, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "constant Cam* cams_d [[buffer(1)]]" in port.body and "extern __constant__" not in port.body
    _checked(text)
    # the file that defines it too: one buffer, the header's declaration and the definition both left out
    both = user + "__constant__ Cam cams_d[NCAM];\n"
    port, text = translate(SourceFile.from_text(both, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert port.body.count("constant Cam* cams_d") == 1 and "/* cams_d: declared above */" in port.body
    _checked(text)
    # an extern array of unknown size is not bound (its size is elsewhere): refused, as before
    (tmp_path / "params.h").write_text("#pragma once\nstruct Cam { float f; };\nextern __constant__ Cam cams_d[];\n")
    port, _ = translate(SourceFile.from_text(user.replace("% NCAM", "% 4"), str(tmp_path / "k.cu")), "metal")
    assert not port.ok
