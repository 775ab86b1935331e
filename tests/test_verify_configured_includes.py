"""Verify's inference reads a file's headers through its configured include dirs and defines
([tool.kernelport] in pyproject.toml), as its ports are translated.  Found by the oracle over the
sixteenth held-out set (nvbio's `uint32 *dst`, whose typedef lives in a header reached only through
the project's include dir; the case here is synthetic): the ports were translated with the
header, the inference without it, so the kernel was not run."""
from __future__ import annotations

import textwrap


def test_a_typedef_and_a_size_from_a_configured_include_dir_size_the_run(tmp_path):
    from kernelport.verify import Verifier
    (tmp_path / "include" / "lib").mkdir(parents=True)
    (tmp_path / "include" / "lib" / "types.h").write_text(textwrap.dedent("""\
        #pragma once
        typedef unsigned int uint32;
        #ifdef WIDE
        #define COUNT 4096
        #else
        #define COUNT 64
        #endif
        """))
    (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\ninclude-dirs = ["include"]\ndefines = ["WIDE"]\n')
    (tmp_path / "src").mkdir()
    f = tmp_path / "src" / "fill.cu"
    f.write_text(textwrap.dedent("""\
        #include <lib/types.h>
        __global__ void fill(uint32* dst, uint32 n) {
            uint32 i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) dst[i] = i * 3u + 1u;
        }
        int main() {
            uint32* d;
            cudaMalloc(&d, COUNT * sizeof(uint32));
            fill<<<COUNT / 128, 128>>>(d, COUNT);
        }
        """))
    rep = Verifier(cache=False, timeout=120).verify(f)
    oracle = [c for c in rep.checks if c.kind == "oracle"]
    assert oracle and oracle[0].status == "pass", [c.detail for c in rep.checks]
    assert "grid (32, 1, 1)" in oracle[0].detail  # COUNT from the WIDE branch: the configured define
    numeric = [c for c in rep.checks if c.kind == "numeric"]
    assert numeric and all(c.status == "pass" for c in numeric), [(c.backend, c.detail) for c in numeric]
