"""Element types of inferred inputs through typedefs, aliases and macros (issue 18): real code
spells `floatX`, `DATA_TYPE`, `Complex`, `clock_t`; a struct element stays not run, said why."""
from __future__ import annotations

from kernelport.infer_inputs import Inferred, NotRun, infer
from kernelport.infer_types import resolve
from kernelport.model import build
from kernelport.project import Project
from kernelport.source import SourceFile

KERNEL = """
__global__ void scale(ELEM* y, const ELEM* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * 2;
}
int main() {
    int n = 1000;
    ELEM *dx, *dy;
    cudaMalloc(&dx, n * sizeof(ELEM));
    cudaMalloc(&dy, n * sizeof(ELEM));
    cudaMemcpy(dx, 0, n * sizeof(ELEM), cudaMemcpyHostToDevice);
    scale<<<(n + 127) / 128, 128>>>(dy, dx, n);
}
"""


def _infer(text: str):
    return infer(build(SourceFile.from_text(text, "k.cu")), "scale")


def test_a_typedef_element_is_its_numeric_type_sized_through_sizeof():
    got = _infer("typedef double real_t;\n" + KERNEL.replace("ELEM", "real_t"))
    assert isinstance(got, Inferred), got
    assert got.spec.args["x"].type == "double" and got.spec.length("x") == 1000  # 8000 bytes / sizeof(double)


def test_aliases_of_aliases_using_and_a_macro_with_a_comment():
    text = "#define BASE float // the element\nusing elem_t = BASE;\ntypedef elem_t value_t;\n"
    got = _infer(text + KERNEL.replace("ELEM", "value_t"))
    assert isinstance(got, Inferred), got
    assert got.spec.args["y"].type == "float" and got.spec.length("y") == 1000


def test_the_c_library_clock_t_is_a_long():
    got = _infer(KERNEL.replace("ELEM", "clock_t"))
    assert isinstance(got, Inferred), got
    assert got.spec.args["x"].type == "long" and got.spec.length("x") == 1000


def test_a_typedef_in_an_if_branch_is_the_active_one(tmp_path):
    (tmp_path / "types.h").write_text("#if defined(USE_DOUBLE)\ntypedef double real;\n#else\ntypedef float real;\n#endif\n")
    (tmp_path / "k.cu").write_text('#include "types.h"\n' + KERNEL.replace("ELEM", "real"))
    m = Project().module(tmp_path / "k.cu")
    assert resolve("const real", {}, None, m).name == "float"
    got = infer(m, "scale")
    assert isinstance(got, Inferred) and got.spec.args["x"].type == "float" and got.spec.length("x") == 1000


def test_a_buffer_of_structs_is_its_c_layout_and_one_without_one_stays_not_run_naming_the_struct():
    text = "typedef struct { float x, y; } point;\n" + KERNEL.replace("ELEM", "point").replace("x[i] * 2", "x[i]")
    got = _infer(text)  # (an array of structs: kernelport.infer_structs.layout)
    assert isinstance(got, Inferred) and got.spec.args["x"].layout.itemsize == 8, got
    got = _infer(text.replace("float x, y;", "float x, y; unsigned bits : 4;"))
    assert isinstance(got, NotRun) and "holds struct 'point'" in got.reason and "bit-field" in got.reason
    assert got.loc is not None and got.loc.line == 13  # the launch


def test_an_unknown_type_name_stays_not_run():
    got = _infer(KERNEL.replace("ELEM", "opaque_t"))  # declared nowhere: never guessed to be a number
    assert isinstance(got, NotRun) and "opaque_t" in got.reason


TEMPLATE_KERNEL = """
template <typename T>
__global__ void scale(T* y, const T* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * 2;
}
"""

HOST_TEMPLATE = TEMPLATE_KERNEL + """template <typename T>
void run(int n) {
    T *dx, *dy;
    cudaMalloc((void **)&dx, n * sizeof(T));
    cudaMalloc((void **)&dy, n * sizeof(T));
    cudaMemcpy(dx, 0, n * sizeof(T), cudaMemcpyHostToDevice);
    scale<<<(n + 127) / 128, 128>>>(dy, dx, n);
}
int main() { run<double>(1000); }
"""


def test_a_host_template_s_argument_types_the_launch_it_holds():
    got = _infer(HOST_TEMPLATE)  # hecbench's conv3D<float>(...) launching conv3d_s1<<<...>>>(dX, ...)
    assert isinstance(got, Inferred), got
    assert [t.text for t in got.spec.instantiate] == ["<double>"]
    assert got.spec.args["x"].type == "double" and got.spec.length("x") == 1000  # 8000 bytes / sizeof(double)


def test_a_host_template_called_without_its_argument_stays_not_run():
    got = _infer(HOST_TEMPLATE.replace("run<double>(1000)", "run(1000)"))
    assert isinstance(got, NotRun) and "holds 'T'" in got.reason, got  # never a guessed type


DEDUCED_HOST = TEMPLATE_KERNEL + """template <typename T>
void run(const T* x, T* y, int n) {
    scale<<<(n + 127) / 128, 128>>>(y, x, n);
}
int main() {
    int n = 1000;
    double *dx, *dy;
    cudaMalloc((void **)&dx, n * sizeof(double));
    cudaMalloc((void **)&dy, n * sizeof(double));
    cudaMemcpy(dx, 0, n * sizeof(double), cudaMemcpyHostToDevice);
    run(dx, dy, n);
}
"""


def test_a_host_template_s_arguments_deduced_from_its_call_type_the_launch():
    got = _infer(DEDUCED_HOST)  # hecbench perplexity: perplexity_search(d_distance, ...) launching sigmas_kernel
    assert isinstance(got, Inferred), got
    assert [t.text for t in got.spec.instantiate] == ["<double>"]
    assert got.spec.args["x"].type == "double" and got.spec.length("y") == 1000


def test_a_host_template_argument_host_code_does_not_declare_stays_not_run():
    got = _infer(DEDUCED_HOST.replace("double *dx, *dy;", "auto dx = alloc(n), dy = alloc(n);"))
    assert isinstance(got, NotRun), got
