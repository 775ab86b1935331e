"""A struct copied out of `constant` memory (cuFHE, culap, tunami-ff: `Params p = c_params;` from a
`__constant__` struct). MSL has no generic address space: reading a `constant` struct into a `thread`
object is a value copy. The checker models MSL with C++ for OpenCL, whose implicit copy constructor and
assignment take a `__generic` reference that `__constant` does not convert to; main's checker rejected
these ports (KP224). The model gap is closed for implicit special members only: real MSL errors next to
it (a `thread` reference bound to constant memory, a user constructor taking `thread`, a write to
`constant`) still fail."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.backends.metal.check import check_metal_source
from kernelport.backends.metal.check.constant_copies import is_constant_struct_copy

from conftest import metal_checked, metal_port, require_tool

PROLOGUE = "#include <metal_stdlib>\nusing namespace metal;\n"
STRUCTS = """
struct Params { int n; float scale; };
struct Inner { float a[3]; };
struct Outer { Inner in; int k = 2; device float *p; };
struct U { int n; U(int a) : n(a) {} U(const thread U& o) : n(o.n) {} };
"""


def _errors(body: str) -> list[str]:
    require_tool("clang")
    src = PROLOGUE + STRUCTS + textwrap.dedent(body)
    return [str(d) for d in check_metal_source(src, "t.metal")]


def test_value_copies_out_of_constant_pass_the_checker():
    assert _errors("""
        void take(Params q) {}
        Params give(constant Params& c) { return c; }
        kernel void k(device float *out [[buffer(0)]], constant Params& c_params [[buffer(1)]],
                      constant Outer* co [[buffer(2)]]) {
          Params p = c_params;
          p = c_params;
          take(c_params);
          Outer o = co[1];
          Params q(c_params);
          Params r{c_params};
          Inner in = co->in;
          out[0] = p.scale + o.k + q.n + r.n + give(c_params).scale + in.a[0];
        }
    """) == []


@pytest.mark.parametrize("body, line_text", [
    # binding a thread reference to a constant object: a real MSL error
    ("kernel void k(device float *out [[buffer(0)]], constant Params& c [[buffer(1)]]) {\n"
     "  thread Params& r = c; out[0] = r.scale; }", "thread Params& r"),
    # a helper taking the struct by thread reference
    ("void mod(thread Params& q) { q.n = 1; }\n"
     "kernel void k(device float *out [[buffer(0)]], constant Params& c [[buffer(1)]]) { mod(c); }", "mod(c)"),
    # a user-declared copy constructor that takes `thread`: no implicit one to fall back on
    ("kernel void k(device float *out [[buffer(0)]], constant U& c [[buffer(1)]]) {\n"
     "  U u = c; out[0] = u.n; }", "U u = c"),
    # writing into constant memory
    ("kernel void k(device float *out [[buffer(0)]], constant Params& c [[buffer(1)]]) {\n"
     "  c = Params{1, 2.0f}; }", "c = Params"),
])
def test_real_errors_beside_the_copy_stay_errors(body, line_text):
    errors = _errors(body)
    assert errors, body
    lines = (PROLOGUE + STRUCTS + body).splitlines()
    line = next(i for i, text in enumerate(lines, 1) if line_text in text)
    assert any(f"t.metal:{line}:" in e for e in errors), errors


def test_only_implicit_candidates_failing_on_constant_are_a_model_gap():
    gap = "cannot bind reference in address space '__constant' to object in address space '__generic' in 1st argument"
    implicit = [f"candidate constructor (the implicit copy constructor) not viable: {gap}",
                f"candidate constructor (the implicit move constructor) not viable: {gap}"]
    assert is_constant_struct_copy("no matching constructor for initialization of '__private P'", implicit)
    assert is_constant_struct_copy("no viable overloaded '='", [n.replace("constructor (", "function (") for n in implicit])
    user = implicit + [f"candidate constructor not viable: {gap}"]
    assert not is_constant_struct_copy("no matching constructor for initialization of '__private P'", user)
    private = [n.replace("'__generic'", "'__private'") for n in implicit]
    assert not is_constant_struct_copy("no matching constructor for initialization of '__private P'", private)
    assert not is_constant_struct_copy("no matching function for call to 'f'", implicit)


CUDA = """
struct Params { int n; float scale; float bias[2]; };
__constant__ Params c_params;
__device__ float apply(Params p, float x) { return p.scale * x + p.bias[0]; }
__global__ void k(float *out) {
  Params p = c_params;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) out[i] = apply(c_params, (float)i) + p.bias[1];
}
"""


def test_a_kernel_copying_its_constant_struct_is_ported():
    """Refused on main (KP224 "no matching constructor for initialization of 'thread Params'")."""
    text = metal_checked(CUDA)
    assert "constant Params& c_params [[buffer(1)]]" in text
    assert "Params p = c_params;" in text


def test_a_const_reference_into_constant_binds_a_copy():
    """Re-pinned at stop 51 (was refused, KP224): a helper taking the struct by `const &`: its port's
    `thread` reference cannot bind `constant` memory in Metal, so the port copies the argument into a
    thread temporary the reference binds (metal/constant_refs.py), which is what the callee reads."""
    text = metal_checked(CUDA.replace("Params p, float x", "const Params &p, float x"))
    assert "out[i] = apply(Params(c_params), (float)i) + p.bias[1];" in text
    assert "float apply(const Params &p, float x)" in text


def test_a_written_reference_into_constant_stays_refused_located():
    """The look-alike: a non-const reference the helper writes through is no copy (CUDA's write would land
    in the object; a copy would lose it), and `constant` memory is read-only in Metal: refused (KP224)."""
    require_tool("clang")
    port, _ = metal_port(CUDA.replace("Params p, float x) { return", "Params &p, float x) { p.n = 0; return"))
    assert not port.ok
    assert any(d.code == "KP224" and d.line == 4 for d in port.diagnostics), [d.format() for d in port.diagnostics]


# tunami-ff's kernels take `KernelData data` by value and bind `KernelData& DT = data; Params& dp =
# data.params;`: a non-const reference may write the thread's copy, so the port copies the argument
# (Metal's `constant` argument is read-only); main bound a thread reference to constant memory (KP224).
REFERENCES = """
struct Params { int n; float scale; };
struct Data { Params params; float *z; };
__global__ void k(Data data) {
  Data& all = data;
  Params& dp = data.params;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < dp.n) all.z[i] = dp.scale;
}
"""


def test_a_by_value_argument_bound_by_a_reference_is_copied():
    text = metal_checked(REFERENCES)
    assert "constant Data& kp_data [[buffer(0)]]" in text
    assert "Data data = kp_data;" in text


def test_a_const_reference_is_copied_too_and_a_value_is_not():
    """`const Params& dp = data.params;` would be a `thread` reference to `constant` memory in the port:
    copied likewise. The look-alike: `const Params dp = data.params;` (a value) reads the argument in place."""
    text = metal_checked(REFERENCES.replace("Data& all = data;\n  Params& dp", "const Params& dp")
                         .replace("all.z[i]", "data.z[i]"))
    assert "Data data = kp_data;" in text
    text = metal_checked(REFERENCES.replace("Data& all = data;\n  Params& dp", "const Params dp")
                         .replace("all.z[i]", "data.z[i]"))
    assert "kp_data" not in text and "constant Data& data [[buffer(0)]]" in text


def test_a_struct_with_a_pointer_of_no_written_space_stays_an_error():
    """`typedef struct { float *dst; ... } params_t;` copied out of `constant`: MSL wants each pointer
    member's space written (the checker's generic pointers accept any), so the copy is not let through
    as the model gap; with `device float *dst;` it is (stop 50: the clean-clone CI found the port of
    tests/test_infer_structs.py's kernel written with bare pointer members, and verify then crashing)."""
    gap = "cannot bind reference in address space '__constant' to object in address space '__generic' in 1st argument"
    implicit = [f"candidate constructor (the implicit copy constructor) not viable: {gap}"]
    msg = "no matching constructor for initialization of '__private params_t'"
    bare = "typedef struct {\n    const float *src;\n    float *dst;\n    int n;\n} params_t;\n"
    assert not is_constant_struct_copy(msg, implicit, bare)
    spelled = bare.replace("const float *src", "device const float *src").replace("float *dst", "device float *dst")
    assert is_constant_struct_copy(msg, implicit, spelled)
    assert is_constant_struct_copy(msg, implicit, "struct params_t { int n; float w[8]; };")
