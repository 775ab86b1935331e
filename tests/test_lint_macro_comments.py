"""A macro's value is read as the preprocessor reads it, comments removed (tree-sitter keeps a
trailing `// note` inside the `#define`'s value): `#define WARP_SIZE 32  // lanes` hardcodes the
warp size as surely as `#define WARP_SIZE 32`, and a comment must not hide it from lint."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text
from kernelport.source import uncomment

KERNEL = """\
#define WARP_SIZE 32{comment}
#define TILE_DIM 32{comment}
__global__ void k(float* out) {{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int lane = threadIdx.x % WARP_SIZE;
    float v = out[threadIdx.x];
    for (int j = 0; j < TILE_DIM; j += 8) tile[threadIdx.y + j][threadIdx.x] = v;
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) out[threadIdx.x / WARP_SIZE] = v + tile[0][0];
}}
"""


@pytest.mark.parametrize("comment", ["", "  // threads per warp", "  /* lanes */", " // see \"docs\" // twice"])
def test_a_commented_warp_size_macro_is_flagged_and_the_tile_is_not(comment):
    found = lint_text(KERNEL.format(comment=comment), "t.cu", select=["WS001"])
    assert [(f.line, f.column) for f in found] == [(1, 19)]


def test_uncomment_keeps_string_and_character_literals():
    assert uncomment('"http://x" // url').strip() == '"http://x"'
    assert uncomment("'/' /* slash */ + 1").split() == ["'/'", "+", "1"]
    assert uncomment("(32)").strip() == "(32)"
