"""verify without annotations (issue 18): inputs inferred from the host code that launches the
kernel, or given on the command line; the original at wave 32 is the oracle of every port."""
from __future__ import annotations

import pytest

from kernelport.errors import KernelportError
from kernelport.infer_inputs import CommandLine, Inferred, NotRun, infer
from kernelport.model import build
from kernelport.source import SourceFile
from trust_support import kp_inproc

SAXPY = """
__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

HOST_1D = SAXPY + """
int main() {
    int n = 1000;
    size_t bytes = n * sizeof(float);
    float *dx, *dy, *hx = 0;
    cudaMalloc(&dx, bytes);
    cudaMalloc((void **)&dy, bytes);
    cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice);
    cudaMemset(dy, 0, bytes);
    const int threads = 128;
    saxpy<<<(n + threads - 1) / threads, threads>>>(n, 2.0f, dx, dy);
    return 0;
}
"""


def _infer(text: str, kernel: str, given: CommandLine | None = None, tmp_path=None):
    return infer(build(SourceFile.from_text(text, "k.cu")), kernel, given=given)


def test_sizes_through_variables_and_sizeof():
    got = _infer(HOST_1D, "saxpy")
    assert isinstance(got, Inferred), got
    s = got.spec
    assert s.dims("grid") == (8, 1, 1) and s.dims("block") == (128, 1, 1)
    assert s.length("x") == 1000 and s.length("y") == 1000
    assert s.args["x"].role == "in" and s.args["y"].role == "inout"  # const; written by cudaMemset
    assert s.args["y"].generator.kind == "constant"  # memset to 0: the kernel sees zeros
    assert s.scalar_values() == {"n": 1000, "a": 2.0}
    text = "\n".join(got.inferred)
    assert "4000 bytes allocated at k.cu:" in text and "grid (8, 1, 1), block (128, 1, 1)" in text


def test_a_buffer_of_doubles_is_counted_in_its_own_element_size():
    got = _infer(HOST_1D.replace("float*", "double*").replace("sizeof(float)", "sizeof(double)"), "saxpy")
    assert isinstance(got, Inferred) and got.spec.length("x") == 1000 and got.spec.args["x"].type == "double"


GEOMETRY = """
#define W 40
#define H 24
__global__ void fill2(float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = x + y;
}
__global__ void fill3(int* out) {
    int i = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    out[i + 64 * (blockIdx.x + 2 * (blockIdx.y + 2 * blockIdx.z))] = i;
}
void run(int w, int h) {
    float* d; int* e;
    cudaMalloc(&d, sizeof(float) * w * h);
    dim3 block(16, 8);
    dim3 grid((unsigned)ceil((float)w / block.x), (h + block.y - 1) / block.y);
    fill2<<<grid, block>>>(d, w, h);
    cudaMalloc(&e, 8 * 64 * sizeof(int));
    fill3<<<dim3(2, 2, 2), dim3(4, 4, 4)>>>(e);
}
int main() { run(W, H); }
"""


def test_2d_geometry_through_a_caller_and_3d_geometry():
    got = _infer(GEOMETRY, "fill2")
    assert isinstance(got, Inferred), got
    assert got.spec.dims("grid") == (3, 3, 1) and got.spec.dims("block") == (16, 8, 1)
    assert got.spec.length("out") == 960 and got.spec.scalar_values() == {"w": 40, "h": 24}
    assert any("the argument of run()" in line for line in got.inferred)
    got3 = _infer(GEOMETRY, "fill3")
    assert isinstance(got3, Inferred) and got3.spec.dims("grid") == (2, 2, 2) and got3.spec.dims("block") == (4, 4, 4)
    assert got3.spec.args["out"].role == "out" and got3.spec.length("out") == 512


TEMPLATE = """
template <typename T, int B>
__global__ void scale(T* x, T s, int n) {
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n) x[i] *= s;
}
int main() {
    float* d; int n = 300;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, 0, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<float, 64><<<(n + 63) / 64, 64>>>(d, 0.5f, n);
}
"""


def test_template_kernel_takes_the_launch_template_arguments():
    got = _infer(TEMPLATE, "scale")
    assert isinstance(got, Inferred), got
    assert got.spec.instantiate[0].text == "<float, 64>"
    assert got.spec.args["x"].type == "float" and got.spec.length("x") == 300
    assert got.spec.scalar_values()["s"] == 0.5


def test_template_arguments_deduced_from_the_declared_argument_types():
    one = TEMPLATE.replace("template <typename T, int B>", "template <typename T>").replace("* B +", "* 64 +")
    got = _infer(one.replace("scale<float, 64><<<", "scale<<<").replace("float* d;", "double* d;"), "scale")
    assert isinstance(got, Inferred) and got.spec.instantiate[0].text == "<double>", got
    # A non-type parameter cannot be deduced from the arguments: not run, with the hint.
    got = _infer(TEMPLATE.replace("scale<float, 64><<<", "scale<<<"), "scale")
    assert isinstance(got, NotRun) and "template arguments" in got.reason and "instantiate" in got.hint


def test_a_size_from_argv_is_chosen_and_said():
    got = _infer(HOST_1D.replace("int n = 1000;", "int n = atoi(argv[1]);"), "saxpy")
    assert isinstance(got, Inferred), got
    assert got.spec.scalar_values()["n"] == 1024 and got.spec.length("x") == 1024 and got.spec.length("y") == 1024
    assert got.spec.dims("grid") == (8, 1, 1) and list(got.chosen) == ["n"]
    line = next(x for x in got.inferred if x.startswith("n = 1024 chosen"))
    assert "'atoi(argv[1])' is computed when the program runs" in line and "pass --arg n=VALUE to change" in line


def test_no_launch_is_not_run_with_the_command_line_hint():
    got = _infer(SAXPY, "saxpy")
    assert isinstance(got, NotRun) and "no launch" in got.reason and "--grid" in got.hint


def test_a_large_host_only_size_is_scaled_down_and_said():
    got = _infer(HOST_1D.replace("int n = 1000;", "int n = N;").replace("int main", "#define N (1 << 22)\nint main")
                 .replace("#define N (1 << 22)", "#define N 4194304"), "saxpy")
    assert isinstance(got, Inferred), got
    n = got.spec.scalar_values()["n"]
    assert n <= 1 << 16 and got.spec.length("x") == n
    assert any("N = 4194304 scaled down to" in line for line in got.inferred)


def test_a_large_macro_device_code_reads_is_scaled_and_redefined():
    # polybench: `#define N 4096` sizes the buffers and bounds the kernel's loop: the original and
    # every port run with the file's #define N replaced, as if built with the smaller N
    big = HOST_1D.replace("int n = 1000;", "int n = N;").replace("if (i < n)", "if (i < N)")
    got = _infer("#define N 4194304\n" + big, "saxpy")
    assert isinstance(got, Inferred), got
    n = got.spec.scalar_values()["n"]
    assert n <= 1 << 16 and got.spec.length("x") == n and got.redefine == {"N": str(n)}
    assert any(f"N = 4194304 scaled down to {n} (a macro device code reads too" in line for line in got.inferred)


def test_a_large_file_scope_constant_device_code_reads_is_not_scaled():
    # a variable, not a macro: no definition to replace, so no smaller program to run
    big = HOST_1D.replace("int n = 1000;", "int n = N;").replace("if (i < n)", "if (i < N)")
    got = _infer("const int N = 4194304;\n" + big, "saxpy")
    assert isinstance(got, NotRun) and "needs smaller sizes" in got.reason


def test_command_line_inputs():
    given = CommandLine.parse(["x=float[64]:uniform(-2,2)", "y=float[64]", "n=64", "a=3"], "1", "64")
    got = _infer(SAXPY, "saxpy", given)
    assert isinstance(got, Inferred) and got.source == "command line"
    assert got.spec.dims("grid") == (1, 1, 1) and got.spec.length("y") == 64
    assert got.spec.args["x"].generator.params == (2 - 4, 2) or got.spec.args["x"].generator.params == (-2, 2)
    # A host size given on the command line reaches the launch.
    got = _infer(HOST_1D.replace("int n = 1000;", "int n = atoi(argv[1]);"), "saxpy", CommandLine.parse(["n=256"]))
    assert isinstance(got, Inferred) and got.spec.length("x") == 256 and got.spec.dims("grid") == (2, 1, 1)
    with pytest.raises(KernelportError, match="cannot read --arg"):
        CommandLine.parse(["x float[3]"])


def test_verify_runs_the_ports_against_the_original_at_32(tmp_path):
    f = tmp_path / "saxpy.cu"
    f.write_text(HOST_1D + "\n" + SAXPY.replace("saxpy", "saxpy2") +
                 "void two(int m) { float *p, *q; cudaMalloc(&p, m * 4); cudaMalloc(&q, m * 4);"
                 " saxpy2<<<m / 64, 64>>>(m, 1.0f, p, q); }\n")
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--format", "json", "--no-cache")
    assert rc == 0, out + err
    import json
    checks = json.loads(out)[0]["checks"]
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert {c["kernel"]: c["status"] for c in oracle} == {"saxpy": "pass", "saxpy2": "pass"}
    assert "m = 1024 chosen ('m' is a parameter of two()" in next(c["detail"] for c in oracle if c["kernel"] == "saxpy2")
    assert "x: in float[1000]" in next(c["detail"] for c in oracle if c["kernel"] == "saxpy")
    ports = [c for c in checks if c["kind"] == "numeric" and c["kernel"] == "saxpy"]
    assert ports and all(c["status"] == "pass" for c in ports) and {c["wave"] for c in ports} == {32, 64}


def test_verify_flags_a_port_that_differs_from_the_original(tmp_path):
    f = tmp_path / "saxpy.cu"
    f.write_text(HOST_1D)
    assert kp_inproc("translate", f, "--to", "hip")[0] == 0
    hip = next(tmp_path.glob("saxpy.hip*"))
    hip.write_text(hip.read_text().replace("a * x[i] + y[i]", "a * x[i] + y[i] + 1.0f"))
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--format", "json", "--no-cache")
    assert rc == 1
    import json
    checks = json.loads(out)[0]["checks"]
    bad = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "hip"]
    assert bad and all(c["status"] == "fail" and "the original at wave 32 gives" in c["detail"] for c in bad)


def test_verify_with_command_line_inputs_and_oracle_original(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(SAXPY)
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--no-cache")
    assert rc == 2 and "not run: needs sizes" in err  # nothing ran: listed, never a pass
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--no-cache", "--arg", "x=float[128]:uniform(-1,1)",
                             "--arg", "y=float[128]:uniform(-1,1)", "--arg", "n=100", "--arg", "a=0.5",
                             "--grid", "2", "--block", "64")
    assert rc == 0, out + err
    rc, out, err = kp_inproc("verify", f, "--oracle", "nonsense")
    assert rc == 2 and "unknown --oracle" in err


def test_a_spaced_ifndef_in_a_header_keeps_its_definitions(tmp_path):
    # `# ifndef X` is `#ifndef X` (polybench's headers define DATA_TYPE so); `# ifdef X` stays false.
    from kernelport.project import Project
    (tmp_path / "g.cuh").write_text("# ifndef DATA_TYPE\n#  define DATA_TYPE float\n# endif\n"
                                    "# ifdef NOPE\n#  define OTHER 1\n# endif\n")
    (tmp_path / "g.cu").write_text('#include "g.cuh"\n__global__ void k(DATA_TYPE* a) { a[0] = 1; }\n')
    macros = Project().module(tmp_path / "g.cu").visible.macros
    assert macros["DATA_TYPE"].value == "float" and "OTHER" not in macros


HELPERS = SAXPY + """
#define CDIV(a, b) (((a) + (b) - 1) / (b))
int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }
void go(float a) {
    int sizes[] = {96, 200};
    int n = sizes[1];
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, CDIV(n, 4) * 4 * sizeof(float));
    saxpy<<<iDivUp(n, 64), 64>>>(n, a, x, y);
}
"""


def test_helper_functions_macros_and_array_elements_reach_the_launch():
    got = _infer(HELPERS, "saxpy")
    assert isinstance(got, Inferred), got
    assert got.spec.dims("grid") == (4, 1, 1) and got.spec.length("x") == 200 and got.spec.length("y") == 200
    # `a` is a float parameter no call gives: data, generated and said so; an int size never is.
    assert any(line.startswith("a = ") and "generated" in line for line in got.inferred)
    no_size = _infer(HELPERS.replace("int n = sizes[1];", "int n = sizes[k];"), "saxpy")
    assert isinstance(no_size, NotRun) and "needs sizes" in no_size.reason


def test_a_kernel_launched_from_another_file_of_the_project(tmp_path):
    (tmp_path / "kernel.cu").write_text(SAXPY)
    (tmp_path / "main.cu").write_text('#include "kernel.cu"\n' + HOST_1D.replace(SAXPY, ""))
    rc, out, err = kp_inproc("verify", tmp_path / "kernel.cu", "--schedules", "block", "--format", "json",
                             "--no-cache")
    assert rc == 0, out + err
    import json
    oracle = [c for c in json.loads(out)[0]["checks"] if c["kind"] == "oracle"]
    assert oracle[0]["status"] == "pass" and "main.cu" in oracle[0]["detail"]


def test_a_buffer_allocated_by_the_caller_of_the_launching_function():
    text = SAXPY + """
void launch(float* x, float* y, int n) { saxpy<<<(n + 127) / 128, 128>>>(n, 1.5f, x, y); }
int main() {
    int n = 512; float *dx, *dy;
    cudaCheck(cudaMalloc(&dx, n * sizeof(float)));
    cudaCheck(cudaMalloc(&dy, n * sizeof(float)));
    cudaCheck(cudaMemcpy(dy, 0, n * sizeof(float), cudaMemcpyHostToDevice));
    launch(dx, dy, n);
}
"""
    got = _infer(text, "saxpy")
    assert isinstance(got, Inferred), got
    assert got.spec.length("x") == 512 and got.spec.args["y"].role == "inout" and got.spec.dims("grid") == (4, 1, 1)
    # An offset pointer: its length is unknown, so chosen (the launch's threads), and said.
    gone = _infer(text.replace("launch(dx, dy, n);", "launch(dx + 1, dy, n);"), "saxpy")
    assert isinstance(gone, Inferred) and gone.spec.length("x") == 1024 and gone.spec.length("y") == 512, gone
    assert list(gone.chosen) == ["x[]"] and gone.spec.args["x"].role == "in"
    assert any(x.startswith("x: in float[1024] uniform(-1, 1) (length chosen: no allocation of 'x' before the launch")
               for x in gone.inferred), gone.inferred


def test_a_launching_function_called_from_another_file(tmp_path):
    (tmp_path / "kernel.cu").write_text(SAXPY + "void run(float* x, float* y, int n) {\n"
                                        "    saxpy<<<(n + 63) / 64, 64>>>(n, 2.0f, x, y);\n}\n")
    (tmp_path / "main.cu").write_text("void run(float*, float*, int);\nint main() {\n    float *x, *y; int n = 256;\n"
                                      "    cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4);\n    run(x, y, n);\n}\n")
    rc, out, err = kp_inproc("verify", tmp_path / "kernel.cu", "--schedules", "block", "--format", "json",
                             "--no-cache")
    assert rc == 0, out + err
    import json
    oracle = [c for c in json.loads(out)[0]["checks"] if c["kind"] == "oracle"]
    assert oracle[0]["status"] == "pass" and "x: in float[256] uniform(-1, 1)" in oracle[0]["detail"]
    assert "y: out float[256] zeros" in oracle[0]["detail"] and "main.cu" in oracle[0]["detail"]


def test_the_table_prints_what_was_inferred_and_what_was_not_run(tmp_path):
    f = tmp_path / "two.cu"
    f.write_text(HOST_1D + SAXPY.replace("saxpy", "other") +
                 "void two(int m) { float *p, *q; cudaMalloc(&p, m * 4); cudaMalloc(&q, m * 4);"
                 " other<<<m / 64, 64>>>(m, 1.0f, p, q); }\n")
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--no-cache")
    assert rc == 0, out + err
    assert f"oracle {f} [saxpy] the original at wave 32 ran" in out and "x: in float[1000] uniform(-1, 1)" in out
    assert f"oracle {f} [other]" in out and "m = 1024 chosen ('m' is a parameter of two()" in out
    # One block past the buffers, its guard too: the original faults, whatever the ports do.
    f.write_text(f.read_text().replace("m / 64, 64>>>(m,", "m / 64 + 1, 64>>>(m + 64,"))
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--no-cache")
    assert rc == 0, out + err
    assert f"not run {f} [other]" in out and "not run: the original faults at wave 32 on chosen inputs" in out
    assert "hint: pass other values: --arg m=VALUE" in out and "fail" not in out.split("[other]")[1].split("\n")[0]


def test_dim3_assigned_after_its_declaration():
    text = SAXPY + """
int main() {
    int n = 300; float *x, *y;
    cudaMalloc(&x, n * sizeof(float)); cudaMalloc(&y, n * sizeof(float));
    dim3 threads, blocks;
    threads = dim3(100, 1, 1);
    blocks = dim3((n + threads.x - 1) / threads.x);
    blocks.x = blocks.x + 1;
    saxpy<<<blocks, threads>>>(n, 1.0f, x, y);
}
"""
    got = _infer(text, "saxpy")
    assert isinstance(got, Inferred), got
    assert got.spec.dims("block") == (100, 1, 1) and got.spec.dims("grid") == (4, 1, 1)


def test_a_size_updated_from_its_own_value():
    got = _infer(HOST_1D.replace("int n = 1000;", "int n = 100;\n    n *= 4;\n    n = n + 24;"), "saxpy")
    assert isinstance(got, Inferred) and got.spec.scalar_values()["n"] == 424 and got.spec.length("x") == 424
    unset = _infer(HOST_1D.replace("int n = 1000;", "int n;\n    n += 4;"), "saxpy")
    assert isinstance(unset, NotRun) and "read before host code gives it a value" in unset.reason


def test_values_host_code_changes_unreadably_are_chosen_as_their_value_before():
    for change in ("while (more()) n++;", "fscanf(f, \"%d\", &n);", "file >> n;", "parse(argc, argv, &n);"):
        got = _infer(HOST_1D.replace("int n = 1000;", "int n = 1000;\n    " + change), "saxpy")
        assert isinstance(got, Inferred) and got.spec.scalar_values()["n"] == 1000, (change, got)
        assert any(x.startswith("n = 1000 chosen ('n' is ") and "its value before, from k.cu:" in x
                   for x in got.inferred), got.inferred
    got = _infer(HOST_1D.replace("int n = 1000;", "int n;\n    fscanf(f, \"%d\", &n);"), "saxpy")
    assert isinstance(got, Inferred) and got.spec.scalar_values()["n"] == 1024  # no value before: the default
    looped = HOST_1D.replace("    saxpy<<<", "    for (int r = 0; r < 3; r++)\n        saxpy<<<").replace(
        "(n, 2.0f, dx, dy)", "(n + r, 2.0f, dx, dy)")
    got = _infer(looped, "saxpy")  # the first iteration: r = 0
    assert isinstance(got, Inferred) and got.spec.scalar_values()["n"] == 1000
    assert any("the first iteration of the loop" in line for line in got.inferred)
    # rodinia's `for (t = 0; t < total; t += step)`: a compound update is not run before the
    # first iteration either (hotspot passed MIN(step, total - t) = 0); after the loop it has run
    for loop in ("int t;\n    for (t = 0; t < 3000; t += 1000)", "int t, u;\n    for (t = 0, u = 1; t < 3000; t += 1000, u++)"):
        stepped = HOST_1D.replace("    saxpy<<<", f"    {loop}\n        saxpy<<<").replace(
            "(n, 2.0f, dx, dy)", "(n + t, 2.0f, dx, dy)")
        got = _infer(stepped, "saxpy")
        assert isinstance(got, Inferred) and got.spec.scalar_values()["n"] == 1000, (loop, got)
    after = HOST_1D.replace("    saxpy<<<", "    int t;\n    for (t = 0; t < 3000; t += 1000) {}\n    saxpy<<<").replace(
        "(n, 2.0f, dx, dy)", "(n + t, 2.0f, dx, dy)")
    got = _infer(after, "saxpy")
    assert not (isinstance(got, Inferred) and got.spec.scalar_values()["n"] == 1000), got


def test_oracle_original_checks_an_annotated_kernel_against_the_original(tmp_path):
    from trust_support import kernel
    f = tmp_path / "scale.cu"
    f.write_text(kernel().replace("// @kp tolerance auto", "// @kp tolerance auto\n// @kp targets hip"))
    assert kp_inproc("translate", f, "--to", "hip")[0] == 0
    rc, out, err = kp_inproc("verify", f, "--oracle", "original", "--schedules", "block", "--format", "json",
                             "--no-cache")
    assert rc == 0, out + err
    import json
    checks = json.loads(out)[0]["checks"]
    assert not [c for c in checks if c["kind"] == "reference"]  # the reference is not the oracle here
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert len(oracle) == 1 and oracle[0]["status"] == "pass" and "inputs (annotations)" in oracle[0]["detail"]
    assert [c["status"] for c in checks if c["kind"] == "numeric"] == ["pass", "pass"]  # hip at 64 and 32


def test_the_emulator_finds_a_kernel_after_a_host_function_with_a_default_argument():
    # llm.c's dev/cuda/common.h: `validate_result(..., T tolerance=1e-4) {...}` hid every kernel after it.
    import numpy as np
    from kernelport.emulator import run_kernel
    src = ("void check(int n, float t = 1e-4) { (void)n; }\nint table[] = {1, 2};\n"
           "__global__ void k(float* x) { x[threadIdx.x] = 2.0f; }\n")
    got = run_kernel(src, "k", args={"x": np.zeros(4, np.float32)}, grid=(1, 1, 1), block=(4, 1, 1))
    assert got.outputs["x"].tolist() == [2.0] * 4


def test_a_port_that_renames_a_parameter_binds_its_arguments_by_position():
    import numpy as np
    from kernelport.emulator import EmulatorError, run_kernel
    src = "__global__ void k(const float* matrix_, float* out, int n) { out[threadIdx.x] = matrix_[threadIdx.x] * n; }\n"
    x = np.arange(4, dtype=np.float32)
    got = run_kernel(src, "k", args={"matrix": x, "out": np.zeros(4, np.float32), "n": 3}, grid=(1, 1, 1),
                     block=(4, 1, 1))
    assert got.outputs["out"].tolist() == [0.0, 3.0, 6.0, 9.0] and "matrix" in got.outputs
    with pytest.raises(EmulatorError, match="no value for kernel argument"):  # a misspelling is still an error
        run_kernel(src, "k", args={"out": np.zeros(4, np.float32), "matrix_": x, "m": 3}, grid=(1, 1, 1),
                   block=(4, 1, 1))
