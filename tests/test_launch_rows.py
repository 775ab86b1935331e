"""A block width the kernel ties to the warp (`assert(blockDim.x == WarpSize)`) is a row width of
the launch geometry: the port keeps it (a logical 32-lane group) or changes kernel and launch
together, never one without the other (llm.c's fused_residual_forward3: issue 11, part A)."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kernelport.project_ports import make, single
from kernelport.source import SourceFile

from conftest import assert_hip_file_compiles

# llm.c dev/cuda/common.h's warpReduceSum: a 16-step ladder at the default width.  Its header is
# ported on its own, where nothing says rows of 32: its port folds a whole wave.
HELPER = """
__device__ float warpReduceSum(float val) {
    for (int offset = 16; offset > 0; offset /= 2) val += __shfl_xor_sync(0xFFFFFFFF, val, offset);
    return val;
}
"""

KERNEL = """
__global__ void row_sums(const float* x, float* out, int N, int C) {
    constexpr const int WarpSize = 32;
    assert(blockDim.x == WarpSize);
    int idx = blockIdx.x * blockDim.y + threadIdx.y;
    if (idx >= N) return;
    float m = 0.0f;
    for (int c = threadIdx.x; c < C; c += WarpSize) m += x[idx * C + c];
    m = warpReduceSum(m);
    if (threadIdx.x == 0) out[idx] = m;
}
"""

HOST = """
void row_sums_launch(const float* x, float* out, int N, int C, int block_size) {
    int block_y = block_size / 32;
    int grid = (N + block_y - 1) / block_y;
    row_sums<<<grid, dim3(BLOCK_X, block_y)>>>(x, out, N, C);
}
int main() {
    int N = 64, C = 96;
    float *x, *out;
    cudaMalloc(&x, N * C * sizeof(float));
    cudaMalloc(&out, N * sizeof(float));
    row_sums_launch(x, out, N, C, 128);
    return 0;
}
"""


def write(tmp_path: Path, helper_in_header: bool = True, block_x: str = "32") -> Path:
    head = '#include <cassert>\n#include <cuda_runtime.h>\n'
    if helper_in_header:
        (tmp_path / "common.h").write_text(HELPER)
        head += '#include "common.h"\n'
    else:
        head += HELPER
    f = tmp_path / "rows.cu"
    f.write_text(head + KERNEL + HOST.replace("BLOCK_X", block_x))
    return f


def hip(f: Path):
    made = make(single(f, SourceFile.from_text(f.read_text(), str(f))), ["hip"], None, False)
    return made[0]


def test_rows_tied_to_a_header_helper_move_to_the_wave_with_their_launch(tmp_path):
    m = hip(write(tmp_path))
    assert m.port.ok, [d.format() for d in m.port.diagnostics]
    t = m.text
    assert "constexpr const int WarpSize = KP_WAVE_SIZE;" in t  # the kernel's rows are the wave...
    assert "row_sums<<<grid, dim3(kp_device_warp_size(), block_y)>>>" in t  # ...and so are its launch's
    assert "int block_y = kp_wave_rows(block_size);" in t  # the same threads per block, at least one row
    assert "static inline int kp_wave_rows(long long threads)" in t  # the prologue's, defined once
    assert "int grid = (N + block_y - 1) / block_y;" in t


def test_the_moved_launch_compiles_for_both_amd_wave_widths(tmp_path):
    """The port's host code (kp_device_warp_size(), kp_wave_rows) and its header's port build with
    hipcc for gfx90a (64-wide waves) and gfx1030 (32)."""
    from conftest import require_tool

    require_tool("hipcc")
    f = write(tmp_path)
    for m in make(single(f, SourceFile.from_text(f.read_text(), str(f))), ["hip"], None, False):
        (tmp_path / Path(m.path).name).write_text(m.text)
    assert_hip_file_compiles(tmp_path / "rows.hip", ["gfx90a", "gfx1030"])


def test_rows_with_the_helper_in_the_file_keep_32_lanes(tmp_path):
    # A look-alike: the helper is the kernel's own, so the whole group keeps 32-lane rows (the named
    # constant in the assert says so): nothing changes in the launch, every shuffle gets width 32.
    m = hip(write(tmp_path, helper_in_header=False))
    assert m.port.ok, [d.format() for d in m.port.diagnostics]
    t = m.text
    assert "constexpr const int WarpSize = 32;" in t
    assert "row_sums<<<grid, dim3(32, block_y)>>>" in t and "int block_y = block_size / 32;" in t
    assert "__shfl_xor(val, offset, 32)" in t


def test_a_launch_the_port_cannot_change_with_its_kernel_is_refused(tmp_path):
    m = hip(write(tmp_path, block_x="block_size / block_y"))
    assert not m.port.ok
    d = next(d for d in m.port.diagnostics if d.code == "KP219")
    assert d.location.line == KERNEL.count("\n") + 4 + HOST.split("\n").index(
        "    row_sums<<<grid, dim3(BLOCK_X, block_y)>>>(x, out, N, C);")
    assert "block x `block_size / block_y`" in d.message and "rows of the wave width" in d.message


def test_a_literal_row_guard_cannot_follow_its_launch_and_is_refused(tmp_path):
    """`assert(blockDim.x == 32)` with a header helper that folds a whole wave: the launch could move
    to rows of the wave, but nothing ties the kernel's other 32s (the stride `c += 32`) to the
    guard's literal, so the port would assert (or fold two rows) at wave 64: KP219 at the guard."""
    f = write(tmp_path)
    f.write_text(f.read_text().replace("    constexpr const int WarpSize = 32;\n", "").replace("WarpSize", "32"))
    m = hip(f)
    assert not m.port.ok
    d = next(d for d in m.port.diagnostics if d.code == "KP219")
    assert (d.location.line, "the literal 32" in d.message) == (f.read_text().splitlines().index(
        "    assert(blockDim.x == 32);") + 1, True)


def test_guard_names_a_constant_or_traps():
    from kernelport import warpwidth
    from kernelport.model import build
    src = SourceFile.from_text(textwrap.dedent("""
    #define ROW 32
    const int kOther = 48;
    __global__ void a(float* x) { if (blockDim.x != ROW) __trap(); x[threadIdx.x] = 0; }
    __global__ void b(float* x) { assert(blockDim.x == kOther); x[threadIdx.x] = 0; }
    __global__ void c(float* x) { int n = 32; assert(blockDim.x == n); x[threadIdx.x] = 0; }
    """), "g.cu")
    m = build(src)
    assert [g.source for g in warpwidth.row_guards(m.functions["a"], m)] == ["the guard `blockDim.x != ROW` stops the kernel"]
    assert warpwidth.row_guards(m.functions["b"], m) == []  # 48: not a row of 32
    assert warpwidth.row_guards(m.functions["c"], m) == []  # not a constant: a variable may change


def write_macro(tmp_path: Path) -> Path:
    """llm.c dev/cuda/layernorm_forward.cu's kernel6: assert(blockDim.x == WARP_SIZE), WARP_SIZE from
    common.h, launched as dim3(32, block_size / WARP_SIZE)."""
    (tmp_path / "common.h").write_text("#define WARP_SIZE 32\n" + HELPER)
    f = tmp_path / "rows.cu"
    f.write_text('#include <cassert>\n#include <cuda_runtime.h>\n#include "common.h"\n'
                 + KERNEL.replace("    constexpr const int WarpSize = 32;\n", "").replace("WarpSize", "WARP_SIZE")
                 + HOST.replace("BLOCK_X", "32").replace("block_size / 32", "block_size / WARP_SIZE"))
    return f


def write_valued_macro(tmp_path: Path) -> Path:
    """The rows' width is a header macro whose name says nothing of warps (`ROW_THREADS`, value 32):
    the kernel's guard and the launch's `block_size / ROW_THREADS` are known by the macro's value."""
    f = write_macro(tmp_path)
    (tmp_path / "common.h").write_text("#define ROW_THREADS (32)\n" + HELPER)
    f.write_text(f.read_text().replace("WARP_SIZE", "ROW_THREADS"))
    return f


def write_grid_cut(tmp_path: Path) -> Path:
    """The grid cuts the same thread budget into rows itself (`block_size / WARP_SIZE` in the grid's
    size, not through the block's local): it must count the same rows as the block."""
    f = write_macro(tmp_path)
    f.write_text(f.read_text().replace("int grid = (N + block_y - 1) / block_y;",
                                       "int grid = (N + block_size / WARP_SIZE - 1) / (block_size / WARP_SIZE);"))
    return f


@pytest.mark.parametrize("writer, grid", [
    (write_valued_macro, "int grid = (N + block_y - 1) / block_y;"),
    (write_grid_cut, "int grid = (N + kp_wave_rows(block_size) - 1) / (kp_wave_rows(block_size));")],
    ids=["valued-macro", "grid-cut"])
def test_rows_cut_by_a_name_of_value_32_or_in_the_grid_are_rows_of_the_wave(tmp_path, writer, grid):
    m = hip(writer(tmp_path))
    assert m.port.ok, [d.format() for d in m.port.diagnostics]
    assert "row_sums<<<grid, dim3(kp_device_warp_size(), block_y)>>>" in m.text
    assert "int block_y = kp_wave_rows(block_size);" in m.text
    assert grid in m.text


def test_a_grid_dividing_another_budget_by_32_is_left(tmp_path):
    # A look-alike: the grid's `(N * C) / 32` cuts no thread budget of the block: it stays.
    f = write_grid_cut(tmp_path)
    f.write_text(f.read_text().replace("int grid = (N + block_size / WARP_SIZE - 1) / (block_size / WARP_SIZE);",
                                       "int grid = (N * C) / 32 + N;"))
    m = hip(f)
    assert m.port.ok, [d.format() for d in m.port.diagnostics]
    assert "int grid = (N * C) / 32 + N;" in m.text and "int block_y = kp_wave_rows(block_size);" in m.text


@pytest.mark.parametrize("writer", [write, write_macro, write_valued_macro, write_grid_cut],
                         ids=["literal", "macro", "valued-macro", "grid-cut"])
@pytest.mark.parametrize("block_size", ["128", "32"])
def test_the_moved_rows_verify_at_both_wave_widths(tmp_path, block_size, writer):
    """32 threads on a 64-wide wave are one row of the wave: `block_size / 64` would launch an empty
    block (and divide by zero in the grid's size), whether the rows are cut by 32 or by WARP_SIZE."""
    f = writer(tmp_path)
    f.write_text(f.read_text().replace("row_sums_launch(x, out, N, C, 128)", f"row_sums_launch(x, out, N, C, {block_size})"))
    r = subprocess.run([sys.executable, "-m", "kernelport", "verify", "rows.cu", "--schedules", "block",
                        "--no-cache", "-j", "1"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 failed" in r.stdout
    lines = [ln for ln in r.stdout.splitlines() if "row_sums" in ln and "hip" in ln and "pass" in ln]
    assert {"32", "64"} <= {c.strip() for ln in lines for c in ln.split("│")}, r.stdout


def test_a_guard_naming_a_header_macro_moves_the_launch_too(tmp_path):
    # The literal 32 of the launch follows the macro, and the rows the macro cuts are rows of the wave
    # (`block_size / kp_device_warp_size()` is 0 rows for a 32-thread budget on a 64-wide wave).
    m = hip(write_macro(tmp_path))
    assert m.port.ok, [d.format() for d in m.port.diagnostics]
    assert "row_sums<<<grid, dim3(kp_device_warp_size(), block_y)>>>" in m.text
    assert "int block_y = kp_wave_rows(block_size);" in m.text


def test_a_budget_divided_by_an_unrelated_name_is_left(tmp_path):
    # A look-alike: `block_size / rows_per_block` cuts no rows of a warp, whatever its value.
    f = write(tmp_path)
    f.write_text(f.read_text().replace("int block_y = block_size / 32;", "int rows_per_block = 4;\n"
                                       "    int block_y = block_size / rows_per_block;"))
    m = hip(f)
    assert m.port.ok, [d.format() for d in m.port.diagnostics]
    assert "int block_y = block_size / rows_per_block;" in m.text


def test_the_moved_rows_verify_where_the_problem_is_scaled_down(tmp_path):
    """A problem too large for the emulator is scaled down (`int N = 1 << 16` to fewer rows) for the
    original; the port's launch at wave 64, read again from its host code, must run that same scaled
    problem (it was scaled again, for twice the threads: a quarter of the rows, the rest compared as
    zeros: llm.c's fused_residual_forward3 failed at wave 64 on the H200 oracle for that reason)."""
    f = write(tmp_path)
    f.write_text(f.read_text().replace("int N = 64, C = 96;", "int N = 1 << 16, C = 96;")
                 .replace("row_sums_launch(x, out, N, C, 128)", "row_sums_launch(x, out, N, C, 32)"))
    r = subprocess.run([sys.executable, "-m", "kernelport", "verify", "rows.cu", "--schedules", "block",
                        "--no-cache", "-j", "1"], cwd=tmp_path, capture_output=True, text=True)
    assert "scaled down" in r.stdout + r.stderr or "scaled" in r.stdout, r.stdout
    assert r.returncode == 0 and "0 failed" in r.stdout, r.stdout + r.stderr
