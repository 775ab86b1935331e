"""deepwave's three files (heldout38: acoustic.cu, scalar.cu, simple_compress.cu, built with -DDW_NDIM=1
-DDW_DTYPE=float), each cause as a snippet written for the test (no fetched file is read).  Each port here
was refused on main aaa38f0 (KP224: translate's Metal checker rejected what it wrote)."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool
from trust_support import kp_inproc
from test_metal_port_causes46 import _port, _write

DEFINES = [("NDIM", "1"), ("DTYPE", "float")]

# simple_compress.cu: an `#if` opened before the kernels and closed at the end of the file, and `#if` lines
# inside an expression; the parse's repair masks `__launch_bounds__(THREADS)` as a macro, so the kernel had
# no launch_bounds node and the CUDA attribute stood before `kernel` in the port.
BOUNDS = """
#define THREADS 8
#if defined(NDIM) && defined(DTYPE)

/* scale */
__launch_bounds__(THREADS) __global__
    void scale(DTYPE const *const input, DTYPE *const output,
#if NDIM >= 2
               int const ny,
#endif
               int const nx) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
#if NDIM >= 2
  int y = blockIdx.y;
#endif
  bool in_bounds = (x < nx
#if NDIM >= 2
    && y < ny
#endif
  );
  if (in_bounds) output[x] = input[x] * (DTYPE)2;
}
#endif
"""


def test_a_masked_launch_bounds_is_metals_attribute(tmp_path: Path):
    _write(tmp_path, {"k.cu": BOUNDS})
    src = SourceFile.read(tmp_path / "k.cu")
    assert any(m.name == "__launch_bounds__" for m in src.masks)  # the shape this test is about
    text = _port(tmp_path / "k.cu", defines=DEFINES)
    assert "__launch_bounds__" not in text
    assert "[[max_total_threads_per_threadgroup(THREADS)]]\nkernel\n    void scale(" in text, text
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal", defines=DEFINES)
    sidecar = json.loads(port.extra_files[".json"])
    assert [k["max_total_threads_per_threadgroup"] for k in sidecar["kernels"]] == ["THREADS"]


# acoustic.cu's combine_grad: each branch of an `#if DW_NDIM == 3 / #elif == 2 / #else` chain opens an
# `if (...) {` closed after `#endif`.  The plain parse kept the first branch (it parses as well as the others)
# and left the `#else` one, the branch the build compiles, as written: `blockIdx` in the port.
CHAIN = """
__global__ void combine(float *grad, float const *shot, long nx, long ny, long nz, long n) {
#if NDIM == 3
  long const x = blockIdx.x * blockDim.x + threadIdx.x;
  long const y = blockIdx.y * blockDim.y + threadIdx.y;
  long const z = blockIdx.z * blockDim.z + threadIdx.z;
  if (z < nz && y < ny && x < nx) {
    long const i = z * ny * nx + y * nx + x;
#elif NDIM == 2
  long const x = blockIdx.x * blockDim.x + threadIdx.x;
  long const y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < ny && x < nx) {
    long const i = y * nx + x;
#else
  long const x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < nx) {
    long const i = x;
#endif
    for (long s = 0; s < n; ++s) grad[i] += shot[s * nx + i];
  }
}
"""


def _cli_port(tmp_path: Path, define: str) -> tuple[str, str]:
    """`kernelport translate k.cu --to metal -D define` (the run's parse given its -D): (port text, stderr)."""
    rc, _, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "metal", "-D", define, "-o", tmp_path / "out")
    assert rc == 0, err
    text = (tmp_path / "out" / "k.metal").read_text()
    assert _errors(text) == [], text
    return text, err


def test_the_branch_the_builds_define_selects_is_ported(tmp_path: Path):
    _write(tmp_path, {"k.cu": CHAIN})
    text, err = _cli_port(tmp_path, "NDIM=1")
    assert "#else\n  long const x = bid.x * bdim.x + tid.x;" in text, text
    # the other branches stay as written, and KP230 says so where they name CUDA words
    assert "#if NDIM == 3\n  long const x = blockIdx.x * blockDim.x + threadIdx.x;" in text, text
    assert "KP230" in err, err


def test_the_first_branch_when_the_define_selects_it(tmp_path: Path):
    """The look-alike: -D NDIM=3 selects the branch the plain parse kept: ported as before."""
    _write(tmp_path, {"k.cu": CHAIN})
    text, _ = _cli_port(tmp_path, "NDIM=3")
    assert "#if NDIM == 3\n  long const x = bid.x * bdim.x + tid.x;" in text, text


# acoustic.cu / scalar.cu: kernel parameters under `#if DW_NDIM >= 3`, ruled out by the -D the port writes
# at its top, stay as written (no address space: they never compile); the checker's signature reading took
# them for parameters.
def _errors(msl: str) -> list[str]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    return [str(d) for d in check_metal_source(textwrap.dedent(msl), "t.metal")]


RULED_OUT = """
    #include <metal_stdlib>
    using namespace metal;
    #define NDIM {ndim}
    kernel void k(device float *x [[buffer(0)]],
    #if NDIM >= 2
                  float *y,
    #endif
                  uint3 tid [[thread_position_in_grid]]) {{
      x[tid.x] = 1.0f;
    }}
"""


def test_parameters_the_ports_define_rules_out_are_not_checked():
    assert _errors(RULED_OUT.format(ndim=1)) == []


def test_parameters_the_define_keeps_are_checked():
    """The look-alikes: NDIM 2 keeps the parameter (no address space: an error), and a define under a
    conditional or one the file `#undef`s decides nothing."""
    assert any("'y' is a pointer or reference without an address space" in e for e in _errors(RULED_OUT.format(ndim=2)))
    guarded = RULED_OUT.format(ndim=1).replace("#define NDIM 1", "#ifndef NDIM\n#define NDIM 1\n#endif")
    assert any("'y'" in e for e in _errors(guarded))
    undefined = RULED_OUT.format(ndim=1).replace("#define NDIM 1", "#define NDIM 1\n#undef NDIM\n#define NDIM 1")
    assert any("'y'" in e for e in _errors(undefined))


# scalar.cu: `__constant__ DW_DTYPE rdx;` read only through regular_grid.h's `DIFFX1(a)` = `(...) * rdx`.
CONSTANT_IN_MACRO = """
__constant__ float rdx;
#define DIFF(a, i) ((a[(i) + 1] - a[(i) - 1]) * rdx)
#define GRAD(a, i) (DIFF(a, i) * 0.5f)
__global__ void k(const float *u, float *du, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) du[i] = GRAD(u, i);
}
"""


def test_a_constant_read_through_a_macro_is_a_kernel_argument(tmp_path: Path):
    _write(tmp_path, {"k.cu": CONSTANT_IN_MACRO})
    text = _port(tmp_path / "k.cu")
    assert "constant float& rdx [[buffer(3)]]" in text, text


def test_a_macro_the_kernel_does_not_use_adds_no_argument(tmp_path: Path):
    """The look-alike: the kernel writes `u[i]` without GRAD: rdx is no argument of it."""
    _write(tmp_path, {"k.cu": CONSTANT_IN_MACRO.replace("GRAD(u, i)", "u[i]")})
    text = _port(tmp_path / "k.cu")
    assert "rdx [[buffer" not in text, text
