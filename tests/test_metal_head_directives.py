"""Preprocessor lines inside a declaration head survive the Metal port (cuda-samples eigenvalues' util.h).

`template <class T>` / `#ifdef __CUDACC__` / `__host__ __device__` / `#endif` / `T min(...)`: the parse
sees the directive lines as blanks, so the function's node starts at `__host__` with the `#endif` inside
it and the `#ifdef` before it.  Main's port dropped the qualifiers with the blanks after them, `#endif`
included, and left out functions nothing calls as a one-line comment, `#endif` included: every such
`#ifdef` stayed open to the end of the port, which the checker refused ("unterminated conditional
directive", KP224 at the `#ifdef`).  A head rebuilt without CUDA's words keeps its directive lines, and a
replaced node keeps the directives it shares with the text around it (kernelport/orphan_directives.py)."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write

UTIL = """
template <class T>
#ifdef __CUDACC__
__host__
    __device__
#endif
        T
        kmax(const T a, const T b)
{
    return (a < b) ? b : a;
}

#ifdef __CUDACC__
__host__ __device__
#endif
    inline float sign_f(const float v)
{
    return (v < 0.0f) ? -1.0f : 1.0f;
}

#ifdef __CUDACC__
__host__ __device__
#endif
    inline double sign_d(const double v)
{
    return (v < 0.0) ? -1.0 : 1.0;
}

template <class T>
#ifdef __CUDACC__
__host__ __device__
#endif
    void kswap(T &a, T &b)
{
    T t = b;
    b = a;
    a = t;
}
"""

HEADS = """
#include "util.h"

__global__ void k(float *out, const float *in)
{
    float x = in[threadIdx.x];
    out[threadIdx.x] = kmax(x, 0.5f) * sign_f(x);
}
"""


def _conditionals(text: str) -> tuple[int, int]:
    lines = [x.strip() for x in text.splitlines()]
    return sum(x.startswith(("#if", "#ifdef", "#ifndef")) for x in lines), sum(x.startswith("#endif") for x in lines)


def test_heads_split_by_a_conditional_keep_its_endif_and_pass_the_checker(tmp_path: Path):
    _write(tmp_path, {"k.cu": HEADS, "util.h": UTIL})
    text = _port(tmp_path / "k.cu")  # main: KP224 "unterminated conditional directive" at each #ifdef
    opened, closed = _conditionals(text)
    assert opened == closed, text
    # the template's head: its directive lines as the port spells them, then the type
    assert "template <class T>\n#ifdef __METAL_VERSION__\n#endif\n        T\n        kmax(" in text, text
    assert "#ifdef __METAL_VERSION__\n#endif\n    inline float sign_f(" in text, text
    # functions no device code reaches are a comment, their #endif kept after the #ifdef before them
    assert "#ifdef __METAL_VERSION__\n#endif\n// sign_d(): in \"util.h\", reached by none" in text, text
    assert "// kswap(): in \"util.h\", reached by none" in text, text
    assert "__host__" not in text and "__device__" not in text, text


def test_a_conditional_the_parse_reads_whole_is_kept_once(tmp_path: Path):
    """Look-alike: a group around whole definitions parses as a preprocessor node; the port keeps it as
    it was (one #endif per group, the function's qualifiers dropped inside it), as on main."""
    _write(tmp_path, {"k.cu": """
        #ifdef __CUDACC__
        __host__ __device__ inline float twice(const float v) { return 2.0f * v; }
        #else
        inline float twice(const float v) { return v + v; }
        #endif

        __global__ void k(float *out, const float *in)
        {
            out[threadIdx.x] = twice(in[threadIdx.x]);
        }
        """})
    text = _port(tmp_path / "k.cu")
    assert _conditionals(text) == (1, 1), text
    assert "#ifdef __METAL_VERSION__\ninline float twice(const float v) { return 2.0f * v; }\n#else\n" in text, text


def test_the_hip_port_of_the_heads_is_the_source_s_text(tmp_path: Path):
    """HIP keeps `__host__ __device__`: nothing was dropped, so nothing is added back."""
    _write(tmp_path, {"k.cu": UTIL + HEADS.replace('#include "util.h"', "")})
    port, text = translate(SourceFile.read(tmp_path / "k.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    body = text[text.index("template <class T>"):]
    assert body.count("#endif") == 4 and body.count("#ifdef") == 4, body
    assert body.count("__host__") == 4, body
