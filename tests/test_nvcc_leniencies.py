"""What nvcc accepts and clang (hipcc) rejects with no respelling of the same meaning: heldout65's
basinsCUDA.cu deletes a local array (`numb xPrev[SIZE_X]; ... delete[] xPrev;` on its NaN exit paths),
undefined behaviour nvcc compiles and hipcc refuses ("cannot delete expression of type 'float[3]'").
Main wrote that port silently; now KP243 at the delete, naming the array's line (kernelport/nvcc_leniencies.py).
Look-alikes: a delete of `new[]` memory, of an array parameter (a pointer), of a local pointer that
hides a file-scope array, are ported and compile."""
from __future__ import annotations

import pytest

from conftest import hip_compiles
from port_support import port_text, refusal

BASINS = """
__device__ void step(float *x) { x[0] = 3.9f * x[0] * (1.0f - x[0]); }

__device__ int loopCalculateDiscreteModel(float *x, int n, float maxValue)
{
    float xPrev[3];
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < 3; ++j)
            xPrev[j] = x[j];
        step(x);
        if (isnan(x[0]) || isinf(x[0])) {
            delete[] xPrev;
            return 0;
        }
        if (maxValue != 0 && fabsf(x[0]) > maxValue) {
            delete[] (xPrev);
            return 0;
        }
    }
    return 1;
}

__global__ void basins(float *x, int *ok, int n) { ok[threadIdx.x] = loopCalculateDiscreteModel(x + 3 * threadIdx.x, n, 10.0f); }
"""


@pytest.mark.parametrize("to", ["hip", "portable"])
def test_a_local_arrays_delete_is_refused_at_the_delete(to):
    errors = refusal(BASINS, to=to, expect="KP243")
    assert [(e.code, e.line, e.column) for e in errors] == [("KP243", 12, 13), ("KP243", 16, 13)]
    assert "`delete[]` of `xPrev`, an array declared at line 6" in errors[0].message
    assert "undefined behaviour" in errors[0].message and "clang (hipcc) rejects" in errors[0].message


def test_host_code_and_a_file_scope_array_and_plain_delete():
    code = """
    int table[8];
    __global__ void k(int *o) { o[threadIdx.x] = 1; }
    void cleanup() { int a[4]; a[0] = 1; delete a; delete[] table; }
    """
    errors = refusal(code, expect="KP243")
    assert [(e.line, e.column) for e in errors] == [(4, 38), (4, 48)]
    assert "`delete` of `a`, an array declared at line 4" in errors[0].message
    assert "`delete[]` of `table`, an array declared at line 2" in errors[1].message


def test_look_alikes_are_ported_and_compile(tmp_path):
    code = """
    int table[8];
    __device__ float sum(float a[], int n) { float s = 0; for (int i = 0; i < n; ++i) s += a[i]; return s; }
    __global__ void k(float *x, float *o) { o[threadIdx.x] = sum(x, 4); }
    void release(int buf[]) { delete[] buf; }
    void cleanup(int n) {
        float *h = new float[n];
        delete[] h;
        int *table = new int[n];
        delete[] (table);
        { int a[4]; a[0] = n; }
        int *a = new int;
        delete a;
    }
    """
    text = port_text(code)
    assert text.count("delete") == 4
    hip_compiles(tmp_path, text)


MEMBERS = """
struct Buf {
    float data[8];
    float *heap;
    int n, idx[4];
    __device__ void reset() { delete[] data; }
    __device__ void drop();
};
__device__ void Buf::drop() { delete[] this->idx; }
template <class T> struct Tb { T vals[4]; T *p; __device__ void f(); };
template <class T> __device__ void Tb<T>::f() { delete[] vals; delete[] p; }
__device__ void release(Buf b, Buf *q, Buf &r, struct Buf *s) {
    delete[] b.data;
    delete[] q->idx;
    delete[] r.data;
    delete[] s->heap;
    delete[] (q->data);
}
__global__ void k(float *o) { Buf b; b.n = 1; o[threadIdx.x] = b.n; }
"""


@pytest.mark.parametrize("to", ["hip", "portable"])
def test_a_member_arrays_delete_is_refused_at_the_delete(to):
    """hipcc: "cannot delete expression of type 'float[8]'" at each of these (nvcc -c accepts the file)."""
    errors = refusal(MEMBERS, to=to, expect="KP243")
    assert [(e.line, e.column) for e in errors] == [(6, 31), (9, 31), (11, 49), (13, 5), (14, 5), (15, 5), (17, 5)]
    assert "`delete[]` of `data`, an array declared at line 3" in errors[0].message
    assert "`delete[]` of `this->idx`, an array declared at line 5" in errors[1].message
    assert "`delete[]` of `q->data`, an array declared at line 3" in errors[-1].message


def test_member_look_alikes_are_ported_and_compile(tmp_path):
    """Pointer fields, a local or parameter that hides the member array, a field reached through a subscript, an object
    whose class the file does not define: each delete is kept and hipcc compiles the port."""
    code = """
    #include <vector>
    struct Buf {
        float data[8];
        float *heap;
        __device__ void own() { float *data = new float[4]; delete[] data; delete[] heap; }
        __device__ void given(float *data) { delete[] data; }
        __device__ void field() { delete[] this->heap; }
    };
    struct Other { float *data; };
    __device__ void release(Buf *q, Buf **pp, Other o, Other *op) {
        delete[] q->heap;
        delete[] pp[0]->heap;
        delete[] o.data;
        delete[] op->data;
    }
    void host(std::vector<float *> &v) { delete[] v.back(); }
    __global__ void k(float *o) { Buf b; b.heap = o; o[threadIdx.x] = b.heap[0]; }
    """
    text = port_text(code)
    assert text.count("delete[]") == 9
    hip_compiles(tmp_path, text)
