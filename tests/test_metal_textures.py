"""CUDA texture objects in a Metal port: a texture and a sampler argument, fetches as sample()
(kernelport/backends/metal/textures.py).  Each port is type-checked by kernelport's checker only
(no Metal compiler on Linux); what has no definite meaning stays refused at its line."""
from __future__ import annotations

import json


try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port as metal, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_port as metal, require_tool
from port_support import refusal


def checked(code: str) -> str:
    port, text = metal(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text
    return port.body


def errors(code: str) -> list[str]:
    return [f"{d.location.line}:{d.code} {d.message}" for d in refusal(code, to="metal")]


# cuda-samples bilateralFilter / simpleTexture: a kernel fetches float texels at pixel coordinates
KERNEL = """\
    __global__ void blur(float* out, int w, float s, cudaTextureObject_t tex) {
        int x = blockIdx.x * blockDim.x + threadIdx.x;
        float4 c = tex2D<float4>(tex, x, 0);
        out[x] = c.x * s + tex2D<float>(tex, x + 0.5f, 1.5f);
    }
    cudaTextureObject_t img;
    void run(float* out, cudaArray* a) {
        cudaResourceDesc res;
        cudaTextureDesc d;
        d.filterMode = cudaFilterModeLinear;
        memset(&d, 0, sizeof(d));
        d.normalizedCoords = false;
        d.filterMode = cudaFilterModePoint;
        d.addressMode[0] = cudaAddressModeClamp;
        cudaCreateTextureObject(&img, &res, &d, NULL);
        blur<<<1, 32>>>(out, 32, 2.0f, img);
    }
    """


def test_a_texture_object_is_a_texture_and_a_sampler_argument():
    body = checked(KERNEL)
    assert "texture2d<float, access::sample> tex [[texture(0)]], sampler tex_sampler [[sampler(0)]]" in body
    assert "float4 c = tex.sample(tex_sampler, float2(x, 0));" in body
    assert "tex.sample(tex_sampler, float2(x + 0.5f, 1.5f)).x" in body
    assert "constant float& s [[buffer(2)]]" in body  # the other arguments keep their buffer indices


def test_the_sidecar_says_how_to_bind_the_texture_and_build_the_sampler():
    port, _ = metal(KERNEL)
    doc = json.loads(port.extra_files[".json"])
    args = {a["name"]: a for a in doc["kernels"][0]["arguments"]}
    assert args["tex"]["kind"] == "texture" and args["tex"]["index"] == 0 and args["tex"]["host"] == "setTexture:atIndex:"
    assert args["tex"]["texel"] == "float/float4"
    s = args["tex_sampler"]
    assert s["kind"] == "sampler" and s["host"] == "setSamplerState:atIndex:" and "filterMode" in s["fields"]
    # what the file's host code sets in the descriptor of the object it passes (the memset cleared the first)
    assert s["set_in_file"] == [{"object": "img", "normalizedCoords": "false", "filterMode": "cudaFilterModePoint",
                                 "addressMode[0]": "cudaAddressModeClamp"}]


def test_a_texture_passed_to_device_functions_takes_its_sampler_along():
    """cuda-samples convolutionTexture: the object goes down a template recursion whose end
    (`row<-1>`) fetches nothing and reads no __constant__ array, yet has the primary's parameters."""
    body = checked("""\
        __constant__ float c_Kernel[5];
        template <int i> __device__ float row(float x, float y, cudaTextureObject_t t) {
            return tex2D<float>(t, x + i, y) * c_Kernel[i] + row<i - 1>(x, y, t);
        }
        template <> __device__ float row<-1>(float x, float y, cudaTextureObject_t t) { return 0; }
        __global__ void k(float* out, cudaTextureObject_t src) {
            out[threadIdx.x] = row<4>(threadIdx.x + 0.5f, 0.5f, src);
        }
        """)
    assert "float row(float x, float y, texture2d<float, access::sample> t, sampler t_sampler, constant float* c_Kernel)" in body
    assert "row<-1>(float x, float y, texture2d<float, access::sample> t, sampler t_sampler, constant float* c_Kernel)" in body
    assert "row<i - 1>(x, y, t, t_sampler, c_Kernel)" in body and "row<4>(tid.x + 0.5f, 0.5f, src, src_sampler, c_Kernel)" in body


def test_integer_texels_are_a_uint_or_int_texture():
    """cuda-samples NV12toBGRandResize: `tex2D<uint8_t>` and `tex2D<uchar2>` of 8-bit planes
    (cudaReadModeElementType: the integer, point-filtered, as Metal samples an integer format with
    nearest filtering): a texture2d<uint>, whose sample() is a uint4, converted to the CUDA texel type."""
    body = checked("""\
        __global__ void k(uchar2* o, short4* s, cudaTextureObject_t luma, cudaTextureObject_t chroma,
                          cudaTextureObject_t sig) {
            int x = threadIdx.x;
            o[x] = make_uchar2(tex2D<uint8_t>(luma, x, 0), tex2D<unsigned char>(luma, x + 1, 0));
            o[x + 32] = tex2D<uchar2>(chroma, x / 2, 0);
            s[x] = tex1D<short4>(sig, x);
        }
        """)
    assert "texture2d<uint, access::sample> luma [[texture(0)]]" in body
    assert "texture2d<uint, access::sample> chroma [[texture(1)]]" in body
    assert "texture1d<int, access::sample> sig [[texture(2)]]" in body
    assert "uchar2(uchar(luma.sample(luma_sampler, float2(x, 0)).x), uchar(luma.sample(luma_sampler, float2(x + 1, 0)).x))" in body
    assert "o[x + 32] = uchar2(chroma.sample(chroma_sampler, float2(x / 2, 0)).xy);" in body
    assert "s[x] = short4(sig.sample(sig_sampler, x));" in body


def test_what_has_no_definite_metal_meaning_stays_refused_at_its_line():
    """Look-alikes: one object fetched as float and as integer texels (postProcessGL's two branches) or
    as a texel type of no Metal texture (double2), one object fetched at two dimensions, an object
    stored away, one object fetched from linear memory (tex1Dfetch) and as a 2-D texture."""
    assert any(e.startswith("3:KP223 a texture object fetched as float and uint texels") for e in errors("""\
        __global__ void k(uchar4* o, cudaTextureObject_t t) {
            o[0] = make_uchar4(tex2D<float4>(t, 0.5f, 0.5f).x, 0, 0, 0);
            o[1] = tex2D<uchar4>(t, 0.5f, 0.5f);
        }
        """))
    assert any(e.startswith("2:KP223 a texture fetched as 'long2'") for e in errors("""\
        __global__ void k(long2* o, cudaTextureObject_t t) {
            o[0] = tex2D<long2>(t, 0.5f, 0.5f);
        }
        """))
    assert any(e.startswith("3:KP223 a texture object fetched as texture1d and texture2d") for e in errors("""\
        __global__ void k(float* o, cudaTextureObject_t t) {
            o[0] = tex1D<float>(t, 0.5f);
            o[1] = tex2D<float>(t, 0.5f, 0.5f);
        }
        """))
    assert any(e.startswith("2:KP223 texture object 't' used other than in a fetch") for e in errors("""\
        __global__ void k(cudaTextureObject_t* o, cudaTextureObject_t t) {
            o[0] = t;
        }
        """))
    assert any(e.startswith("2:KP223 texture object 't' has no fetch kernelport ports (tex1D, tex2D") for e in errors("""\
        #define LOAD(i) tex1Dfetch<float>(t, i)
        __global__ void k(float* o, cudaTextureObject_t t) { o[0] = LOAD(3); }
        """))
    assert any(e.startswith("3:KP223 a texture object fetched as linear memory (tex1Dfetch) and texture2d")
               for e in errors("""\
        __global__ void k(float* o, cudaTextureObject_t t) {
            o[0] = tex1Dfetch<float>(t, 3);
            o[1] = tex2D<float>(t, 0.5f, 0.5f);
        }
        """))


def test_a_texture_member_name_is_no_free_name_of_metals_library():
    """Look-alike: the checker's model declares texture2d::get_width; a free `get_width(...)` from a
    header the port cannot include is still refused (unported.metal_library_names)."""
    assert any(e.startswith("2:KP223 'get_width' is defined neither") for e in errors("""\
        __global__ void k(int* o) {
            o[0] = get_width(o[1]);
        }
        """))
