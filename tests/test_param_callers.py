"""A lane mask that is a parameter of a header's wrapper (AstroAccelerate's `aa_shfl(const U& mask,
const T& x, const V& lane)` in its deprecated-wrappers header, called from other files with
`AA_ASSUME_MASK`): the HIP port may drop it only where every call the run shows (in the files given,
the headers they include and the header itself) passes CUDA's full mask; a note names the calls seen,
a call with a partial or unknown mask keeps the refusal (KP203, naming that call); a wrapper no
program of the run calls is ported with a warning that says what the port assumes; a kernel's mask
parameter (its value comes from the host's launch) is never judged so
(kernelport.groupmasks.from_callers, kernelport.includers.Elsewhere.calls)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from trust_support import kp_inproc

WRAP = """\
#ifndef WRAP_CUH
#define WRAP_CUH
#ifndef ALL_LANES
#define ALL_LANES 0xFFFFFFFF
#endif
template <typename T, typename U, typename V>
__device__ __inline__ T my_shfl(const U &mask, const T &x, const V &lane) {
    return __shfl_sync(mask, x, lane);
}
#endif
"""


def _caller(mask: str, extra: str = "") -> str:
    return textwrap.dedent(f"""\
        #include "wrap.cuh"
        {extra}
        __global__ void k(float* x, unsigned m) {{
            float v = x[threadIdx.x];
            v = my_shfl({mask}, v, 0);
            x[threadIdx.x] = v;
        }}
        """)


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    d = tmp_path / "proj"
    d.mkdir()
    (d / "wrap.cuh").write_text(WRAP)
    for name, text in files.items():
        (d / name).write_text(text)
    return d


def test_every_caller_passing_the_full_mask_drops_the_wrappers_mask_with_a_note(tmp_path):
    d = _project(tmp_path, {"a.cu": _caller("ALL_LANES"), "b.cu": _caller("0xffffffffu")})
    rc, out, err = kp_inproc("translate", d / "a.cu", d / "b.cu", "--to", "hip", "-o", d / "out", "--explain")
    assert rc == 0, err
    port = (d / "out" / "wrap.hip.h").read_text()
    # re-pinned (stop 44): the callers shuffle from lane 0 with no other warp operation, so CUDA's
    # width (each thread's own 32-lane warp; kernelport/abscallers.py), where main read the wave's lane 0
    assert "return __shfl(x, lane, 32);" in port, port
    assert "every call of 'my_shfl' this run shows passes CUDA's full mask: a.cu:5, b.cu:5" in err, err
    assert "warning" not in err


def test_one_caller_with_a_partial_mask_keeps_the_refusal_naming_that_call(tmp_path):
    d = _project(tmp_path, {"a.cu": _caller("ALL_LANES"), "b.cu": _caller("0xffffu")})
    rc, out, err = kp_inproc("translate", d / "a.cu", d / "b.cu", "--to", "hip", "-o", d / "out")
    assert rc == 1 and "wrap.cuh:8:24: error: KP203" in err, err
    assert "the call at b.cu:5 passes '0xffffu' as 'mask' of 'my_shfl'" in err, err
    assert not (d / "out").exists()


def test_a_caller_passing_its_own_parameter_is_an_unknown_mask(tmp_path):
    d = _project(tmp_path, {"a.cu": _caller("m")})
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 1 and "KP203" in err and "the call at a.cu:5 passes 'm'" in err, err


def test_a_caller_that_is_not_a_file_of_the_run_is_not_seen(tmp_path):
    # c.cu passes a partial mask but is not given: the run judges by a.cu alone
    d = _project(tmp_path, {"a.cu": _caller("ALL_LANES"), "c.cu": _caller("0xffffu")})
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    rc, out, err = kp_inproc("translate", d / "a.cu", d / "c.cu", "--to", "hip", "-o", d / "out2")
    assert rc == 1 and "c.cu:5" in err, err


def test_a_wrapper_with_no_call_in_the_run_is_ported_with_a_warning(tmp_path):
    """Re-pinned (stop 44): the mask is dropped with a warning as before; the shuffle's lane is then
    undecided (the thread's own 32-lane warp or the wave: kernelport/abscallers.py), so the wrapper is
    declared unavailable with a KP219 warning where main ported it at the wave's width."""
    other = '#include "wrap.cuh"\n__global__ void z(float* x) { x[threadIdx.x] = 0.f; }\n'
    d = _project(tmp_path, {"a.cu": other})
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "wrap.cuh:8:24: warning: KP203 mask 'mask' is dropped" in err and "no call of 'my_shfl'" in err, err
    assert "wrap.cuh:8:12: warning: KP219" in err, err
    assert "__attribute__((unavailable(" in (d / "out" / "wrap.hip.h").read_text()


def test_a_kernels_mask_parameter_is_not_judged_by_device_calls(tmp_path):
    k = '__global__ void k(int* x, unsigned m) {\n  x[0] = __shfl_sync(m, x[1], 0);\n}\n'
    d = _project(tmp_path, {"k.cu": k})
    rc, out, err = kp_inproc("translate", d / "k.cu", "--to", "hip", "-o", d / "out")
    assert rc == 1 and "k.cu:2:22: error: KP203" in err, err


def test_a_file_translated_with_no_run_around_it_keeps_the_refusal():
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    port, _ = translate(SourceFile.from_text(WRAP, "wrap.cuh"), "hip")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP203"], port.diagnostics
    assert "callers decide" in port.diagnostics[0].message
