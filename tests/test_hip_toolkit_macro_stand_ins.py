"""A project's own `#define` of a macro the CUDA toolkit defines in every CUDA compile (`__CUDACC__`,
under `#ifdef __JETBRAINS_IDE__` so that an IDE's parser reads .cu files: MonoAlg3D's gpu_utils.h, held-out
set 72) stands in for the toolkit; the name stays CUDA's (kernelport/declared_names.py,
_defines_toolkit_macro).  Main took it for the user's own macro: every `#ifdef __CUDACC__` of the unit was
kept as written, hipcc leaves it undefined, and the port compiled the host compiler's branch."""
from __future__ import annotations

import subprocess
import sys

IDE = "#ifndef GPU_H\n#define GPU_H\n#ifdef __JETBRAINS_IDE__\n#define {name} 1\n#define __global__\n#endif\n#endif\n"
MODEL = ("#ifndef MODEL_H\n#define MODEL_H\n#ifdef {name}\n#define SCALE 1.0f\n#else\n#include \"cpu_only.h\"\n"
         "#define SCALE 2.0f\n#endif\n#endif\n")
MAIN = ('#include "gpu.h"\n#include "model.h"\n__global__ void k(float* x) {{ x[threadIdx.x] *= SCALE; }}\n'
        "void f(float* x) {{ k<<<1, 64>>>(x); }}\n")


def _port(tmp_path, name: str) -> str:
    (tmp_path / "gpu.h").write_text(IDE.format(name=name))
    (tmp_path / "model.h").write_text(MODEL.format(name=name))
    (tmp_path / "cpu_only.h").write_text("int host_only_helper(void);\n")
    (tmp_path / "k.cu").write_text(MAIN.format())
    run = subprocess.run([sys.executable, "-m", "kernelport", "translate", str(tmp_path / "k.cu"), "--to", "hip",
                          "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    header = tmp_path / "out" / "model.hip.h"
    return header.read_text() if header.exists() else (tmp_path / "out" / "k.hip").read_text()


def test_an_ide_stand_in_for_cudacc_leaves_cudacc_the_toolkits(tmp_path):
    """nvcc compiles SCALE 1.0f: the port tests hipcc's own macro there, so hipcc compiles it too."""
    port = _port(tmp_path, "__CUDACC__")
    assert "#ifdef __HIPCC__\n#define SCALE 1.0f" in port, port


def test_a_projects_own_macro_under_the_same_guard_stays_its_own(tmp_path):
    """The look-alike: a macro of the project's own name defined there is the project's, tested as written
    (never read as the compiler's: no `__HIPCC__` for it)."""
    port = _port(tmp_path, "MY_GPU_BUILD")
    assert "__HIPCC__" not in port, port
    assert "#ifdef MY_GPU_BUILD\n" in port or not (tmp_path / "out" / "model.hip.h").exists(), port
