"""A class's `static const` data member declared with no value, which no device code names, is left out of
the Metal port (heldout102 LBMProject lattice_d3q19.h: `static const int h_ex[Q]; ... static const double
h_w_double[Q];`, host copies d3q19.cu defines; boundary_conditions.cu's port kept them as `static const constant
int h_ex[Q];`, which MSL refuses: "variable in constant address space must be initialized", KP224).  The
look-alikes: a member with its value in the class (`static const int scale = 2;`) stays, as does one device
code names, and one whose definition the file itself spells (`const float Lat::h_w[4] = {...}`: main's outcome
kept).  Written for the test."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write

CLASS = """
    class Lat {
    public:
        static constexpr int Q = 4;
        static const int scale = 2;
        static const float h_w[Q];
        static const int h_ex[Q], h_ey[Q];
        __device__ static float w0(const float* w) { return w[0] * (float)scale; }
    };
"""


def test_a_valueless_static_const_member_no_device_code_names_is_left_out(tmp_path: Path):
    _write(tmp_path, {"k.cu": CLASS + """
    __global__ void k(float* f, int n) { int i = threadIdx.x; if (i < n) f[i] = Lat::w0(f) * (float)Lat::Q; }
    """})
    text = _port(tmp_path / "k.cu")
    assert "/* static const float h_w[Q]; used by host code only, left out of the Metal port */" in text
    assert "/* static const int h_ex[Q], h_ey[Q]; used by host code only" in text
    assert "static const constant int scale = 2;" in text


def _errors(tmp_path: Path, tail: str) -> list[str]:
    _write(tmp_path, {"k.cu": CLASS + tail})
    port, text = translate(SourceFile.read(tmp_path / "k.cu"), "metal", allow_unported=True)
    return [d.code for d in port.diagnostics], text


def test_one_device_code_names_stays(tmp_path: Path):
    _, text = _errors(tmp_path, """
    __global__ void k(float* f, int n) { int i = threadIdx.x; if (i < n) f[i] = Lat::h_w[i % Lat::Q]; }
    """)
    assert "static const constant float h_w[Q];" in text


def test_one_the_file_defines_stays(tmp_path: Path):
    _, text = _errors(tmp_path, """
    __global__ void k(float* f, int n) { int i = threadIdx.x; if (i < n) f[i] = Lat::w0(f); }
    const float Lat::h_w[Lat::Q] = {1.0f, 2.0f, 3.0f, 4.0f};
    """)
    assert "static const constant float h_w[Q];" in text
    assert "left out of the Metal port */" in text  # h_ex, h_ey: no definition here


# boundary_conditions.cu: `__host__ __device__` helpers whose host branch declares its own `const int
# h_opposite[19] = {...}` and reads it: the local, not the class's member, so the member is still unread.
SHADOW = """
    __host__ __device__ inline float flip(const float* f, int q) {
    #ifdef __CUDA_ARCH__
        return f[q ^ 1];
    #else
        const int h_ex[4] = {1, 0, 3, 2};
        return f[h_ex[q]];
    #endif
    }
"""


def test_a_local_of_the_same_name_does_not_name_the_member(tmp_path: Path):
    _write(tmp_path, {"k.cu": CLASS + SHADOW + """
    __global__ void k(float* f, int n) { int i = threadIdx.x; if (i < n) f[i] = flip(f, i % 4) + Lat::w0(f); }
    """})
    text = _port(tmp_path / "k.cu")
    assert "/* static const int h_ex[Q], h_ey[Q]; used by host code only" in text


def test_a_use_before_the_local_or_a_qualified_one_names_the_member(tmp_path: Path):
    for body in ("int a = h_ex[0]; const int h_ex[4] = {1, 0, 3, 2}; return f[h_ex[q] + a];",
                 "const int h_ex[4] = {1, 0, 3, 2}; return f[Lat::h_ex[q] + h_ex[0]];"):
        _, text = _errors(tmp_path, f"""
    struct Use : Lat {{ __device__ static float g(const float* f, int q) {{ {body} }} }};
    __global__ void k(float* f, int n) {{ int i = threadIdx.x; if (i < n) f[i] = Use::g(f, i % 4); }}
    """)
        assert "static const constant int h_ex[Q], h_ey[Q];" in text, text
