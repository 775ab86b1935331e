"""Metal ports of heldout55's IDA* kernels (sliding-puzzle's src_horie/idas_*.cu): a file-scope
`__device__ __shared__ static struct dir_stack_tag { ... } stack[BLOCK_DIM];` read through
`#define STACK (stack[threadIdx.x])` by helpers declared `stack_is_empty(void)`, in a file whose kernels
have a local `tid`.  Four general mechanisms, each before this a port that did not compile (KP224):
- a file-scope threadgroup array whose type defines a struct keeps the struct at file scope and is
  declared by its kernels as `threadgroup struct tag name[N]` (was the whole struct body in each
  kernel and each helper's parameter: "cannot be defined in a parameter type");
- a helper that names the array only through a macro owns it too (was: "undeclared identifier 'stack'");
- a `(void)` parameter list that receives extras loses its `void` (was `uint3 tidvoid`);
- a built-in inside a macro body is spelled as the file's code spells it: Metal's attribute name where
  the file's own words take the short one (was `tid.x` in the macro beside a local `int tid`).
Look-alikes keep their forms.  Type-checked by kernelport's Metal checker."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked
except ImportError:  # pragma: no cover
    from conftest import metal_checked

STACK = """#define BLOCK_DIM 32
__device__ __shared__ static struct stack_tag {
    int i;
    unsigned char buf[16];
} stack[BLOCK_DIM];
#define STACK (stack[threadIdx.x])

__device__ static inline void stack_put(unsigned char d) { STACK.buf[STACK.i] = d; ++STACK.i; }
__device__ static inline bool stack_is_empty(void) { return STACK.i == 0; }

__global__ void k(int *out) {
    STACK.i = 0;
    stack_put(3);
    out[threadIdx.x] = STACK.i + stack_is_empty();
}
"""


def test_a_file_scope_struct_array_read_through_a_macro_is_each_kernels_threadgroup_array():
    out = metal_checked(STACK)
    assert "struct stack_tag {\n    int i;\n    unsigned char buf[16];\n};" in out
    assert "threadgroup struct stack_tag stack[BLOCK_DIM];" in out
    assert "void stack_put(unsigned char d, threadgroup struct stack_tag* stack, uint3 tid)" in out
    assert "bool stack_is_empty(threadgroup struct stack_tag* stack, uint3 tid)" in out  # (was `tidvoid`)
    assert "stack_put(3, stack, tid);" in out


def test_an_anonymous_struct_gets_a_name_and_a_plain_array_keeps_its_type():
    out = metal_checked(STACK.replace("struct stack_tag {", "struct {"))
    assert "struct kp_stack_t {" in out and "threadgroup struct kp_stack_t stack[BLOCK_DIM];" in out
    plain = "__shared__ float buf[64];\n__device__ float get(void) { return buf[threadIdx.x]; }\n" \
            "__global__ void k(float *o) { buf[threadIdx.x] = 1.0f; o[threadIdx.x] = get(); }\n"
    out = metal_checked(plain)
    assert "threadgroup float buf[64];" in out and "float get(threadgroup float* buf, uint3 tid)" in out


def test_void_without_extras_stays():
    out = metal_checked("__device__ int one(void) { return 1; }\n__global__ void k(int *o) { o[threadIdx.x] = one(); }\n")
    assert "int one(void) { return 1; }" in out


MACRO = """#define TX (threadIdx.x)
__device__ int lane(int tid) { return TX + tid; }
__global__ void k(int *o) { int tid = 3; o[TX] = lane(tid); }
"""


def test_a_builtin_in_a_macro_body_takes_the_files_name_for_it():
    out = metal_checked(MACRO)
    assert "#define TX (thread_position_in_threadgroup.x)" in out
    assert "int lane(int tid, uint3 thread_position_in_threadgroup)" in out


def test_where_the_short_name_is_free_the_macro_keeps_it():
    out = metal_checked(MACRO.replace("tid", "t"))
    assert "#define TX (tid.x)" in out and "int lane(int t, uint3 tid)" in out
