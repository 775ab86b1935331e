"""CUB 2.x's in-place device scans (`cub::DeviceScan::InclusiveSum(tmp, bytes, d_data, n)`, heldout60
GPUPrefixSums' CubDispatcher), which hipCUB 5.x lacks: main ported them to the same 4 arguments, which
hipCUB's out-of-place template cannot take (hipcc: no matching function for call to 'InclusiveSum').
rocPRIM's scans allow the output to be the input, so the port passes the iterator twice (the HIP table's
`cub::DeviceScan::InclusiveSum/4` row). With hipCUB rocm-5.3.3's headers (bench/rocm_libs.py) the port
below compiles for gfx90a and gfx1030; CI has no hipCUB, so the test reads the text.
"""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

SCAN = """\
#include <cub/cub.cuh>
void scan(int *d_data, int *d_out, int n, float *f, cudaStream_t s) {
  void *tmp = nullptr; size_t bytes = 0;
  cub::DeviceScan::InclusiveSum(tmp, bytes, d_data, n);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, d_data, n);
  cub::DeviceScan::InclusiveScan(tmp, bytes, f, cub::Max(), n);
  cub::DeviceScan::ExclusiveScan(tmp, bytes, f, cub::Max(), 0.0f, n);
  cub::DeviceScan::InclusiveSum(tmp, bytes, d_data, d_out, n, s);
}
"""


def _port(tmp_path, text, name="s.cu"):
    return translate(SourceFile.from_text(text, str(tmp_path / name)), "hip")


def test_in_place_scans_pass_the_iterator_twice(tmp_path):
    port, text = _port(tmp_path, SCAN)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "hipcub::DeviceScan::InclusiveSum(tmp, bytes, d_data, d_data, n);" in text
    assert "hipcub::DeviceScan::ExclusiveSum(tmp, bytes, d_data, d_data, n);" in text
    assert "hipcub::DeviceScan::InclusiveScan(tmp, bytes, f, f, hipcub::Max(), n);" in text
    assert "hipcub::DeviceScan::ExclusiveScan(tmp, bytes, f, f, hipcub::Max(), 0.0f, n);" in text
    # look-alike: the out-of-place call (hipCUB has it) keeps its arguments
    assert "hipcub::DeviceScan::InclusiveSum(tmp, bytes, d_data, d_out, n, s);" in text


def test_an_argument_with_an_effect_is_not_written_twice(tmp_path):
    """`d_data++` passed twice would step twice: refused where it stands, never a silently different call."""
    port, text = _port(tmp_path, SCAN.replace("InclusiveSum(tmp, bytes, d_data, n)", "InclusiveSum(tmp, bytes, d_data++, n)"))
    kp = [d for d in port.diagnostics if d.code == "KP210"]
    assert kp and kp[0].location.line == 4 and "twice" in kp[0].message, [d.format() for d in port.diagnostics]
