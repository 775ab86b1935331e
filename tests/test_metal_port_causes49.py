"""Causes of Metal refusals in real code (held-out: heldout37's ldpc decoders), each as a CUDA snippet written
for the test (no fetched file is read).  Each port checked here was refused on main (h/metal49's branch point
281e7b2) with KP224: translate's own Metal checker rejected what the port wrote."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write  # (one checked-port helper for all)


# ldpc-gpu-float's decoders: `__global__ void k(float var_nodes[_N], ...)`.  C adjusts a parameter of array
# type to a pointer (the first dimension goes, the others stay); Metal refuses a kernel parameter of array
# type in device memory, so the port spells the adjusted pointer.
ARRAYS = {"k.cu": """
    #define N 64
    __device__ float pick(const float row[4], int j) { return row[j]; }
    __global__ void k(float a[N], const unsigned int idx[], float b[][4], float c[N][2][3], int n) {
        int i = threadIdx.x + blockIdx.x * blockDim.x;
        float loc[4] = {1, 2, 3, 4};
        if (i < n) a[i] = b[i][idx[i] % 4] + c[i][1][2] + pick(loc, i % 4) + pick(b[i], 0);
    }
"""}


def test_array_kernel_parameters_are_the_pointers_c_adjusts_them_to(tmp_path: Path):
    _write(tmp_path, ARRAYS)
    text = _port(tmp_path / "k.cu")
    assert "device float *a [[buffer(0)]]" in text
    assert "const device unsigned int *idx [[buffer(1)]]" in text
    assert "device float (*b)[4] [[buffer(2)]]" in text
    assert "device float (*c)[2][3] [[buffer(3)]]" in text
    assert "float pick(const thread float row[4], int j)" in text  # a helper's array parameter: as written


def test_an_array_of_pointers_parameter_keeps_its_text(tmp_path: Path):
    """The look-alike: `float* rows[4]` (an array of pointers) is not the array-of-elements form; its text
    stays and translate's checker decides (refused, located at the kernel)."""
    _write(tmp_path, {"k.cu": """
        __global__ void k(float* rows[4], int n) { if (threadIdx.x < n) rows[0][threadIdx.x] = 1.0f; }
    """})
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    assert not port.ok
    assert any(d.code == "KP224" and d.line == 1 for d in port.diagnostics), [d.format() for d in port.diagnostics]


# ldpc-gpu-float: the kernel's file includes constantes_gpu.h, which reads `#if CODE == 576` ... to include
# one matrix's sizes, and CODE comes from code.h, which the spliced header includes.  code.h was left out
# ("device code uses nothing of it"): CODE undefined, every branch off, `DEG_1` undeclared.  A name a
# preprocessor condition reads is needed as device code's names are.  The matrix header also declares the
# host's `extern const unsigned int PosNoeudsVariable[_M];`, the name of a kernel parameter: an extern host
# variable (no device memory word, no initializer) is host code, left out.
CONDITIONS = {
    "code.h": "#define CODE 2\n",
    "sizes.h": """
        #include "code.h"
        #if CODE == 1
        #define DEG 3
        #endif
        #if CODE == 2
        #define DEG 5
        #endif
    """,
    "k.cu": """
        #include "sizes.h"
        __global__ void k(float* out, const unsigned int* Pos) {
            float acc = 0.0f;
            for (int j = 0; j < DEG; j++) acc += Pos[threadIdx.x * DEG + j];
            out[threadIdx.x] = acc;
        }
    """}


def test_a_header_defining_a_condition_name_is_spliced(tmp_path: Path):
    _write(tmp_path, CONDITIONS)
    text = _port(tmp_path / "k.cu")
    assert "#define CODE 2" in text and "#define DEG 5" in text


def test_an_extern_host_variable_named_as_a_parameter_is_left_out(tmp_path: Path):
    _write(tmp_path, {"k.cu": """
        extern const unsigned int Pos[64];
        __global__ void k(float* out, const unsigned int* Pos) { out[threadIdx.x] = Pos[threadIdx.x]; }
    """})
    text = _port(tmp_path / "k.cu")
    assert "extern const unsigned int Pos[64];" not in text
    assert "Pos: used by host code only, left out of the Metal port" in text


def test_an_extern_device_variable_stays(tmp_path: Path):
    """The look-alike: `extern __device__ float table[16];` is device memory, not a host variable: it stays
    (Metal then refuses an extern outside constant memory, at its line)."""
    _write(tmp_path, {"k.cu": """
        extern __device__ float table[16];
        __global__ void k(float* out) { out[threadIdx.x] = table[threadIdx.x % 16]; }
    """})
    port, text = translate(SourceFile.read(tmp_path / "k.cu"), "metal", allow_unported=True)
    assert "table: used by host code only" not in text
    assert "float table[16];" in text


# ldpc-gpu-fixed's simd_functions.h (4 decoders): an asm whose `#if __CUDA_ARCH__ >= 200` branch replicates sign
# bits with `prmt.b32 s,a,0,0xba98` and whose `#else` masks and shifts.  kernelport/ptx_branches.py keeps the
# conditional with each branch's C; Metal had no spelling of prmt (KP201): now the prologue's kp_prmt_b32
# (tests/test_metal_ptx_idioms.py checks it against PTX's model).
SIGNS = ("#if __CUDA_ARCH__ >= 200\n"
         '         "prmt.b32 t, s, 0, 0xba98;  \\n\\t" // sign(s) ? 0xff : 0, per byte\n'
         "#else\n"
         '         "and.b32 t, s, 0x80808080;  \\n\\t"\n'
         '         "shr.u32 t, t, 7;           \\n\\t"\n'
         "#endif\n")


def test_ptx_branches_with_prmt_are_ported_to_metal(tmp_path: Path):
    from test_ptx_branches import _source
    (tmp_path / "s.cu").write_text(_source(SIGNS))
    text = _port(tmp_path / "s.cu")
    # re-pinned at stop 50: an `#if __CUDA_ARCH__` choice is the branch current NVIDIA GPUs run (the prmt), alone
    # (KP237 warns; tests/test_ptx_branches.py): the `#else` would have been the branch Metal compiled
    assert "__CUDA_ARCH__" not in text and "#else" not in text and "kp_prmt_b32(kp_ptx_s, 0, 0xba98)" in text
    assert "inline uint kp_prmt_b32(" in text  # the prologue's helper, emitted because the port calls it


def test_a_moded_prmt_stays_kp201_on_metal(tmp_path: Path):
    """The look-alike: `prmt.b32.f4e` (a mode) is no form prmt's generic spelling covers."""
    (tmp_path / "s.cu").write_text(
        "__device__ unsigned f(unsigned x) { unsigned r;\n"
        '    asm("prmt.b32.f4e %0, %1, 0, 0x0123;" : "=r"(r) : "r"(x)); return r; }\n'
        "__global__ void k(unsigned* o) { o[0] = f(o[1]); }\n")
    port, _ = translate(SourceFile.read(tmp_path / "s.cu"), "metal")
    assert [(d.code, d.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 2)]


# deepwave (heldout38): `__global__ void k(DW_DTYPE const* input, ...)` with `-D DW_DTYPE=float` from the build.
# The port writes each -D the file names as a `#define` at its top, but the check for names nothing defines
# did not count them (KP223 'DW_DTYPE' is defined neither in this file nor in Metal's standard library).
TYPE_MACRO = {"k.cu": """
    #if DW_NDIM == 1
    #define AXES 1
    #else
    #define AXES 2
    #endif
    __global__ void k(DW_DTYPE* out, const DW_DTYPE* a, int n) {
        int i = threadIdx.x + blockIdx.x * blockDim.x;
        if (i < n) out[i] = a[i] * (DW_DTYPE)AXES;
    }
"""}


def test_a_command_line_type_macro_is_defined_in_the_port_and_the_sidecar_binds_its_type(tmp_path: Path):
    import json
    _write(tmp_path, TYPE_MACRO)
    defines = [("DW_DTYPE", "float"), ("DW_NDIM", "1")]
    text = _port(tmp_path / "k.cu", defines=defines)
    assert "#define DW_DTYPE float  // -D DW_DTYPE=float of this run" in text
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal", defines=defines)
    sidecar = json.loads(next(t for name, t in port.extra_files.items() if name.endswith(".json")))
    out = sidecar["kernels"][0]["arguments"][0]
    assert out["type"] == "float" and out["type_from"].startswith("-D DW_DTYPE=float"), out


def test_a_command_line_type_with_no_metal_meaning_is_refused_at_its_use(tmp_path: Path):
    """The look-alike: `-D DW_DTYPE=double` gives a port with `double`, which Metal lacks: refused, located (KP214,
    double's one code, since stop 61: the checker finds it, KP224 before)."""
    _write(tmp_path, TYPE_MACRO)
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal", defines=[("DW_DTYPE", "double"), ("DW_NDIM", "1")])
    assert not port.ok
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert ("KP214", 8) in {(d.code, d.line) for d in errors} and not any(d.code == "KP224" for d in errors), \
        [d.format() for d in port.diagnostics]


# deepwave (heldout38): `DW_DTYPE const *__restrict__ const shot = batched ? b + i * n : b;` a pointer chosen by
# a conditional expression had no address space (KP215); both arms point into the kernel's buffer: device.
CHOSEN = {"k.cu": """
    __global__ void k(float* out, const float* __restrict__ b, int batched, long n) {
        long i = threadIdx.x;
        float const *__restrict__ const shot = batched ? b + i * n : b;
        const float* maybe = batched ? b : nullptr;
        out[i] = shot[0] + (maybe ? maybe[1] : 0.0f);
    }
"""}


def test_a_pointer_a_conditional_chooses_has_its_arms_space(tmp_path: Path):
    _write(tmp_path, CHOSEN)
    text = _port(tmp_path / "k.cu")
    assert "device float const *__restrict__ const shot = batched ? b + i * n : b;" in text
    assert "const device float* maybe = batched ? b : nullptr;" in text


def test_a_conditional_between_two_spaces_stays_kp215(tmp_path: Path):
    """The look-alike: arms in threadgroup and device memory give the pointer no one space."""
    _write(tmp_path, {"k.cu": """
        __global__ void k(float* out, const float* b, int pick) {
            __shared__ float tile[64];
            tile[threadIdx.x % 64] = b[threadIdx.x];
            __syncthreads();
            const float* src = pick ? tile : b;
            out[threadIdx.x] = src[1];
        }
    """})
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    assert [(d.code, d.line) for d in port.diagnostics if d.severity == "error"] == [("KP215", 5)], \
        [d.format() for d in port.diagnostics]


# deepwave (heldout38): kernel parameters under `#if DW_NDIM >= 2`.  The built-ins the port appends took the
# separator between the last two parameters, `#endif` included, so each repeated it (`#endif without #if`); the
# checker's own signature reading split parameters at commas outside brackets and took `>=` of the directive
# for a closing bracket (every later parameter one).  The sidecar says which parameters a conditional holds.
CONDITIONAL_PARAMS = {"k.cu": """
    #define BS 8
    __launch_bounds__(BS) __global__
        void k(float* out, const float* a,
    #if ND >= 2
               int ny,
    #else
               int width,
    #endif
               int n) {
        int i = threadIdx.x + blockIdx.x * blockDim.x;
        if (i < n) out[i] = a[i];
    }
"""}


def test_conditional_kernel_parameters_keep_their_directives_once(tmp_path: Path):
    import json
    _write(tmp_path, CONDITIONAL_PARAMS)
    text = _port(tmp_path / "k.cu", defines=[("ND", "1")])
    assert text.count("#endif") == 1, text
    assert "constant int& n [[buffer(4)]],\n           uint3 tid [[thread_position_in_threadgroup]]" in text
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal", defines=[("ND", "1")])
    args = {a["name"]: a for a in json.loads(port.extra_files[".json"])["kernels"][0]["arguments"]}
    assert args["ny"]["under"] == ["#if ND >= 2"] and args["width"]["under"] == ["#if ND >= 2 / #else"]
    assert "under" not in args["n"] and "under" not in args["a"]


def test_the_checker_still_reads_each_parameter_under_a_directive():
    """The look-alike: a bad parameter inside a conditional is still found by the checker's signature reading
    (an unqualified pointer, which Metal refuses on a kernel)."""
    from kernelport.backends.metal.check import check_metal_source
    text = ("#include <metal_stdlib>\nusing namespace metal;\n"
            "kernel void k(device float* out [[buffer(0)]],\n#if ND >= 2\n    float* bad [[buffer(1)]],\n#endif\n"
            "    uint3 tid [[thread_position_in_threadgroup]]) { out[tid.x] = 0; }\n")
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert any("'bad'" in d and "without an address space" in d for d in diags), diags
