"""Arrays of structs in the emulator's memory (issue 18): C layout (offsets, padding), field reads
and writes through `p[i].f`, `p->f`, `&p[i]`, array fields, nested structs, a whole struct loaded
and stored; what stays unsupported is refused at its line."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

# b+tree's knode: ints, int arrays, a bool and an int after it (3 bytes of padding before num_keys)
KNODE = r"""
#define ORDER 4
typedef struct knode { int location; int indices[ORDER + 1]; int keys[ORDER + 1]; bool is_leaf; int num_keys; } knode;
struct Point { float weight; double cost; long assign; };
__global__ void k(const knode *nodes, Point *p, float *out) {
  int i = threadIdx.x;
  const knode *n = &nodes[i];
  out[i] = nodes[i].keys[2] + n->indices[1] * 100 + (n->is_leaf ? 1000 : 0) + nodes[i].num_keys * 10000;
  p[i].cost = p[i].weight * 2.0 + p[i].assign;
  Point q = p[i];
  q.assign = q.assign + 7;
  p[(i + 1) % 4] .weight = 0.0f;
  (p + i)->assign = q.assign;
}
"""

KNODE_DT = np.dtype([("location", "i4"), ("indices", "i4", (5,)), ("keys", "i4", (5,)), ("is_leaf", "?"),
                     ("num_keys", "i4")], align=True)
POINT_DT = np.dtype([("weight", "f4"), ("cost", "f8"), ("assign", "i8")], align=True)


def _inputs():
    nodes = np.zeros(4, KNODE_DT)
    nodes["keys"] = np.arange(20).reshape(4, 5)
    nodes["indices"] = np.arange(20).reshape(4, 5) * 2
    nodes["is_leaf"] = [True, False, True, False]
    nodes["num_keys"] = [1, 2, 3, 4]
    p = np.zeros(4, POINT_DT)
    p["weight"] = [0.5, 1.5, 2.5, 3.5]
    p["assign"] = [1, 2, 3, 4]
    return {"nodes": nodes, "p": p, "out": np.zeros(4, np.float32)}


def test_the_c_layout_pads_as_the_compiler_does():
    assert KNODE_DT.itemsize == 52 and KNODE_DT.fields["num_keys"][1] == 48  # bool at 44, 3 bytes of padding
    assert POINT_DT.itemsize == 24 and POINT_DT.fields["cost"][1] == 8


def test_fields_of_an_array_of_structs_are_read_and_written():
    res = run_kernel(KNODE, "k", args=_inputs(), grid=(1,), block=(4,))
    i = np.arange(4)
    keys, idx = np.arange(20).reshape(4, 5), np.arange(20).reshape(4, 5) * 2
    want = keys[i, 2] + idx[i, 1] * 100 + np.array([1000, 0, 1000, 0]) + (i + 1) * 10000
    np.testing.assert_array_equal(res.outputs["out"], want)
    p = res.outputs["p"]
    assert p.dtype.names == ("weight", "cost", "assign")  # the output keeps its fields
    np.testing.assert_array_equal(p["cost"], np.array([0.5, 1.5, 2.5, 3.5]) * 2 + [1, 2, 3, 4])
    np.testing.assert_array_equal(p["assign"], [8, 9, 10, 11])
    np.testing.assert_array_equal(p["weight"], 0.0)
    np.testing.assert_array_equal(res.outputs["nodes"], _inputs()["nodes"])  # bytes round-trip


NESTED = r"""
struct Float3 { float x, y, z; };
struct Cell { Float3 pos; float2 v; int tag; };
__global__ void k(Cell *c, float *out) {
  int i = threadIdx.x;
  Float3 f = c[i].pos;
  float2 v = c[i].v;
  out[i] = f.x + f.y * 10 + c[i].pos.z * 100 + v.y * 1000 + c[i].v.x * 10000;
  c[i].pos.y = c[i].tag;
  Cell whole = c[i];
  whole.tag = -1;
  c[3 - i] = whole;
}
"""


def test_nested_structs_vectors_and_whole_struct_copies():
    dt = np.dtype([("pos", [("x", "f4"), ("y", "f4"), ("z", "f4")]), ("v", [("x", "f4"), ("y", "f4")]),
                   ("tag", "i4")], align=True)
    c = np.zeros(4, dt)
    c["pos"]["x"], c["pos"]["y"], c["pos"]["z"] = 1, 2, 3
    c["v"]["x"], c["v"]["y"] = 4, 5
    c["tag"] = [10, 11, 12, 13]
    res = run_kernel(NESTED, "k", args={"c": c, "out": np.zeros(4, np.float32)}, grid=(1,), block=(4,))
    assert res.outputs["out"].tolist() == [1 + 20 + 300 + 5000 + 40000] * 4
    got = res.outputs["c"]
    assert got["tag"].tolist() == [-1] * 4
    # each thread wrote its own y, then copied its struct to 3 - i (wave order decides which copy wins:
    # the rows are whole copies of some thread's struct)
    assert sorted(got["pos"]["y"].tolist()) == [10, 11, 12, 13]


@pytest.mark.parametrize("body, what", [
    ("out[0] = *(sp[0].ptr);", "pointer"),  # a pointer field held in memory
    ("out[0] = sp[0].nope;", "has no field `nope`"),
    ("out[0] = sp.a;", r"`.a` on a pointer to struct"),
    ("sp[0].arr = 0;", "not a number"),
])
def test_what_stays_unsupported_is_refused_at_its_line(body, what):
    src = "struct S { int a; int arr[2]; int *ptr; };\n__global__ void f(int *out, S *sp) {\n  " + body + "\n}\n"
    sp = np.zeros(2, np.dtype([("a", "i4"), ("arr", "i4", (2,)), ("ptr", "u8")], align=True))
    with pytest.raises(EmulatorError, match=what) as e:
        run_kernel(src, "f", args={"out": np.zeros(1, np.int32), "sp": sp}, grid=(1,), block=(1,))
    assert e.value.line == 3


def test_an_array_of_structs_needs_its_fields():
    src = "struct S { int a; int b; };\n__global__ void f(int *out, S *sp) { out[0] = sp[0].a; }\n"
    with pytest.raises(EmulatorError, match=r"array of struct S: pass a numpy structured array with its fields"):
        run_kernel(src, "f", args={"out": np.zeros(1, np.int32), "sp": np.zeros(2, np.int32)}, grid=(1,), block=(1,))


# sheath's pattern: a pointer to one struct taken under divergent control flow
SHEATH = r"""
struct Particle { double x; double v; bool alive; };
__device__ double XtoL(double pos) { return pos * 2.0; }
__global__ void push(Particle *__restrict particles, double *out, long N) {
  long p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < N && particles[p].alive) {
    Particle *part = &particles[p];
    double lc = XtoL(part->x);
    part->v = lc;
    out[p] = lc + (part + 1 - 1)->x;
  }
}
"""


def test_a_pointer_to_one_struct_under_divergence():
    dt = np.dtype([("x", "f8"), ("v", "f8"), ("alive", "?")], align=True)
    a = np.zeros(8, dt)
    a["x"] = np.arange(8)
    a["alive"] = np.arange(8) % 2 == 0
    res = run_kernel(SHEATH, "push", args={"particles": a, "out": np.zeros(8), "N": 6}, grid=(2,), block=(4,))
    assert res.outputs["out"].tolist() == [0, 0, 6, 0, 12, 0, 0, 0]
    assert res.outputs["particles"]["v"].tolist() == [0, 0, 4, 0, 8, 0, 0, 0]


def test_every_cuda_vector_type_is_a_row_of_scalars_in_memory():
    src = r"""
__global__ void k(const double4 *p, uchar4 *dst, short2 *s) {
  int i = threadIdx.x;
  double4 v = p[i];
  dst[i] = make_uchar4(i, 2 * i, (unsigned char)v.w, 255);
  s[i].y = (short)(v.x + v.z);
}"""
    p = np.arange(16, dtype=np.float64)
    res = run_kernel(src, "k", args={"p": p, "dst": np.zeros(16, np.uint8), "s": np.zeros(8, np.int16)},
                     grid=(1,), block=(4,))
    assert res.outputs["dst"].reshape(4, 4).tolist() == [[i, 2 * i, 4 * i + 3, 255] for i in range(4)]
    assert res.outputs["s"].reshape(4, 2)[:, 1].tolist() == [4 * i + 4 * i + 2 for i in range(4)]


@pytest.mark.parametrize("space", ["__constant__", "__device__"])
def test_a_file_scope_array_of_structs_runs_an_array_of_pointers_stays_refused(space):
    """hecbench mriQ's `__constant__ kValues ck[N]` (re-pinned in stop 44: it was a located refusal, and now
    runs as bytes in the struct's C layout, emulator/layout.global_structs; zeros here, where no host code
    fills it; tests/test_emulator_constant_structs.py checks seeded contents) and egs's array of pointers,
    still refused at the read (before stop 38, a TypeError out of the emulator)."""
    src = f"""struct kValues {{ float Kx; float Ky; }};
{space} kValues ck[4];
{space} float2 cv[4];
__global__ void k(float* out) {{ out[threadIdx.x] = cv[threadIdx.x].y + ck[threadIdx.x].Kx; }}
"""
    res = run_kernel(src, "k", args={"out": np.ones(4, np.float32)}, grid=(1, 1, 1), block=(4, 1, 1))
    assert res.outputs["out"].tolist() == [0.0] * 4 and res.globals["ck"].dtype.names == ("Kx", "Ky")
    ptrs = src.replace("kValues ck[4];", "float* cp[4];").replace("ck[threadIdx.x].Kx", "*cp[threadIdx.x]")
    with pytest.raises(EmulatorError, match=r"`cp` holds pointers") as e:  # hecbench egs
        run_kernel(ptrs, "k", args={"out": np.zeros(4, np.float32)}, grid=(1, 1, 1), block=(4, 1, 1))
    assert e.value.line == 4, e.value
