"""Metal instances of template kernels named by a concrete template-id in host code, not launched
there (KP216 before): a host table of kernel addresses (bevfusion's `func_list[]`, bm3d's `?:` chain),
a launch helper given the kernel (`cuda_linear_launch(k<T>, ...)`), an explicit instantiation.  Each
id instances the kernel once, as CUDA compiles one; an id whose arguments name a class template's
parameter (gpumd's `GPU_Vector<T>::fill`) or a host template nothing calls stays KP216 at the kernel.
Snippets written for the tests (kernelport.backends.metal.template_ids)."""
from __future__ import annotations

from conftest import metal_checked
from port_support import refusal

SCALE = ("template <typename T, int V>\n__global__ void scale(T *x, int n) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] = x[i] * V;\n}\n")
FILL = ("template <typename T>\n__global__ void fill(T *x, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] = T(1);\n}\n")


def _errors(code: str) -> list[tuple[str, int]]:
    return [(d.code, d.location.line) for d in refusal(code, to="metal")]


def test_kernel_addresses_in_a_host_table_are_instanced_once_each():
    text = metal_checked(SCALE + "typedef void (*fn_t)(float *, int);\n"
                         "static fn_t table[] = {&scale<float, 2>, scale<float, 4>, &scale<float, 2>};\n"
                         "void run(float *x, int n, int w) { table[w]<<<n / 256, 256>>>(x, n); }\n")
    assert text.count('template [[host_name("scale_float_2")]] kernel void scale<float, 2>(') == 1
    assert text.count('template [[host_name("scale_float_4")]] kernel void scale<float, 4>(') == 1


def test_a_kernel_given_to_a_launch_helper_is_instanced_per_argument_list():
    text = metal_checked(FILL + "template <typename K> void launch(K k, void *x, int n) { }\n"
                         "void run(float *x, int *y, int n) { launch(fill<float>, x, n); launch(fill<int>, y, n); }\n")
    assert 'template [[host_name("fill_float")]] kernel void fill<float>(' in text
    assert 'template [[host_name("fill_int")]] kernel void fill<int>(' in text


def test_an_id_in_a_host_template_takes_the_arguments_of_its_calls():
    # bm3d's shape: the host template's parameter resolves through its explicit call
    text = metal_checked(FILL + "typedef void (*fn_t)(void *, int);\n"
                         "template <typename T> fn_t pick() { return (fn_t)&fill<T>; }\n"
                         "fn_t chosen() { return pick<short>(); }\n")
    assert 'template [[host_name("fill_short")]] kernel void fill<short>(' in text
    assert "fill<T>(" not in text


def test_an_explicit_instantiation_of_the_kernel_is_an_instance():
    text = metal_checked(FILL + "template __global__ void fill<float>(float *, int);\n")
    assert 'template [[host_name("fill_float")]] kernel void fill<float>(' in text
    assert "/* fill<...>: an explicit instance of a kernel, named with [[host_name]] after its definition */" in text


# Look-alikes: nothing concrete in view: KP216 at the kernel, nothing written
def test_a_host_template_nothing_calls_stays_refused():
    assert _errors(FILL + "typedef void (*fn_t)(void *, int);\n"
                   "template <typename T> fn_t pick() { return (fn_t)&fill<T>; }\n") == [("KP216", 2)]


def test_a_launch_in_a_class_template_member_stays_refused():
    # gpumd's GPU_Vector<T>::fill: `T` is the class template's; the port named `fill<T>` (KP224 from the checker)
    assert _errors(FILL + "template <typename T> struct Vec {\n  T *d; int n;\n"
                   "  void set() { fill<T><<<n / 256, 256>>>(d, n); }\n};\nvoid run() { Vec<float> v; v.set(); }\n") \
        == [("KP216", 2)]


def test_a_launched_explicit_specialisation_stays_refused():
    # `template <> __global__ void k<float>`: the port would instance the primary's body for float
    assert ("KP216", 4) in _errors("template <typename T>\n__global__ void k(T *x, int n) { }\ntemplate <>\n"
                                   "__global__ void k<float>(float *x, int n) { if (n) x[0] = 1.0f; }\n"
                                   "void run(float *x, int n) { k<float><<<1, 1>>>(x, n); }\n")


def test_launches_in_a_function_like_macro_are_instanced_per_use():
    # cutt's shape: `#define CALL(TYPE) transposeTiled<TYPE><<<...>>>(...)`, used in a host switch
    text = metal_checked(FILL + "#define LAUNCH(TYPE) fill<TYPE><<<n / 256, 256>>>((TYPE *)x, n)\n"
                         "void run(void *x, int n, int t) {\n  if (t) LAUNCH(float); else LAUNCH(int);\n"
                         "  // LAUNCH(short);\n}\n")
    assert 'template [[host_name("fill_float")]] kernel void fill<float>(' in text
    assert 'template [[host_name("fill_int")]] kernel void fill<int>(' in text
    assert "fill_short" not in text  # a use in a comment makes no instance


def test_a_macro_used_with_a_parameter_of_an_uncalled_host_template_stays_refused():
    assert _errors(FILL + "#define LAUNCH(TYPE) fill<TYPE><<<n / 256, 256>>>((TYPE *)x, n)\n"
                   "template <typename T> void run(void *x, int n) { LAUNCH(T); }\n") == [("KP216", 2)]


def test_a_macro_that_pastes_its_launcher_name_instances_its_plain_id():
    # mistralrs's afq.cu: `extern "C" void launch_##name(...) { k<dtype, bits><<<...>>>(...); }` used at file scope
    text = metal_checked(SCALE + "#define DEFINE(T, V, name) void scale_##name(T *x, int n) { scale<T, V><<<n / 256, 256>>>(x, n); }\n"
                         "DEFINE(float, 2, f2)\nDEFINE(int, 3, i3)\n")
    assert 'template [[host_name("scale_float_2")]] kernel void scale<float, 2>(' in text
    assert 'template [[host_name("scale_int_3")]] kernel void scale<int, 3>(' in text


def test_a_macro_that_pastes_its_argument_stays_refused():
    # `fill<TYPE##_t>`: the id is not the argument's text; one level of expansion does not paste
    assert _errors(FILL + "#define LAUNCH(TYPE) fill<TYPE##_t><<<n / 256, 256>>>((TYPE##_t *)x, n)\n"
                   "void run(void *x, int n) { LAUNCH(int32); }\n") == [("KP216", 2)]


ADD = ("template <bool Add>\n__global__ void add(float *x, int n) {\n"
       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] = Add ? x[i] + 1.0f : x[i];\n}\n")


def test_an_explicit_instance_of_a_host_template_binds_the_parameters_it_names():
    # turbotransformers' GPUAddBias: `template void run<true>(const float *, int)` leaves T deduced; the
    # kernel's id names only Add, which the instantiation writes
    text = metal_checked(ADD + "template <bool Add, typename T> void run(T *x, int n) { add<Add><<<n / 256, 256>>>((float *)x, n); }\n"
                         "template void run<true>(float *, int);\n")
    assert 'template [[host_name("add_true")]] kernel void add<true>(' in text


def test_an_id_naming_a_parameter_the_instantiation_leaves_unwritten_stays_refused():
    # scale<T, 2> needs T, which `template void run<true>(...)` does not write
    assert _errors(SCALE + "template <bool Add, typename T> void run(T *x, int n) { scale<T, 2><<<n / 256, 256>>>(x, n); }\n"
                   "template void run<true>(float *, int);\n") == [("KP216", 2)]


PUT = ("template <typename T, T V>\n__global__ void put(T *x, int n) {\n"
       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] = V;\n}\n")


def test_a_functional_cast_of_a_parameter_bound_to_a_type_of_several_words_is_parenthesised():
    # `put<T, T(1)>` with T = unsigned int: `unsigned int(1)` is no C++; `((unsigned int)(1))` means the same
    text = metal_checked(PUT + "template <typename T> void run(T *x, int n) { put<T, T(1)><<<n / 256, 256>>>(x, n); }\n"
                         "void go(unsigned int *x, int n) { run<unsigned int>(x, n); }\n")
    assert "kernel void put<unsigned int, ((unsigned int)(1))>(" in text


def test_a_functional_cast_of_a_parameter_bound_to_one_name_stays_as_written():
    text = metal_checked(PUT + "template <typename T> void run(T *x, int n) { put<T, T(1)><<<n / 256, 256>>>(x, n); }\n"
                         "void go(int *x, int n) { run<int>(x, n); }\n")
    assert "kernel void put<int, int(1)>(" in text
