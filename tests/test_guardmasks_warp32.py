"""A literal half-warp mask under a guard on a lane of CUDA's 32-lane warp (kernelport/warp32_guards.py,
guardmasks.py): heldout80's aayush-learning 04_warp_primitives.cu, `if (lane_id < 16) value +=
__shfl_down_sync(0x0000FFFF, value, offset);` with `lane_id = tid % 32`, refused KP203 on main."""
from __future__ import annotations

import textwrap

from kernelport import backends
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool
from trust_support import assert_the_oracle_runs_and_ports_match, kp_inproc, numeric_statuses, verify_checks

HALF = """
#define LANES 32

__global__ void half_sum(const float* x, float* out)
{
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int lane_id = tid % 32;
    int warp_id = tid / 32;
    if (lane_id < 16) {
        float value = x[tid];
        for (int offset = 8; offset >= 1; offset /= 2) {
            value += __shfl_down_sync(0x0000FFFF, value, offset);
        }
        if (lane_id == 0) {
            out[warp_id] = value;
        }
    }
}

int main() {
    int n = 512;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n / 32 * sizeof(float));
    half_sum<<<n / 128, 128>>>(x, out);
}
"""


def port(code: str, to: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), to)[0]


def errors(p) -> set[str]:
    return {d.code for d in p.diagnostics if d.severity == "error"}


def test_the_half_warp_keeps_32_lane_groups_and_its_mask_is_dropped():
    p = port(HALF)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "value += __shfl_down(value, offset, 32);" in p.body and "lane_id < 16" in p.body and "% 32" in p.body
    m = port(HALF, "metal")
    assert m.ok and "simd_shuffle_down(value, offset)" in m.body, [d.format() for d in m.diagnostics]
    for lane in ("tid & 31", "tid % LANES"):  # a mask of 31, a macro that is 32
        assert port(HALF.replace("tid % 32", lane)).ok, lane
    up = HALF.replace("int offset = 8; offset >= 1; offset /= 2", "int offset = 1; offset < 16; offset <<= 1")
    assert port(up.replace("__shfl_down_sync", "__shfl_up_sync")).ok


def test_verify_with_the_original_as_oracle_passes_the_port_at_wave_32_and_64_and_fails_the_waves_lane(tmp_path):
    f = tmp_path / "half.cu"
    f.write_text(HALF)
    assert_the_oracle_runs_and_ports_match(f, backend=None)  # HIP at 32 and 64, Metal, portable
    # the lane as a port to the wave would read it: lanes 32..47 of a 64-lane wave leave the guard
    assert kp_inproc("translate", f, "--to", "hip")[0] == 0
    hip = tmp_path / "half.hip"
    hip.write_text(hip.read_text().replace("int lane_id = tid % 32;", "int lane_id = tid % warpSize;"))
    assert numeric_statuses(verify_checks(f, compiles=False)[1]) == {32: "pass", 64: "fail"}


def test_hipcc_compiles_the_port_for_both_wave_widths(tmp_path):
    require_tool("hipcc")
    p, text = translate(SourceFile.from_text(HALF, "half.cu"), "hip")
    assert p.ok
    path = tmp_path / "half.hip"
    path.write_text(text)
    assert_hip_file_compiles(path, list(dict.fromkeys(r.arch for r in backends.get("hip").runs)))


def test_look_alikes_stay_refused():
    for wrong in (HALF.replace("lane_id < 16", "lane_id < 8"),  # the mask is not the guard's lanes
                  HALF.replace("0x0000FFFF", "0xFFFF0000"),  # the upper half: not lanes 0 .. N-1
                  HALF.replace("if (lane_id < 16)", "if (warp_id < 16)"),  # a guard on another variable
                  HALF.replace("int lane_id = tid % 32;", "int lane_id = tid % 16;"),  # not a 32-lane warp's lane
                  HALF.replace("int offset = 8;", "int offset = 16;"),  # steps that read outside the mask
                  HALF.replace("offset /= 2", "offset -= lane_id"),  # a step not known
                  HALF.replace("value += __shfl", "if (x[tid] > 0) value += __shfl"),  # a thread-dependent branch
                  HALF.replace("value += __shfl_down_sync(0x0000FFFF, value, offset);",
                               "value += __popc(__ballot_sync(0x0000FFFF, value > 0));")):  # a vote: two groups a wave
        assert "KP203" in errors(port(wrong)), wrong


def test_the_global_ids_lane_needs_launches_of_whole_32_lane_warps():
    assert "KP203" in errors(port(HALF.replace("half_sum<<<n / 128, 128>>>", "half_sum<<<n / 48, 48>>>")))
    assert "KP203" in errors(port(HALF[:HALF.index("int main")]))  # no launch gives the block
    assert port(HALF[:HALF.index("int main")].replace("int tid = threadIdx.x + blockIdx.x * blockDim.x;",
                                                      "int tid = threadIdx.x;")).ok  # threadIdx.x's lane needs none


def test_a_32_lane_lane_is_refused_where_the_port_makes_the_function_or_its_macro_the_waves():
    native = HALF.replace("__global__ void half_sum", "// @kp warp-width native\n__global__ void half_sum")
    assert not port(native).ok  # (KP219: the annotation contradicts the code's 32-lane mask)
    # the 04 file's shape: a `WARP_SIZE` macro that other, native kernels make the wave's
    other = """
__global__ void full_sum(const float* x, float* out)
{
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    float v = x[tid];
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (tid % WARP_SIZE == 0) out[tid / WARP_SIZE] = v;
}
"""
    mixed = HALF.replace("#define LANES 32", "#define WARP_SIZE 32\n" + other).replace("tid % 32", "tid % WARP_SIZE")
    p = port(mixed)
    assert "KP203" in errors(p) and any("'WARP_SIZE' is the wave's width in the port" in d.message
                                        for d in p.diagnostics), [d.format() for d in p.diagnostics]


def test_a_library_shuffle_without_its_optional_mask_is_read():
    """apex's layer norm: PyTorch's `WARP_SHFL(v, lane)` passes no mask (the optional last argument); reading
    it as the mask was an IndexError (KP006 in lint, stop 61's first commit)."""
    from kernelport.lint.engine import lint_text
    code = """
__global__ void k(float* x) {
    float mu = x[threadIdx.x];
    if (threadIdx.x % 32 < 16) mu = WARP_SHFL(mu, 0);
    x[threadIdx.x] = mu;
}
"""
    assert "KP006" not in {f.code for f in lint_text(textwrap.dedent(code), "t.cu")}
    assert "KP006" not in errors(port(code)) and "KP220" not in errors(port(code))
