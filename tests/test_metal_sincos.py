"""C's sincosf and CUDA's forms of it on Metal (ME498-CudaSynth's kernel.cu, held-out set 56: its
FASTSINCOSF macro is `__sincosf` under __CUDA_ARCH__ and `sincosf` otherwise).  MSL's sincos(x, cosval)
returns the sine and writes a thread reference; CUDA's write two pointers of any address space.  Before,
each was refused (KP223: "defined neither in this file nor in Metal's standard library"); now the
prologue's kp_sincosf / kp_fast_sincosf / kp_sincospif write through the pointers, and the Metal checker
passes the port.  Look-alikes: a file's own sincosf is what its calls mean; a double sincos is still
refused for the double (KP214).  The emulator runs each form (modf_calls.py), so verify checks the ports
numerically against the original."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write

KERNEL = """
__global__ void k(const float* x, float* s, float* c, float* q, int n) {
    __shared__ float w[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a, b;
    sincosf(x[i], &a, &b);
    __sincosf(x[i] * 2.0f, &s[i], &w[threadIdx.x]);
    sincospif(x[i], &q[i], &c[i]);
    sincos(x[i], &a, &c[i]);
    s[i] += a + b + w[threadIdx.x];
}
"""


def test_each_form_writes_through_pointers_of_any_space(tmp_path: Path):
    _write(tmp_path, {"k.cu": KERNEL})
    text = _port(tmp_path / "k.cu")  # (the Metal checker passed it)
    body = text.split("kernel void")[-1]
    assert "kp_sincosf(x[i], &a, &b);" in body
    assert "kp_fast_sincosf(x[i] * 2.0f, &s[i], &w[tid.x]);" in body
    assert "kp_sincospif(x[i], &q[i], &c[i]);" in body and "kp_sincosf(x[i], &a, &c[i]);" in body
    assert "*sptr = precise::sincos(x, c);" in text and "*sptr = fast::sincos(x, c);" in text
    assert "*sptr = precise::sinpi(x);" in text


def test_only_the_forms_used_come_with_the_port(tmp_path: Path):
    _write(tmp_path, {"k.cu": "__global__ void k(const float* x, float* s, float* c) { sincosf(x[0], s, c); }\n"})
    text = _port(tmp_path / "k.cu")
    assert "inline void kp_sincosf(" in text
    assert "kp_fast_sincosf" not in text and "kp_sincospif" not in text


def test_a_macro_over_the_fast_form_as_cudasynth_spells_it(tmp_path: Path):
    _write(tmp_path, {"k.cu": """
        #ifdef __CUDA_ARCH__
            #define FASTSINCOSF(a, sptr, cptr) __sincosf(a, sptr, cptr)
        #else
            #define FASTSINCOSF(a, sptr, cptr) sincosf(a, sptr, cptr)
        #endif
        __global__ void k(const float* x, float* s, float* c) {
            FASTSINCOSF(x[threadIdx.x], &s[threadIdx.x], &c[threadIdx.x]);
        }
    """})
    text = _port(tmp_path / "k.cu")
    assert "kp_fast_sincosf(a, sptr, cptr)" in text or "kp_sincosf(a, sptr, cptr)" in text, text


def test_look_alikes_stay(tmp_path: Path):
    """The file's own sincosf is what its calls mean; CUDA's double sincos is refused for the double."""
    _write(tmp_path, {"k.cu": """
        __device__ void sincosf(float a, float* s, float* c) { *s = a; *c = -a; }
        __global__ void k(const float* x, float* s, float* c) { sincosf(x[0], s, c); }
    """})
    text = _port(tmp_path / "k.cu")
    assert "kp_sincosf" not in text and "sincosf(x[0], s, c);" in text
    _write(tmp_path, {"d.cu": "__global__ void k(const double* x, double* s, double* c) { sincos(x[0], s, c); }\n"})
    port, _ = translate(SourceFile.read(tmp_path / "d.cu"), "metal")
    assert not port.ok
    assert any(d.code == "KP214" for d in port.diagnostics), [d.format() for d in port.diagnostics]


VERIFIED = """\
// @kp kernel     k
// @kp grid       1
// @kp block      64
// @kp why        one block
// @kp arg        x   in   float[64]   uniform(-3, 3)
// @kp arg        s   out  float[64]
// @kp arg        c   out  float[64]
// @kp tolerance  auto
// @kp targets    hip, metal
__global__ void k(const float* x, float* s, float* c) {
    __shared__ float w[64];
    float a, b;
    sincosf(x[threadIdx.x], &a, &b);
    __sincosf(x[threadIdx.x] * 0.5f, &s[threadIdx.x], &w[threadIdx.x]);
    __syncthreads();
    s[threadIdx.x] += a;
    c[threadIdx.x] = b + w[(threadIdx.x + 1) % 64];
}
"""


def test_the_emulator_runs_each_form_and_verify_checks_the_ports(tmp_path: Path):
    """The emulator runs C's sincosf (locals and pointers into global and shared memory), CUDA's __sincosf
    (the fast intrinsic's bound) and the Metal port's kp_sincosf over MSL's sincos(x, cosval); before, the
    original stopped at "unknown function `sincosf`" and nothing was checked numerically."""
    from kernelport.verify import Verifier
    f = tmp_path / "k.cu"
    f.write_text(VERIFIED)
    for backend, ext in (("hip", ".hip"), ("metal", ".metal")):
        port, text = translate(SourceFile.read(f), backend)
        assert port.ok, [d.format() for d in port.diagnostics]
        (tmp_path / f"k{ext}").write_text(text)
    rep = Verifier(cache=False, timeout=120, oracle="original").verify(f)
    got = {(c.backend, c.wave, c.status) for c in rep.checks if c.kind == "numeric"}
    assert {(b, w) for b, w, _ in got} >= {("hip", 32), ("hip", 64), ("metal", 32)}, got
    assert all(s == "pass" for _, _, s in got), got
