"""KP230 names a pointer in code the parse saw as blanks where the port writes address spaces (Metal).

A branch the parse repair hides (`#ifdef FAST` / `float *p = (float *) sm; if (n > 0) {` / `#else` / the same
with `if (n > 1) {`: the two branches open one block, so one is hidden) is kept as written.  Main warned
(KP230) only where the hidden text named a word the backend renames (`threadIdx`); a pointer there gets
no `threadgroup`/`device` in the Metal port, which only a build taking that branch would find.  The
backend's data says whether its ports space pointers (Backend.pointers_spaced)."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _write

SPLIT = """
__global__ void k(float *out, const float *in, int n)
{
    extern __shared__ float sm[];
#ifdef FAST
    BRANCH
    if (n > 0) {
#else
    float *p = (float *) sm + 1;
    if (n > 1) {
#endif
        p[threadIdx.x] = in[threadIdx.x];
    }
    __syncthreads();
    out[threadIdx.x] = p[threadIdx.x];
}
"""


def _kp230(tmp_path: Path, branch: str, backend: str) -> list[str]:
    _write(tmp_path, {"k.cu": SPLIT.replace("BRANCH", branch)})
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), backend)
    return [d.format() for d in port.diagnostics if d.code == "KP230"]


def test_a_hidden_pointer_declaration_and_cast_are_named(tmp_path: Path):
    got = _kp230(tmp_path, "float *p = (float *) sm;", "metal")
    assert len(got) == 1 and "k.cu:5:" in got[0], got  # main: no KP230
    assert "pointer 'p' (no address space)" in got[0] and "cast to 'float *'" in got[0], got


def test_hidden_code_without_a_pointer_is_not_named(tmp_path: Path):
    """Look-alike: the same split, the pointer declared before it; the hidden branch offsets it and multiplies
    (`p += n * 2;`, `q = a * b`-like operands): no pointer declared or cast there, no KP230 (as on main)."""
    _write(tmp_path, {"k.cu": """
        __global__ void k(float *out, const float *in, int n)
        {
            extern __shared__ float sm[];
            float *p = (float *) sm;
            float q = in[0];
        #ifdef FAST
            p += n * 2;
            q = q * in[1];
            if (n > 0) {
        #else
            p += 1;
            if (n > 1) {
        #endif
                p[threadIdx.x] = in[threadIdx.x] * q;
            }
            __syncthreads();
            out[threadIdx.x] = p[threadIdx.x];
        }
        """})
    src = SourceFile.read(tmp_path / "k.cu")
    assert any(m.reason.startswith("conditional (") for m in src.masks)  # a branch is hidden
    port, text = translate(src, "metal")
    assert [d.format() for d in port.diagnostics if d.code == "KP230"] == [], text


def test_a_backend_that_spaces_no_pointer_says_nothing(tmp_path: Path):
    assert _kp230(tmp_path, "float *p = (float *) sm;", "hip") == []
