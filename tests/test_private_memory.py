"""A thread's local object over the lane's scratch, KP239 at its declaration (kernelport/private_memory.py).

p2r's propagate-tor-test_cuda_v2.cu (heldout52) holds `struct MP6x6F { float data[36*ntrks]; }` (ntrks 9600:
1382400 bytes) in each thread; hipcc stopped in the AMDGPU backend ("stack frame size (1382616) exceeds limit
(262112)") with nothing pointing at the cause.  A wave's scratch is at most (256 * 4) * 8191 bytes: 131056 a lane
on gfx90a, 262112 on gfx1030 (measured here against hipcc at the boundary).  Look-alikes that stay quiet: the same
code with a small ntrks, an object read and written only at constant places, `__shared__` and static objects,
a type from a template parameter, an inline helper no kernel calls; Metal (no limit as data) is unchecked."""
from __future__ import annotations

import pytest

from kernelport import backends
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

P2R = """#define ntrks NTRKS
#define HOSTDEV __host__ __device__
struct MP6F { float data[6*ntrks]; };
struct MP6x6F { float data[36*ntrks]; };
typedef struct MP6x6F Mat;
using Par = MP6F;

__device__ void propagate(const MP6F* inPar, MP6F* outPar, size_t it) {
  Par work;
  Mat errorProp, temp;
  for (size_t i = 0; i < 6; ++i) errorProp.data[i * ntrks + it] = 1.f;
  for (size_t i = 0; i < 6; ++i) temp.data[i * ntrks + it] = errorProp.data[i * ntrks + it] * inPar->data[it];
  for (size_t i = 0; i < 6; ++i) work.data[i * ntrks + it] = temp.data[i * ntrks + it];
  outPar->data[it] = work.data[it];
}

__global__ void sequence(const MP6F* in, MP6F* out) {
  propagate(&in[blockIdx.x], &out[blockIdx.x], threadIdx.x);
}
"""


def _port(src: str, backend: str = "hip", name: str = "p2r.cu"):
    port, body = translate(SourceFile.from_text(src, name), backend)
    return port, body


def _kp239(port):
    return [d for d in port.diagnostics if d.code == "KP239"]


def test_an_object_no_lane_can_hold_is_refused_at_its_declaration():
    port, _ = _port(P2R.replace("NTRKS", "9600"))
    [d] = _kp239(port)
    assert (d.severity, d.location.line, d.location.column) == ("error", 10, 7)  # errorProp: the first of the largest
    assert "`errorProp` (Mat) in `propagate` needs at least 1382400 bytes" in d.message
    assert "131056 bytes a lane on gfx90a" in d.message and "262112 bytes a lane on gfx1030" in d.message
    assert "does not build for any target" in d.message and "2 more local object(s)" in d.message
    assert "global memory" in d.hint
    assert not port.ok


def test_the_same_code_with_small_objects_is_quiet():
    port, body = _port(P2R.replace("NTRKS", "32"))
    assert port.ok and not _kp239(port)
    assert "Mat errorProp, temp;" in body


def test_between_the_two_waves_limits_only_the_wide_wave_is_named():
    """50000 floats (200000 bytes): over gfx90a's 131056 a lane, under gfx1030's 262112: a warning, the port written."""
    src = ("__global__ void k(float *o, int i) {\n  float acc[50000];\n"
           "  for (int t = 0; t < 50000; t++) acc[t] = o[t + i];\n  o[i] = acc[i];\n}\n")
    port, _ = _port(src)
    [d] = _kp239(port)
    assert d.severity == "warning" and (d.location.line, d.location.column) == (2, 9)
    assert "does not build for gfx90a " in d.message and "float[50000]" in d.message
    assert port.ok


def test_constant_places_shared_static_and_template_types_are_quiet():
    src = """#define BIG 100000
template <typename T> __device__ T pick(const T *v, int i) { T buf[BIG]; buf[i] = v[i]; return buf[i + 1]; }
__device__ float at_constants(float x) { float regs[BIG]; regs[0] = x; regs[BIG - 1] = 2 * x; return regs[0] + regs[BIG - 1]; }
__global__ void k(float *o) {
  __shared__ float tile[BIG / 10];
  static __device__ float table[BIG];
  float __shared__ late[BIG];  // (no thread's: over the LDS, which is not this check's)
  tile[threadIdx.x] = o[threadIdx.x];
  o[threadIdx.x] = at_constants(tile[threadIdx.x]) + pick(o, threadIdx.x) + table[threadIdx.x] + late[threadIdx.x];
}
"""
    port, _ = _port(src)
    assert not _kp239(port), [d.format() for d in _kp239(port)]


def test_an_inline_helper_counts_only_where_a_kernel_calls_it():
    helper = ("#define N 40000\ninline __device__ float h(const float *v, int i) { double s[N]; "
              "for (int t = 0; t < N; t++) s[t] = v[t]; return s[i]; }\n")
    port, _ = _port(helper + "__global__ void k(float *o) { o[0] = 1.f; }\n")
    assert not _kp239(port)  # never emitted: hipcc never lays out its frame
    port, _ = _port(helper + "__global__ void k(float *o) { o[0] = h(o, threadIdx.x); }\n")
    [d] = _kp239(port)
    assert "`s` (double[N]) in `h` needs at least 320000 bytes" in d.message and d.severity == "error"


def test_an_address_passed_on_holds_it_in_memory():
    src = """struct Big { float data[70000]; int n; };
__device__ void fill(float *d, int n);
__global__ void k(float *o) { Big b; fill(b.data, 70000); o[0] = b.data[3]; }
"""
    port, _ = _port(src)
    [d] = _kp239(port)
    assert "`b` (Big) in `k` needs at least 280004 bytes" in d.message and d.severity == "error"


def test_portable_names_the_amd_runs_and_metal_is_unchecked():
    src = P2R.replace("NTRKS", "9600")
    port, _ = _port(src, "portable")
    [d] = _kp239(port)
    assert d.severity == "warning" and "does not build for gfx90a, gfx1030" in d.message  # NVIDIA's run builds it
    assert backends.get("metal").scratch_wave_bytes is None
    port, _ = _port(src, "metal")
    assert not _kp239(port)


@pytest.mark.parametrize("floats,gfx90a_builds", [(32700, True), (32766, False)])
def test_the_limit_is_hipcc_s(tmp_path, floats, gfx90a_builds):
    """At the boundary: 130800 bytes builds on gfx90a (frame 130816), 131064 does not; gfx1030 builds both."""
    from kernelport import toolchains
    require_tool("hipcc")
    src = (f"__global__ void k(float *o, int i, int j) {{\n  float a[{floats}];\n"
           f"  for (int t = 0; t < {floats}; t++) a[t] = o[t + i];\n  o[0] = a[j];\n}}\n")
    port, body = _port(src, name="edge.cu")
    assert bool(_kp239(port)) is not gfx90a_builds
    f = tmp_path / "edge.hip"
    f.write_text(body)
    wide, narrow = toolchains.compile_hip_each(f, ["gfx90a", "gfx1030"])
    assert narrow.ok, narrow.output
    assert wide.ok is gfx90a_builds, wide.output
    if not gfx90a_builds:
        assert "exceeds limit (131056)" in wide.output
    assert backends.get("hip").scratch_wave_bytes // 64 == 131056


TEMPLATES = """#define BIG 40000
template <typename T, int N>
__global__ void k(T *o, int i) {
  T buf[N];
  for (int t = 0; t < N; t++) buf[t] = o[t + i];
  o[i] = buf[i];
}
template <typename T, int N = BIG>
__device__ T pick(const T *v, int i) { T acc[N]; acc[i] = v[i]; return acc[i + 1]; }
template __global__ void k<double, BIG>(double *, int);
__global__ void user(float *o) { o[0] = pick<float>(o, threadIdx.x); }
void h(float *p, char *c) { k<float, 4096><<<1, 2>>>(p, 0); k<char, 50000><<<1, 2>>>(c, 0); k<float, 50000><<<1, 1>>>(p, 1); }
"""


def test_a_template_s_object_is_sized_per_instantiation_the_file_writes():
    """An explicit instantiation, launches with written arguments and a call leaving N to its default: each one
    over a lane's scratch is said at the array, naming the instance; those under the limit (4096 floats, 50000
    chars) are not."""
    port, _ = _port(TEMPLATES)
    got = sorted((d.location.line, d.location.column, d.severity, d.message.split(" needs")[0]) for d in _kp239(port))
    assert got == [(4, 5, "error", "`buf` (T[N]) in `k<double, BIG>` (instantiated at line 10)"),
                   (4, 5, "warning", "`buf` (T[N]) in `k<float, 50000>` (instantiated at line 12)"),
                   (9, 42, "warning", "`acc` (T[N]) in `pick<float, BIG>` (instantiated at line 11)")], got
    assert "320000 bytes" in next(d.message for d in _kp239(port) if "double" in d.message)


def test_template_arguments_the_file_does_not_decide_stay_quiet():
    src = TEMPLATES.split("template __global__")[0] + """
template <> __global__ void k<float, 99999>(float *o, int i) { o[i] = 0.f; }  // a specialisation: its own body
template <typename T, int M> void launch(T *p) { k<T, M><<<1, 1>>>(p, 0); }  // M is launch's: not decided here
__global__ void user(float *o) { o[0] = pick(o, threadIdx.x) + pick<float, 64>(o, 1); }  // deduced; 64 floats
void h(float *p, int n) { k<float, 4096><<<1, 2>>>(p, 0); launch<float, 8>(p); }
"""
    port, _ = _port(src)
    assert not _kp239(port), [d.format() for d in _kp239(port)]


def test_an_instance_over_the_wide_wave_s_limit_is_hipcc_s(tmp_path):
    """The warned instance is real: 50000 floats fail gfx90a's frame limit and build for gfx1030."""
    from kernelport import toolchains
    require_tool("hipcc")
    src = TEMPLATES.split("template <typename T, int N = BIG>")[0] + \
        "void h(float *p) { k<float, 4096><<<1, 2>>>(p, 0); k<float, 50000><<<1, 1>>>(p, 1); }\n"
    port, body = _port(src, name="inst.cu")
    [d] = _kp239(port)
    assert d.severity == "warning" and "k<float, 50000>" in d.message and port.ok
    f = tmp_path / "inst.hip"
    f.write_text(body)
    wide, narrow = toolchains.compile_hip_each(f, ["gfx90a", "gfx1030"])
    assert narrow.ok, narrow.output
    assert not wide.ok and "exceeds limit (131056)" in wide.output, wide.output
