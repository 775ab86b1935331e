"""CUB reached through Thrust (kernelport/thrust_cub.py): shushengyuan/topk's topk.cu (held-out set 47)
includes only thrust headers and calls `cub::DeviceRadixSort`, which CUDA's Thrust brings in; rocThrust does
not bring hipCUB, so the HIP port (hipcub::...) stopped at "use of undeclared identifier 'hipcub'" with
ROCm's libraries on hipcc's path (bench/scoreboard_heldout47_rocmlibs.txt).  The port now includes hipCUB's
header after the first thrust include; a file that includes cub itself, or uses no cub, is as before."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

SRC = """#include <thrust/device_vector.h>
#include <thrust/sort.h>

void sort(float *keys, int *vals, float *ko, int *vo, int n, void *tmp, size_t bytes)
{
    cub::DeviceRadixSort::SortPairsDescending(tmp, bytes, keys, ko, vals, vo, n);
}
"""


def _hip(text: str):
    return translate(SourceFile.from_text(text, "t.cu"), "hip")


def test_cub_reached_through_thrust_gets_hipcub_s_header():
    port, whole = _hip(SRC)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#include <thrust/device_vector.h>\n#include <hipcub/hipcub.hpp>\n#include <thrust/sort.h>" in whole, whole
    assert "hipcub::DeviceRadixSort::SortPairsDescending" in whole
    assert any(n.after == "#include <hipcub/hipcub.hpp>" for n in port.notes), port.notes


def test_a_file_that_includes_cub_itself_is_as_before():
    port, whole = _hip("#include <cub/cub.cuh>\n" + SRC)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert whole.count("hipcub/hipcub.hpp") == 1, whole


def test_thrust_without_cub_is_as_before():
    port, whole = _hip(SRC.replace("cub::DeviceRadixSort::SortPairsDescending(tmp, bytes, keys, ko, vals, vo, n);",
                                   "thrust::sort(thrust::device, keys, keys + n);"))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "hipcub" not in whole, whole


def test_the_metal_port_is_untouched():  # (Metal has no cub header: the library is refused as before)
    from kernelport import dialect
    assert dialect.concept("cub_header").spelling("metal") is None
