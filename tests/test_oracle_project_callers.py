"""verify's caller search stays in the project and binds only a caller of the same function
(kernelport/project_callers.py).  Stop 48: `verify /tmp/t6/k.cu` read its sizes from /tmp/t3k.cu, a
stray file in the directory above whose `main()` calls a template `launch<square>(y, x, n)`, another
function than k.cu's `launch(float*, const float*, int)`."""
from __future__ import annotations

from kernelport import verify_oracle as vo
from kernelport.infer_inputs import Inferred, infer
from kernelport.project_ports import configured_project
from trust_support import kp_inproc

KERNEL = """__global__ void scale(float* y, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
void launch(float* y, const float* x, int n) { scale<<<(n + 127) / 128, 128>>>(y, x, n); }
"""
CALLER = """{decl}
int main() {{
    int n = 640;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    {call};
}}
"""
STRAY = """using step_fn = void (*)(float* y, const float* x, int i);
__device__ void square(float* y, const float* x, int i) { y[i] = x[i] * x[i]; }
template <step_fn step> __global__ void apply(float* y, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) step(y, x, i);
}
template <step_fn step> void launch(float* y, const float* x, int n) { apply<step><<<n / 128, 128>>>(y, x, n); }
""" + CALLER.format(decl="", call="launch<square>(y, x, n)")


def _inputs(path, name="scale"):
    """The kernel's inputs as verify reads them: its file, then the project files its callers stand in."""
    module = configured_project().module(path)
    got = vo.inputs_for(module, name, None, [], None)
    wanted = vo.needs_neighbours(got)
    others = vo.neighbours(path, wanted) if wanted else []
    again = vo.inputs_for(module, name, None, others, None) if others else got
    return again if isinstance(again, Inferred) or not isinstance(got, Inferred) else got


def _project(tmp_path, caller: str, name="main.cu", kernel=KERNEL):
    (tmp_path / ".git").mkdir(exist_ok=True)  # a work tree: the project
    (tmp_path / "k.cu").write_text(kernel)
    (tmp_path / name).write_text(caller)
    return tmp_path / "k.cu"


def _read_640(got) -> bool:
    return isinstance(got, Inferred) and got.spec.length("x") == 640 and got.spec.dims("grid") == (5, 1, 1)


def test_a_stray_same_named_caller_in_a_parent_directory_is_ignored(tmp_path):
    sub = tmp_path / "t6"
    sub.mkdir()
    (sub / "k.cu").write_text(KERNEL)
    (tmp_path / "t3k.cu").write_text(STRAY)  # beside the user's directory, no project around either
    got = _inputs(sub / "k.cu")
    assert isinstance(got, Inferred) and not _read_640(got), got
    assert any("no call in the project gives it" in line for line in got.inferred), got.inferred
    rc, out, err = kp_inproc("verify", sub / "k.cu", "--schedules", "block", "--no-cache")
    assert "t3k.cu" not in out + err and "no call in the project gives it" in out, out + err


def test_a_directory_the_run_names_is_the_project(tmp_path):
    sub = tmp_path / "t6"
    sub.mkdir()
    (sub / "k.cu").write_text(KERNEL)
    (tmp_path / "main.cu").write_text(CALLER.format(decl="void launch(float*, const float*, int);",
                                                    call="launch(y, x, n)"))
    module = configured_project().module(sub / "k.cu")
    assert not vo.neighbours(sub / "k.cu", ["launch("])
    others = vo.neighbours(sub / "k.cu", ["launch("], (tmp_path,))
    assert _read_640(infer(module, "scale", others))


def test_a_same_named_function_of_another_signature_is_not_bound(tmp_path):
    for decl, call in (("void launch(double*, const double*, int);", "launch((double*)y, (double*)x, n)"),
                       ("template <int S> void launch(float*, const float*, int);", "launch<3>(y, x, n)"),
                       ("void launch(float*, const float*, int, int);", "launch(y, x, n, 1)")):
        got = _inputs(_project(tmp_path, CALLER.format(decl=decl, call=call)))
        assert isinstance(got, Inferred) and not _read_640(got), (decl, got)


def test_a_same_named_kernel_of_another_signature_is_not_launched(tmp_path):
    only = KERNEL.split("void launch")[0]
    decl = "__global__ void scale(double* y, const double* x, int n);"
    f = _project(tmp_path, CALLER.format(decl=decl, call="scale<<<(n + 127) / 128, 128>>>((double*)y, (double*)x, n)"),
                 kernel=only)
    assert not _read_640(_inputs(f))
    good = "__global__ void scale(float* y, const float* x, int n);"
    f = _project(tmp_path, CALLER.format(decl=good, call="scale<<<(n + 127) / 128, 128>>>(y, x, n)"), kernel=only)
    assert _read_640(_inputs(f))


def test_a_static_function_is_its_own_unit(tmp_path):
    f = _project(tmp_path, CALLER.format(decl="void launch(float*, const float*, int);", call="launch(y, x, n)"),
                 kernel=KERNEL.replace("void launch", "static void launch"))
    assert not _read_640(_inputs(f))


def test_a_caller_in_a_sibling_unit_of_the_project_is_found(tmp_path):
    for decl in ("void launch(float*, const float*, int);", "void launch(float* const y, const float* __restrict__ x, "
                 "const int n);", '#include "k.cuh"'):
        (tmp_path / "k.cuh").write_text("#pragma once\nvoid launch(float* y, const float* x, int n);\n")
        got = _inputs(_project(tmp_path, CALLER.format(decl=decl, call="launch(y, x, n)")))
        assert _read_640(got), (decl, got)
