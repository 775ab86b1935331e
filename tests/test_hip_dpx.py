"""CUDA 12's DPX intrinsics on HIP (kernelport/backends/hip_simd.py, DPX_FORMS; h/simd refused them at
KP210, cudasw4's kernelhelpers.cuh calls __viaddmax_s16x2 and __vimax3_s16x2_relu).  Every polyfill is
compiled with g++ and compared with a model written here from CUDA's reference code (crt/device_functions.hpp:
the sum wraps in its lane like add.s16x2/add.s32, `_relu` clamps the final lane below at 0) over edge and
random operands; a port calling several compiles with hipcc for gfx90a and gfx1030."""
from __future__ import annotations

import random

from kernelport.backends import hip_simd
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool
from host_cpp import run_host_cpp

EDGES = [0, 1, 0x7FFF, 0x8000, 0xFFFF, 0x7FFF8000, 0x80007FFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x00010000,
         0xFFFF0001, 0x12345678, 0xFFFE0002]


def _lanes(w: int, bits: int, signed: bool) -> list[int]:
    vals = [(w >> s) & ((1 << bits) - 1) for s in range(0, 32, bits)]
    return [v - (1 << bits) if signed and v >> (bits - 1) else v for v in vals]


def _model(name: str, ops: tuple[int, ...]) -> int:
    """CUDA's reference result of `name` (e.g. `__viaddmax_s16x2_relu`) on 32-bit words `ops`, as a word."""
    body = name[4:]
    form, rest = body.split("_", 1)
    signed, bits, relu = rest[0] == "s", 16 if rest[1:].startswith("16x2") else 32, rest.endswith("_relu")
    cols = list(zip(*(_lanes(w, bits, signed) for w in ops)))
    pick = max if "max" in form else min
    out = []
    for lane in cols:
        if form.startswith("add"):
            t = (lane[0] + lane[1]) % (1 << bits)  # add.s16x2 / add.s32 wrap
            if signed and t >> (bits - 1):
                t -= 1 << bits
            v = pick(t, lane[2])
        else:
            v = pick(lane)
        out.append(max(v, 0) if relu else v)
    return sum((v % (1 << bits)) << (bits * i) for i, v in enumerate(out))


def _operands() -> list[tuple[int, int, int]]:
    rnd = random.Random(35)
    ops = [(a, b, c) for a in EDGES for b in EDGES[::3] for c in EDGES[::4]]
    return ops + [(rnd.getrandbits(32), rnd.getrandbits(32), rnd.getrandbits(32)) for _ in range(1500)]


def test_the_dpx_family_cuda_defines_is_covered():
    names = set(hip_simd.names())
    assert {"__viaddmax_s16x2", "__vimax3_s16x2_relu", "__vimax_s16x2_relu", "__vimin3_u32",
            "__viaddmin_s32_relu", "__vimin_s32_relu"} <= names
    assert not names & {"__vibmax_s32", "__vibmin_u16x2", "__vimax_s32", "__vimax3_u32_relu"}  # refused / not CUDA's


def test_every_dpx_polyfill_is_cudas_reference(tmp_path):
    gxx = require_tool("g++")
    names = [n for n in hip_simd.names() if n.startswith("__vi")]
    assert len(names) == 28 and "__viaddmax_s16x2_relu" in names
    ops = _operands()
    calls = []
    for n in names:
        args = hip_simd.call(n).count("{")
        word = "(int)" if n.endswith(("_s32", "_s32_relu")) else ""
        argv = ", ".join(f"{word}{w}[i]" for w in "ABC"[:args])
        calls.append(f'    for (int i = 0; i < {len(ops)}; ++i) printf("%u\\n", (unsigned int)kp{n[1:]}({argv}));')
    src = (hip_simd.definitions(" ".join(f"kp{n[1:]}(" for n in names)) + "#include <cstdio>\n" +
           "".join(f"static const unsigned int {w}[] = {{{', '.join(f'{o[k]}u' for o in ops)}}};\n"
                   for k, w in enumerate("ABC")) +
           "int main() {\n" + "\n".join(calls) + "\n    return 0;\n}\n")
    got = run_host_cpp(gxx, tmp_path, "dpx", src)
    assert len(got) == len(names) * len(ops)
    wrong = []
    for k, n in enumerate(names):
        args = hip_simd.call(n).count("{")
        for i, o in enumerate(ops):
            want = _model(n, o[:args])
            if int(got[k * len(ops) + i]) != want:
                wrong.append((n, [hex(w) for w in o[:args]], hex(int(got[k * len(ops) + i])), hex(want)))
    assert wrong == [], wrong[:10]


_SRC = """__global__ void k(const unsigned int* a, const unsigned int* b, const int* c, unsigned int* o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int s = __viaddmax_s16x2(a[i], b[i], a[i]) ^ __vimax3_s16x2_relu(a[i], b[i], 0u);
        int t = __viaddmin_s32_relu(c[i], c[i], 7) + __vimin_s32_relu(c[i], 3);
        o[i] = s + (unsigned int)t + __vimax3_u32(a[i], b[i], 1u) + __vadd2(a[i], b[i]);
    }
}
"""


def test_a_port_using_several_carries_only_those_and_compiles(tmp_path):
    port, text = translate(SourceFile.from_text(_SRC, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_viaddmax_s16x2(a[i], b[i], a[i]) ^ kp_vimax3_s16x2_relu(a[i], b[i], 0u)" in text
    assert "__vi" not in text.split("__global__")[1]
    defined = {line.split("(")[0].split()[-1] for line in text.splitlines() if line.startswith("__device__ __host__")}
    assert defined == {"kp_viaddmax_s16x2", "kp_vimax3_s16x2_relu", "kp_viaddmin_s32_relu", "kp_vimin_s32_relu",
                       "kp_vimax3_u32", "kp_vadd2"}  # only what it calls
    require_tool("hipcc")
    path = tmp_path / "p.hip"
    path.write_text(text)
    assert_hip_file_compiles(path, ["gfx90a", "gfx1030"])
