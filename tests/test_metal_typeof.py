"""GNU `typeof` in a Metal port: `(typeof(v)) (v * 2.0f)` parses as a call of a function named `typeof`, which
the Metal port refused as KP223 ("'typeof' is defined neither in this file nor in Metal's standard library")
though it writes `__typeof__` there (kernelport/typeof_casts.py, h/heldout101).  The look-alike: a call of a
function nothing defines is still KP223.  Written for the test."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write

KERNEL = """
    #define TWICE(v) ((typeof(v)) ((v) * 2))
    __device__ float f(float v) { return (typeof(v)) (v * 2.0f) + sizeof(typeof(v)); }
    __global__ void k(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] = f(a[i]) + TWICE(a[i]); }
"""


def test_typeof_casts_port_to_metal(tmp_path: Path):
    _write(tmp_path, {"k.cu": KERNEL})
    text = _port(tmp_path / "k.cu")
    assert "return (__typeof__(v)) (v * 2.0f) + sizeof(__typeof__(v));" in text
    assert "#define TWICE(v) ((__typeof__(v)) ((v) * 2))" in text


def test_an_undefined_function_is_still_refused(tmp_path: Path):
    lookalike = KERNEL.replace("(typeof(v)) (v * 2.0f)", "(float)typeofs(v)").replace("typeof(v)", "float")
    _write(tmp_path, {"k.cu": lookalike})
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    assert [(d.code, d.line) for d in port.diagnostics if d.severity == "error"] == [("KP223", 2)], \
        [d.format() for d in port.diagnostics]
