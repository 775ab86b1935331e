"""cuComplex.h's single-precision complex in the emulator: `cuFloatComplex` (`cuComplex`), a float2, and its
functions, as C the front end adds to an original (the CUDA source dialect) that names them, so `verify`
runs the original and compares each port with it (the Metal port's prologue defines the same functions,
kernelport/backends/metal: complex_macros, complex_functions).  The bodies are CUDA 13's cuComplex.h's,
operation for operation (cuCdivf scaled by |re| + |im|; cuCabsf's v * sqrt(1 + (w/v)^2) with its zero and
overflow case).  Double complex is left out: no port of it is checked here (Metal refuses it, KP214)."""
from __future__ import annotations

from ... import lazy_re

NAMES = ("cuFloatComplex", "cuComplex", "make_cuFloatComplex", "make_cuComplex", "cuCrealf", "cuCimagf",
         "cuConjf", "cuCaddf", "cuCsubf", "cuCmulf", "cuCdivf", "cuCabsf", "cuCfmaf")

_MODEL = r"""
typedef float2 cuFloatComplex;
typedef float2 cuComplex;
float cuCrealf(float2 x) { return x.x; }
float cuCimagf(float2 x) { return x.y; }
float2 make_cuFloatComplex(float r, float i) { float2 res; res.x = r; res.y = i; return res; }
float2 make_cuComplex(float r, float i) { float2 res; res.x = r; res.y = i; return res; }
float2 cuConjf(float2 x) { float2 res; res.x = x.x; res.y = -x.y; return res; }
float2 cuCaddf(float2 x, float2 y) { float2 res; res.x = x.x + y.x; res.y = x.y + y.y; return res; }
float2 cuCsubf(float2 x, float2 y) { float2 res; res.x = x.x - y.x; res.y = x.y - y.y; return res; }
float2 cuCmulf(float2 x, float2 y) {
    float2 res; res.x = (x.x * y.x) - (x.y * y.y); res.y = (x.x * y.y) + (x.y * y.x); return res;
}
float2 cuCdivf(float2 x, float2 y) {
    float2 res;
    float s = fabsf(y.x) + fabsf(y.y);
    float oos = 1.0f / s;
    float ars = x.x * oos;
    float ais = x.y * oos;
    float brs = y.x * oos;
    float bis = y.y * oos;
    s = (brs * brs) + (bis * bis);
    oos = 1.0f / s;
    res.x = ((ars * brs) + (ais * bis)) * oos;
    res.y = ((ais * brs) - (ars * bis)) * oos;
    return res;
}
float cuCabsf(float2 x) {
    float a = fabsf(x.x);
    float b = fabsf(x.y);
    float v, w, t;
    if (a > b) { v = a; w = b; } else { v = b; w = a; }
    t = w / v;
    t = 1.0f + t * t;
    t = v * sqrtf(t);
    if ((v == 0.0f) || (v > 3.402823466e38f) || (w > 3.402823466e38f)) { t = v + w; }
    return t;
}
float2 cuCfmaf(float2 x, float2 y, float2 d) {
    float2 res;
    float real_res = (x.x * y.x) + d.x;
    float imag_res = (x.x * y.y) + d.y;
    real_res = -(x.y * y.y) + real_res;
    imag_res = (x.y * y.x) + imag_res;
    res.x = real_res; res.y = imag_res;
    return res;
}
"""

_USE = lazy_re.compile(r"\b(\w+)\b")
_DEFINES = lazy_re.compile(r"\b(?:typedef\s+\w+\s+(cuFloatComplex|cuComplex)\s*;|"
                           r"(cuC\w+|make_cuC\w+)\s*\([^;{]*\)\s*\{)")


def model_text(backend: str | None, body: str) -> str:
    """The model's C where `body` (the file after its includes) is in the source dialect (CUDA), names one of
    cuComplex.h's float names and defines none of them itself; else ""."""
    from ... import backends
    if (backends.get(backend) if backend else backends.source()) is not backends.source():
        return ""
    if not set(NAMES) & set(_USE.findall(body)) or _DEFINES.search(body):
        return ""
    return _MODEL
