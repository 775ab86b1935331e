"""A lane or warp index inside a function-like macro (stop 42's h/portable42 finding, kernelport/macro_warp_math.py).

`#define SLOTS(n) int lane = threadIdx.x % WARP_SIZE; int num_warps = (n)` with the warp index spelled
`threadIdx.x >> LOG_WARP_SIZE` outside it: the HIP port made the lane the wave's (`WARP_SIZE` is
`KP_WAVE_SIZE`) while a 32-based index stayed 32-based inside the macro or its arguments, which the dataflow
does not follow, so lane and warp disagreed at wave 64 (verify on main: HIP and portable wave 64 FAIL, every
variant below).  Each macro use in device code is now expanded and judged with the function's other indices:
where one side is 32-based and the other the wave's, KP219 at the use.  Where both are the wave's, the port
stands and computes; a portable port of `LANE(t) ((t) % WARP_SIZE)` used only in device code now reads the
run-time wave there (before: `KP_WAVE_MAX`, 64, at wave 32: portable wave 32 FAIL on main).
"""
from __future__ import annotations

import textwrap

import pytest

from trust_support import kp_inproc, verify_checks

KERNEL = textwrap.dedent("""\
    #include <cuda_runtime.h>
    DEFINES

    __device__ float warpSum(float v) {
        for (int o = 16; o > 0; o /= 2) v = v + __shfl_xor_sync(0xffffffff, v, o);
        return v;
    }

    __device__ float blockSum(float v) {
        __shared__ float part[32];
        if (threadIdx.x < 32) part[threadIdx.x] = 1000.0f;
        __syncthreads();
    BODY
        v = warpSum(v);
        if (lane == 0) part[warp] = v;
        __syncthreads();
        v = lane < num_warps ? part[lane] : 0.0f;
        return warpSum(v);
    }

    __global__ void sums(const float* x, float* out) {
        float s = blockSum(x[blockIdx.x * blockDim.x + threadIdx.x] - 2.0f);
        if (threadIdx.x == 0) out[blockIdx.x] = s;
    }

    int main() {
        float *x, *out;
        cudaMalloc(&x, 4 * 256 * sizeof(float));
        cudaMalloc(&out, 4 * sizeof(float));
        sums<<<4, BLOCK>>>(x, out);
        cudaDeviceSynchronize();
        return 0;
    }
    """)

SIZES = "#define WARP_SIZE 32\n#define LOG_WARP_SIZE 5\n"

# name: (defines, the body's lines, the use refused, what it is)
REFUSED = {
    "the task's SLOTS(n), a 32-based count in its argument": (
        SIZES + "#define SLOTS(n) int lane = threadIdx.x % WARP_SIZE; int num_warps = (n)\n",
        "SLOTS(blockDim.x >> LOG_WARP_SIZE);\nconst int warp = threadIdx.x >> LOG_WARP_SIZE;",
        "SLOTS(blockDim.x >> LOG_WARP_SIZE)", "blockDim.x >> LOG_WARP_SIZE"),
    "lane and warp in two macros": (
        SIZES + "#define LANE_DECL() int lane = threadIdx.x % WARP_SIZE\n"
                "#define WARP_DECL() int warp = threadIdx.x >> LOG_WARP_SIZE\n",
        "LANE_DECL();\nWARP_DECL();\nconst int num_warps = blockDim.x >> LOG_WARP_SIZE;",
        "WARP_DECL()", "threadIdx.x >> LOG_WARP_SIZE"),
    "one macro declares both": (
        SIZES + "#define IDS() int lane = threadIdx.x % WARP_SIZE; int warp = threadIdx.x >> LOG_WARP_SIZE; "
                "int num_warps = blockDim.x >> LOG_WARP_SIZE\n",
        "IDS();", "IDS()", "threadIdx.x >> LOG_WARP_SIZE"),
    "literals only, beside a helper the port makes the wave's": (
        "#define IDS() int lane = threadIdx.x & 31; int warp = threadIdx.x >> 5; int num_warps = blockDim.x >> 5\n",
        "IDS();", "IDS()", "threadIdx.x & 31"),
    "expression macros over their argument": (
        SIZES + "#define LANE_OF(t) ((t) % WARP_SIZE)\n#define WARP_OF(t) ((t) >> LOG_WARP_SIZE)\n",
        "const int lane = LANE_OF(threadIdx.x);\nconst int warp = WARP_OF(threadIdx.x);\n"
        "const int num_warps = WARP_OF(blockDim.x);",
        "WARP_OF(threadIdx.x)", "((threadIdx.x)) >> LOG_WARP_SIZE"),
    "an argument that is a local of the thread index": (
        SIZES + "#define WARP_OF(t) ((t) >> LOG_WARP_SIZE)\n",
        "const int tid = threadIdx.x;\nconst int lane = tid % WARP_SIZE;\nconst int warp = WARP_OF(tid);\n"
        "const int num_warps = blockDim.x / WARP_SIZE;",
        "WARP_OF(tid)", "((tid)) >> LOG_WARP_SIZE"),
}


def _source(defines: str, body: str, block: int = 256) -> str:
    lines = "\n".join("    " + ln for ln in body.split("\n"))
    return KERNEL.replace("DEFINES", defines).replace("BODY", lines).replace("BLOCK", str(block))


def _numeric(f) -> dict:
    rc, checks, text = verify_checks(f, compiles=False)
    return {(c["backend"], c["wave"]): c["status"] for c in checks if c["kind"] == "numeric"}, text


@pytest.mark.parametrize("case", list(REFUSED))
def test_an_index_a_macro_keeps_32_based_beside_the_wave_is_refused_at_its_use(tmp_path, case):
    defines, body, use, math = REFUSED[case]
    src = _source(defines, body)
    (tmp_path / "k.cu").write_text(src)
    at = src.index(use, src.index("float blockSum("))
    line, col = src[:at].count("\n") + 1, at - src.rfind("\n", 0, at)
    for backend in ("hip", "portable"):
        rc, _, err = kp_inproc("translate", tmp_path / "k.cu", "--to", backend, "-o", tmp_path / backend)
        assert rc != 0 and f"k.cu:{line}:{col}: error: KP219 cannot decide the warp width here: `{use}` is " \
            f"`{math}`" in err, (backend, err)


def test_a_macro_of_a_header_is_judged_at_the_includers_use(tmp_path):
    defines, body, _, _ = REFUSED["the task's SLOTS(n), a 32-based count in its argument"]
    (tmp_path / "common.h").write_text("#pragma once\n" + defines)
    src = _source('#include "common.h"', body)
    (tmp_path / "k.cu").write_text(src)
    rc, _, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    line = src.split("SLOTS(")[0].count("\n") + 1
    assert rc != 0 and f"k.cu:{line}:5: error: KP219 cannot decide the warp width here: `SLOTS(" in err, err


PORTED = {
    "a lane macro over the made-wave WARP_SIZE, the warp index outside": (
        SIZES + "#define LANE_DECL(t) int lane = (t) % WARP_SIZE\n",
        "LANE_DECL(threadIdx.x);\nconst int warp = threadIdx.x >> LOG_WARP_SIZE;\n"
        "const int num_warps = blockDim.x >> LOG_WARP_SIZE;"),
    "every index of one macro over WARP_SIZE": (
        SIZES + "#define IDS() int lane = threadIdx.x % WARP_SIZE; int warp = threadIdx.x / WARP_SIZE; "
                "int num_warps = blockDim.x / WARP_SIZE\n",
        "IDS();"),
}


@pytest.mark.parametrize("case", list(PORTED))
def test_indices_the_port_makes_the_wave_together_port_and_compute_at_32_and_64(tmp_path, case):
    f = tmp_path / "k.cu"
    f.write_text(_source(*PORTED[case]))
    for backend in ("hip", "portable"):
        rc, _, err = kp_inproc("translate", f, "--to", backend, "-o", tmp_path / backend)
        assert rc == 0 and "KP219" not in err, (backend, err)
    ports, text = _numeric(f)
    assert {ports[(b, w)] for b in ("hip", "portable") for w in (32, 64)} == {"pass"}, text


def test_a_bitset_word_macro_over_data_stays_quiet(tmp_path):
    """`WORD(i) ((i) >> 5)` over a value that is no thread index, in a function the port makes the wave's."""
    f = tmp_path / "k.cu"
    f.write_text(_source("#define WARP_SIZE 32\n#define WORD(i) ((i) >> 5)\n",
                         "const int lane = threadIdx.x % WARP_SIZE;\nconst int warp = threadIdx.x / WARP_SIZE;\n"
                         "const int num_warps = blockDim.x / WARP_SIZE;\n__shared__ unsigned seen[8];\n"
                         "if (threadIdx.x < 8) seen[threadIdx.x] = 0;\n__syncthreads();\n"
                         "atomicOr(&seen[WORD((int)(v * 100.0f) & 255)], 1u);"))
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP219" not in err, err
    assert "seen[WORD((int)(v * 100.0f) & 255)]" in (tmp_path / "out" / "k.hip").read_text()


def test_a_32_lane_group_keeps_its_macros(tmp_path):
    """32-thread blocks: the group is a logical 32-lane one, its 32s kept everywhere, consistently."""
    f = tmp_path / "k.cu"
    f.write_text(_source(*REFUSED["one macro declares both"][:2], block=32))
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP219" not in err, err
    ports, text = _numeric(f)
    assert ports[("hip", 64)] == ports[("hip", 32)] == "pass", text


def test_a_warp_macro_in_a_kernel_without_warp_code_stays_quiet(tmp_path):
    """`WARP_OF(threadIdx.x)` tiling a kernel that has no shuffle, vote or warp-size macro: nothing is made the wave."""
    f = tmp_path / "k.cu"
    f.write_text(textwrap.dedent("""\
        #define WARP_OF(t) ((t) >> 5)
        __global__ void tiles(float *out) {
            out[blockIdx.x * 8 + WARP_OF(threadIdx.x)] += 1.0f;
        }
        """))
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP219" not in err, err


# dgSPARSE-Lib's shape (src/ge-spmm, heldout29): `lane_id = tid & (32 - 1)` beside `SHFL_DOWN_REDUCE(val)`, a macro
# the port runs over the wave (its step at 32 added): the function shows no shuffle, so the dataflow kept the
# lane 32-based, and at wave 64 lane 0 summed two rows (verify on main: HIP and portable wave 64 FAIL).
ROW_SUM = textwrap.dedent("""\
    #include <cuda_runtime.h>
    #define FULLMASK 0xffffffff
    #define SHFL_DOWN_REDUCE(v)                        \\
      v += __shfl_down_sync(FULLMASK, v, 16WIDTH);      \\
      v += __shfl_down_sync(FULLMASK, v, 8WIDTH);       \\
      v += __shfl_down_sync(FULLMASK, v, 4WIDTH);       \\
      v += __shfl_down_sync(FULLMASK, v, 2WIDTH);       \\
      v += __shfl_down_sync(FULLMASK, v, 1WIDTH);

    __global__ void rowsum(const float* x, float* y, int nrows) {
        int tid = blockIdx.x * blockDim.x + threadIdx.x;
        int warp_id = tid >> 5;
        int lane_id = tid & (32 - 1);
        if (warp_id < nrows) {
            float val = 0.0f;
            for (int j = lane_id; j < 100; j += 32) val += x[warp_id * 100 + j];
            SHFL_DOWN_REDUCE(val);
            if (lane_id == 0) y[warp_id] = val;
        }
    }

    int main() {
        float *x, *y;
        cudaMalloc(&x, 32 * 100 * sizeof(float));
        cudaMalloc(&y, 32 * sizeof(float));
        rowsum<<<4, 256>>>(x, y, 32);
        cudaDeviceSynchronize();
        return 0;
    }
    """)


def test_a_macro_reduction_the_port_makes_the_wave_beside_a_32_based_lane_is_refused(tmp_path):
    src = ROW_SUM.replace("WIDTH", "")
    (tmp_path / "k.cu").write_text(src)
    line = src.split("    SHFL_DOWN_REDUCE(val);")[0].count("\n") + 1
    for backend in ("hip", "portable"):
        rc, _, err = kp_inproc("translate", tmp_path / "k.cu", "--to", backend, "-o", tmp_path / backend)
        assert rc != 0 and f"k.cu:{line}:9: error: KP219 cannot decide the warp width here: `SHFL_DOWN_REDUCE(val)` " \
            "runs `__shfl_down_sync` over the wave in the port" in err and "`tid >> 5` stays 32-based" in err, err


def test_a_macro_reduction_of_an_explicit_32_lane_width_ports_with_its_32_based_lane(tmp_path):
    """Shuffles with `width` 32 are a logical 32-lane group the port keeps: the 32-based lane agrees with them."""
    f = tmp_path / "k.cu"
    f.write_text(ROW_SUM.replace("WIDTH", ", 32"))
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP219" not in err, err
    ports, text = _numeric(f)
    assert ports[("hip", 64)] == ports[("hip", 32)] == "pass", text


def test_a_whole_warp_macro_in_a_logical_32_lane_group_is_refused(tmp_path):
    """`// @kp warp-width 32` keeps the kernel's 32s, but the macro's body is ported once, at the wave width (its
    step at 32 added, no width): on main the port was written and verify failed at wave 64 (HIP and portable)."""
    src = ROW_SUM.replace("WIDTH", "").replace("__global__ void rowsum", "// @kp warp-width 32\n__global__ void rowsum")
    (tmp_path / "k.cu").write_text(src)
    line = src.split("    SHFL_DOWN_REDUCE(val);")[0].count("\n") + 1
    rc, _, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc != 0 and f"k.cu:{line}:9: error: KP219 cannot decide the warp width here: `SHFL_DOWN_REDUCE(val)` runs " \
        "`__shfl_down_sync` over the wave in the port (a macro's body is ported once, for every use), while `rowsum` " \
        "keeps logical 32-lane groups" in err, err
