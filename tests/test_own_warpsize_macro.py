"""A file's own `#define warpSize 32` (limitz/cuda-audio's gpu.h, held-out set 56; hecbench's
atomicAggregate): the name it defines is the file's macro, not a use of the built-in.  Before, the
defined name was read as the built-in in a constant context and rewritten to the port's wave constant:
`#define KP_WAVE_SIZE 32` redefined the prologue's 64 on gfx90a (a shared array sized 32 while
`threadIdx.x % warpSize` reached 63: an out-of-bounds shared write at wave 64, which verify's oracle
shows), and where the macro itself was a wave width, `#define KP_WAVE_SIZE KP_WAVE_SIZE`.  Now the macro
keeps its name: its value is what the file's other warp-width macros get (`WARP_SIZE`: the wave constant
where it is a wave width, else as written).  Look-alikes: `#define WARP_SIZE 32` and a bare `warpSize`
sizing an array port as before, and a name a directive tests (`#ifndef __CUDACC__`) is still the built-in's.
warpsize55: its uses are the macro too, wherever the definition is in force (kernelport/own_macros.py, asked by
translate's model and by lint): `#define warpSize 64` sized s[KP_WAVE_SIZE] (32 on gfx1030, lanes to 63), and
lint read the uses as the built-in (WS013/WS016, refusing the port that kept the macro: KP225)."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

_SHARED = """\
#include <cuda_runtime.h>
#define warpSize 32
// @kp kernel     k
// @kp grid       2
// @kp block      64
// @kp arg        x   inout  float[128]   uniform(-1, 1)
// @kp tolerance  exact
// @kp targets    hip
__global__ void k(float* x) {
    __shared__ float s[warpSize];
    int lane = threadIdx.x % warpSize;
    if (threadIdx.x < warpSize) s[lane] = x[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    x[blockIdx.x * blockDim.x + threadIdx.x] = s[(lane + 1) % warpSize];
}
"""

_REDUCE = """\
#include <cuda_runtime.h>
#define {name} 32
#define WARPS(n) ((n) / {name})
__global__ void k(float* x, int n) {{
    int lane = threadIdx.x % {name};
    float v = x[threadIdx.x];
    for (int o = {name} / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) x[threadIdx.x / {name}] = v + WARPS(n);
}}
"""


def _hip(tmp_path: Path, text: str) -> str:
    f = tmp_path / "k.cu"
    f.write_text(textwrap.dedent(text))
    port, out = translate(SourceFile.read(f), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    return out


def _body(out: str) -> str:
    """The port after its prologue (whose `#define KP_WAVE_SIZE 64/32` is the only one allowed), or after
    its include where it needs none (every use is the file's macro)."""
    return out.split("#endif\n#endif\n", 1)[1] if "#ifndef KP_WAVE_SIZE" in out else \
        out.split("#include <hip/hip_runtime.h>\n", 1)[1]


def test_the_files_warpsize_macro_keeps_its_name(tmp_path: Path):
    body = _body(_hip(tmp_path, _SHARED))
    assert "#define KP_WAVE_SIZE" not in body, body
    assert "#define warpSize 32" in body, body
    # its uses in a constant context are the macro too (before: s[KP_WAVE_SIZE], 64 on gfx90a)
    assert "__shared__ float s[warpSize];" in body and "KP_WAVE_SIZE" not in body, body


def test_a_warpsize_macro_that_is_the_wave_width_becomes_the_wave_constant_under_its_own_name(tmp_path: Path):
    body = _body(_hip(tmp_path, _REDUCE.format(name="warpSize")))
    assert "#define KP_WAVE_SIZE" not in body, body
    assert "#define warpSize KP_WAVE_SIZE" in body, body
    # the same port as the look-alike WARP_SIZE's, name for name
    other = _body(_hip(tmp_path, _REDUCE.format(name="WARP_SIZE")))
    assert "#define WARP_SIZE KP_WAVE_SIZE" in other
    assert body.replace("warpSize", "WARP_SIZE") == other


def test_look_alike_a_bare_warpsize_sizing_an_array_is_the_wave_constant(tmp_path: Path):
    body = _body(_hip(tmp_path, _SHARED.replace("#define warpSize 32\n", "")))
    assert re.search(r"__shared__ float s\[KP_WAVE_SIZE\];", body), body
    assert "#define" not in body


def test_the_port_is_right_at_wave_64_by_the_oracle(tmp_path: Path):
    """verify --oracle original: the original at wave 32 against the HIP port run at 32 and 64 (before: an
    out-of-bounds write of s[32] by thread 32 at wave 64)."""
    from kernelport.verify import Verifier
    f = tmp_path / "k.cu"
    f.write_text(_SHARED)
    (tmp_path / "k.hip").write_text(_hip(tmp_path, _SHARED))
    rep = Verifier(cache=False, timeout=120, oracle="original").verify(f)
    hip = [(c.wave, c.status, c.detail) for c in rep.checks if c.kind == "numeric" and c.backend == "hip"]
    assert {w for w, _, _ in hip} == {32, 64} and all(s == "pass" for _, s, _ in hip), hip


def test_lint_still_reports_the_hardcoded_warpsize(tmp_path: Path):
    """The hazard stays the linter's (hecbench's atomicAggregate label: WS001 at the #define)."""
    from kernelport.lint.engine import lint_text
    found = lint_text(_SHARED, "k.cu")
    assert any(f.code == "WS001" and f.line == 2 for f in found), [(f.code, f.line) for f in found]


def test_look_alike_a_name_a_directive_tests_is_the_built_ins(tmp_path: Path):
    """`#ifndef __CUDACC__` (limitz's operators.h, beside its gpu.h's `#define warpSize 32`) tests the
    compiler's macro: the port tests HIP's."""
    body = _body(_hip(tmp_path, _SHARED.replace("#define warpSize 32\n", "#define warpSize 32\n#ifndef __CUDACC__\n"
                                                "inline int host_only() { return 1; }\n#endif\n")))
    assert "#ifndef __HIPCC__" in body and "__CUDACC__" not in body, body
    assert "#define warpSize 32" in body


# -- warpsize55: every use in the macro's scope is the file's macro, for translate and lint alike ------------
def _verify_hip(tmp_path: Path, text: str) -> list:
    from kernelport.verify import Verifier
    f = tmp_path / "k.cu"
    f.write_text(text)
    (tmp_path / "k.hip").write_text(_hip(tmp_path, text))
    rep = Verifier(cache=False, timeout=120, oracle="original").verify(f)
    return [(c.wave, c.status, c.detail) for c in rep.checks if c.kind == "numeric" and c.backend == "hip"]


def test_a_warpsize_macro_of_64_sizes_the_array_64_at_both_widths(tmp_path: Path):
    """`#define warpSize 64`: s[warpSize] is 64 entries against `threadIdx.x % warpSize` up to 63.  Before: the
    array became s[KP_WAVE_SIZE], 32 on gfx1030: an out-of-bounds write of s[32] by thread 32 at wave 32."""
    text = _SHARED.replace("#define warpSize 32", "#define warpSize 64")
    body = _body(_hip(tmp_path, text))
    assert "__shared__ float s[warpSize];" in body and "#define warpSize 64" in body, body
    hip = _verify_hip(tmp_path, text)
    assert {w for w, _, _ in hip} == {32, 64} and all(s == "pass" for _, s, _ in hip), hip


def test_lint_reads_the_macros_uses_as_the_macro(tmp_path: Path):
    """The same reading in lint: no WS013 (an array sized by the file's constant is constant) and no WS016
    (`% warpSize` is the macro's 32, not the run-time width); WS001 still names the 32 (and nothing at 64)."""
    from kernelport.lint.engine import lint_text
    codes = {(f.code, f.line) for f in lint_text(_SHARED, "k.cu")}
    assert ("WS001", 2) in codes and not {c for c, _ in codes} & {"WS013", "WS016"}, codes
    at64 = {f.code for f in lint_text(_SHARED.replace("#define warpSize 32", "#define warpSize 64"), "k.cu")}
    assert not at64 & {"WS001", "WS013", "WS016"}, at64


def test_look_alike_a_host_only_fallback_leaves_device_uses_the_built_ins(tmp_path: Path):
    """`#ifndef __CUDACC__ #define warpSize 32 #endif`: nvcc never sees the macro, so the kernel's warpSize is
    the hardware's: the array is sized by the wave constant as for a bare warpSize, and lint reads it so."""
    from kernelport.lint.engine import lint_text
    text = _SHARED.replace("#define warpSize 32\n", "#ifndef __CUDACC__\n#define warpSize 32\n#endif\n")
    body = _body(_hip(tmp_path, text))
    assert "__shared__ float s[KP_WAVE_SIZE];" in body and "#ifndef __HIPCC__" in body, body
    assert any(f.code == "WS013" for f in lint_text(text, "k.cu"))


def test_look_alike_uses_after_an_undef_are_the_built_ins(tmp_path: Path):
    text = _SHARED.replace("__global__", "#undef warpSize\n__global__")
    body = _body(_hip(tmp_path, text))
    assert "__shared__ float s[KP_WAVE_SIZE];" in body, body


def test_look_alike_warp_size_ports_as_before(tmp_path: Path):
    body = _body(_hip(tmp_path, _SHARED.replace("warpSize", "WARP_SIZE")))
    assert "#define WARP_SIZE 32" in body and "__shared__ float s[WARP_SIZE];" in body, body


def test_lint_reads_a_warpsize_macro_as_it_reads_warp_size(tmp_path: Path):
    """One reading, name for name: the shuffle ladder's macro sizing a shared array.  Before, `warpSize` got
    WS013 and WS016 on top of the WARP_SIZE look-alike's findings (the array size read as the built-in)."""
    from kernelport.lint.engine import lint_text
    text = _REDUCE.replace("    int lane", "    __shared__ float s[{name}];\n    int lane")
    text = text.replace("x[threadIdx.x / {name}] = v", "s[threadIdx.x / {name}] = v")
    got = {nm: sorted((f.code, f.line) for f in lint_text(text.format(name=nm), "k.cu"))
           for nm in ("warpSize", "WARP_SIZE")}
    assert got["warpSize"] == got["WARP_SIZE"] and ("WS001", 2) in got["WARP_SIZE"], got


def _hip_with_header(tmp_path: Path, header: str) -> tuple[int, str, str]:
    """k.cu including gpu.h (limitz/cuda-audio's layout), translated in project mode to stdout."""
    from trust_support import kp_inproc
    (tmp_path / "gpu.h").write_text(header)
    (tmp_path / "k.cu").write_text(_SHARED.replace("#define warpSize 32", '#include "gpu.h"'))
    return kp_inproc("--color", "never", "translate", tmp_path / "k.cu", "--to", "hip", "--stdout")


def test_a_headers_warpsize_macro_is_the_macro_in_the_includer(tmp_path: Path):
    """gpu.h's `#define warpSize 64`: k.cu's s[warpSize] is 64 wide at both widths.  Before: s[KP_WAVE_SIZE]
    (32 on gfx1030 against lanes to 63); the self-check, which lints k.cu alone, must not refuse it (KP225)."""
    rc, out, err = _hip_with_header(tmp_path, "#pragma once\n#define warpSize 64\n")
    assert rc == 0, err
    assert "__shared__ float s[warpSize];" in out and "KP_WAVE_SIZE" not in out, out


def test_look_alike_a_headers_host_only_fallback_is_the_built_in(tmp_path: Path):
    rc, out, err = _hip_with_header(tmp_path, "#pragma once\n#ifndef __CUDACC__\n#define warpSize 32\n#endif\n")
    assert rc == 0, err
    assert "__shared__ float s[KP_WAVE_SIZE];" in out, out


def test_metal_keeps_the_macro_sizing_a_threadgroup_array(tmp_path: Path):
    """The same reading on Metal: s[warpSize] is the macro's 64 (before: the run-time SIMD width, a parameter,
    and the port was refused KP224, an array size that is not a constant expression)."""
    f = tmp_path / "k.cu"
    f.write_text(_SHARED.replace("#define warpSize 32", "#define warpSize 64").replace("targets    hip", "targets    metal"))
    port, out = translate(SourceFile.read(f), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "threadgroup float s[warpSize];" in out and "#define warpSize 64" in out, out
