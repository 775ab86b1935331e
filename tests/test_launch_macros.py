"""Launches whose `<<<`/`>>>` come from a macro (kernelport/launch_macros.py): Visual Studio's CUDA
template `k KERNEL_ARGS2(grid, block)(args)` (heldout70's SRaimondi VolumeRender.cu), KERNEL_ARGS3/4,
`k CUDA_KERNEL(g, b)(args)` over `<<<__VA_ARGS__>>>`, and `LAUNCH(k, g, b)(args)` over `k<<<g, b>>>`:
each is a Launch with the geometry at the user's line and column, so lint learns the block size, and the
HIP port keeps the text, which hipcc expands.  Look-alikes (a macro of that name that is a call, `<<`
shifts, a use in a comment, the empty non-CUDA definition) are no launch."""
from __future__ import annotations

import subprocess
import sys

import pytest

from kernelport import fnscopes
from kernelport.lint.engine import lint_paths
from kernelport.lint.rules.ws_geometry import _GROUP_SUM
from kernelport.model import build
from kernelport.source import SourceFile

from conftest import assert_hip_file_compiles

KERNEL = _GROUP_SUM.split("void launch")[0].lstrip("\n")
MACROS = """#define KERNEL_ARGS2(grid, block) <<< grid, block >>>
#define KERNEL_ARGS3(grid, block, sh_mem) <<< grid, block, sh_mem >>>
#define KERNEL_ARGS4(grid, block, sh_mem, stream) <<< grid, block, sh_mem, stream >>>
#define CUDA_KERNEL(...) <<<__VA_ARGS__>>>
#define LAUNCH(k, g, b) k<<<g, b>>>
#define SWAPPED(b, g) <<<g, b>>>
"""
FORMS = {  # each launches `normalize` with blocks of BLOCK threads
    "KERNEL_ARGS2": "normalize KERNEL_ARGS2(n / 256, BLOCK)(x, y);",
    "KERNEL_ARGS2 spaced": "normalize KERNEL_ARGS2(n / 256, BLOCK) (x,\n        y);",
    "KERNEL_ARGS3": "normalize KERNEL_ARGS3(n / 256, BLOCK, 0)(x, y);",
    "KERNEL_ARGS4": "normalize KERNEL_ARGS4(n / 256, BLOCK, 0, s)(x, y);",
    "CUDA_KERNEL": "normalize CUDA_KERNEL(n / 256, BLOCK)(x, y);",
    "LAUNCH": "LAUNCH(normalize, n / 256, BLOCK)(x, y);",
    "parameters swapped": "normalize SWAPPED(BLOCK, n / 256)(x, y);",
}


def _file(form: str, block: str) -> str:
    body = FORMS[form].replace("BLOCK", block)
    return MACROS + KERNEL + f"void launch(const float* x, float* y, int n, cudaStream_t s) {{\n    {body}\n}}\n"


@pytest.mark.parametrize("form", FORMS)
def test_each_macro_launch_is_a_launch_with_its_geometry_where_written(form):
    text = _file(form, "64")
    m = build(SourceFile.from_text(text, "k.cu"))
    (launch,) = m.launches
    src = m.source
    assert launch.kernel == "normalize" and launch.function == "launch" and launch.form == form.split()[0] \
        .replace("parameters", "SWAPPED")
    assert [fnscopes.of(m).key(f) for f in fnscopes.launched(m, launch)] == ["normalize"]
    assert [src.text_of(c) for c in launch.config[:2]] == ["n / 256", "64"]
    assert [src.text_of(a) for a in launch.args] == ["x", "y"]
    at = text.index("n / 256", text.index("void launch"))  # the user's line and column
    loc = src.loc(launch.config[0])
    assert (loc.line, loc.column) == (text.count("\n", 0, at) + 1, at - text.rindex("\n", 0, at))
    assert not src.root.has_error


@pytest.mark.parametrize("form", ["KERNEL_ARGS2", "LAUNCH", "CUDA_KERNEL"])
def test_lint_learns_the_block_from_a_macro_launch(form, tmp_path):
    """One warp a block keeps the kernel's 32-lane group whole on any wave (quiet); eight warps fold
    half a 64-lane wave (WS015).  Without the launch, the first is reported too (no block size known)."""
    def found(block):
        (tmp_path / "k.cu").write_text(_file(form, block))
        return [f for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings if f.code == "WS015"]
    assert found("WARP_SIZE") == []
    assert found("8 * WARP_SIZE")


def test_launch_macros_of_an_included_header(tmp_path):
    """VolumeRender.cu's KERNEL_ARGS2 is defined in Common.h under `#ifdef __CUDACC__` (empty in the
    `#else`): the file parses as written (a declaration), so the project parses it again with the header's
    macros and the launch is found."""
    (tmp_path / "common.h").write_text("#pragma once\n#ifdef __CUDACC__\n" + MACROS + "#else\n"
                                       "#define KERNEL_ARGS2(grid, block)\n#endif\n")
    for block, quiet in (("WARP_SIZE", True), ("8 * WARP_SIZE", False)):
        (tmp_path / "k.cu").write_text('#include "common.h"\n' + _file("KERNEL_ARGS2", block).replace(MACROS, ""))
        got = [f for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings
               if f.code == "WS015" and r.path.endswith("k.cu")]
        assert (got == []) is quiet, (block, got)


LOOKALIKES = {
    "a macro of the name that is a call": ("#define KERNEL_ARGS2(g, b) (g + b)\n", "int v = w KERNEL_ARGS2(1, 2);"),
    "a call macro around a kernel name": ("#define LAUNCH(k, g, b) run(k, g, b)\n",
                                         "LAUNCH(normalize, n / 256, 64)(x, y);"),
    "shifts in macros": ("#define SHL(a, b) a << b\n#define SHR(a) (a >> 3) >> 1\n#define CFG(a, b) a << b >> 1\n",
                         "int v = SHL(n, 2) + SHR(n) + (n CFG(1, 2));"),
    "a use in a comment": (MACROS, "// normalize KERNEL_ARGS2(n / 256, 64)(x, y);\n    /* normalize CUDA_KERNEL(1, 2)(x, y); */"),
    "the non-CUDA definition": ("#define KERNEL_ARGS2(grid, block)\n", "normalize KERNEL_ARGS2(n / 256, 64)(x, y);"),
    "a return": (MACROS, "return KERNEL_ARGS2(n, 64);"),
}


@pytest.mark.parametrize("case", LOOKALIKES)
def test_lookalikes_are_no_launch_and_keep_their_parse(case):
    macros, body = LOOKALIKES[case]
    text = macros + KERNEL + f"void launch(const float* x, float* y, int n, int w) {{\n    {body}\n}}\n"
    src = SourceFile.from_text(text, "k.cu")
    assert build(src).launches == []
    assert not [k for k in src.masks if k.reason == "launch"]
    plain = SourceFile.from_text(text.replace("KERNEL_ARGS2", "KERNEL_ARGSX").replace("CUDA_KERNEL", "CUDA_KERNELX"),
                                 "k.cu")
    assert str(src.root) == str(plain.root).replace("KERNEL_ARGSX", "KERNEL_ARGS2")  # (the same tree)


def test_hip_port_keeps_the_macro_launches_and_compiles(tmp_path):
    """The HIP port is the user's text: hipcc expands KERNEL_ARGS2 etc. as nvcc does."""
    body = "\n    ".join(v.replace("BLOCK", "64") for k, v in FORMS.items())
    text = (MACROS + KERNEL.replace("#define WARP_SIZE 32\n", "#define WARP_SIZE 32\n") +
            f"void launch(const float* x, float* y, int n, cudaStream_t s) {{\n    {body}\n}}\n")
    (tmp_path / "k.cu").write_text(text)
    out = subprocess.run([sys.executable, "-P", "-m", "kernelport", "translate", "--to", "hip", "--stdout",
                          str(tmp_path / "k.cu")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    for v in FORMS.values():
        assert v.replace("BLOCK", "64") in out.stdout
    (tmp_path / "k.hip").write_text(out.stdout)
    assert_hip_file_compiles(tmp_path / "k.hip")


def test_verify_infers_inputs_from_a_macro_launch():
    """verify's input inference reads the launch: grid and block from KERNEL_ARGS2's arguments."""
    from kernelport.infer_inputs import Inferred, infer
    text = ("#define KERNEL_ARGS2(grid, block) <<< grid, block >>>\n"
            "__global__ void scale(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
            " if (i < n) a[i] = 2.0f * a[i]; }\n"
            "void host(float *a) {\n  int n = 1000;\n  scale KERNEL_ARGS2((n + 127) / 128, 128)(a, n);\n}\n")
    got = infer(build(SourceFile.from_text(text, "v.cu")), "scale")
    assert isinstance(got, Inferred), got
    assert (got.launch.line, got.launch.column) == (5, 3)
    assert any("grid (8, 1, 1), block (128, 1, 1)" in line for line in got.inferred), got.inferred


def test_a_macro_whose_body_launches_a_named_kernel():
    """jpeggpu's decode_transpose.cu: `DISPATCH(N)` is `transpose_interleaved<N><<<g, b, 0, stream>>>(...)`;
    each use launches that kernel (its geometry, the body's text, unknown).  A macro of shifts is none."""
    text = (KERNEL + "#define DISPATCH(N) normalize<N><<<g, b, 0, s>>>(x, y)\n#define SHIFTS(a) (a << 3) >> 1\n"
            "void launch(const float* x, float* y, int g, int b, cudaStream_t s) {\n"
            "    switch (g) { case 1: DISPATCH(1); break; case 2: DISPATCH(2); break; }\n"
            "    int v = SHIFTS(g);\n}\n")
    m = build(SourceFile.from_text(text, "k.cu"))
    assert [(la.kernel, la.form, la.config) for la in m.launches] == [("normalize", "DISPATCH", [])] * 2


def test_a_header_kernel_marked_through_a_macro_is_a_kernel_to_splice(tmp_path):
    """VolumeRender's RayMarching.h: `template <typename F> CUDA_GLOBAL void RayMarchVolumeEmptySpaceMap(`,
    CUDA_GLOBAL being `__global__` (Common.h): a kernel of the header, which Metal splices for the file that
    launches it.  A macro of `__host__ __device__` marks no kernel."""
    from kernelport.backends.metal.headers import header_names
    from kernelport.macros import definitions
    h = tmp_path / "k.h"
    h.write_text("template <typename F> CUDA_GLOBAL void k(F* a) { a[threadIdx.x] = 0; }\n"
                 "CUDA_HOST_DEVICE inline float f(float v) { return v; }\n")
    macros = definitions("#define CUDA_GLOBAL __global__\n#define CUDA_HOST_DEVICE __host__ __device__\n", "c.h")
    defines, kernels, _ = header_names(h, macros)
    assert kernels == {"k"} and {"k", "f"} <= defines
