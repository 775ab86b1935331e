"""Kernel arguments a helper's reference parameter binds (heldout55 connect4-ai c4.cu's
`devChangePlayer(currentPlayer)` with `void devChangePlayer(char &currentPlayer)`): CUDA binds the
thread's own copy of the by-value argument; the port's `constant char&` argument binds no `thread`
reference, so the kernel body starts with that copy.  A look-alike passed by value stays a
`constant` argument."""
from __future__ import annotations

import pytest

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port as metal, require_tool
    from .port_support import metal_checker as checker, metal_numeric_checks
except ImportError:  # pragma: no cover
    from conftest import metal_port as metal, require_tool
    from port_support import metal_checker as checker, metal_numeric_checks


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
    checks = metal_numeric_checks(tmp_path, "flip.cu", """\
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
    """)
    assert "int v = kp_v;" in (tmp_path / "flip.metal").read_text()
    assert all(c["status"] == "pass" for c in checks), checks
