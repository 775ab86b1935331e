"""Launch blocks a class's constructor stores in a member (kernelport/memberdims.py).

heldout30's atpqc-cuda launches `global::sha3<Bits><<<dg, db, ns, stream>>>` from a member function; its
constructor sets `db(make_uint3(32, warp_per_block, 1))`.  On main that block was not read: a kernel of
rows of 32 threads was ported as full waves, its `for (o = 16; ...) __shfl_down_sync` ladder widened to
`warpSize / 2` (at wave 64 each row's sum took the next row's too), where the same kernel launched with a
visible `dim3 db(32, 4)` keeps its 32-lane rows.  Now the member's initialiser (or a constructor's
assignment) is the launch's block, as data: x = 32 says rows of 32 whatever the number of rows.
"""
from __future__ import annotations

import pytest

from trust_support import kp_inproc, verify_checks

KERNEL = """\
__global__ void rowsum(const float* in, float* out) {
    unsigned row = blockIdx.x * blockDim.y + threadIdx.y;
    float v = in[row * 32 + threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) out[row] = v;
}
"""

ANNOTATED = """\
// @kp kernel     rowsum
// @kp grid       4
// @kp block      32, 4
// @kp arg        in   in   float[512]  uniform(-1, 1)
// @kp arg        out  out  float[16]
""" + KERNEL

LAUNCHER = """\
class rowsums {
    dim3 dg;
    dim3 db;
 public:
    rowsums(unsigned rows, unsigned warp_per_block) INIT
    void operator()(const float* in, float* out) const { rowsum<<<dg, db>>>(in, out); }
};
"""
IN_LIST = ": dg(make_uint3(rows / warp_per_block, 1, 1)), db(make_uint3(BLOCK, warp_per_block, 1)) {}"
IN_BODY = "{ dg = dim3(rows / warp_per_block); db = dim3(BLOCK, warp_per_block); }"


def _hip(tmp_path, src: str, name: str = "k") -> str:
    f = tmp_path / f"{name}.cu"
    f.write_text(src)
    rc, out, err = kp_inproc("translate", f, "--to", "hip", "--stdout")
    assert rc == 0, err
    return out


def _kernel(port: str) -> str:
    start = port.index("__global__ void rowsum")
    return port[start:port.index("\n}\n", start)]


@pytest.mark.parametrize("init", [IN_LIST, IN_BODY], ids=["initialiser", "constructor_body"])
def test_a_member_block_of_rows_of_32_keeps_the_rows(tmp_path, init):
    port = _hip(tmp_path, KERNEL + LAUNCHER.replace("INIT", init.replace("BLOCK", "32")))
    assert "for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o, 32);" in port, port
    annotated = _hip(tmp_path, ANNOTATED, "annotated")  # the same kernel, its block (32, 4) annotated
    assert _kernel(port) == _kernel(annotated)
    rc, checks, text = verify_checks(tmp_path / "annotated.cu", compiles=False)
    got = {(c["backend"], c["wave"]): c["status"] for c in checks if c["kind"] == "numeric"}
    assert {got.get(("hip", w)) for w in (32, 64)} == {"pass"}, text


def test_a_vote_in_rows_a_member_block_sets_is_refused_at_the_vote(tmp_path):
    """As with a visible `dim3 db(32, 4)`: two rows of one 64-lane wave may see each other's lanes."""
    src = KERNEL.replace("if (threadIdx.x == 0)", "if (__activemask() == 0xffffffffu && threadIdx.x == 0)") + \
        LAUNCHER.replace("INIT", IN_LIST.replace("BLOCK", "32"))
    f = tmp_path / "k.cu"
    f.write_text(src)
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "--stdout")
    assert rc != 0 and "k.cu:5:9: error: KP219" in err and "(32, ?, 1) its class's constructor sets" in err, err


@pytest.mark.parametrize("init", [
    IN_LIST.replace("BLOCK", "128").replace(", warp_per_block, 1", ", 1, 1"),  # whole waves
    IN_LIST.replace("BLOCK", "32") + "\n    rowsums() : db(128) {}",  # constructors that disagree: not decided
], ids=["whole_waves", "disagreeing_constructors"])
def test_a_member_block_of_whole_waves_or_undecided_keeps_the_wave(tmp_path, init):
    port = _hip(tmp_path, KERNEL + LAUNCHER.replace("INIT", init))
    assert "for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down(v, o);" in port, port


def test_another_classs_member_of_the_same_name_is_not_read(tmp_path):
    other = "struct other {\n    dim3 db;\n    other() : db(32, 4) {}\n};\n"
    port = _hip(tmp_path, KERNEL + other + LAUNCHER.replace("INIT", "{}"))
    assert "warpSize / 2" in port, port
