"""A class's own member named as a built-in (`enum { warpSize = 32 };`) is the member (kernelport/member_builtins.py).

Main's model read every `warpSize` as the built-in: the port renamed the enumerator (`enum { KP_WAVE_SIZE = 32 };`,
which hipcc reads as `enum { 64 = 32 }`), its qualified use (`Warp::KP_WAVE_SIZE`) and its use in the class's
constant expressions (`256 / KP_WAVE_SIZE`: 4 on CDNA, where CUDA's is 8); lint's WS013 read the enumerator as
the run-time built-in in a constant expression.  Now the enumerator, a scoped use and a use inside the class are
the member: kept as written, and the port compiles for gfx90a and gfx1030.  Look-alikes: `warpSize` outside the
class and `::warpSize` inside it are the built-in (the port's const context still reads KP_WAVE_SIZE)."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text

from kernelport.lint.engine import lint_text

CODE = """struct Warp {
    enum { warpSize = 32 };
    static constexpr int rows = 256 / warpSize;
    __device__ static int lane() { return threadIdx.x % warpSize; }
};
__global__ void k(int* x)
{
    x[threadIdx.x] = Warp::lane() + Warp::rows + Warp::warpSize;
}
"""


def test_an_enumerator_named_warpSize_is_the_classs_own(tmp_path):
    text = port_text(CODE, dedent=False)
    for line in ("    enum { warpSize = 32 };", "static constexpr int rows = 256 / warpSize;",
                 "Warp::lane() + Warp::rows + Warp::warpSize;"):
        assert line in text, (line, text)
    assert "KP_WAVE_SIZE = 32" not in text
    hip_compiles(tmp_path, text, "enum.hip")
    assert [f.code for f in lint_text(CODE, "t.cu", "cuda", targets={"hip-cdna", "hip-rdna"}) if f.code == "WS013"] == []


def test_look_alikes_outside_the_class_are_the_builtin(tmp_path):
    code = CODE.replace("    static constexpr int rows = 256 / warpSize;\n",
                        "    static constexpr int rows = 256 / warpSize;\n    __device__ static int wave() { return ::warpSize; }\n") \
        .replace("Warp::warpSize;", "Warp::warpSize + Warp::wave();\n    __shared__ float s[warpSize];\n    s[0] = 1.0f;")
    text = port_text(code, dedent=False)
    assert "__shared__ float s[KP_WAVE_SIZE];" in text, text
    assert "    enum { warpSize = 32 };" in text
    hip_compiles(tmp_path, text, "builtin.hip")
