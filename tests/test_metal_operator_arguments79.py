"""A class with member operators passed to a kernel by value (held-out set 79: a CUDA course's ray
marcher, `Vec3 lookDirection` and `Vec3 operator+(const Vec3 &b)`), synthetic cases here.

Main refused such ports (KP224) three ways: `__device__ __host__ V() = default;` kept its CUDA words
(a bodiless definition, which the member-declaration pass did not visit); `look + V(u) * up` had a
`constant` kernel argument as an operator's object or its reference argument ("invalid operands to
binary expression ('V' and 'constant V')"), which a `thread` copy at the kernel's entry cures as it
does for a written argument (argcopies.py); and the checker took `V operator*(...)` in the class for a
pointer member without an address space, so the copy `V a = kp_a;` out of `constant` stayed an error.
"""
from __future__ import annotations

from kernelport.backends.metal.check.constant_copies import is_constant_struct_copy

from conftest import metal_checked, metal_port

CLASS = """
struct V {
    float x, y;
    __device__ __host__ V() = default;
    __device__ __host__ V(float a, float b) : x(a), y(b) {}
    __device__ __host__ V operator+(const V &o) { return V(x + o.x, y + o.y); }
    __device__ __host__ V operator*(const V &o) { return V(x * o.x, y * o.y); }
};
"""


def test_a_defaulted_constructor_loses_its_cuda_words():
    text = metal_checked(CLASS + "__global__ void k(float *o) { V v(1.0f, 2.0f); o[threadIdx.x] = v.x; }\n")
    assert "    V() = default;" in text and "__device__" not in text and "__host__" not in text


def test_a_defaulted_constructor_without_cuda_words_is_left_alone():
    text = metal_checked("struct W { float x; W() = default; };\n"
                         "__global__ void k(float *o) { W w; w.x = 1.0f; o[threadIdx.x] = w.x; }\n")
    assert "W() = default;" in text


def test_class_arguments_of_user_operators_are_copied_and_an_int_beside_them_is_not():
    text = metal_checked(CLASS + """
        __global__ void k(float *out, V a, V b, int n)
        {
            V r = a + V(1.0f, 2.0f) * b;
            out[threadIdx.x] = r.x + r.y + (float)(n + 1);
        }
        """)
    assert "V a = kp_a;" in text and "V b = kp_b;" in text
    assert "constant int& n [[buffer(3)]]" in text and "kp_n" not in text  # `n + 1`: a built-in `+`


def test_a_class_argument_read_by_a_built_in_operator_only_is_not_copied():
    port, text = metal_port(CLASS + """
        __global__ void k(float *out, V a) { out[threadIdx.x] = a.x + a.y; }
        """)
    assert port.ok and "constant V& a [[buffer(1)]]" in text and "kp_a" not in text


def test_a_member_operator_is_no_pointer_member_but_a_pointer_member_still_is():
    gap = "cannot bind reference in address space '__constant' to object in address space '__generic' in 1st argument"
    notes = [f"candidate constructor (the implicit copy constructor) not viable: {gap}",
             "candidate constructor not viable: requires 2 arguments, but 1 was provided"]
    msg = "no matching constructor for initialization of '__private V'"
    ops = "struct V { float x; V(float a, float b) : x(a) {} V operator*(const V &o) { return V(x * o.x, 0); } };"
    assert is_constant_struct_copy(msg, notes, ops)
    pointer = "struct V { float *p; V(float a, float b) : p(0) {} V operator*(const V &o) { return o; } };"
    assert not is_constant_struct_copy(msg, notes, pointer)  # MSL wants the pointer's space written
