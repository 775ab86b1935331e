"""A file included partway through another (kernelport/includers.py): CGBN's `core.cu` defines
`core_t` and its `sync_mask()`, then includes `core_add.cu`, ... at its end; egs-cuda's `main.cu`
defines `CUDA_EGS` and then includes `kernels.cu`.  The included file is linted and translated with
its includer's text before the include line (macros, constants, device functions, the defines
active there); its port holds only its own text, and the includer's port, which includes it, compiles."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from conftest import assert_hip_file_compiles, require_tool
from trust_support import kp_inproc

LIB = """\
#define LANES 32

namespace grp {
static const unsigned GROUP = 8;

__device__ __forceinline__ unsigned group_mask() {
    unsigned lane = threadIdx.x & 31;
    return ((1u << GROUP) - 1) << (lane & ~(GROUP - 1));
}
}  // namespace grp

__global__ void scale(float* x, float s) { x[threadIdx.x] *= s; }

#include "lib_part.cu"
"""

PART = """\
namespace grp {
__device__ float group_sum(float v) {
    unsigned m = group_mask();
    for (int o = GROUP / 2; o > 0; o >>= 1)
        v += __shfl_xor_sync(m, v, o, GROUP);
    return v;
}
}  // namespace grp

__global__ void group_sums(float* x, float* out) {
    float v = grp::group_sum(x[blockIdx.x * blockDim.x + threadIdx.x]);
    int lane = threadIdx.x % LANES;
    if (lane == 0) out[blockIdx.x] = v;
}
"""


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    d = tmp_path / "proj"
    d.mkdir()
    for name, text in files.items():
        (d / name).write_text(textwrap.dedent(text))
    return d


def _lint(*args) -> list[tuple[str, int, str]]:
    rc, out, err = kp_inproc("lint", "--format", "json", *map(str, args))
    assert rc in (0, 1), err
    return sorted((Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(out))


def test_lint_sees_the_includers_macro_at_the_included_files_lines(tmp_path):
    d = _project(tmp_path, {"lib.cu": LIB, "lib_part.cu": PART})
    assert ("lib_part.cu", 12, "WS001") in _lint(d)  # `threadIdx.x % LANES`: LANES is 32 in lib.cu
    assert ("lib_part.cu", 12, "WS001") in _lint(d / "lib_part.cu")  # given alone: lib.cu beside it
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "lib_part.cu").write_text(PART)
    # no includer: LANES is unknown, so no WS001; the group mask held in a 32-bit local is WS007 whatever
    # its value (names lanes of the low half only on a 64-lane wave; labelled14's rule, a045965)
    assert _lint(alone / "lib_part.cu") == [("lib_part.cu", 5, "WS007")]


def test_a_define_of_the_includer_decides_the_included_files_conditionals(tmp_path):
    # egs-cuda's pattern: main.cu defines the build's switch, then includes the kernels
    main = '#define WIDE_LANES\n#include "kernels.cu"\nint main() { return 0; }\n'
    kernels = """\
        #ifdef WIDE_LANES
        #define W 32
        #else
        #define W 16
        #endif
        __global__ void k(float* x) {
            int lane = threadIdx.x % W;
            x[threadIdx.x] = __shfl_sync(0xffffffffu, x[threadIdx.x], lane);
        }
        """
    d = _project(tmp_path, {"main.cu": main, "kernels.cu": kernels})
    assert ("kernels.cu", 2, "WS001") in _lint(d)  # `#define W 32`, the branch main.cu's define takes
    (d / "main.cu").unlink()
    assert ("kernels.cu", 2, "WS001") not in _lint(d / "kernels.cu")  # alone: W is 16
    assert ("kernels.cu", 2, "WS001") in _lint(d / "kernels.cu", "-D", "WIDE_LANES")  # as with -D


def test_translate_proves_the_group_mask_of_the_includers_helper(tmp_path):
    d = _project(tmp_path, {"lib.cu": LIB, "lib_part.cu": PART})
    rc, out, err = kp_inproc("translate", d, "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    port = (d / "out" / "lib_part.hip").read_text()
    assert "__shfl_xor(v, o, GROUP)" in port  # the group mask dropped: proven through lib.cu's group_mask()
    assert "group_mask()" in port and "static const unsigned GROUP" not in port  # only its own text
    assert '#include "lib_part.hip"' in (d / "out" / "lib.hip").read_text()
    rc, out, err = kp_inproc("translate", d / "lib_part.cu", "--to", "hip", "-o", d / "given")
    assert rc == 0, err  # given alone, its includer is found beside it
    assert (d / "given" / "lib_part.hip").read_text() == port
    (d / "lib.cu").unlink()
    rc, out, err = kp_inproc("translate", d / "lib_part.cu", "--to", "hip", "-o", d / "alone")
    assert rc == 1 and "KP203" in err and "group_mask" in err  # no includer: its value is not shown


def test_the_includers_port_compiles_with_the_included_files_port(tmp_path):
    require_tool("hipcc")
    from kernelport import toolchains
    d = _project(tmp_path, {"lib.cu": LIB, "lib_part.cu": PART})
    rc, out, err = kp_inproc("translate", d, "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert_hip_file_compiles(d / "out" / "lib.hip", toolchains.HIP_ARCHS)  # lib_part.hip compiled inside it


def test_several_includers_the_first_is_used_and_a_note_says_so(tmp_path):
    other = LIB.replace("scale", "shift")
    d = _project(tmp_path, {"a.cu": LIB, "b.cu": other, "lib_part.cu": PART})
    rc, out, err = kp_inproc("translate", d, "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "lib_part.cu:1:1: note: included partway through" in err and "a.cu:14" in err and "b.cu:14" in err


@pytest.mark.parametrize("prefix", ['#include "lib_part.cu"\n', '#pragma once\n// top\n#include "lib_part.cu"\n'])
def test_an_include_at_the_top_is_a_plain_header(tmp_path, prefix):
    # nothing but directives and comments above it, and no macro of the includer used: no prefix
    d = _project(tmp_path, {"lib.cu": prefix + LIB.replace('#include "lib_part.cu"\n', ""), "lib_part.cu": PART})
    rc, out, err = kp_inproc("translate", d, "--to", "hip", "-o", d / "out")
    assert rc == 1 and "KP203" in err


def test_a_headers_group_mask_helper_is_followed_too(tmp_path):
    # the same look-up serves a plain header: group_mask() and GROUP from an included .cuh
    header = LIB.replace('#include "lib_part.cu"\n', "").replace("__global__ void scale", "__device__ void scale")
    d = _project(tmp_path, {"grp.cuh": header, "k.cu": '#include "grp.cuh"\n' + PART})
    rc, out, err = kp_inproc("translate", d / "k.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "__shfl_xor(v, o, GROUP)" in (d / "out" / "k.hip").read_text()


def test_a_header_one_includer_has_at_its_top_is_a_plain_header(tmp_path):
    # lib_part.cu below code in lib.cu, but at the top of top.cu: it must stand alone there
    top = '#include "lib_part.cu"\n__global__ void other(float* x) { x[0] = 0; }\n'
    d = _project(tmp_path, {"lib.cu": LIB, "top.cu": top, "lib_part.cu": PART})
    rc, out, err = kp_inproc("translate", d, "--to", "hip", "-o", d / "out")
    assert rc == 1 and "KP203" in err and "partway" not in err


def _includer_looks(tmp_path: Path, n: int, monkeypatch) -> int:
    """How many includers' walks translating one of n sources, each including common.cuh at its
    top, reads to decide whether common.cuh is included partway."""
    from kernelport.includers import Includers
    looks = [0]
    real = Includers._includes_of

    def counted(self, g, f, *rest):
        if f.name == "common.cuh":
            looks[0] += 1
        return real(self, g, f, *rest)
    monkeypatch.setattr(Includers, "_includes_of", counted)
    d = tmp_path / f"n{n}"
    d.mkdir()
    (d / "common.cuh").write_text("#define LANES 32\n__device__ int lane() { return threadIdx.x % LANES; }\n")
    for i in range(n):
        (d / f"k{i:03}.cu").write_text(f'#include "common.cuh"\n__global__ void k{i}(int* x) {{ x[0] = lane(); }}\n')
    rc, out, err = kp_inproc("translate", d / "k000.cu", "--to", "hip", "--stdout")
    assert rc == 0, err
    monkeypatch.setattr(Includers, "_includes_of", real)
    return looks[0]


def test_a_header_at_the_top_of_its_first_includer_reads_no_other_includer(tmp_path, monkeypatch):
    """Every file beside a header that includes it was walked (its include walk, its words) for each
    file translated alone: a directory of n such files cost n walks per file, n^2 over the tree
    (llm.c's common.h).  The first includer with the header at its top decides (a plain header)."""
    assert _includer_looks(tmp_path, 3, monkeypatch) == _includer_looks(tmp_path, 30, monkeypatch) == 1


# InfiniCore's paged_attention_prefill/cuda/kernel_v2.cuh (tests/labelled18): it includes a header of
# the same base name below a conditional, calls the header's function, and its plain parse stops (an
# `else` closed under `#endif`), so it is parsed again with the header's macros while SY001 follows a
# reference parameter into the run's callers; the header's includer look-up then read the include
# node of the first (plain) parse against the second parse's tree: KeyError, KP006 instead of lint.
REPARSED_ROOT = """\
#pragma once
#if defined(FAST_PATH)
#include <cstdint>
#endif
#include "../decode/kernel.cuh"
__device__ void update(float &m, float x) {
    m = helper(x);
    m = __shfl_sync(0xffffffff, m, 0);
}
__device__ void other(float *out) {
#if defined(FAST_PATH)
    if (out[0] > 1.0f) {
        out[0] = 1.0f;
    } else
#endif
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            out[i] = 0.0f;
        }
}
__global__ void k(float *out) {
    float m = 0.0f;
    update(m, out[0]);
    other(out);
    out[threadIdx.x] = m;
}
"""


def test_a_file_parsed_again_with_its_headers_macros_reads_its_includes_in_its_new_tree(tmp_path):
    (tmp_path / "decode").mkdir()
    (tmp_path / "prefill").mkdir()
    (tmp_path / "decode" / "kernel.cuh").write_text(
        "#pragma once\n#define KP_EACH(i, n) for (int i = 0; i < (n); ++i)\n"
        "__device__ float helper(float x) { return x * 2.0f; }\n")
    (tmp_path / "prefill" / "kernel.cuh").write_text(REPARSED_ROOT)
    rc, out, err = kp_inproc("lint", "--format", "json", str(tmp_path / "prefill" / "kernel.cuh"))
    got = sorted((f["line"], f["code"]) for f in json.loads(out))
    assert not [g for g in got if g[1] == "KP006"], got
    assert (8, "WS007") in got and (14, "KP001") in got  # linted past its parse error (exit 2 for that)
