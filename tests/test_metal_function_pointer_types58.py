"""Metal: a function-pointer type the file itself declares (`typedef unsigned (*HashFunc)(State*)`) used in
device code, or a program-scope `__device__`/`__constant__` table of one (heldout55 sliding-puzzle
idas_pdb.cu's `__device__ HashFunc hash[] = {hash0, ...}`), is refused at its line saying what Metal lacks
(function pointers), not "defined neither in this file ..." (false: the typedef is in the file), and never
left to the checker (a `__constant__` table was KP224 "unknown type name").  A host table of the same type
that device code does not name is host code, left out: the port is written.  Snippets written for the tests
(kernelport.backends.metal.unported)."""
from __future__ import annotations

from conftest import metal_checked
from port_support import refusal

FUNCS = """\
typedef unsigned int (*HashFunc)(int *s);
__device__ unsigned int h0(int *s) { return s[0]; }
__device__ unsigned int h1(int *s) { return s[1]; }
"""


def _one(code: str):
    errors = refusal(code, to="metal", expect="KP223")
    assert len(errors) == 1, [e.format() for e in errors]
    e = errors[0]
    assert "function-pointer type 'HashFunc' (the file's, line 1)" in e.message, e.message
    assert "Metal has no function pointers" in e.format() and "defined neither" not in e.message
    return e.location.line, e.location.column


def test_a_device_table_of_the_files_function_pointer_type_says_metal_has_no_function_pointers():
    # idas_pdb.cu's shape: the table, a local of the type, a call through each
    code = FUNCS + ("__device__ HashFunc hash[] = {h0, h1};\n"
                    "__global__ void k(int *o, int pick) {\n    HashFunc rh;\n    rh = hash[pick];\n"
                    "    o[0] = rh(o) + hash[1](o);\n}\n")
    assert _one(code) == (4, 1)  # at the table, once (its type's later use is the same cause)


def test_a_constant_table_is_refused_at_its_declaration_not_by_the_checker():
    code = FUNCS + "__constant__ HashFunc hash[] = {h0, h1};\n__global__ void k(int *o, int p) { o[0] = hash[p](o); }\n"
    assert _one(code) == (4, 1)


def test_a_local_of_the_files_function_pointer_type_in_a_kernel():
    code = FUNCS + "__global__ void k(int *o) {\n    HashFunc f = h1;\n    o[0] = f(o);\n}\n"
    assert _one(code) == (5, 5)


# Look-alike: the same typedef and a host table of it (no __device__): host code, left out; the kernel ports
def test_a_host_table_of_the_type_leaves_the_kernel_written():
    text = metal_checked(FUNCS + "HashFunc host_table[] = {0, 0};\n"
                         "__global__ void k(int *o) { o[0] = (int)h0(o) + 1; }\n")
    assert "HashFunc" not in text.split("kernel void k")[1]


# Look-alike: a type nothing in reach defines keeps its words (it comes from a header the port cannot include)
def test_an_undefined_type_still_says_defined_neither():
    errors = refusal("__global__ void k(int *o) {\n    Widget *w = 0;\n    o[0] = w != 0;\n}\n", to="metal",
                     expect="KP223")
    assert any("'Widget' is defined neither in this file" in e.message for e in errors), [e.format() for e in errors]
