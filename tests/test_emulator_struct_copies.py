"""Vectorised copies through a class template (HeCBench's threadcpy: `struct alignas(sizeof(T) *
VEC_SIZE) data_t { T data[VEC_SIZE]; };`, `using vec_t = data_t<T, vec_size>;` in a block and
`*out_vec = *in_vec;`): the class is read with an alignment whose argument has parentheses of its
own, and a struct object assigned whole through a pointer is loaded from memory and stored field by
field (the array field element by element).  A number stored through a pointer to structs stays a
located refusal."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel
from kernelport.emulator.frontend import LowerError

SOURCE = r"""
template <typename T, int VEC_SIZE>
struct alignas(sizeof(T) * VEC_SIZE) data_t {
    T data[VEC_SIZE];
};

template <typename T, int vec_size>
__global__ void copy(const T *in, T *out, const size_t n) {
    const int block_work_size = blockDim.x * vec_size;
    auto index = static_cast<size_t>(blockIdx.x) * block_work_size + threadIdx.x * vec_size;
    auto remaining = n - index;
    if (remaining < vec_size) {
        for (auto i = index; i < n; i++) {
            out[i] = in[i] + 100;
        }
    } else {
        using vec_t = data_t<T, vec_size>;
        auto in_vec = reinterpret_cast<const vec_t *>(in + index);
        auto out_vec = reinterpret_cast<vec_t *>(out + index);
        *out_vec = *in_vec;
    }
}
"""


def _copy(src: str, n: int, vec: int, dtype=np.int32):
    x = np.arange(1, n + 1, dtype=dtype)
    return run_kernel(src, "copy", args={"in": x, "out": np.zeros(n, dtype), "n": np.uint64(n)},
                      grid=(2,), block=(4,), template_args=["int" if dtype == np.int32 else "float", str(vec)]).outputs


@pytest.mark.parametrize("vec", [1, 2, 4])
def test_a_whole_struct_copied_through_pointers(vec):
    """Each thread copies its `vec` elements as one struct; the tail (n not a multiple of the
    block's work) takes the scalar loop, which adds 100: the reference says which is which."""
    n = 2 * 4 * vec - 1  # the last thread's run is one short: its elements take the loop
    out = _copy(SOURCE, n, vec)["out"]
    ref = np.arange(1, n + 1, dtype=np.int32)
    tail = n - n % vec
    ref[tail:] += 100
    np.testing.assert_array_equal(out, ref)


def test_a_float_struct_copy():
    out = _copy(SOURCE, 32, 4, np.float32)["out"]
    np.testing.assert_array_equal(out, np.arange(1, 33, dtype=np.float32))


def test_a_number_stored_through_a_pointer_to_structs_is_refused():
    src = SOURCE.replace("*out_vec = *in_vec;", "*out_vec = *in;")
    with pytest.raises((EmulatorError, LowerError)) as e:
        _copy(src, 16, 2)
    assert "struct" in str(e.value) and ":" in str(e.value)
