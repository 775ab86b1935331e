"""A lane mask that is a parameter of one overload of a name (era-bellman-cuda's `transpose_tile`: a
five-parameter template that shuffles with its `mask`, and a two-parameter template of the same name
and parameter count that calls it with `UINT32_MAX`): the callers of that overload are the calls
that may run it, by their count of arguments and of template arguments (kernelport.fnscopes.may_call,
includers.Elsewhere.calls with the callee), not every call of the name; a call from the other
overload is a caller, not recursion; a parameter passed on as it is is followed to its own callers.
A true recursion that passes another value than its own parameter stays refused (KP203)."""
from __future__ import annotations

from pathlib import Path

from trust_support import kp_inproc

TILE = """\
template <typename T, unsigned STRIDE, unsigned COUNT, unsigned WIDTH = STRIDE>
__device__ __forceinline__ void tile(unsigned mask, T *u, const unsigned lane) {
    for (unsigned i = 0; i < COUNT; i++)
        u[i] = __shfl_xor_sync(mask, u[i], STRIDE, 32);
}

template <typename T, unsigned WIDTH>
__device__ __forceinline__ void tile(const unsigned stride, T *u, const unsigned lane) {
    switch (stride) {
    case 0: tile<T, 1, WIDTH>(%(mask)s, u, lane); break;
    case 1: tile<T, 2, WIDTH>(%(mask)s, u, lane); break;
    default: break;
    }
}

__global__ void k(float *x) {
    float u[4];
    for (int i = 0; i < 4; i++) u[i] = x[threadIdx.x * 4 + i];
    for (unsigned j = 0; j < 2; j++)
        tile<float, 4>(j, u, threadIdx.x & 31);
    for (int i = 0; i < 4; i++) x[threadIdx.x * 4 + i] = u[i];
}
"""


def _translate(tmp_path: Path, text: str, name: str = "t.cu"):
    (tmp_path / name).write_text(text)
    rc, out, err = kp_inproc("translate", tmp_path / name, "--to", "hip", "-o", tmp_path / "out", "--explain")
    return rc, out, out + err


def test_the_other_overloads_call_is_a_caller_and_its_full_mask_drops_the_mask(tmp_path):
    rc, out, err = _translate(tmp_path, TILE % {"mask": "0xffffffffu"})
    assert rc == 0, err
    port = (tmp_path / "out" / "t.hip").read_text()
    assert "__shfl_xor(u[i], STRIDE, 32)" in port, port
    # the kernel's calls `tile<float, 4>(j, ...)` run the two-parameter template: not callers of the mask's


def test_in_a_header_the_run_shows_the_other_overloads_calls(tmp_path):
    """era-bellman-cuda's shape: the overloads in a header, the kernel in a file of the run."""
    head, kernel = (TILE % {"mask": "UINT32_MAX"}).split("__global__")
    (tmp_path / "tile.cuh").write_text("#include <cstdint>\n" + head)
    (tmp_path / "a.cu").write_text('#include "tile.cuh"\n__global__' + kernel)
    rc, out, err = kp_inproc("translate", tmp_path / "a.cu", "--to", "hip", "-o", tmp_path / "out", "--explain")
    assert rc == 0, err
    assert "__shfl_xor(u[i], STRIDE, 32)" in (tmp_path / "out" / "tile.hip.h").read_text()


def test_a_partial_mask_from_the_other_overload_keeps_the_refusal(tmp_path):
    rc, out, err = _translate(tmp_path, TILE % {"mask": "0xffffu"})
    assert rc == 1 and "t.cu:4:32: error: KP203" in err, err
    assert "the call at t.cu:10 passes '0xffffu' as 'mask' of 'tile'" in err, err


def test_a_true_recursion_passing_another_value_stays_refused(tmp_path):
    text = """\
__device__ float fold(unsigned mask, float v, int n) {
    v += __shfl_xor_sync(mask, v, 1, 32);
    if (n > 0)
        v = fold(mask >> 16, v, n - 1);
    return v;
}

__global__ void k(float *x, int n) {
    x[threadIdx.x] = fold(0xffffffffu, x[threadIdx.x], n);
}
"""
    rc, out, err = _translate(tmp_path, text)
    assert rc == 1 and "t.cu:2:26: error: KP203" in err, err
    assert "the call at t.cu:4 passes 'mask >> 16' as 'mask' of 'fold'" in err, err
    # the same recursion passing its own parameter on passes what its callers gave it
    rc, out, err = _translate(tmp_path, text.replace("mask >> 16", "mask"), "u.cu")
    assert rc == 0, err
    assert "every call of 'fold' this run shows passes CUDA's full mask: u.cu:9" in err, err


def test_a_parameter_passed_on_is_followed_to_its_callers(tmp_path):
    text = """\
__device__ float swap(unsigned mask, float v) { return __shfl_xor_sync(mask, v, 1, 32); }
__device__ float twice(unsigned m, float v) { return swap(m, swap(m, v)); }
__device__ float swap(float v) { return v; }

__global__ void k(float *x, unsigned m) {
    x[threadIdx.x] = twice(%s, swap(x[threadIdx.x]));
}
"""
    rc, out, err = _translate(tmp_path, text % "0xffffffffu")
    assert rc == 0, err
    assert "every call of 'swap' this run shows passes CUDA's full mask: t.cu:2, t.cu:2" in err, err
    # a kernel's parameter two calls up is the host's choice: refused, naming the chain
    rc, out, err = _translate(tmp_path, text % "m", "u.cu")
    assert rc == 1 and "u.cu:1:72: error: KP203" in err, err
    assert "the call at u.cu:2 passes 'm' as 'mask' of 'swap'" in err and \
        "the call at u.cu:6 passes 'm' as 'm' of 'twice'" in err, err


def test_template_arguments_choose_the_overload():
    from kernelport import fnscopes
    from kernelport.model import build
    from kernelport.source import SourceFile
    src = SourceFile.from_text(TILE % {"mask": "0xffffffffu"}, "t.cu")
    m = build(src)
    by_line = {}
    for c in src.index.of_type("call_expression"):
        if fnscopes.callee_name(c.child_by_field_name("function")) == "tile":
            got = fnscopes.callees(m, m.function_at(c), c)
            by_line[src.loc(c).line] = [len(f.template_params) for f in got]
    assert by_line == {10: [4], 11: [4], 20: [2]}, by_line
    five, two = sorted((f for f in m.functions.values() if f.name == "tile"), key=lambda f: -len(f.template_params))
    assert fnscopes.template_arity(five) == (3, 4) and fnscopes.template_arity(two) == (2, 2)
