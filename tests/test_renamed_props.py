"""A HIP port that is its original under `cudaDeviceProp` -> `hipDeviceProp_t` and `cudaGetDeviceProperties` ->
`hipGetDeviceProperties` is not linted again in translate's self-check (kernelport/renamed_ports.py): lint reads
a device's properties by their fields, never by the struct's or the query's name (5 of the 126 ports' lints of
a `translate tests/realcorpus --to hip`, stop 56; 26 more rename `cudaThreadSynchronize` too, which stays linted).
Counted, not timed; the output is the lint's output."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kernelport import renamed_ports
from kernelport.cli import app
from kernelport.lint import engine

HEAD = """\
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *o) {
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x];
}

int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    float *o;
    cudaMalloc(&o, 256 * sizeof(float));
"""
TAIL = """\
    cudaDeviceSynchronize();
    printf("%d SMs\\n", prop.multiProcessorCount);
    cudaFree(o);
    return 0;
}
"""
# the block sized from the device's warp size into `s[64]`: WS033 in the original, kept (KP225) in the port
SIZED = HEAD + "    int threads = prop.warpSize * 2;\n    fill<<<1, threads>>>(o);\n" + TAIL
PLAIN = HEAD + "    fill<<<1, 64>>>(o);\n" + TAIL
# a look-alike: the wave width through a device attribute, which lint's geometry reads: still linted
ATTRIBUTE = HEAD + ("    int ws = 0;\n    cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0);\n"
                    "    fill<<<1, ws * 2>>>(o);\n") + TAIL


def _port(tmp_path: Path, code: str, monkeypatch, *, lint_all: bool = False) -> tuple[int, str, str, int]:
    """(port lints, stdout, stderr, exit status) of `translate FILE --to hip --allow-unported --stdout`."""
    f = tmp_path / "props.cu"
    f.write_text(code)
    n = [0]
    lint_text = engine.lint_text

    def counted(text, path, *a, **k):
        if k.get("parsed") is None:  # the port's lint (the original's reads translate's parse)
            n[0] += 1
        return lint_text(text, path, *a, **k)
    with monkeypatch.context() as m:
        m.setattr(engine, "lint_text", counted)
        if lint_all:  # main's rule for these names: every such port linted
            m.setattr(renamed_ports, "alike", lambda *a, **k: False)
        res = CliRunner().invoke(app, ["translate", str(f), "--to", "hip", "--allow-unported", "--stdout"])
    return n[0], res.stdout, res.stderr, res.exit_code


@pytest.mark.parametrize("code", [SIZED, PLAIN], ids=["kept-hazard", "plain"])
def test_a_port_renaming_the_device_properties_is_not_linted_again(tmp_path: Path, monkeypatch, code: str) -> None:
    lints, out, err, rc = _port(tmp_path, code, monkeypatch)
    assert "hipDeviceProp_t prop;" in out and "hipGetDeviceProperties(&prop, 0);" in out
    assert lints == 0  # main: 1
    assert (out, err, rc) == _port(tmp_path, code, monkeypatch, lint_all=True)[1:]


def test_the_kept_hazard_is_still_reported(tmp_path: Path, monkeypatch) -> None:
    _, out, err, _ = _port(tmp_path, SIZED, monkeypatch)
    assert "KP225 WS033" in err and "KERNELPORT-UNPORTED" in out


def test_a_device_attribute_query_is_still_linted(tmp_path: Path, monkeypatch) -> None:
    lints, out, err, rc = _port(tmp_path, ATTRIBUTE, monkeypatch)
    assert "hipDeviceGetAttribute" in out
    assert lints == 1
    assert (out, err, rc) == _port(tmp_path, ATTRIBUTE, monkeypatch, lint_all=True)[1:]


def test_the_property_names_read_alike() -> None:
    from kernelport import backends
    table = backends.get("hip").api()
    assert renamed_ports._read_alike("cudaDeviceProp", "hipDeviceProp_t", "hip", table)
    assert renamed_ports._read_alike("cudaGetDeviceProperties", "hipGetDeviceProperties", "hip", table)
    assert not renamed_ports._read_alike("cudaDeviceGetAttribute", "hipDeviceGetAttribute", "hip", table)
    assert not renamed_ports._read_alike("cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                                         "hipOccupancyMaxActiveBlocksPerMultiprocessor", "hip", table)
