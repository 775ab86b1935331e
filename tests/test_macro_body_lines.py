"""A macro body whose port gains a line (the wave's wider step a 64-lane wave needs before a 32-lane
reduction's first step, `if (warpSize > 32) v += __shfl_down(v, warpSize / 2);`) stays one macro:
the added line is continued like the original's.  dgSPARSE-Lib's `SHFL_DOWN_REDUCE(v)` in
util/cuda_util.cuh ended after the added line, and the rest of its body became file-scope code
(hipcc: "unknown type name 'v'") in every unit that includes the header."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

MACRO = """#define FULLMASK 0xffffffff
#define SHFL_DOWN_REDUCE(v)                      \\
  v += __shfl_down_sync(FULLMASK, v, 16);        \\
  v += __shfl_down_sync(FULLMASK, v, 8);         \\
  v += __shfl_down_sync(FULLMASK, v, 4);         \\
  v += __shfl_down_sync(FULLMASK, v, 2);         \\
  v += __shfl_down_sync(FULLMASK, v, 1);
"""
KERNEL = """
__global__ void total(const float *x, float *out) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  SHFL_DOWN_REDUCE(v)
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}
"""
SINGLE = re.sub(r"\s*\\\n\s*", " ", MACRO)


def definition(text: str) -> list[str]:
    """The lines of the port's SHFL_DOWN_REDUCE definition, up to the first not continued."""
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("#define SHFL_DOWN_REDUCE"))
    out = [lines[k]]
    while out[-1].endswith("\\"):
        k += 1
        out.append(lines[k])
    return out


@pytest.mark.parametrize("macro", [MACRO, SINGLE], ids=["continued", "one-line"])
def test_a_line_the_port_adds_to_a_macro_body_is_continued(macro, tmp_path):
    port, text = translate(SourceFile.from_text(macro + KERNEL, "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    body = "\n".join(definition(port.body))
    assert "warpSize / 2" in body and "__shfl_down(v, 1);" in body, body
    if shutil.which("hipcc"):
        (tmp_path / "t.hip").write_text(text)
        r = subprocess.run(["hipcc", "-c", "--offload-arch=gfx90a", "-o", str(tmp_path / "t.o"), str(tmp_path / "t.hip")],
                           capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"})
        assert r.returncode == 0, r.stderr
