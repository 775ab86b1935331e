"""A kernel in 32-lane rows (`warp = threadIdx.x / 32`, `lane = threadIdx.x % 32`, a ladder from 16,
`nwarps = blockDim.x / 32`) whose host sweeps its block from 32 threads (llm.c's softmax_forward
kernels): the port keeps the rows at width 32 (kernelport/warpwidth.py reads the sizes
kernelport/blocksizes.py follows to the host) instead of refusing the count (KP233, stop 37).  Kept
only where width 32 keeps every warp operation CUDA's: a vote, a header's warp helper (ported at the
wave width) or `warpSize` in the rows leaves KP233 at the count, saying why."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

from port_support import refusal
from trust_support import kp_inproc, verify_checks

ROWSUM = open(__file__.replace("test_keep_rows.py", "fixtures/wave_counts/rowsum.cu")).read()


def rowsum(sizes: str = "32, 96, 128") -> str:
    return ROWSUM.replace("SIZES", sizes)


def test_rows_swept_from_32_are_kept_at_width_32():
    for count in ("blockDim.x / 32", "blockDim.x >> 5"):
        port, text = translate(SourceFile.from_text(rowsum().replace("blockDim.x / 32", count), "t.cu"), "hip")
        assert port.ok, [d.message for d in port.diagnostics]
        assert f"const int nwarps = {count};" in text
        assert "int warp = threadIdx.x / 32, lane = threadIdx.x % 32;" in text
        assert "v += __shfl_xor(v, o, 32);" in text


def _numeric(checks) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for c in checks:
        if c["kind"] == "numeric" and c["backend"] == "hip":
            out.setdefault(c["wave"], set()).add(c["status"])
    return out


def test_the_kept_port_verifies_at_both_widths_and_rows_made_the_wave_fail(tmp_path):
    path = tmp_path / "rowsum.cu"
    path.write_text(rowsum())  # verify launches the sweep's first block: 32 threads, half a 64-lane wave
    assert kp_inproc("translate", path, "--to", "hip")[0] == 0
    rc, checks, text = verify_checks(path)
    assert rc == 0 and _numeric(checks) == {32: {"pass"}, 64: {"pass"}}, text
    # the port stage 37 would have had to write: the rows made the wave's (counts, lanes, the ladder)
    hip = tmp_path / "rowsum.hip"
    hip.write_text(hip.read_text().replace("/ 32", "/ warpSize").replace("% 32", "% warpSize")
                   .replace("o = 16", "o = warpSize / 2").replace("__shfl_xor(v, o, 32)", "__shfl_xor(v, o)"))
    rc, checks, text = verify_checks(path)
    assert rc == 1 and _numeric(checks) == {32: {"pass"}, 64: {"fail"}}, text


def test_a_vote_in_the_rows_keeps_the_refusal():
    # the row's leader from a ballot: its bits would hold two rows of a 64-lane wave
    text = rowsum().replace("if (lane == 0)", "if (lane == __ffs(__ballot_sync(0xffffffff, 1)) - 1)")
    got = refusal(text, dedent=False)
    assert [(d.code, d.location.line, d.location.column) for d in got] == [("KP233", 2, 24)]
    assert "`__ballot_sync` (line 7) is a vote" in got[0].message


def test_rows_sized_by_warpsize_keep_the_refusal():
    got = refusal(rowsum().replace("o = 16", "o = warpSize / 2"), dedent=False)
    assert [(d.code, d.location.line) for d in got] == [("KP233", 2)]
    assert "`warpSize` (line 5) sizes its groups by the wave" in got[0].message


def test_a_header_warp_helper_in_the_rows_keeps_the_refusal(tmp_path):
    (tmp_path / "rows.cuh").write_text(textwrap.dedent("""\
        __device__ float rowSum(float v) {
            for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
            return v;
        }
        """))
    path = tmp_path / "t.cu"
    path.write_text('#include "rows.cuh"\n' + rowsum().replace(
        "for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);", "v = rowSum(v);"))
    rc, _, err = kp_inproc("translate", path, "--to", "hip")
    assert rc != 0 and "t.cu:3:24: error: KP233" in err, err
    assert "`rowSum` (line 6) is a header's warp helper, ported on its own at the wave width" in err


def test_a_call_no_file_read_defines_keeps_the_refusal_where_includes_were_not_read():
    # lint's model of one text (the self-check's original) reads no header: `rowSum` may be a warp helper
    text = '#include "rows.cuh"\n' + rowsum().replace("out[blockIdx.x] = s;", "out[blockIdx.x] = rowScale(s);")
    got = refusal(text, dedent=False)
    assert [(d.code, d.location.line) for d in got] == [("KP233", 3)]
    assert "`rowScale` (line 13) is defined in no file read here" in got[0].message
    port, _ = translate(SourceFile.from_text(text.replace('#include "rows.cuh"', "#include <cstdio>"), "t.cu"), "hip")
    assert port.ok  # no local include: nothing unread


def test_whole_waves_still_make_the_rows_the_wave():
    port, text = translate(SourceFile.from_text(rowsum("64, 128, 256"), "t.cu"), "hip")
    assert port.ok and "const int nwarps = blockDim.x / warpSize;" in text


HELPER = "__device__ int row_count() { return blockDim.x / 32; }\n"


def with_helper(text: str) -> str:
    return HELPER + text.replace("const int nwarps = blockDim.x / 32;", "const int nwarps = row_count();")


def test_a_device_helpers_count_is_kept_with_its_kernels_rows():
    port, text = translate(SourceFile.from_text(with_helper(rowsum()), "t.cu"), "hip")
    assert port.ok and HELPER in text and "v += __shfl_xor(v, o, 32);" in text


def test_a_device_helpers_count_is_refused_at_its_line_where_the_rows_are_not_kept():
    text = with_helper(rowsum().replace("if (lane == 0)", "if (lane == __ffs(__ballot_sync(0xffffffff, 1)) - 1)"))
    got = refusal(text, dedent=False)
    assert [(d.code, d.location.line, d.location.column) for d in got] == [("KP233", 1, HELPER.index("blockDim") + 1)]
    assert "a launch of `rowsum` (which runs `row_count`)" in got[0].message
