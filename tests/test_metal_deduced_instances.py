"""Metal instances of template kernels whose template arguments C++ deduces from the launch's
arguments (`k<<<g, b>>>(d_x, n)`, no `<T>` written): named from the arguments' declared types
where those are in view, else still KP216 (issue 11, Metal part; kernelport.template_deduction).
The shapes come from tests/realcorpus (rodinia dwt2d's components.cu, hecbench convolution3D and
perplexity, llm.c global_norm); each snippet is written for the test."""
from __future__ import annotations

import json
from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

KERNEL = ("template <typename T>\n__global__ void scale(T *x, const T a, int n) {\n"
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] = a * x[i];\n}\n")


def _translate(code: str, tmp_path: Path):
    return translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")


def _errors(port) -> list[tuple[str, int]]:
    return [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]


def _checked(text: str) -> None:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text


def test_locals_of_the_launching_function_name_the_instance(tmp_path: Path):
    code = KERNEL + ("int main() {\n  int n = 1024;\n  float *d_x;\n  cudaMalloc(&d_x, n * sizeof(float));\n"
                     "  scale<<<(n + 255) / 256, 256>>>(d_x, 2.0f, n);\n  return 0;\n}\n")
    port, text = _translate(code, tmp_path)
    assert _errors(port) == []
    assert 'template [[host_name("scale_float")]] kernel void scale<float>(' in port.body
    assert [(k["host_name"], k["template_args"]) for k in json.loads(port.extra_files[".json"])["kernels"]] == \
        [("scale_float", ["float"])]
    _checked(text)


def test_a_host_template_called_with_deduced_arguments_gives_each_instance(tmp_path: Path):
    # perplexity's shape: the host template's own arguments are deduced at its calls, its parameters'
    # types name the kernel's instance (`T *x` of `launch<T>`), one instance per call
    code = KERNEL + ("template <typename T>\nvoid launch(T *x, T a, int n) { scale<<<(n + 255) / 256, 256>>>(x, a, n); }\n"
                     "void run(int n) {\n  float *f; int *i;\n  launch(f, 2.0f, n);\n  launch(i, 3, n);\n}\n")
    port, text = _translate(code, tmp_path)
    assert _errors(port) == []
    assert 'template [[host_name("scale_float")]] kernel void scale<float>(' in port.body
    assert 'template [[host_name("scale_int")]] kernel void scale<int>(' in port.body
    _checked(text)


def test_a_local_of_a_host_template_resolves_through_its_explicit_instances(tmp_path: Path):
    # convolution3D's shape: `T *dX` declared in `conv3D<T>`, which main calls as `conv3D<float>(...)`
    code = KERNEL + ("template <typename T>\nvoid conv(int n) {\n  T *dX;\n  cudaMalloc(&dX, n * sizeof(T));\n"
                     "  scale<<<1, 256>>>(dX, (T)2, n);\n}\n"
                     "int main() { conv<float>(64); conv<unsigned int>(64); return 0; }\n")
    port, text = _translate(code, tmp_path)
    assert _errors(port) == []
    assert 'kernel void scale<float>(' in port.body
    assert 'template [[host_name("scale_unsigned_int")]] kernel void scale<unsigned int>(' in port.body
    _checked(text)


def test_the_declaration_in_view_is_the_one_used(tmp_path: Path):
    # an inner block's `int *d` does not hide the file-scope `float *d` at the launch after it
    code = KERNEL + ("float *d;\nvoid run(int n) {\n  { int *d = 0; (void)d; }\n  scale<<<1, 256>>>(d, 2.0f, n);\n}\n")
    port, text = _translate(code, tmp_path)
    assert _errors(port) == []
    assert "kernel void scale<float>(" in port.body and "scale<int>" not in port.body
    _checked(text)


# Look-alikes: what C++ would deduce is not certain from the declarations in view: still KP216
# at the kernel (a refusal, never a guessed instance that computes on the wrong type)
def _refused(code: str, tmp_path: Path) -> None:
    port, _ = _translate(code, tmp_path)
    assert _errors(port) == [("KP216", 2)], [d.format() for d in port.diagnostics]


def test_an_argument_of_unknown_type_keeps_the_refusal(tmp_path: Path):
    _refused(KERNEL + "void run(int n) { scale<<<1, 256>>>(buffer(), 2.0f, n); }\n", tmp_path)
    _refused(KERNEL + "void run(int n) { auto *p = make(); scale<<<1, 256>>>(p, 2.0f, n); }\n", tmp_path)
    # a parameter of a host template nobody calls: T is unknown
    _refused(KERNEL + "template <typename T>\nvoid launch(T *x, int n) { scale<<<1, 256>>>(x, (T)1, n); }\n",
             tmp_path)


def test_arguments_that_disagree_keep_the_refusal(tmp_path: Path):
    # `T *x` says float, `const T a` says double: C++ rejects the call; Metal gets no guess
    _refused(KERNEL + "void run(int n, float *x, double a) { scale<<<1, 256>>>(x, a, n); }\n", tmp_path)


def test_a_const_that_would_move_into_t_keeps_the_refusal(tmp_path: Path):
    # `T *x` given `const float *x`: T would be `const float`
    _refused(KERNEL + "void run(int n, const float *x) { scale<<<1, 256>>>(x, 2.0f, n); }\n", tmp_path)


def test_an_array_of_arrays_or_its_address_is_not_read_as_a_pointer(tmp_path: Path):
    # `float g[4][4]` decays to `float (*)[4]` (T = float[4]), `&g1` is `float (*)[16]`: never T = float*
    _refused(KERNEL + "float g[4][4];\nvoid run(int n) { scale<<<1, 256>>>(g, 2.0f, n); }\n", tmp_path)
    port, _ = _translate("template <typename T>\n__global__ void fill(T *x) { x[0] = x[1]; }\n"
                         "float g1[16];\nvoid run() { fill<<<1, 1>>>(&g1); }\n", tmp_path)
    assert _errors(port) == [("KP216", 2)], [d.format() for d in port.diagnostics]


def test_a_non_type_parameter_is_not_deduced(tmp_path: Path):
    code = ("template <int B>\n__global__ void fill(float *x) { x[threadIdx.x] = B; }\n"
            "void run(float *x) { fill<<<1, 256>>>(x); }\n")
    _refused(code, tmp_path)


# cuda-gemm-optimization (held-out 14): the launcher's `constexpr unsigned int BLOCK_TILE_SIZE_X{32U};`
# locals are the kernel's template arguments (`gemm_v02<T, BLOCK_TILE_SIZE_X, ...><<<...>>>`): their
# values are known where they are declared
CONSTEXPR = """\
template <typename T, unsigned int TX, unsigned int TY>
__global__ void tile(T *c, T a, int n) {
  int i = blockIdx.x * TX * TY + threadIdx.x;
  if (i < n) c[i] = a * c[i];
}
template <typename T>
void launch(T *c, T a, int n) {
  constexpr unsigned int TILE_X{32U};
  constexpr unsigned int TILE_Y = 2;
  constexpr unsigned int THREADS{TILE_X * TILE_Y};
  tile<T, TILE_X, THREADS><<<(n + THREADS - 1) / THREADS, THREADS>>>(c, a, n);
}
template void launch<float>(float *c, float a, int n);
"""


def test_constexpr_locals_of_the_launcher_are_template_arguments(tmp_path: Path):
    port, text = _translate(CONSTEXPR, tmp_path)
    assert _errors(port) == []
    assert 'template [[host_name("tile_float_32_64")]] kernel void tile<float, 32, 64>(' in port.body
    _checked(text)
    # a local whose value is the run's (not constexpr): still no instance
    runtime = CONSTEXPR.replace("constexpr unsigned int TILE_Y = 2;", "unsigned int TILE_Y = n / 512;").replace(
        "constexpr unsigned int THREADS{TILE_X * TILE_Y};", "const unsigned int THREADS{TILE_X * TILE_Y};")
    port, _ = _translate(runtime, tmp_path)
    assert _errors(port) == [("KP216", 2)]


def test_written_arguments_with_defaults_for_the_rest_still_name_the_instance(tmp_path: Path):
    # `k<float><<<...>>>` of `template <typename T, int BS = 256>`: nothing to deduce (BS has its
    # default), the written arguments are the instance, as before deduction existed
    code = ("template <typename T, int BS = 256>\n__global__ void fill(T *x) { x[threadIdx.x] = (T)BS; }\n"
            "void run(float *d) { fill<float><<<1, 256>>>(d); }\n")
    port, text = _translate(code, tmp_path)
    assert _errors(port) == []
    assert 'template [[host_name("fill_float")]] kernel void fill<float>(' in port.body
    _checked(text)


# GridInfCuda (held-out 64, src/gpu/bp.cu): the kernels take `GpuGrid<T> *grid` and `T *msgs`, launched from a
# host template with `dGrid` (`GpuGrid<T> *`) and `dMsgs[t]` (of `T **dMsgs`); the host template has explicit
# instantiations for float and int.  C++ binds T from the template-id's argument and from the element's type.
GRID = ("template <typename T>\nstruct Grid { int w; };\n"
        "template <typename T>\n__global__ void collect(Grid<T> *g, T *from, T *data, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) from[i] = data[i] + (T)g->w;\n}\n")


def test_a_template_id_parameter_and_an_element_argument_name_the_instances(tmp_path: Path):
    code = GRID + ("template <typename T>\nvoid decode(Grid<T> *grid, int levels, int n) {\n"
                   "  T **dFrom = new T*[levels], **dData = new T*[levels];\n  Grid<T> *dGrid = grid;\n"
                   "  for (int t = 0; t < levels; t++) collect<<<1, 256>>>(dGrid, dFrom[t], dData[t], n);\n}\n"
                   "template void decode<float>(Grid<float> *, int, int);\n"
                   "template void decode<int>(Grid<int> *, int, int);\n")
    port, text = _translate(code, tmp_path)
    assert _errors(port) == []
    assert 'template [[host_name("collect_float")]] kernel void collect<float>(' in port.body
    assert 'template [[host_name("collect_int")]] kernel void collect<int>(' in port.body
    _checked(text)


def test_a_template_id_alone_binds_its_argument(tmp_path: Path):
    code = ("template <typename T>\nstruct Grid { int w; };\n"
            "template <typename T>\n__global__ void width(Grid<T> *g, int *out) { out[0] = g->w; }\n"
            "void run(Grid<unsigned  int> *dg, int *out) { width<<<1, 1>>>(dg, out); }\n")
    port, _ = _translate(code, tmp_path)
    assert [(k["host_name"], k["template_args"]) for k in json.loads(port.extra_files[".json"])["kernels"]] == \
        [("width_unsigned_int", ["unsigned int"])]


def test_an_element_of_a_pointer_array_is_its_pointee(tmp_path: Path):
    port, text = _translate(KERNEL + "void run(float **xs, int n) { scale<<<1, 256>>>(xs[1], 2.0f, n); }\n",
                            tmp_path)
    assert _errors(port) == []
    assert 'template [[host_name("scale_float")]] kernel void scale<float>(' in port.body
    _checked(text)


def test_template_ids_and_elements_deduction_does_not_read(tmp_path: Path):
    # another template of the same arguments, a pointer too deep, an argument shape `Grid<T*>`: no instance
    for run in ("void run(Other<float> *g, float *a, float *b) { collect<<<1, 1>>>(g, a, b, 1); }\n",
                "void run(Grid<float> **g, float *a, float *b) { collect<<<1, 1>>>(g, a, b, 1); }\n",
                "void run(Grid<int> *g, float *a, float *b) { collect<<<1, 1>>>(g, a, b, 1); }\n"):
        port, _ = _translate(GRID + "template <typename T>\nstruct Other { int w; };\n" + run, tmp_path)
        assert ("KP216", 4) in _errors(port), (run, [d.format() for d in port.diagnostics])
    port, _ = _translate("template <typename T>\nstruct Grid { int w; };\ntemplate <typename T>\n"
                         "__global__ void first(Grid<T*> *g, int *o) { o[0] = g->w; }\n"
                         "void run(Grid<float*> *g, int *o) { first<<<1, 1>>>(g, o); }\n", tmp_path)
    assert ("KP216", 4) in _errors(port), [d.format() for d in port.diagnostics]
    # an element of a class (its operator[]) has no type in view
    _refused(KERNEL + "struct Rows { float *operator[](int i); };\n"
             "void run(Rows r, int n) { scale<<<1, 256>>>(r[0], 2.0f, n); }\n", tmp_path)
