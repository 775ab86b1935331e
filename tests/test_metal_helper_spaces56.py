"""A helper called with a local pointer that was declared bare and assigned later (chess-engine-gpu's
moves.cu, stop 55's held-out set: `pos64 *startingOwnPieces, *startingEnemyPieces; if (isWhite)
startingOwnPieces = startingBoards + WHITE_PAWN_OFFSET; ... copyOneColorPieces(startingOwnPieces, ...)`;
the cases here are synthetic).  The helper's planning asked the argument's space before the local
pointers were planned and took such a pointer for a local array (`thread`): the helper's parameter was
`thread` while the local was `device`, and the checker refused every call (KP224).  It now takes the
space of the pointer's assignments, as the declaration does (kernelport/backends/metal/spaces.py).
And pointers declared together (`T *a, *b;`) get their space written once, on the type they share
(main wrote `device device pos64 *a, *b;`); two of different spaces are refused at the second."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port
from port_support import refusal

BOARDS = """\
    typedef unsigned long long pos64;
    __device__ void copyHalf(pos64 *from, pos64 *to) {
        for (int i = 0; i < 6; i++) to[i] = from[i];
    }
    __device__ void gen(pos64 *boards, pos64 *space, bool white) {
        pos64 *own, *enemy;
        if (white) { own = boards; enemy = boards + 6; }
        else { own = boards + 6; enemy = boards; }
        copyHalf(own, space);
        copyHalf(enemy, space + 6);
    }
    __global__ void k(pos64 *boards, pos64 *space) {
        gen(boards, space, threadIdx.x == 0);
    }
    """


def errors(code: str):
    return [(d.code, d.location.line, d.location.column) for d in refusal(code, to="metal")]


def test_a_helper_called_with_a_pointer_assigned_from_a_buffer_takes_device():
    text = metal_checked(BOARDS)
    assert "void copyHalf(device pos64 *from, device pos64 *to)" in text, text
    assert "    device pos64 *own, *enemy;" in text
    assert "device device" not in text


def test_one_pointer_per_declaration_likewise():
    text = metal_checked(BOARDS.replace("pos64 *own, *enemy;", "pos64 *own; pos64 *enemy;"))
    assert "void copyHalf(device pos64 *from, device pos64 *to)" in text, text
    assert "device pos64 *own; device pos64 *enemy;" in text


def test_look_alike_a_helper_called_with_a_local_array_keeps_thread():
    code = """\
        __device__ void fill(float *to) { for (int i = 0; i < 4; i++) to[i] = i; }
        __global__ void k(float *out) {
            float buf[4];
            float *q;
            q = buf;
            fill(q);
            out[threadIdx.x] = buf[threadIdx.x % 4];
        }
        """
    text = metal_checked(code)
    assert "void fill(thread float *to)" in text, text
    assert "    thread float *q;" in text


def test_pointers_declared_together_into_two_spaces_are_refused_at_the_second():
    code = """\
        __device__ float pick(float *boards) {
            __shared__ float cache[32];
            float *a, *b;
            a = boards;
            b = cache;
            return a[0] + b[threadIdx.x];
        }
        __global__ void k(float *boards, float *out) { out[threadIdx.x] = pick(boards); }
        """
    assert errors(code) == [("KP215", 3, 15)]
    port, _ = metal_port(code)
    assert "'a' and 'b' are declared together but point into device and threadgroup memory" in \
        next(d.message for d in port.diagnostics if d.code == "KP215")
