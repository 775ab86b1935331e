"""Pointers to member functions in Metal device code: KP223 saying what MSL lacks and what to do (stop 61).

Stop 60 taught the parse `typedef float (S::*Op)(float) const;` and `(s.*op)(x)` (member_pointers.py: the
grammar's copy reads a function pointer, the text keeps `S::*`).  The Metal port then said "'Op' is defined
neither in this file nor in Metal's standard library (it comes from a header the Metal port cannot
include)": false (the file defines it) and no help.  A local `float (S::*op)(float) const = &S::twice;`
was refused once as a function pointer and again as an undefined 'op'.  Now each is KP223 naming the
member-function pointer, that MSL has none (its function pointers are MSL 2.3's [[visible]] free functions
through a table), and the fix (call the member, or choose it by a value); a refused pointer's name is not
reported again at its uses.  HIP ports both as written.
"""
from __future__ import annotations

from conftest import metal_port

STRUCT = """
struct S {
    float k;
    __device__ float twice(float x) const { return 2.0f * x * k; }
    __device__ float half(float x) const { return 0.5f * x * k; }
};
"""


def _errors(code: str):
    port, _ = metal_port(code)
    return [(d.code, d.location.line, d.message, d.hint) for d in port.diagnostics if d.severity == "error"]


def test_a_member_function_pointer_typedef_says_what_metal_lacks():
    got = _errors(STRUCT + """
        typedef float (S::*Op)(float) const;
        __device__ float apply(const S &s, Op op, float x) { return (s.*op)(x); }
        __global__ void kern(float *out, S s, int which)
        {
            Op op = which ? &S::twice : &S::half;
            out[threadIdx.x] = apply(s, op, out[threadIdx.x]);
        }
        """)
    assert len(got) == 1, got
    code, line, message, hint = got[0]
    assert code == "KP223" and line == 9
    assert message.startswith("the member-function-pointer type 'Op' (the file's, line 8) has no Metal meaning")
    assert "MSL has no pointers to member functions" in message and "defined neither" not in message
    assert hint.startswith("call the member directly, or choose it by a value")


def test_a_local_member_function_pointer_is_one_refusal():
    got = _errors(STRUCT + """
        __global__ void kern(float *out, S s)
        {
            float (S::*op)(float) const = &S::twice;
            out[threadIdx.x] = (s.*op)(out[threadIdx.x]);
        }
        """)
    assert [(c, line) for c, line, _, _ in got] == [("KP223", 10)], got
    assert got[0][2].startswith("a member-function pointer in device code has no Metal meaning (MSL has no pointers")


def test_a_plain_function_pointer_keeps_its_wording_and_is_one_refusal():
    got = _errors("""
        __device__ float tw(float x) { return 2 * x; }
        __global__ void kern(float *out)
        {
            float (*op)(float) = tw;
            out[threadIdx.x] = op(out[threadIdx.x]);
        }
        """)
    assert got == [("KP223", 5, "a function pointer in device code has no Metal meaning",
                    "call the function directly, or switch on a value: Metal has no function pointers in this form")]


def test_a_function_pointer_typedef_keeps_its_wording():
    got = _errors("""
        typedef float (*Fn)(float);
        __device__ float tw(float x) { return 2 * x; }
        __device__ float run(Fn f, float x) { return f(x); }
        __global__ void kern(float *out) { out[threadIdx.x] = run(tw, out[threadIdx.x]); }
        """)
    assert got and got[0][2].startswith("the function-pointer type 'Fn' (the file's, line 2) has no Metal meaning"), got
    assert "member" not in got[0][2]


def test_member_calls_and_a_scoped_name_are_no_member_pointers():
    port, _ = metal_port(STRUCT + """
        struct T { static constexpr float w = 2.0f; };
        __global__ void kern(float *out, S s) { out[threadIdx.x] = s.twice(out[threadIdx.x]) * T::w; }
        """)
    assert port.ok, [d.format() for d in port.diagnostics]


def test_hip_ports_member_function_pointers_as_written():
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    import textwrap
    code = textwrap.dedent(STRUCT + """
        typedef float (S::*Op)(float) const;
        __global__ void kern(float *out, S s, int which)
        {
            Op op = which ? &S::twice : &S::half;
            out[threadIdx.x] = (s.*op)(out[threadIdx.x]);
        }
        """)
    port, text = translate(SourceFile.from_text(code, "t.cu"), "hip")
    assert port.ok and "typedef float (S::*Op)(float) const;" in text and "(s.*op)(" in text
