"""Every HIP spelling of the API table, checked with hipcc (HIP_PLATFORM=amd, gfx90a and gfx1030).

The table's `hipcc` column says what the installed ROCm has: `ok` names (and `present` device
functions HIPIFY marks unsupported) must all compile, in one generated file; `absent` names (newer than the installed ROCm) must each fail; `unchecked` names
belong to libraries whose headers are not installed (the README's apt line is what CI installs).
"""
from __future__ import annotations

from conftest import assert_hip_file_compiles, hip_compiles, require_tool
from port_support import port_text

from kernelport import backends
from kernelport.backends import api_table, hip_probe, hip_simd

TABLE = backends.get("hip").api()
ENTRIES = list(TABLE.entries.values())


def _names(status: str):
    return [e for e in ENTRIES if e.hipcc == status and not e.is_header and e.call_template is None]


def _headers(status: str):
    return [e.hip for e in ENTRIES if e.hipcc == status and e.is_header]


def test_every_ok_spelling_compiles_in_one_file(tmp_path):
    require_tool("hipcc")
    ok = list({e.hip: e for e in _names("ok")}.values())
    assert len(ok) > 2000 and {"hipMalloc", "hipDeviceProp_t", "hipMemcpyHostToDevice", "hiprandState",
                               "hipsparseHandle_t", "__hadd", "hipDeviceptr_t"} <= {e.hip for e in ok}
    # device functions HIPIFY marks unsupported that ROCm has (`make_half2`): used in device code
    present = [api_table.Entry(e.cuda, e.target, e.kind, e.flags, e.since, "candidate") for e in _names("present")]
    assert "make_half2" in {e.hip for e in present}
    src, _ = hip_probe.render(ok + present, [*hip_probe.BASE_HEADERS, *_headers("ok")])
    path = tmp_path / "hip_api_ok.hip"
    path.write_text(src)
    assert_hip_file_compiles(path, ["gfx90a", "gfx1030"])


def test_every_absent_spelling_is_missing_from_the_installed_headers(tmp_path):
    tool = require_tool("hipcc")
    absent = list({e.hip: e for e in _names("absent")}.values())
    assert "hipGraphNodeParams" in {e.hip for e in absent}
    src, at = hip_probe.render(absent, [*hip_probe.BASE_HEADERS, *_headers("ok")])
    errors = hip_probe.errors_by_line(hip_probe._compile(src, tool.path, ("gfx90a",)))
    assert -1 not in errors, errors.get(-1)
    missed = [e.hip for line, e in at.items() if line not in errors]
    assert missed == [], f"marked absent but declared by the installed ROCm: {missed[:20]}"
    assert not hip_probe.installed(_headers("absent"), tool.path)


def test_the_hipcc_column_is_what_the_installed_rocm_says():
    """A fresh probe agrees with the committed column (regenerate: scripts/gen_hip_api.py --probe):
    an installed library is never left unchecked, a name is never marked absent that exists."""
    tool = require_tool("hipcc")
    fresh = hip_probe.probe(ENTRIES, tool.path)
    differ = [(e.cuda, e.hipcc, fresh[e.cuda]) for e in ENTRIES if fresh[e.cuda] != e.hipcc]
    assert differ == [], differ[:20]


def _port_compiles(cuda: str, tmp_path) -> None:
    """`cuda` translated to HIP (the whole output, prologue included) compiles for both archs."""
    require_tool("hipcc")
    hip_compiles(tmp_path, port_text(cuda, dedent=False))


# One CUDA use per call-template row of the table (kernelport's own spellings): each port compiles.
TEMPLATE_CALLS = {
    **{f: f"out[0] = {f}(in + i);" for f in ("__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv")},
    **{f: f"{f}(out + i, in[i] * 2.0f);" for f in ("__stcg", "__stcs", "__stwb", "__stwt")},
    **{f: f"u[0] = {f}(u[1], i);" for f in ("umin", "umax")},
    **{f: f"ll[0] = {f}(ll[1], (long long)i);" for f in ("llmin", "llmax")},
    **{f: f"ull[0] = {f}(ull[1], 3ull);" for f in ("ullmin", "ullmax")},
    "__trap": "if (i < 0) __trap();",
    "__dp4a": "u[0] = __dp4a(u[1], u[2], u[3]);",  # the prologue's kp_dp4a (kernelport/backends/hip_dp4a.py)
    **{f: f"out[1] = __bfloat162float({f}(in[i]));" for f in ("__float2bfloat16", "__float2bfloat16_rn",
                                                             "__float2bfloat16_rz")},
    "__bfloat162float": "out[2] = __bfloat162float(__float2bfloat16(in[i] * 2.0f));",
    # float arithmetic rounded toward zero: the prologue's kp_fmul_rz/kp_fmaf_rz
    "__fmul_rz": "out[4] = __fmul_rz(in[0], in[1]);", "__fmaf_rz": "out[5] = __fmaf_rz(in[0], in[1], in[2]);",
    "__fadd_rz": "out[6] = __fadd_rz(in[0], in[1]);", "__fsub_rz": "out[7] = __fsub_rz(in[0], in[1] + in[2]);",
    # directed rounding: the prologue's kp_rnd_* (tests/test_directed_rounding.py checks their results)
    **{f"{op}_{m}": f"out[8] += {op}_{m}(" + ", ".join(f"in[{k}]" for k in range(n)) + ");"
       for op, n in (("__fadd", 2), ("__fsub", 2), ("__fmul", 2), ("__fmaf", 3), ("__fdiv", 2), ("__frcp", 1), ("__fsqrt", 1))
       for m in ("rd", "ru", "rz") if f"{op}_{m}" not in ("__fadd_rz", "__fsub_rz", "__fmul_rz", "__fmaf_rz")},
    **{f"{op}_{m}": "out[9] += (float)" + f"{op}_{m}(" + ", ".join(f"(double)in[{k}]" for k in range(n)) + ");"
       for op, n in (("__dadd", 2), ("__dsub", 2), ("__dmul", 2), ("__ddiv", 2), ("__drcp", 1), ("__dsqrt", 1), ("__fma", 3))
       for m in ("rd", "ru", "rz")},
    # CUDA's SIMD-within-a-word intrinsics: the prologue's kp_v*/kp_hmax2... (kernelport/backends/hip_simd.py)
    # and CUDA 12's DPX ones (__viaddmax_s16x2, three operands)
    **{f: f"u[0] ^= {f}(" + ", ".join(f"u[{k + 1}]" for k in range(hip_simd.call(f).count("{"))) + ");"
       for f in hip_simd.names() if f.startswith("__v")},
    **{f: f"{{ __half2 x = __floats2half2_rn(in[0], in[1]); out[3] = __low2float({f}(x, x)); }}"
       for f in hip_simd.names() if not f.startswith("__v") and "2" in f},
    # and the single-__half forms (__hmax, __hmin_nan: ROCm 5.2 lacks them; h/hip66c)
    **{f: f"{{ __half a = __float2half(in[0]), b = __float2half(in[1]); out[3] = __half2float({f}(a, b)); }}"
       for f in hip_simd.names() if not f.startswith("__v") and "2" not in f},
    # CUDA's bf16 pair constructors and conversions: the prologue's kp_bfloat162_* (kernelport/backends/hip_bf16_pairs.py)
    "__floats2bfloat162_rn": "{ __nv_bfloat162 p = __floats2bfloat162_rn(in[0], in[1]); out[10] = __low2float(p); }",
    "__float2bfloat162_rn": "{ __nv_bfloat162 p = __float2bfloat162_rn(in[0]); out[11] = __high2float(p); }",
    "__bfloat1622float2": "{ float2 w = __bfloat1622float2(__floats2bfloat162_rn(in[0], in[1])); out[12] = w.x + w.y; }",
    "__halves2bfloat162": "{ __nv_bfloat162 p = __halves2bfloat162(__float2bfloat16(in[0]), __float2bfloat16(in[1])); "
                          "out[13] = __low2float(p); }",
    **{f: f"out[14] += __bfloat162float({f}(__floats2bfloat162_rn(in[0], in[1])));"
       for f in ("__low2bfloat16", "__high2bfloat16")},
}


def test_every_call_template_compiles_in_a_translated_kernel(tmp_path):
    assert set(TEMPLATE_CALLS) == {e.cuda for e in ENTRIES if e.call_template is not None and e.role != "overload"}
    assert all(TABLE.get(n).hipcc == "ok" for n in TEMPLATE_CALLS)
    lines = ["__global__ void k(float* out, const float* in, unsigned* u, long long* ll,",
             "                  unsigned long long* ull, int i) {", *TEMPLATE_CALLS.values(), "}",
             "__global__ void h(__half* out, const __half* in) { out[0] = __ldcg(in); __stcs(out + 1, in[1]); }"]
    _port_compiles("#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n" + "\n".join(lines) + "\n", tmp_path)


def test_a_helper_under_cudas_driver_types_guard_exists_in_the_port(tmp_path):
    _port_compiles(
        "#include <cuda_runtime.h>\n#include <stdio.h>\n#ifdef __DRIVER_TYPES_H__\n"
        "#define checkCudaErrors(val) check((val), #val)\n"
        "inline void check(cudaError_t e, const char* what) { if (e != cudaSuccess) printf(\"%s\\n\", what); }\n"
        "#endif\nint main() { checkCudaErrors(cudaDeviceSynchronize()); return 0; }\n", tmp_path)


# One call per `name/arity` row (CUDA's C++ overloads and default arguments HIP lacks), in host code
# nvcc accepts as written: each port compiles for both archs.
OVERLOAD_CALLS = {
    "cudaEventCreate/2": "cudaEventCreate(&ev, cudaEventDisableTiming);",
    "cudaHostAlloc/3": "cudaHostAlloc(&host, 64 * sizeof(float), cudaHostAllocDefault);",
    "cudaMallocPitch/4": "cudaMallocPitch(&dev, &pitch, 16 * sizeof(float), 4);",
    "cudaHostGetDevicePointer/3": "cudaHostGetDevicePointer(&dev, host, 0);",
    "cudaStreamWaitEvent/2": "cudaStreamWaitEvent(s, ev);",
    "cudaMemcpyToSymbolAsync/3": "cudaMemcpyToSymbolAsync(coef, host, sizeof(coef));",
    "cudaMemcpyToSymbolAsync/4": "cudaMemcpyToSymbolAsync(coef, host, sizeof(float), sizeof(float));",
    "cudaMemcpyFromSymbolAsync/3": "cudaMemcpyFromSymbolAsync(host, coef, sizeof(coef));",
    "cudaMemcpyFromSymbolAsync/4": "cudaMemcpyFromSymbolAsync(host, coef, sizeof(float), sizeof(float));",
    "cudaFuncGetAttributes/2": "cudaFuncGetAttributes(&attr, scale);",
    "cudaFuncSetCacheConfig/2": "cudaFuncSetCacheConfig(scale, cudaFuncCachePreferL1);",
    "cudaFuncSetSharedMemConfig/2": "cudaFuncSetSharedMemConfig(scale, cudaSharedMemBankSizeFourByte);",
    "cudaFuncSetAttribute/3": "cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);",
    "cudaLaunchKernel/4": "cudaLaunchKernel(scale, dim3(1), dim3(64), args);",
    "cudaLaunchKernel/5": "cudaLaunchKernel(scale, dim3(1), dim3(64), args, 0);",
    "cudaLaunchKernel/6": "cudaLaunchKernel(scale, dim3(1), dim3(64), args, 0, s);",
    "cudaLaunchCooperativeKernel/4": "cudaLaunchCooperativeKernel(scale, dim3(1), dim3(64), args);",
    "cudaLaunchCooperativeKernel/5": "cudaLaunchCooperativeKernel(scale, dim3(1), dim3(64), args, 0);",
    "cudaLaunchCooperativeKernel/6": "cudaLaunchCooperativeKernel(scale, dim3(1), dim3(64), args, 0, s);",
    "cudaGraphInstantiate/2": "cudaGraphInstantiate(&exec, graph);",
    "cudaGraphInstantiate/3": "cudaGraphInstantiate(&exec, graph, 0);",
}


def test_every_overload_row_compiles_in_a_translated_host_program(tmp_path):
    # the runtime's (hipCUB's cub-overload rows need headers ROCm 5.2 lacks: tests/test_cub_inplace_scan.py)
    assert set(OVERLOAD_CALLS) == {e.cuda for e in ENTRIES if e.role == "overload" and e.api == "runtime"}
    assert all(TABLE.get(n).hipcc == "ok" for n in OVERLOAD_CALLS)
    lines = ["#include <cuda_runtime.h>", "__constant__ float coef[4];",
             "__global__ void scale(float* x, float a) { x[threadIdx.x] *= a * coef[0]; }",
             "int main() {", "    cudaEvent_t ev; cudaStream_t s = 0; float* host = 0; float* dev = 0;",
             "    size_t pitch = 0; cudaFuncAttributes attr; float a = 2.0f; void* args[] = {&dev, &a};",
             "    cudaGraph_t graph = 0; cudaGraphExec_t exec;",
             *(f"    {c}" for c in OVERLOAD_CALLS.values()), "    return 0;", "}"]
    _port_compiles("\n".join(lines) + "\n", tmp_path)


def test_other_arities_keep_the_names_own_row():
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    code = ("#include <cuda_runtime.h>\nint main() { cudaEvent_t e; cudaStream_t s = 0; cudaEventCreate(&e);\n"
            "cudaStreamWaitEvent(s, e, 0); cudaEventRecord(e); return 0; }\n")
    port, text = translate(SourceFile.from_text(code, "t.cu"), "hip")
    assert port.ok
    assert "hipEventCreate(&e);" in text and "hipStreamWaitEvent(s, e, 0);" in text and "hipEventRecord(e);" in text


def test_elaborated_toolkit_types_and_a_guarded_stand_in_compile(tmp_path):
    """gpujpeg's shapes: CUDA's stream type declared under `#ifndef __DRIVER_TYPES_H__`, and
    `struct cudaGraphicsResource*` / `enum cudaError` (typedef-only names in HIP)."""
    _port_compiles(
        "#ifndef __DRIVER_TYPES_H__\nstruct CUstream_st;\ntypedef struct CUstream_st *cudaStream_t;\n#endif\n"
        "#include <cuda_runtime.h>\nstruct holder { struct cudaGraphicsResource* res; enum cudaError last; };\n"
        "int run(cudaStream_t s, struct holder* h) { h->last = cudaStreamSynchronize(s);\n"
        "  return sizeof(struct cudaChannelFormatDesc) + (h->res != 0); }\n", tmp_path)


def test_a_projects_own_overload_hip_declares_compiles_as_hips(tmp_path):
    from test_hip_api import _OWN_ATOMIC_MAX
    _port_compiles(_OWN_ATOMIC_MAX, tmp_path)


SURFACE_READS = """#include <cuda_runtime.h>
__global__ void k(cudaSurfaceObject_t s, cudaSurfaceObject_t s3, unsigned char* out) {
    int x = threadIdx.x;
    uchar4 p = surf2Dread<uchar4>(s, x * 4, 1);
    unsigned char q = surf2Dread<unsigned char>(s, x, 2, cudaBoundaryModeZero);
    float r = surf1Dread<float>(s, x * 4) + surf3Dread<float>(s3, x * 4, 1, 2);
    unsigned char u;
    surf2Dread(&u, s, x, 3);
    surf2Dwrite(p, s, x * 4, 0);
    out[x] = p.x + q + u + (unsigned char)r;
}
"""


def test_value_returning_surface_reads_compile(tmp_path):
    """cuOSD's `surf2Dread<unsigned char>(surf, x, y)`: ROCm 5.2 has only the store-through-a-pointer form
    (hipcc: no matching function, requires at least 4 arguments); the prologue's overloads return the
    value through it. The pointer form beside them keeps HIP's own."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    port, text = translate(SourceFile.from_text(SURFACE_READS, "t.cu"), "hip")
    assert "uchar4 p = surf2Dread<uchar4>(s, x * 4, 1);" in port.body  # the call is CUDA's, as written
    assert text.count("#define KP_HAVE_SURFACE_READS") == 1
    plain = SURFACE_READS.replace("surf2Dread<uchar4>(s, x * 4, 1)", "make_uchar4(0, 0, 0, 0)") \
        .replace("surf2Dread<unsigned char>(s, x, 2, cudaBoundaryModeZero)", "0") \
        .replace("surf1Dread<float>(s, x * 4) + surf3Dread<float>(s3, x * 4, 1, 2)", "0.0f")
    assert "KP_HAVE_SURFACE_READS" not in translate(SourceFile.from_text(plain, "t.cu"), "hip")[1]  # look-alike
    _port_compiles(SURFACE_READS, tmp_path)


HANDLE_CASTS = """#include <cstdint>
__global__ void k(const void* luma, cudaSurfaceObject_t s, cudaTextureObject_t t, uint8_t* out) {
    int x = threadIdx.x;
    uint8_t v = surf2Dread<uint8_t>((cudaTextureObject_t)luma, x, 0);
    surf2Dwrite<uint8_t>(v, (cudaTextureObject_t)luma, x, 1);
    float f = tex1Dfetch<float>((cudaSurfaceObject_t)t, x);
    out[x] = v + surf2Dread<uint8_t>(s, x, 2) + (uint8_t)f + (uint8_t)tex1Dfetch<float>((cudaTextureObject_t)t, x);
}
"""


def test_a_handle_cast_at_a_surface_call_is_the_surface_type(tmp_path):
    """cuOSD's `surf2Dread<uint8_t>((cudaTextureObject_t)luma, x, y)`: CUDA's texture and surface objects
    are one integer type, HIP's two pointer types (hipcc: no matching function for call to
    'surf2Dread'); a cast to either at a surface (texture) call is a cast to the handle it takes."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    port, _ = translate(SourceFile.from_text(HANDLE_CASTS, "t.cu"), "hip")
    assert port.body.count("(hipSurfaceObject_t)luma") == 2
    assert "tex1Dfetch<float>((hipTextureObject_t)t, x)" in port.body and "hipSurfaceObject_t)t" not in port.body
    assert "cudaTextureObject_t t" not in port.body and "hipTextureObject_t t, uint8_t" in port.body  # the look-alike
    _port_compiles(HANDLE_CASTS, tmp_path)


# -- runtime structs' fields (HIP.struct_fields_present / struct_fields): what a port's `prop.x` compiles to ----
def _struct_field_uses() -> tuple[str, list[tuple[str, str]]]:
    """A CUDA file reading every field the HIP backend keeps or renames, one per line, and (struct, field) per line."""
    b = backends.get("hip")
    decl = {"cudaDeviceProp": "cudaDeviceProp", "cudaPointerAttributes": "cudaPointerAttributes",
            "cudaTextureDesc": "cudaTextureDesc"}
    fields = [(t, f) for t, fs in b.struct_fields_present.items() for f in fs] + list(b.struct_fields)
    assert set(t for t, _ in fields) == set(decl), "a struct without a declaration here: add it"
    lines = ["#include <cstdio>", "template <class T> void use(const T &) {}", "void all() {"]
    lines += [f"  {t} v_{t};" for t in decl]
    lines += [f"  use(v_{t}.{f});" for t, f in fields]
    return "\n".join(lines + ["}", ""]), fields


def test_every_struct_field_the_hip_table_keeps_or_renames_compiles(tmp_path):
    """Each cudaDeviceProp / cudaPointerAttributes / cudaTextureDesc field the backend writes (as is, or under
    ROCm 5.2's name: `sharedMemPerMultiprocessor` -> `maxSharedMemoryPerMultiProcessor`), through the translator."""
    src, fields = _struct_field_uses()
    assert ("cudaDeviceProp", "sharedMemPerMultiprocessor") in fields and len(fields) > 50
    _port_compiles(src, tmp_path)


def _cuda_device_prop_fields() -> set[str]:
    """cudaDeviceProp's fields in the installed CUDA's driver_types.h (nvcc's include directory)."""
    import re
    import subprocess
    from pathlib import Path
    nvcc = require_tool("nvcc")  # (the header nvcc itself reads: its path may be a wrapper script's)
    deps = subprocess.run([nvcc.path, "-M", "-x", "cu", "-"], input="#include <driver_types.h>\n", text=True,
                          capture_output=True, timeout=300).stdout
    header = Path(re.search(r"(\S*/driver_types\.h)", deps).group(1))
    body = re.search(r"struct __device_builtin__ cudaDeviceProp\s*\{(.*?)\n\};", header.read_text(), re.S).group(1)
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", body, flags=re.S)
    return set(re.findall(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*;", body))


def test_every_cuda_device_prop_field_hip_lacks_is_kp210_and_absent_from_hipcc(tmp_path):
    """The other direction: each field of the installed CUDA's cudaDeviceProp that the table neither keeps nor
    renames is refused KP210 at its use, and hipDeviceProp_t of the installed ROCm really lacks it (a field
    HIP has under CUDA's name, or a rename the table misses, fails here)."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    tool = require_tool("hipcc")
    b = backends.get("hip")
    kept = set(b.struct_fields_present["cudaDeviceProp"]) | {f for t, f in b.struct_fields if t == "cudaDeviceProp"}
    lacking = sorted(_cuda_device_prop_fields() - kept)
    assert {"regsPerMultiprocessor", "unifiedAddressing", "maxBlocksPerMultiProcessor"} <= set(lacking)
    src = "int all(cudaDeviceProp p) {\n  int n = 0;\n" + "".join(f"  n += sizeof(p.{f});\n" for f in lacking) + \
        "  return n;\n}\n"
    port, _ = translate(SourceFile.from_text(src, "t.cu"), "hip")
    said = sorted((d.location.line, d.location.column) for d in port.diagnostics if d.code == "KP210")
    assert said == [(3 + i, 17) for i in range(len(lacking))], [d.format() for d in port.diagnostics]
    probe = "#include <hip/hip_runtime.h>\nint all(hipDeviceProp_t p) {\n  int n = 0;\n" + \
        "".join(f"  n += sizeof(p.{f});\n" for f in lacking) + "  return n;\n}\n"
    errors = hip_probe.errors_by_line(hip_probe._compile(probe, tool.path, ("gfx90a",)))
    assert -1 not in errors, errors.get(-1)
    have = [f for i, f in enumerate(lacking) if (4 + i) not in errors]
    assert have == [], f"hipDeviceProp_t has these: keep or rename them in HIP.struct_fields*: {have}"


def test_struct_field_uses_through_aliases_members_elements_and_dereferences():
    """Receivers main did not type (their fields reached hipcc): a typedef of the struct, a member of the file's
    struct, `auto &r = props[1]`, `(*pp).x`; the look-alike: the file's own struct with a field of that name."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    src = """struct Holder { cudaDeviceProp prop; int n; };
struct Mine { int unifiedAddressing; };
struct Wrap { Mine prop2; };
typedef cudaDeviceProp Prop;
int main() {
  cudaDeviceProp prop, props[4];
  Prop tp;
  Holder h;
  Mine m;
  Wrap w;
  auto &r = props[1];
  cudaDeviceProp *pp = &prop;
  return tp.unifiedAddressing + h.prop.unifiedAddressing + r.unifiedAddressing + (*pp).unifiedAddressing +
         m.unifiedAddressing + w.prop2.unifiedAddressing + tp.multiProcessorCount + h.prop.sharedMemPerMultiprocessor;
}
"""
    port, _ = translate(SourceFile.from_text(src, "t.cu"), "hip")
    said = sorted((d.location.line, d.location.column) for d in port.diagnostics if d.code == "KP210")
    assert said == [(13, 13), (13, 40), (13, 62), (13, 88)], [d.format() for d in port.diagnostics]
    port, text = translate(SourceFile.from_text(src.replace("unifiedAddressing", "multiProcessorCount").replace(
        "struct Mine { int multiProcessorCount; }", "struct Mine { int unifiedAddressing; }"), "t.cu"), "hip")
    assert "h.prop.maxSharedMemoryPerMultiProcessor" in text
