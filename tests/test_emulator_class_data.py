"""C++ class templates with data members on the emulator (llm.c's Packed128: stop 43): the class as a
C struct per instance, its constructor, static and const member functions, `operator[]` and static
constants (frontend/classdata.py); `memcpy` as a bit copy (emulator/bitcopy.py); a template type
deduced from a pointer-plus-offset argument; a byte buffer cast to a pointer to such structs, loaded
and stored whole.  Each with the look-alike that must stay a located refusal."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel
from kernelport.emulator.frontend import LowerError

PACK = r"""
template<class T>
struct alignas(16) Pack {
    Pack() = default;
    __device__ explicit Pack(int4 bits) { memcpy(&items, &bits, sizeof(bits)); }
    __device__ static Pack filled(T v) { Pack r; for (int k = 0; k < count; ++k) { r.items[k] = v; } return r; }
    __device__ static Pack ones() { return filled(1); }
    __device__ T& operator[](int i) { return items[i]; }
    __device__ const T& operator[](int i) const { return items[i]; }
    __device__ int4 bits() const { int4 b; memcpy(&b, &items, sizeof(b)); return b; }
    __device__ T sum() const { T s = 0; for (int k = 0; k < count; ++k) s += items[k]; return s; }
    static constexpr const int count = sizeof(int4) / sizeof(T);
    T items[count];
};
typedef Pack<float> f4p;
template<class T> __device__ Pack<T> load_pack(const T* a) { return Pack<T>{*reinterpret_cast<const int4*>(a)}; }
template<class T> __device__ void store_pack(T* t, Pack<T> v) { *reinterpret_cast<int4*>(t) = v.bits(); }
__global__ void k(float* out, float* sums, const float* in, int n) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * f4p::count;
    if (i < n) {
        f4p o;
        f4p a = load_pack(in + i);
        f4p one = f4p::ones();
        for (int j = 0; j < a.count; ++j) { o[j] = a[j] * 2.0f + one[j] + j; }
        store_pack(out + i, o);
        sums[i / f4p::count] = a.sum();
    }
}
"""


def _pack(src=PACK, n=32):
    inp = np.arange(n, dtype=np.float32)
    return run_kernel(src, "k", args={"out": np.zeros(n, np.float32), "sums": np.zeros(n // 4, np.float32),
                                      "in": inp, "n": np.int32(n)}, grid=(2,), block=(4,)).outputs


def test_a_class_template_with_an_array_member_runs_as_a_struct():
    """128-bit loads into the element array (a constructor from int4 by memcpy), `o[j] = ...` through
    operator[], a static function, `f4p::count` and `a.count`, a const member (by value), the bits
    stored back: each lane handles its 4 elements."""
    out = _pack()
    x = np.arange(32, dtype=np.float32)
    np.testing.assert_array_equal(out["out"], x * 2 + 1 + np.tile(np.arange(4), 8))
    np.testing.assert_array_equal(out["sums"], x.reshape(8, 4).sum(1))


def test_a_using_alias_in_a_body_names_the_instance():
    src = PACK.replace("    if (i < n) {\n        f4p o;", "    using P = Pack<float>;\n    if (i < n) {\n        P o;")
    src = src.replace("o[j] = a[j] * 2.0f", "o[j] = a[j] * 2.0f + 0 * P::count")
    out = _pack(src)
    np.testing.assert_array_equal(out["out"][:4], [1, 4, 7, 10])


def test_a_member_function_that_writes_the_object_stays_refused():
    """C has no reference to write through: a non-const member (`void scale(T f) { items[0] *= f; }`)
    is left as written, so its use is a located refusal, never a write to a copy."""
    src = PACK.replace("    static constexpr", "    __device__ void scale(T f) { items[0] *= f; }\n    static constexpr")
    src = src.replace("        store_pack(out + i, o);", "        o.scale(2.0f);\n        store_pack(out + i, o);")
    with pytest.raises((LowerError, EmulatorError)) as e:
        _pack(src)
    assert ":" in str(e.value) and "k" in str(e.value)


def test_an_operator_with_a_body_of_statements_is_not_inlined():
    """Only `return EXPR;` inlines; a body of statements leaves `obj[k]` a located refusal."""
    src = PACK.replace("__device__ T& operator[](int i) { return items[i]; }",
                       "__device__ T& operator[](int i) { int j = i; return items[j]; }")
    with pytest.raises((LowerError, EmulatorError)):
        _pack(src)


BITS = r"""
__global__ void k(unsigned* out, const float* in, float* back) {
    int i = threadIdx.x;
    float f = in[i];
    unsigned u;
    memcpy(&u, &f, sizeof(u));
    out[i] = u;
    float g;
    memcpy(&g, &u, 4);
    back[i] = g;
}
"""


def test_memcpy_between_locals_copies_the_bits():
    x = np.array([1.0, -2.5, 0.1, 3e-39], np.float32)
    out = run_kernel(BITS, "k", args={"out": np.zeros(4, np.uint32), "in": x, "back": np.zeros(4, np.float32)},
                     grid=(1,), block=(4,)).outputs
    np.testing.assert_array_equal(out["out"], x.view(np.uint32))
    np.testing.assert_array_equal(out["back"], x)


def test_memcpy_of_part_of_a_local_is_refused_at_its_line():
    src = BITS.replace("memcpy(&g, &u, 4);", "memcpy(&g, &u, 2);")
    with pytest.raises(EmulatorError, match=r"memcpy: 2 bytes .* only whole objects") as e:
        run_kernel(src, "k", args={"out": np.zeros(4, np.uint32), "in": np.ones(4, np.float32),
                                   "back": np.zeros(4, np.float32)}, grid=(1,), block=(4,))
    assert e.value.line == 9


def test_memcpy_from_an_unaligned_address_is_refused():
    src = r"""
__global__ void k(int* out, const float* in) {
    int4 b;
    memcpy(&b, in + 1 + 4 * threadIdx.x, sizeof(b));
    out[threadIdx.x] = b.x;
}
"""
    ok = run_kernel(src, "k", args={"out": np.zeros(2, np.int32), "in": np.arange(12, dtype=np.float32)},
                    grid=(1,), block=(2,)).outputs["out"]
    np.testing.assert_array_equal(ok, np.array([1, 5], np.float32).view(np.int32))  # 4-byte scalars: aligned
    bad = src.replace("const float* in", "const short* in").replace("in + 1 +", "in + 1 + 0 *")
    with pytest.raises(EmulatorError, match="not aligned"):
        run_kernel(bad, "k", args={"out": np.zeros(2, np.int32), "in": np.arange(12, dtype=np.int16)},
                   grid=(1,), block=(2,))


DEDUCE = PACK.replace("typedef Pack<float> f4p;", "typedef __nv_bfloat16 floatX;\ntypedef Pack<floatX> f4p;").replace(
    "float* out, float* sums, const float* in", "floatX* out, float* sums, const floatX* in")


def test_a_class_argument_deduced_through_a_16_bit_float_typedef_keeps_the_float():
    """`load_pack(in + i)` deduces T from in's declaration (a pointer plus an offset); floatX names
    bfloat16, which the parser sees as `unsigned short`: the deduction keeps the name, so Pack<floatX>
    is one instance of floats, not of 16-bit integers (0.25 would be 0).  Re-pinned in stop 45: a
    bfloat16 is 2 bytes (emulator/bfloat16.py), so `count` is sizeof(int4) / 2 = 8 as in CUDA and j
    runs 0..7 over a lane's eight elements (the pin of 4 was the emulator's 4-byte bfloat16)."""
    x = np.arange(32, dtype=np.float32) * 0.25
    out = run_kernel(DEDUCE, "k", args={"out": np.zeros(32, np.float32), "sums": np.zeros(8, np.float32),
                                        "in": x, "n": np.int32(32)}, grid=(2,), block=(4,)).outputs["out"]
    k = np.arange(32) % 8
    np.testing.assert_array_equal(out, x * 2 + 1 + k)
    scaled = r"""
typedef __nv_bfloat16 floatX;
template<class T> __device__ T scaled(const T* p, float f) { return (T)(*p * f); }
__global__ void k(floatX* out, const floatX* in) { int i = threadIdx.x; out[i] = scaled(in + i, 0.5f); }
"""
    out = run_kernel(scaled, "k", args={"out": np.zeros(4, np.float32), "in": np.arange(4, dtype=np.float32) + 1},
                     grid=(1,), block=(4,)).outputs["out"]
    np.testing.assert_array_equal(out, [0.5, 1, 1.5, 2])  # T deduced as floatX, not `unsigned short`


SHARED = PACK.split("__global__")[0] + r"""
__global__ void k(float* out, const float* in, int n) {
    extern __shared__ char params[];
    f4p* s = reinterpret_cast<f4p*>(params);
    int t = threadIdx.x;
    s[t] = load_pack(in + 4 * t);
    __syncthreads();
    const f4p r = s[blockDim.x - 1 - t];
    f4p o;
    for (int j = 0; j < f4p::count; ++j) { o[j] = r[j] + 100.0f; }
    store_pack(out + 4 * t, o);
}
"""


def test_a_byte_buffer_cast_to_a_pointer_to_such_structs_is_loaded_and_stored_whole():
    """llm.c's `x128* s_res = reinterpret_cast<x128*>(params)`: the cast gives a pointer to structs
    (not a byte pointer indexed by bytes), `s[t] = pack` stores the array member's elements and
    `const x128 r = s[k]` copies them into the local's own."""
    x = np.arange(16, dtype=np.float32)
    out = run_kernel(SHARED, "k", args={"out": np.zeros(16, np.float32), "in": x, "n": np.int32(16)},
                     grid=(1,), block=(4,), shared_bytes=64).outputs["out"]
    np.testing.assert_array_equal(out, x.reshape(4, 4)[::-1].reshape(-1) + 100)


def test_the_metal_port_of_such_a_class_runs_and_matches(tmp_path):
    """The Metal port spells the pointers `const device T*` (an address space is no part of the
    deduced T), its parameters `in [[buffer(2)]]`, and C's memcpy as its `kp_memcpy` polyfill, read
    as memcpy (its byte loops walk the addresses of locals, which the emulator does not model)."""
    from trust_support import kp_inproc
    src = tmp_path / "pack.cu"
    src.write_text("#include <cstring>\n" + PACK + "\nvoid go(float* o, float* s, const float* i, int n) "
                   "{ k<<<n / 16, 4>>>(o, s, i, n); }\n")
    rc, metal, err = kp_inproc("translate", src, "--to", "metal", "--stdout")
    assert rc == 0, err
    assert "kp_memcpy(" in metal and "device T*" in metal and "[[buffer(2)]]" in metal, metal
    x = np.arange(32, dtype=np.float32)
    out = run_kernel(metal, "k", args={"out": np.zeros(32, np.float32), "sums": np.zeros(8, np.float32),
                                       "in": x, "n": np.int32(32)}, grid=(2,), block=(4,), backend="metal").outputs
    np.testing.assert_array_equal(out["out"], x * 2 + 1 + np.tile(np.arange(4), 8))
    np.testing.assert_array_equal(out["sums"], x.reshape(8, 4).sum(1))


def test_memcpy_between_arrays_elements_and_buffers():
    """C's memcpy on arrays (`mine`), element addresses (`&tile[2 * t]`) and buffers in the CUDA
    original itself: the kernel whose Metal port's polyfill test_emulator_space_overloads runs."""
    from test_emulator_space_overloads import CODE
    out = run_kernel(CODE, "k", args={"in": np.arange(64, dtype=np.int32), "out": np.zeros(64, np.int32)},
                     grid=(1,), block=(32,)).outputs["out"]
    assert out.tolist() == [v for t in range(32) for v in (2 * (31 - t), 2 * (31 - t) + 1)]


def test_sizeof_a_local_array_is_the_arrays_size_not_a_pointers():
    """`memcpy(dst, a, sizeof(a))` copies the whole local array: sizeof(a) was 8 (the pointer its
    uses decay to), a partial copy with no error."""
    src = r"""
__global__ void k(int *out) { int a[4]; a[0] = 1; float b[3][5]; out[0] = sizeof(a); out[1] = sizeof(b);
    int c[4] = {1, 2, 3, 4}; int d[4]; memcpy(d, c, sizeof(c)); out[2] = d[3]; }
"""
    out = run_kernel(src, "k", args={"out": np.zeros(3, np.int32)}, grid=(1,), block=(1,)).outputs["out"]
    assert out.tolist() == [16, 60, 4]


SHADOW = PACK.split("__global__")[0] + r"""
__global__ void k(float* out, const float* w, int n) {
    int i = 4 * threadIdx.x;
    float first = w[i];
    const float* w_i = w + i;
    if (i < n) {  // a block of its own: the object shadows the parameter there
        f4p w = load_pack(w_i);
        f4p o;
        for (int j = 0; j < f4p::count; ++j) { o[j] = w[j] + first; }
        store_pack(out + i, o);
    }
}
"""


def test_an_object_named_as_an_earlier_pointer_is_an_object_only_after_its_declaration():
    """llm.c's encoder_forward_kernel3: the parameter `const floatX* wte`, then `x128 wte = ...`: `w[i]`
    before the object's declaration indexes the pointer, `w[j]` after it is the object's operator[]."""
    x = np.arange(16, dtype=np.float32)
    out = run_kernel(SHADOW, "k", args={"out": np.zeros(16, np.float32), "w": x, "n": np.int32(16)}, grid=(1,),
                     block=(4,)).outputs["out"]
    np.testing.assert_array_equal(out, x + np.repeat(x[::4], 4))


def test_a_class_argument_is_deduced_through_a_sizeof_offset_and_a_product_before_it():
    """llm.c classifier_fused's `load128cs(x + i * x128::size)` and `store128(dlogits + idx * P + ...)`, after
    `logits + idx * P;`: the offset's `x128::size` is `sizeof(int4) / sizeof(T)` (an integer: the pointer's type
    stays), and `idx * P;` multiplies, it declares no `P` (both left T undeduced: Packed128<__kp_auto>, not C)."""
    src = PACK.split("__global__")[0] + r"""
__global__ void k(float* out, const float* in, int n) {
    int row = blockIdx.x;
    const float* rowp = in + row * n;
    int t = threadIdx.x;
    f4p a = load_pack(rowp + t * f4p::count);
    for (int j = 0; j < f4p::count; ++j) { a[j] = a[j] + row; }
    store_pack(out + row * n + t * f4p::count, a);
}
"""
    x = np.arange(32, dtype=np.float32)
    out = run_kernel(src, "k", args={"out": np.zeros(32, np.float32), "in": x, "n": np.int32(16)}, grid=(2,),
                     block=(4,)).outputs["out"]
    np.testing.assert_array_equal(out, x + np.arange(32) // 16)
