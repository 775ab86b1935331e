"""Metal ports of a project that spells CUDA's qualifiers through its own macros (heldout70's VolumeRender:
Common.h's `#define CUDA_GLOBAL __global__`, `CUDA_HOST`, `CUDA_HOST_DEVICE` under `#ifdef __CUDACC__`), four
general defects its VolumeRender.cu showed once the launch `RayMarch... KERNEL_ARGS2(grid, block) (args)` was read:

- a kernel whose `__global__` is a macro kept the macro, defined as `__global__` in the port: "unknown type name
  '__global__'" (every kernel so spelled, template or not).  The use is now written `kernel`
  (function_args.kernel_macro_spans); a macro with another word (`#define KERNEL __global__ void`) is left alone;
- a host member function declared in a class device code uses (`CUDA_HOST void CreatePNG(const std::string&)
  const;`) stayed: "undeclared identifier 'std'".  Left out with a comment (host_member_prototypes.py); a
  `__device__` (or HD-macro) declaration, a constructor, a member the file defines as device code stay;
- a device member with `noexcept` got its object's address space after it (`const noexcept device`: no parse);
  now `const device noexcept` (function_args.object_qualified);
- a template kernel's instance over a type the file defines below the kernel (`march<Sq>`, Sq after it) was
  declared right after the kernel, where Sq is undeclared; now at the end of the port, as function objects' are.
Each port is run through the Metal checker."""
from __future__ import annotations

import textwrap

from kernelport.backends.metal.check import check_metal_source
from kernelport.source import SourceFile
from kernelport.translate import translate


def _port(code: str):
    port, text = translate(SourceFile.from_text(textwrap.dedent(code), "v.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert [str(d) for d in check_metal_source(text, "v.metal")] == [], text
    return text


MACROS = """
    #ifdef __CUDACC__
    #define MY_GLOBAL __global__
    #define MY_HD __host__ __device__
    #define MY_HOST __host__
    #else
    #define MY_GLOBAL
    #define MY_HD
    #define MY_HOST
    #endif
"""


def test_a_kernel_qualifier_macro_is_written_kernel_template_or_not():
    text = _port(MACROS + """
    template <typename T>
    MY_GLOBAL void scale(T *out, T a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] *= a; }
    MY_GLOBAL void zero(float *out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 0.0f; }
    void host(float *o, int n) { scale<<<1, 64>>>(o, 2.0f, n); zero<<<1, 64>>>(o, n); }
    """)
    assert "kernel void scale(" in text and "kernel void zero(" in text and "MY_GLOBAL void" not in text
    assert 'template [[host_name("scale_float")]] kernel void scale<float>' in text


def test_a_kernel_macro_with_other_words_is_left_to_itself():
    # `__launch_bounds__(256)` has no word-for-word Metal spelling here: the use keeps its macro, and the
    # checker refuses the port at the kernel's line (located), as before; nothing is written half-rewritten
    code = "#define KB __global__ __launch_bounds__(256)\nKB void zero(float *out, int n) { if (threadIdx.x < n) out[0] = 0.0f; }\n"
    port, text = translate(SourceFile.from_text(code, "v.cu"), "metal")
    assert "KB void zero(" in text and "kernel void zero(" not in text
    assert not port.ok and {(d.code, d.line) for d in port.diagnostics if d.severity == "error"} == {("KP224", 2)}


def test_host_member_declarations_are_left_out_device_ones_stay():
    text = _port(MACROS + """
    #include <string>
    struct Film {
        float *raster; int width;
        Film(int w);
        MY_HD inline void set(int i, float v) { raster[i] = v; }
        MY_HD float get(int i) const;
        __device__ float twice(int i) const;
        MY_HOST void save(const std::string &name) const;
        __host__ void load(const std::string &name);
        void resize(const std::string &how, int w);
    };
    __device__ float Film::twice(int i) const { return 2.0f * raster[i]; }
    MY_HD float Film::get(int i) const { return raster[i]; }
    __global__ void k(Film *f, int n) { int i = threadIdx.x; if (i < n) f->set(i, f->get(i) + f->twice(i)); }
    """)
    for gone in ("save", "load", "resize"):
        assert f"a host member function's declaration: left out" in text.split(f"{gone}(")[1].split("\n")[0], gone
    assert "float get(int i) const;" in text and "float twice(int i) const;" in text and "Film(int w);" in text
    assert text.count("kernel void") == 1 and "kernel float" not in text  # (MY_HD is no kernel's macro)


def test_noexcept_members_get_their_object_space_before_noexcept():
    text = _port("""
    struct B {
        float lo, hi;
        __host__ __device__ inline bool inside(float p) const noexcept { return p >= lo && p <= hi; }
        __host__ __device__ inline float width() const { return hi - lo; }
    };
    __global__ void k(const B *b, const float *x, int *o, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) o[i] = b[0].inside(x[i]) + (int) b[0].width();
    }
    """)
    assert "bool inside(float p) const device noexcept {" in text and "float width() const device {" in text


def test_an_instance_over_a_type_defined_below_the_kernel_goes_last():
    code = """
    template <typename F>
    __global__ void march(const float *in, float *out, const F *f, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = (*f)(in[i]);
    }
    struct Sq { __device__ float operator()(float x) const { return x * x; } };
    void host(const float *in, float *out, const Sq *f, int n) { march<<<4, 64>>>(in, out, f, n); }
    """
    text = _port(code)
    assert text.index("struct Sq") < text.index('template [[host_name("march_Sq")]]')
    # look-alike: the type above the kernel keeps the instance right after the kernel
    above = "struct Sq { __device__ float operator()(float x) const { return x * x; } };\n" + \
        textwrap.dedent(code).replace("struct Sq { __device__ float operator()(float x) const { return x * x; } };", "")
    text = _port(above)
    end = text.index("}\n", text.index("kernel void march("))
    assert text.index('template [[host_name("march_Sq")]]') == end + 2, text
