"""verify's oracle path blames the original, not each port, for a shared-memory race the port keeps
from it (kernelport.inherited_races): a halo the block never loads is read unwritten by the original
and by every port alike."""
from __future__ import annotations

import pytest

from kernelport import inherited_races
from kernelport.emulator.errors import Race, UninitRead

BODY = """
__global__ void smooth(int n, const float* x, float* y) {
    __shared__ float s[66];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t + 1] = x[i];
HALO    __syncthreads();
    y[i] = s[t] + s[t + 1] + s[t + 2];
}
"""
KERNEL = BODY + """
int main() {
    int n = 256;
    float *dx, *dy;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    smooth<<<n / 64, 64>>>(n, dx, dy);
    return 0;
}
"""
LOADED = "    if (t == 0) s[0] = 0.0f;\n    if (t == 63) s[65] = 0.0f;\n"


def _verify(tmp_path, monkeypatch, halo: str):
    from kernelport.verify import Verifier
    path = tmp_path / "smooth.cu"
    path.write_text(KERNEL.replace("HALO", halo), encoding="utf-8")
    monkeypatch.setattr(Verifier, "_compile", lambda *a, **k: None)  # the emulated checks are the point
    monkeypatch.setattr(Verifier, "_lint", lambda *a, **k: None)
    return Verifier(cache=False, schedules=("block",)).verify(path)


def test_a_race_the_original_has_is_reported_once_on_its_row_not_on_every_port(tmp_path, monkeypatch):
    rep = _verify(tmp_path, monkeypatch, "")
    mine = [c for c in rep.checks if c.kind == "races" and c.backend == "original"]
    assert len(mine) == 1 and mine[0].status == "fail" and mine[0].seconds > 0
    assert "smooth.cu:" in mine[0].detail and "read of shared memory no thread wrote" in mine[0].detail
    ports = [c for c in rep.checks if c.kind == "races" and c.backend != "original"]
    assert {c.backend for c in ports} >= {"hip", "metal"} and {c.wave for c in ports} >= {32, 64}
    assert all(c.status == "pass" and "the original has too" in c.detail for c in ports)
    assert all(c.status == "pass" for c in rep.checks if c.kind == "numeric")
    assert rep.failed  # the kernel reads what no GPU defines: the file still fails, on the original's row


def test_a_kernel_that_loads_its_halo_has_no_race_on_either_row(tmp_path, monkeypatch):
    rep = _verify(tmp_path, monkeypatch, LOADED)
    assert not [c for c in rep.checks if c.backend == "original" and c.kind == "races"]
    ports = [c for c in rep.checks if c.kind == "races"]
    assert ports and all(c.status == "pass" and "no shared-memory races" in c.detail for c in ports)
    assert not rep.failed


@pytest.mark.parametrize("other, inherited", [
    (dict(line=90), True),  # the same race at the port's own line
    (dict(index=7), False),  # another element: the port's own
    (dict(thread=5), False),  # another thread
    (dict(block=(1, 0, 0)), False),  # another block
])
def test_a_port_s_race_is_inherited_only_where_the_original_s_run_has_the_same_one(other, inherited):
    original = UninitRead("k.cu", 12, 12, "read-before-write", "s", 65, 63, 63, (0, 0, 0))
    port = UninitRead(**{**original.__dict__, "path": "k.hip", "line": 14, "other_line": 14, **other})
    own, kept = inherited_races.split([port], [original])
    assert (kept, own) == (([port], []) if inherited else ([], [port]))


def test_a_race_of_another_kind_on_the_same_element_is_the_port_s_own():
    original = UninitRead("k.cu", 12, 12, "read-before-write", "s", 65, 63, 63, (0, 0, 0))
    port = Race("k.hip", 14, 13, "read-after-write", "s", 65, 63, 63, (0, 0, 0))
    assert inherited_races.split([port], [original]) == ([port], [])


ANNOTATED = """
// @kp kernel     smooth
// @kp grid       n / 64
// @kp block      64
// @kp arg        x   in     float[n]   integers(-4, 4)
// @kp arg        y   out    float[n]
// @kp scalar     n = 256
// @kp reference  smooth_ref(n, x, y)
// @kp targets    hip, metal
""" + BODY + """
void smooth_ref(int n, const float* x, float* y) {
    int i;
    for (i = 0; i < n; i++) {
        float l = (i % 64 == 0) ? 0.0f : x[i - 1];
        float r = (i % 64 == 63) ? 0.0f : x[i + 1];
        y[i] = l + x[i] + r;
    }
}
"""


@pytest.mark.parametrize("halo", ["", LOADED])
def test_with_a_reference_the_original_s_own_row_carries_its_race(tmp_path, monkeypatch, halo):
    """Where an annotated reference is the oracle the original has its own row: the race is failed
    there, and a port that keeps it fails only for races of its own."""
    from kernelport.verify import Verifier
    path = tmp_path / "smooth.cu"
    path.write_text(ANNOTATED.replace("HALO", halo), encoding="utf-8")
    monkeypatch.setattr(Verifier, "_compile", lambda *a, **k: None)
    monkeypatch.setattr(Verifier, "_lint", lambda *a, **k: None)
    rep = Verifier(cache=False, schedules=("block",)).verify(path)
    races = [c for c in rep.checks if c.kind == "races"]
    source = [c for c in races if c.backend == "cuda"]
    ports = [c for c in races if c.backend != "cuda"]
    assert source and {c.backend for c in ports} >= {"hip", "metal"} and all(c.status == "pass" for c in ports)
    assert all(c.status == "pass" for c in rep.checks if c.kind == "numeric")
    failed = {(c.backend, c.kind) for c in rep.checks if c.status == "fail" and c.kind != "drift"}  # (no ports on disk)
    if halo:
        assert all(c.status == "pass" and "no shared-memory races" in c.detail for c in races) and not failed
    else:
        assert all(c.status == "fail" and "no thread wrote" in c.detail for c in source)
        assert failed == {("cuda", "races")} and all("the original has too" in c.detail for c in ports)
