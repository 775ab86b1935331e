"""Every Metal port translate writes passes the Metal checker, or is refused at a source line.

Translate type-checks its own port (KP224, backends/metal/selfcheck.py); the constructs the
checker found in real code are translated (a written by-value argument, an `extern "C"`
prototype, a macro only a launch's template arguments name), each with a look-alike.
"""
from __future__ import annotations

import textwrap

import pytest

from kernelport.backends.metal.selfcheck import source_lines
from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool


def metal(code: str, path: str = "t.cu", **kw):
    src = SourceFile.from_text(textwrap.dedent(code), path)
    return translate(src, "metal", **kw)


def errors(port) -> list[str]:
    return [d.format() for d in port.diagnostics if d.severity == "error"]


def passes(text: str) -> list[str]:
    from kernelport.backends.metal.check import check_metal_source
    return [str(d) for d in check_metal_source(text, "t.metal")]


# A name from a header the port cannot reach, used where only the type check sees it (an
# array bound: not a call, type or namespace, which KP223 checks by itself).
UNDEFINED = """\
    __global__ void k(unsigned int *a)
    {
        __shared__ unsigned int s[4 * CTA_SIZE];
        s[threadIdx.x] = a[threadIdx.x];
        __syncthreads();
        a[threadIdx.x] = s[threadIdx.x ^ 1];
    }
"""


# ---------------------------------------------------------------------------------------------
# the self-check (KP224)
# ---------------------------------------------------------------------------------------------
def test_a_port_the_checker_rejects_is_refused_at_its_source_line():
    require_tool("clang")
    port, _ = metal(UNDEFINED)
    assert not port.ok
    kp224 = [d for d in port.diagnostics if d.code == "KP224"]
    assert [(d.location.path, d.location.line) for d in kp224] == [("t.cu", 3)]
    assert "CTA_SIZE" in kp224[0].message and "would not compile" in kp224[0].message
    assert kp224[0].hint


def test_the_same_kernel_with_its_constant_defined_is_written_and_passes():
    require_tool("clang")
    port, text = metal("#define CTA_SIZE 128\n" + textwrap.dedent(UNDEFINED))
    assert errors(port) == []
    assert passes(text) == []


def test_a_checker_error_keeps_its_column_where_the_line_is_unchanged():
    require_tool("clang")
    port, _ = metal("""\
        __device__ int twice(int x) { return 2 * x; }
        __global__ void k(int *a)
        {
            int v = a[0];
            a[1] = v + LIMIT;
        }
    """)
    d = next(d for d in port.diagnostics if d.code == "KP224")
    assert (d.location.line, d.location.column) == (5, 16)


def test_allow_unported_writes_the_port_with_the_checker_errors_as_warnings():
    require_tool("clang")
    port, text = metal(UNDEFINED, allow_unported=True)
    assert port.ok
    assert any(d.code == "KP224" and d.severity == "warning" for d in port.diagnostics)
    assert "CTA_SIZE" in text


def test_without_clang_the_port_is_written_with_a_warning(monkeypatch):
    from kernelport import toolchains
    monkeypatch.setattr(toolchains, "find_clang", lambda: None)
    port, _ = metal(UNDEFINED)
    assert port.ok
    warn = [d for d in port.diagnostics if d.code == "KP224"]
    assert len(warn) == 1 and warn[0].severity == "warning" and "without its type check" in warn[0].message


def test_an_error_in_a_spliced_header_points_into_the_header(tmp_path):
    require_tool("clang")
    (tmp_path / "tile.h").write_text("__device__ unsigned int tile(unsigned int i)\n{\n    return i % TILE;\n}\n")
    main = tmp_path / "k.cu"
    main.write_text('#include "tile.h"\n__global__ void k(unsigned int *a) { a[threadIdx.x] = tile(a[0]); }\n')
    port, _ = translate(SourceFile.read(main), "metal")
    d = next(d for d in port.diagnostics if d.code == "KP224")
    assert (d.location.path.endswith("tile.h"), d.location.line) == (True, 3)


def test_port_lines_pair_with_the_source_lines_they_come_from():
    source = "a\nb\nc\nd\n"
    body = "a\nadded\nb\nC changed\nd\n"
    assert source_lines(source, body) == [1, 2, 2, 3, 4]


# ---------------------------------------------------------------------------------------------
# constructs the checker found in real code
# ---------------------------------------------------------------------------------------------
def test_a_by_value_argument_the_kernel_changes_is_copied():
    require_tool("clang")
    port, text = metal("""\
        __global__ void k(float *out, int start, int n)
        {
            start += blockIdx.x;
            for (; start < n; start++) out[start] = 0.0f;
        }
    """)
    assert errors(port) == []
    assert "constant int& kp_start [[buffer(1)]]" in port.body
    assert "int start = kp_start;" in port.body
    assert "constant int& n [[buffer(2)]]" in port.body and "kp_n" not in port.body
    assert passes(text) == []
    assert '"name": "start"' in port.extra_files[".json"]  # the host still binds it as `start`


@pytest.mark.parametrize("use", ["int m = n + 1; out[m] = 1.0f;",  # read only
                                 "out[n] = 1.0f; out += n;",  # the pointer argument changes, not n
                                 "{ int n = 3; n++; out[n] = 0.0f; }"])  # a local of the same name
def test_an_argument_only_read_is_not_copied(use):
    port, _ = metal(f"__global__ void k(float *out, int n)\n{{\n    {use}\n}}\n")
    assert errors(port) == []
    assert "kp_n" not in port.body and "constant int& n [[buffer(1)]]" in port.body


def test_an_argument_whose_address_is_taken_is_copied():
    port, _ = metal("""\
        __device__ void bump(int *p) { *p += 1; }
        __global__ void k(int *out, int n) { bump(&n); out[0] = n; }
    """)
    assert errors(port) == []
    assert "int n = kp_n;" in port.body


def test_an_extern_c_prototype_for_host_code_goes_with_its_linkage():
    require_tool("clang")
    port, text = metal("""\
        extern "C" void reference(float *a, int n);
        extern "C" {
        void other(float *a, int n);
        }
        __global__ void k(float *a) { a[threadIdx.x] *= 2.0f; }
    """)
    assert errors(port) == []
    assert 'extern "C" /*' not in port.body and "reference: used by host code only" in port.body
    assert 'extern "C" {' in port.body  # a linkage block stays balanced around what it held
    assert passes(text) == []


def test_a_macro_only_a_launch_template_argument_names_stays():
    require_tool("clang")
    port, text = metal("""\
        #define ELEM unsigned int
        #define HOST_ONLY(x) ((x) + 1)
        template <typename T>
        __global__ void fill(T *a) { a[threadIdx.x] = (T)threadIdx.x; }
        void run(ELEM *d) { int n = HOST_ONLY(2); fill<ELEM><<<1, 32>>>(d); (void)n; }
    """)
    assert errors(port) == []
    assert "#define ELEM unsigned int" in port.body
    assert 'template [[host_name("fill_ELEM")]] kernel void fill<ELEM>' in port.body
    assert "#define HOST_ONLY" not in port.body  # what only host code uses is still left out
    assert passes(text) == []


def test_a_macro_of_qualifiers_is_spelled_as_metal_spells_them():
    require_tool("clang")
    port, text = metal("""\
        #define HD __host__ __device__ __forceinline__  // both sides
        #define HOSTFN __host__ static
        HD float sq(float v) { return v * v; }
        HOSTFN float host_sq(float v) { return v * v; }
        __global__ void k(float *x) { x[threadIdx.x] = sq(x[0]); }
    """)
    assert errors(port) == []
    assert "#define HD inline\n" in port.body  # nothing for __host__ __device__, inline for __forceinline__
    assert "#define HOSTFN" not in port.body  # only host code uses it: left out
    assert "HOSTFN float" not in port.body and "HOSTFN //" not in port.body  # its use goes with host_sq
    assert passes(text) == []


def test_a_macro_that_is_more_than_qualifiers_is_not_rewritten_as_one():
    port, _ = metal("""\
        #define DEVICE_FLOAT __device__ float
        DEVICE_FLOAT twice(float v) { return 2.0f * v; }
        __global__ void k(float *x) { x[threadIdx.x] = twice(x[0]); }
    """)
    assert "#define DEVICE_FLOAT __device__ float" in port.body or not port.ok


def test_cuda_integer_intrinsics_are_metals_under_its_names():
    require_tool("clang")
    port, text = metal("""\
        #define IMUL(a, b) __mul24(a, b)
        __global__ void k(unsigned int *a, float *f)
        {
            const int base = IMUL(threadIdx.x >> 5, 1024);  // uint and int: CUDA converts both to int
            a[base] = umin(a[base], 7u) + __umul24(a[0], 3u);
            f[base] = __uint_as_float(a[1]);
        }
    """)
    assert errors(port) == []
    assert "#define IMUL(a, b) kp_mul24(a, b)" in port.body
    assert "kp_umin(a[base], 7u) + kp_umul24(a[0], 3u)" in port.body and "as_type<float>(a[1])" in port.body
    assert "inline int kp_mul24(int x, int y) { return mul24(x, y); }" in text
    assert passes(text) == []


def test_a_function_the_file_defines_under_an_intrinsics_name_is_its_own():
    port, text = metal("""\
        __device__ unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
        __global__ void k(unsigned int *a) { a[threadIdx.x] = umin(a[threadIdx.x], 7u); }
    """)
    assert errors(port) == []
    assert "umin(a[tid.x], 7u)" in port.body and "kp_umin" not in text


def test_the_hip_port_keeps_the_intrinsics():
    src = SourceFile.from_text("__global__ void k(int *a) { a[threadIdx.x] = __mul24(a[0], 3); }\n", "t.cu")
    port, _ = translate(src, "hip")
    assert "__mul24(a[0], 3)" in port.body
