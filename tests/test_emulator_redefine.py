"""Sizes scaled down for the emulator through the macros device code reads (polybench's
`#define N 4096`): run_kernel(redefine=...) replaces each object-like #define of the file and of
the headers it includes; a function-like macro of that name, and other macros, stay as written."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

SRC = """
#ifdef SMALL
#define N 4096
#else
#define N \\
    8192
#endif
#define M 3
#define TWICE(N) ((N) * 2)
__global__ void k(int* out) { out[threadIdx.x] = N + M + TWICE(threadIdx.x); }
"""


def _run(src, redefine=None, path="<kernel>"):
    return run_kernel(src, "k", args={"out": np.zeros(2, np.int32)}, grid=(1, 1, 1), block=(2, 1, 1),
                      redefine=redefine, path=path).outputs["out"].tolist()


def test_every_definition_of_the_macro_takes_the_new_value():
    assert _run(SRC) == [8195, 8197]
    assert _run(SRC, {"N": "16"}) == [19, 21]  # the continued #define too; M and TWICE's parameter stay
    assert _run("#define SMALL\n" + SRC, {"N": "16"}) == [19, 21]


def test_a_macro_of_a_local_header_is_redefined_and_an_undefined_one_is_defined(tmp_path):
    (tmp_path / "sizes.h").write_text("#define N 4096\n")
    f = tmp_path / "k.cu"
    f.write_text('#include "sizes.h"\n#define M 3\n#define TWICE(x) ((x) * 2)\n'
                 "__global__ void k(int* out) { out[threadIdx.x] = N + M + TWICE(threadIdx.x); }\n")
    assert _run(f.read_text(), path=str(f)) == [4099, 4101]
    assert _run(f.read_text(), {"N": "16"}, path=str(f)) == [19, 21]
    # a size the build gives with -D (no #define in the file): defined all the same
    assert _run("__global__ void k(int* out) { out[threadIdx.x] = N; }", {"N": "5"}) == [5, 5]
