"""CUB 2.x's in-place device scans with a stream (and CUB 2.x's deprecated debug_synchronous): as many arguments
as hipCUB's out-of-place calls without, so the arity alone does not say which; one argument does (the HIP table's
`name/N:cond` rows, kernelport/cub_overloads.py): an integer where the out-of-place call has an iterator or an
operator, an operator where it has d_out.  The in-place call passes the iterator twice (rocPRIM's scans allow
the output to be the input, tests/test_cub_inplace_scan.py); the out-of-place look-alikes keep their arguments,
and a call whose argument the file does not show keeps them too (hipcc then refuses it, never a silently other
call).  The port of SCAN compiles with bench/rocm_libs.py's hipCUB rocm-5.3.3 headers for gfx90a and gfx1030;
CI has no hipCUB, so the test reads the text."""
from __future__ import annotations

from port_support import port_text

SCAN = """\
#include <cub/cub.cuh>
struct MyMin { __host__ __device__ int operator()(int a, int b) const { return a < b ? a : b; } };
void scan(int *d_data, int *d_out, int n, size_t m, float *f, cudaStream_t s) {
  void *tmp = nullptr; size_t bytes = 0;
  MyMin min_op;
  cub::DeviceScan::InclusiveSum(tmp, bytes, d_data, n, s);
  cub::DeviceScan::InclusiveSum(tmp, bytes, d_data, m, s, false);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, d_data, n, s);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, d_data, 1024, s, true);
  cub::DeviceScan::InclusiveScan(tmp, bytes, f, cub::Max(), n, s);
  cub::DeviceScan::InclusiveScan(tmp, bytes, d_data, MyMin(), n * 2, s, false);
  cub::DeviceScan::ExclusiveScan(tmp, bytes, f, cub::Max(), 0.0f, n, s);
  cub::DeviceScan::ExclusiveScan(tmp, bytes, d_data, MyMin{}, 7, n, s, false);
  cub::DeviceScan::ExclusiveScan(tmp, bytes, d_data, min_op, 7, n, s);
}
"""
IN_PLACE = [
    "InclusiveSum(tmp, bytes, d_data, d_data, n, s);", "InclusiveSum(tmp, bytes, d_data, d_data, m, s, false);",
    "ExclusiveSum(tmp, bytes, d_data, d_data, n, s);", "ExclusiveSum(tmp, bytes, d_data, d_data, 1024, s, true);",
    "InclusiveScan(tmp, bytes, f, f, hipcub::Max(), n, s);",
    "InclusiveScan(tmp, bytes, d_data, d_data, MyMin(), n * 2, s, false);",
    "ExclusiveScan(tmp, bytes, f, f, hipcub::Max(), 0.0f, n, s);",
    "ExclusiveScan(tmp, bytes, d_data, d_data, MyMin{}, 7, n, s, false);",
    "ExclusiveScan(tmp, bytes, d_data, d_data, min_op, 7, n, s);",
]
OUT_OF_PLACE = [  # as many arguments, each the out-of-place overload: kept as written
    "InclusiveSum(tmp, bytes, d_data, d_out, n, s);", "ExclusiveSum(tmp, bytes, d_data, d_out, n);",
    "ExclusiveSum(tmp, bytes, d_data, d_out, n, s);", "InclusiveSum(tmp, bytes, d_data, d_out, n);",
    "InclusiveScan(tmp, bytes, d_data, d_out, MyMin(), n);", "InclusiveScan(tmp, bytes, d_data, d_out, min_op, n, s);",
    "ExclusiveScan(tmp, bytes, d_data, d_out, min_op, 7, n);", "ExclusiveScan(tmp, bytes, d_data, d_out, MyMin(), 7, n, s);",
]


def test_in_place_scans_with_a_stream_pass_the_iterator_twice():
    text = port_text(SCAN)
    for call in IN_PLACE:
        assert "hipcub::DeviceScan::" + call in text, (call, text)


def test_out_of_place_calls_of_the_same_arity_keep_their_arguments():
    body = "".join(f"  cub::DeviceScan::{c}\n" for c in OUT_OF_PLACE)
    text = port_text(SCAN.replace("  cub::DeviceScan::InclusiveSum(tmp, bytes, d_data, n, s);\n", body))
    for call in OUT_OF_PLACE:
        assert "hipcub::DeviceScan::" + call in text, (call, text)


def test_an_argument_the_file_does_not_show_keeps_the_call_as_written():
    """`cfg.n` (a member) might be anything: the in-place row is not applied (hipcc says so, never a silent call)."""
    text = port_text("#include <cub/cub.cuh>\nstruct C { int n; };\n"
                     "void scan(int *d, C cfg, cudaStream_t s) {\n  void *tmp = nullptr; size_t bytes = 0;\n"
                     "  cub::DeviceScan::InclusiveSum(tmp, bytes, d, cfg.n, s);\n}\n")
    assert "hipcub::DeviceScan::InclusiveSum(tmp, bytes, d, cfg.n, s);" in text, text
