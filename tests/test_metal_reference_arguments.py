"""Kernel arguments a helper's reference parameter binds (heldout55 connect4-ai c4.cu's
`devChangePlayer(currentPlayer)` with `void devChangePlayer(char &currentPlayer)`): CUDA binds the
thread's own copy of the by-value argument; the port's `constant char&` argument binds no `thread`
reference, so the kernel body starts with that copy.  A look-alike passed by value stays a
`constant` argument."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool


def metal(code: str):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "metal")


def checker(text: str) -> list[str]:
    from kernelport.backends.metal.check import check_metal_source
    return [str(d) for d in check_metal_source(text, "t.metal")]


@pytest.mark.parametrize("param", ["char &p", "const char &p"])
def test_an_argument_a_reference_parameter_binds_is_copied(param):
    require_tool("clang")
    port, text = metal(f"""\
        __device__ int flip({param}) {{ return p == 'X' ? 'O' : 'X'; }}
        __device__ void toggle(char &p) {{ p = p == 'X' ? 'O' : 'X'; }}
        __global__ void k(char *out, char player, int n)
        {{
            for (int i = 0; i < n; i++) {{
                out[threadIdx.x * n + i] = flip(player);
                toggle(player);
            }}
        }}
    """)
    assert [d.format() for d in port.diagnostics if d.severity == "error"] == []
    assert "constant char& kp_player [[buffer(1)]]" in port.body
    assert "char player = kp_player;" in port.body
    assert "constant int& n [[buffer(2)]]" in port.body  # only read: not copied
    assert checker(text) == []


def test_an_argument_passed_by_value_or_through_a_pointer_is_not_copied():
    require_tool("clang")
    port, text = metal("""\
        __device__ int flip(char p) { return p == 'X' ? 'O' : 'X'; }
        __device__ void toggle(char &p) { p = p == 'X' ? 'O' : 'X'; }
        __global__ void k(char *out, char player)
        {
            char mine = player;
            toggle(mine);
            toggle(out[threadIdx.x]);
            out[threadIdx.x] = flip(player) + mine;
        }
    """)
    assert [d.format() for d in port.diagnostics if d.severity == "error"] == []
    assert "kp_player" not in port.body and "constant char& player [[buffer(1)]]" in port.body
    assert checker(text) == []


def test_the_copy_keeps_what_cuda_computes(tmp_path):
    """The copy is per thread, as CUDA's by-value argument is: a thread's flips reach no other thread
    (verify runs the port's own text on the emulator beside the original, Metal at wave 32)."""
    require_tool("clang")
    src = tmp_path / "flip.cu"
    src.write_text(textwrap.dedent("""\
        // @kp kernel     k
        // @kp grid       ceil_div(n, 64)
        // @kp block      64
        // @kp why        one element a thread; 64 is a whole wave of every backend
        // @kp arg        out   out  int[n]
        // @kp scalar     n = 256
        // @kp scalar     v = 3
        __device__ void toggle(int &p) { p = 10 - p; }
        __global__ void k(int *out, int n, int v)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i % 3 == 0) toggle(v);
            if (i < n) out[i] = v;
        }
    """))
    run = [sys.executable, "-P", "-m", "kernelport"]
    subprocess.run([*run, "translate", str(src), "--to", "metal", "-o", str(tmp_path)], check=True, capture_output=True)
    assert "int v = kp_v;" in (tmp_path / "flip.metal").read_text()
    r = subprocess.run([*run, "verify", str(src), "--format", "json"], capture_output=True, text=True)
    checks = [c for f in json.loads(r.stdout) for c in f["checks"] if c["backend"] == "metal" and c["kind"] == "numeric"]
    assert checks and all(c["status"] == "pass" for c in checks), r.stdout[-3000:] + r.stderr[-2000:]
