"""Causes of Metal refusals in real code (held-out: heldout27 awp-odc-os, heldout30 atpqc-cuda and cuFHE,
heldout33 n-queens, heldout35 cuda-ac-wm; tests/realcorpus llm.c), each as a CUDA snippet written for the
test (no fetched file is read).  Each port checked here was refused on main (h/metal48's branch point
0ccbba8) with KP224: translate's own Metal checker rejected what the port wrote."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write  # (one checked-port helper for all)


# n-queens, cuda-ac-wm, awp-odc-os: `register` locals.  MSL has no `register` (the specification's list
# of the C++14 features Metal lacks); it had no effect in CUDA, so it goes from the port.
REGISTER = {"k.cu": """
    __global__ void k(const int* a, int* out, int n)
    {
        register int i = blockIdx.x * blockDim.x + threadIdx.x;
        register unsigned int acc = 0;
        int registers = n;  /* register: a word in a comment stays */
        for (register int j = 0; j < registers; j++) acc += a[j];
        if (i < n) out[i] = acc;
    }
"""}


def test_register_goes_from_the_port(tmp_path: Path):
    _write(tmp_path, REGISTER)
    text = _port(tmp_path / "k.cu")
    assert "register int" not in text and "register unsigned" not in text
    assert "int registers = n;" in text and "/* register: a word in a comment stays */" in text


# atpqc-cuda fips202_ws/global.cu: `device::sha3<Bits> sha3_func; sha3_func(h, in, ...)`: a local of a
# class template's instance called as an object.  Its operator() was not seen as the callee (the type is a
# template's), so the call passed neither the built-in the member reads nor the threadgroup pointer's space.
FUNCTOR = {"k.cu": """
    namespace dev {
    template <unsigned N>
    struct scale {
      __device__ void operator()(float* out, const float* in, float* tmp) const {
        tmp[threadIdx.x] = in[threadIdx.x] * N;
        __syncthreads();
        out[threadIdx.x] = tmp[(threadIdx.x + 1) % blockDim.x];
      }
    };
    }
    template <unsigned N>
    __global__ void k(float* out, const float* in) {
      __shared__ float tmp[256];
      dev::scale<N> f;
      f(out, in, tmp);
    }
    template __global__ void k<2>(float*, const float*);
"""}


def test_a_class_template_instance_called_as_an_object_gets_its_spaces_and_builtins(tmp_path: Path):
    _write(tmp_path, FUNCTOR)
    text = _port(tmp_path / "k.cu")
    assert "void operator()(device float* out, const device float* in, threadgroup float* tmp, uint3 tid" in text
    assert "f(out, in, tmp, tid, bdim);" in text


# atpqc-cuda fips202_ws/device.cuh: shake<Bits>'s operator() calls a nested functor `squeezeblocks_f` with a
# device and a threadgroup pointer; sha3<Bits>'s operator() has the same name and signature.  Functions were
# visited once per (name, signature), so shake's operator() (visited after sha3's) never passed its spaces on:
# squeezeblocks got no threadgroup overload.
TWO_FUNCTORS = {"k.cu": """
    struct copy_to {
      __device__ void operator()(float* dst, const float* src, int i) const { dst[i] = src[i]; }
    };
    struct first {
      __device__ void operator()(float* out, const float* in, float* tmp) const { out[threadIdx.x] = in[0]; }
    };
    struct second {
      __device__ void operator()(float* out, const float* in, float* tmp) const {
        copy_to c;
        c(tmp, in, threadIdx.x);
        __syncthreads();
        c(out, tmp, threadIdx.x);
      }
    };
    __global__ void k1(float* out, const float* in) { __shared__ float t[64]; first f; f(out, in, t); }
    __global__ void k2(float* out, const float* in) { __shared__ float t[64]; second s; s(out, in, t); }
"""}


def test_two_functions_of_one_name_and_signature_each_pass_their_spaces_on(tmp_path: Path):
    _write(tmp_path, TWO_FUNCTORS)
    text = _port(tmp_path / "k.cu")
    assert "void operator()(threadgroup float* dst, const device float* src, int i) const" in text
    assert "void operator()(device float* dst, const threadgroup float* src, int i) const" in text


# cuFHE ntt_ffp.cuh: `void Mul(...) { ...; ModP(val_); }` with `void ModP(uint64_t& x)`: a member of the
# object passed by reference to another member.  On a device object (`acc[i].add(v)`) the field is in
# device memory, so the reference is a `device` one; main wrote `thread` (a thread reference cannot bind it).
OWN_FIELD = {"k.cu": """
    __device__ unsigned int sum4(const unsigned int* p) { return p[0] + p[1] + p[2] + p[3]; }
    struct Acc {
      unsigned int v;
      unsigned int last[4];
      __device__ void fold(unsigned int& x) { x = x % 97u; }
      __device__ void add(unsigned int a) { v += a + sum4(last); fold(v); }
    };
    __global__ void k(Acc* acc, int n) { acc[threadIdx.x].add(n); }
"""}


def test_a_field_of_a_device_object_binds_a_device_reference(tmp_path: Path):
    """(An array member passed as a pointer likewise: `sum4(last)` points into the device object.)"""
    _write(tmp_path, OWN_FIELD)
    text = _port(tmp_path / "k.cu")
    assert "void fold(device unsigned int& x) device" in text and "void add(unsigned int a) device" in text
    assert "unsigned int sum4(const device unsigned int* p)" in text


# llm.c common.h: `using reduction_func_t = float (*) (float); template<reduction_func_t warp_reduction>
# float blockReduce(float val)`, instantiated `blockReduce<warpReduceSum>(x)`; and trimat_forward.cu's
# template kernel `template<matmul_fn_ptr matmul_tri> __global__ void trimul_global(...)` whose instances
# the host names (`trimul_global<matmul_tri_naive>`).  MSL has no function pointers: main kept them and the
# checker refused ("pointers to functions are not allowed").  The functions differ in the built-ins they
# read (warp_sum the SIMD width, warp_max none after its butterfly became simd_max).
FUNCTION_ARGS = {"k.cu": """
    typedef float (*reduce_fn)(float);
    __device__ float warp_sum(float v) {
        for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
        return v;
    }
    __device__ float warp_max(float v) {
        for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
        return v;
    }
    template <reduce_fn op>
    __device__ float reduce_twice(float v) { float w = op(v); return op(w) / 32.0f; }
    template <reduce_fn op>
    __device__ float reduce_once(float v) { return reduce_twice<op>(v) * 32.0f; }
    __global__ void k(const float* x, float* out) {
        float s = reduce_twice<warp_sum>(x[threadIdx.x]);
        float m = reduce_once<warp_max>(x[threadIdx.x]);
        if (threadIdx.x == 0) { out[0] = s; out[1] = m; }
    }
    template <float (*row)(const float*, int)>
    __global__ void rows(float* out, const float* in) { out[blockIdx.x] = row(in, blockIdx.x); }
    __device__ float first(const float* in, int r) { return in[r * 32]; }
    __device__ float lane(const float* in, int r) { return in[r * 32 + threadIdx.x % 32]; }
    __device__ void bump(float& x) { x += 1.0f; }
    template <void (*f)(float&)>
    __device__ void apply(float* v) { f(v[threadIdx.x]); }
    __global__ void bumps(float* v) { apply<bump>(v); }
    void run(float* out, const float* in) {
        rows<first><<<4, 32>>>(out, in);
        rows<lane><<<4, 32>>>(out, in);
    }
"""}


def test_functions_passed_as_template_arguments_are_function_objects(tmp_path: Path):
    _write(tmp_path, FUNCTION_ARGS)
    text = _port(tmp_path / "k.cu")
    assert "(*" not in text.split("#include <metal_stdlib>")[1].split("kernel void k(")[0].replace("/*", "")
    assert "template <typename op>\nfloat reduce_twice(float v, uint simd_width)" in text
    assert "op{}(v, simd_width)" in text and "reduce_twice<op>(v, simd_width)" in text
    assert "reduce_twice<kp_fn_warp_sum>(x[tid.x], simd_width)" in text
    assert "float warp_max(float v, uint simd_width)" in text  # one set of extras for every function passed
    # the kernel's instances name function objects, declared after them (at the end of the port)
    inst = text.index('template [[host_name("rows_first")]] kernel void rows<kp_fn_first>(')
    assert text.index("struct kp_fn_first") < inst and text.index("struct kp_fn_lane") < inst
    assert "row{}(in, bid.x, tid)" in text
    # a function taking a (non-const) reference: forwarded, so `f(v[i])` still changes v[i]
    assert "struct kp_fn_bump { template <typename... A> decltype(auto) operator()(A&&... a) const " \
           "{ return bump(static_cast<A&&>(a)...); } };" in text
    assert "struct kp_fn_first { template <typename... A> decltype(auto) operator()(A... a) const" in text


# Look-alike: a function pointer that is a value (chosen at run time) has no Metal meaning: still refused,
# at its line.
POINTER_VALUE = {"k.cu": """
    typedef float (*unary)(float);
    __device__ float twice(float x) { return 2.0f * x; }
    __device__ float half_of(float x) { return 0.5f * x; }
    __global__ void k(float* o, int pick) {
        unary f = pick ? twice : half_of;
        o[threadIdx.x] = f(o[threadIdx.x]);
    }
"""}


def test_a_function_pointer_value_is_still_refused_at_its_line(tmp_path: Path):
    _write(tmp_path, POINTER_VALUE)
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert not port.ok and errors and all(d.location.line in (1, 5) for d in errors), [d.format() for d in errors]


# rodinia heartwall: `__constant__ params_unique d_unique[N]` (the host copies structs of device pointers in
# with cudaMemcpyToSymbol) and `d_in = &d_unique[bx].d_T[...]`: the member was an unqualified pointer, so
# the address was not known to be device memory (KP224: assigning '__generic float *' to 'thread float *').
# Its pointer members are device addresses, as a kernel argument's struct's are (pointer_members.py).
CONSTANT_STRUCTS = {"k.cu": """
    struct params_unique { float* d_T; int in_pointer; };
    __constant__ params_unique d_unique[4];
    struct local_only { float* p; };
    __global__ void k(int n)
    {
        float* d_in;
        d_in = &d_unique[blockIdx.x].d_T[d_unique[blockIdx.x].in_pointer];
        if (threadIdx.x < n) d_in[threadIdx.x] = 1.0f;
        float x = 0.0f;
        local_only l;
        l.p = &x;
        *l.p = 2.0f;
    }
"""}


def test_pointer_members_of_a_constant_structs_are_device_pointers(tmp_path: Path):
    _write(tmp_path, CONSTANT_STRUCTS)
    text = _port(tmp_path / "k.cu")
    assert "struct params_unique { device float* d_T; int in_pointer; };" in text
    assert "struct local_only { float* p; };" in text  # a struct only thread code holds: as written
    assert "Metal Shading Language 3.0 or later" in text  # (the host writes gpuAddress values)


# cuda-ac-wm (heldout35, six files): 16 text bytes loaded as a uint4, each component's bytes read as a
# uchar4 through `*reinterpret_cast<uchar4 *>(&uint4_var.x)`.  MSL takes no address of a vector component
# (KP224 on main: "address of vector element requested"); the read is `as_type<uchar4>(v.x)`.
VIEWS = {"k.cu": """
    __global__ void k(const uint4* t, uchar4* o, short2* s)
    {
        uint4 v = t[threadIdx.x];
        o[4 * threadIdx.x] = *reinterpret_cast<uchar4 *> ( &v.x );
        o[4 * threadIdx.x + 1] = *(uchar4*)&v.y;
        s[threadIdx.x] = *reinterpret_cast<short2*>(&v.z);
    }
"""}
# Look-alikes: a store through the view, and a type of another size, are not reads of the bits: refused.
VIEW_STORE = {"k.cu": """
    __global__ void k(uint4* t, uchar4 c)
    {
        uint4 v = t[threadIdx.x];
        *reinterpret_cast<uchar4*>(&v.x) = c;
        uchar2 h = *reinterpret_cast<uchar2*>(&v.y);
        t[threadIdx.x] = v;
        t[0].x = h.x;
    }
"""}


def test_a_vector_components_bytes_are_read_with_as_type(tmp_path: Path):
    _write(tmp_path, VIEWS)
    text = _port(tmp_path / "k.cu")
    assert "o[4 * tid.x] = as_type<uchar4>(v.x);" in text and "o[4 * tid.x + 1] = as_type<uchar4>(v.y);" in text
    assert "s[tid.x] = as_type<short2>(v.z);" in text


def test_a_store_through_a_component_view_or_another_size_is_refused_at_its_line(tmp_path: Path):
    _write(tmp_path, VIEW_STORE)
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    lines = sorted({d.location.line for d in port.diagnostics if d.severity == "error"})
    assert not port.ok and lines == [4, 5], [d.format() for d in port.diagnostics]


# cudagameoflife (`const bool* const* surrounding`) and cate (`int **seg_Position_Array`): a kernel's buffer of
# device pointers.  Only the innermost level named `device`, so the buffer itself was a `thread` pointer
# (KP224 on main: "pointer arguments to kernel functions must reside in device, constant or threadgroup
# address space").  Every level of a pointer stored in device memory is a device address (the host writes
# gpuAddress values, as for a struct's pointer members); a helper given it likewise.  Look-alike: a
# one-level pointer is as it was.
POINTER_BUFFERS = {"k.cu": """
    __device__ bool cell(const bool* const* s, int b, int x) { return s[b][x]; }
    __global__ void k(bool* out, const bool* const* surrounding, int** idx)
    {
        int x = threadIdx.x;
        out[x] = cell(surrounding, idx[0][x], x);
    }
"""}


def test_a_kernels_buffer_of_pointers_is_device_at_every_level(tmp_path: Path):
    _write(tmp_path, POINTER_BUFFERS)
    text = _port(tmp_path / "k.cu")
    assert "const device bool* const device * surrounding [[buffer(1)]]" in text
    assert "device int* device * idx [[buffer(2)]]" in text
    assert "bool cell(const device bool* const device * s, int b, int x)" in text
    assert "kernel void k(device bool* out [[buffer(0)]]," in text
    assert "Metal Shading Language 3.0 or later" in text
