"""cuComplex.h's single-precision functions that read an argument twice (cuCmulf, cuCdivf, cuCabsf, cuConjf,
cuCfmaf) on Metal: the prologue defines each one the port names as an inline MSL function over float2, CUDA's
formula operation for operation (a macro would evaluate `a[i++]` twice).  h/heldout74 gave the macros
(tests/test_metal_cucomplex74.py); these stayed KP223.  Double complex (cuDoubleComplex, cuCmul, ...) is KP214
(Metal has no double) at its use, not KP223's "comes from a header"; with --demote-double each is its float name.
Look-alikes: a file's own cuCmulf is kept (no second definition), a name that only contains one (my_cuCmulf) is
not defined, a function the port does not name is not emitted."""
from __future__ import annotations

import re
import subprocess
import textwrap
from pathlib import Path

import pytest

from conftest import require_tool

from kernelport import backends
from kernelport.backends.metal.check import check_metal_source
from kernelport.source import SourceFile
from kernelport.translate import translate

UNIT = """
    #include <cuComplex.h>
    BEFORE
    __global__ void k(const cuFloatComplex *a, cuFloatComplex *b, float *m, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) { BODY }
    }
"""


def _metal(body: str, before: str = "", **options):
    text = textwrap.dedent(UNIT).replace("BEFORE", before).replace("BODY", body)
    return translate(SourceFile.from_text(text, "c.cu"), "metal", **options)


def _defined(text: str) -> set[str]:
    return set(re.findall(r"(?m)^inline float2? (cuC\w+)\(", text))


def test_the_functions_a_port_names_are_inline_functions_and_pass_the_checker():
    port, text = _metal("b[i] = cuCdivf(cuCmulf(a[i], cuConjf(a[i])), a[i]); m[i] = cuCabsf(b[i]);")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert _defined(text) == {"cuCdivf", "cuCmulf", "cuConjf", "cuCabsf"}, text
    assert "#define cuCmulf" not in text and "precise::sqrt(t)" in text
    assert [str(d) for d in check_metal_source(text, "c.metal")] == [], text


def test_only_what_the_port_names_and_not_a_look_alike():
    port, text = _metal("b[i] = cuCfmaf(a[i], a[i], b[i]); m[i] = my_cuCmulf(a[i]);",
                        before="__device__ float my_cuCmulf(cuFloatComplex z) { return z.x * z.y; }")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert _defined(text) == {"cuCfmaf"}, text
    assert [str(d) for d in check_metal_source(text, "c.metal")] == [], text


def test_a_file_that_defines_cuCmulf_keeps_its_own():
    own = ("__device__ cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) "
           "{ return make_cuFloatComplex(x.x * y.x, x.y * y.y); }")
    port, text = _metal("b[i] = cuCmulf(a[i], a[i]);", before=own)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "cuCmulf" not in _defined(text) and text.count("cuCmulf(float2 x") == 0
    assert [str(d) for d in check_metal_source(text, "c.metal")] == [], text


def test_double_complex_is_KP214_at_each_name_and_demotes_to_float_complex():
    body = "cuDoubleComplex z = make_cuDoubleComplex(1.0, 2.0); m[i] = (float) cuCabs(cuCmul(z, z));"
    port, _ = _metal(body)
    errors = [(d.code, d.message.split("'")[1]) for d in port.diagnostics if d.severity == "error"]
    assert errors == [("KP214", "cuDoubleComplex"), ("KP214", "make_cuDoubleComplex"), ("KP214", "cuCabs"),
                      ("KP214", "cuCmul")], errors
    port, text = _metal(body, demote_double=True)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "cuFloatComplex z = make_cuFloatComplex(1.0, 2.0);" in text and "cuCabsf(cuCmulf(z, z))" in text
    assert _defined(text) == {"cuCabsf", "cuCmulf"}
    assert [str(d) for d in check_metal_source(text, "c.metal")] == [], text


def test_double_complex_at_file_scope_is_seen_and_host_code_is_not():
    before = ("typedef cuDoubleComplex cplx;\nstruct P { cuDoubleComplex z; };\n"
              "__device__ float re(const P &p) { return (float) p.z.x; }\n"
              "void host_only(cuDoubleComplex *h) { h[0] = cuCadd(h[0], h[1]); }\n")
    port, _ = _metal("m[i] = re(((const P *) a)[i]);", before=before)
    errors = [(d.code, d.message.split("'")[1], d.line) for d in port.diagnostics if d.severity == "error"]
    # line 4, the struct device code reads: not the unused typedef (left out) nor cuCadd (host code, left out)
    assert errors == [("KP214", "cuDoubleComplex", 4)], errors
    port, text = _metal("m[i] = re(((const P *) a)[i]);", before=before, demote_double=True)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "struct P { cuFloatComplex z; };" in text and "cuDoubleComplex" not in text.split("#include")[-1]
    assert [str(d) for d in check_metal_source(text, "c.metal")] == [], text


COMPARE = r"""
#include <cuComplex.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
static inline float2 mk(float a, float b) { float2 r; r.x = a; r.y = b; return r; }
#define float2(a, b) mk(a, b)
#include "port.h"
#undef float2
static bool same(float a, float b) { return memcmp(&a, &b, 4) == 0 || (std::isnan(a) && std::isnan(b)); }
int main() {
    std::mt19937 g(7); std::uniform_int_distribution<unsigned> u;
    long bad = 0;
    for (int i = 0; i < 200000; i++) {
        float v[6];
        for (float &f : v) { unsigned w = u(g); memcpy(&f, &w, 4); if (i % 2) f = float(int(w % 2001)) - 1000.f; }
        float2 x = mk(v[0], v[1]), y = mk(v[2], v[3]), d = mk(v[4], v[5]);
        float2 p[5][2] = {{cuCmulf(x, y), kp_cuCmulf(x, y)}, {cuCdivf(x, y), kp_cuCdivf(x, y)},
                          {cuCfmaf(x, y, d), kp_cuCfmaf(x, y, d)}, {cuConjf(x), kp_cuConjf(x)},
                          {mk(cuCabsf(x), 0.f), mk(kp_cuCabsf(x), 0.f)}};
        for (auto &q : p) bad += !same(q[0].x, q[1].x) || !same(q[0].y, q[1].y);
    }
    printf("%ld\n", bad);
}
"""


def _cucomplex_header(nvcc: str, tmp_path: Path) -> Path:
    """Where this nvcc finds cuComplex.h (`nvcc -M` names each header it reads: no install layout assumed)."""
    (tmp_path / "h.cu").write_text("#include <cuComplex.h>\n")
    deps = subprocess.run([nvcc, "-M", "h.cu"], cwd=tmp_path, check=True, capture_output=True, text=True).stdout
    found = [Path(w) for w in deps.replace("\\\n", " ").split() if w.endswith("/cuComplex.h")]
    assert found, deps
    return found[0]


def test_the_prologue_functions_compute_what_cuComplex_h_computes(tmp_path):
    """Each prologue function, compiled as C++ beside CUDA's own cuComplex.h (same host arithmetic, no fma
    contraction), gives the same bits on random floats (NaN, inf, subnormals included) and small integers."""
    header = _cucomplex_header(str(require_tool("nvcc").path), tmp_path)  # (CI fails where a tool is missing)
    require_tool("g++")
    port = "\n".join(f.replace("precise::sqrt", "sqrtf").replace("fabs(", "fabsf(")
                     .replace(" cuC", " kp_cuC", 1) for f in backends.get("metal").complex_functions.values())
    (tmp_path / "port.h").write_text(port)
    (tmp_path / "cmp.cpp").write_text(COMPARE)
    subprocess.run(["g++", "-O1", "-ffp-contract=off", f"-I{header.parent}", "cmp.cpp", "-o", "cmp"],
                   cwd=tmp_path, check=True, capture_output=True)
    out = subprocess.run([str(tmp_path / "cmp")], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "0", out
