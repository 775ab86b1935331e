"""translate never loses a file: no port over an input, no two inputs to one port, all ports of a
run or none, no staging file left behind, a bad -o is exit 2 with a hint (issue 16)."""
from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

from kernelport import output
from trust_support import kp_inproc

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PTX = "__global__ void k(int* x) { int l; asm(\"mov.u32 %0, %%nwarpid;\" : \"=r\"(l)); x[0] = l; }\n"


def _files(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_a_port_over_its_own_input_is_refused(tmp_path):
    g = tmp_path / "g"
    g.mkdir()
    shutil.copy(EXAMPLES / "saxpy.hip", g / "saxpy.hip")
    before = _files(tmp_path)
    for extra in ((), ("--force",)):
        rc, out, err = kp_inproc("translate", g / "saxpy.hip", "--to", "hip", *extra)
        assert rc == 2, err
        assert f"{g / 'saxpy.hip'}:1:1: error: the port {g / 'saxpy.hip'} would overwrite" in err and "(hint:" in err
        assert _files(tmp_path) == before


def test_hand_written_input_is_not_destroyed_with_force(tmp_path):
    f = tmp_path / "k.hip"
    f.write_text("// mine\n__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
    before = f.read_bytes()
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "--force")
    assert rc == 2 and f.read_bytes() == before


def test_two_inputs_to_one_output_is_an_error_before_anything_is_written(tmp_path):
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        shutil.copy(EXAMPLES / "saxpy.cu", tmp_path / sub / "k.cu")
    # -o mirrors the inputs' tree below their common root: a/k.cu and b/k.cu do not collide
    rc, out, err = kp_inproc("translate", tmp_path / "a/k.cu", tmp_path / "b/k.cu", "-o", tmp_path / "out")
    assert rc == 0, err
    assert sorted(_files(tmp_path / "out/a")) == ["k.hip"] and sorted(_files(tmp_path / "out/b")) == ["k.hip"]
    # x.h and x.cuh side by side (both with device code) would meet at x.hip.h: each port keeps its
    # whole name (sw4ck's utils.h beside the utils.cpp it includes), and the includes say so
    helper = "__device__ float twice(float v) { return __shfl_down_sync(0xffffffff, v, 1) * 2.0f; }\n"
    (tmp_path / "a/x.h").write_text(helper)
    (tmp_path / "a/x.cuh").write_text(helper.replace("twice", "thrice"))
    (tmp_path / "a/k.cu").write_text('#include "x.h"\n#include "x.cuh"\n' + (tmp_path / "a/k.cu").read_text())
    rc, out, err = kp_inproc("translate", tmp_path / "a", "--to", "hip", "-o", tmp_path / "outx")
    assert rc == 0, err
    assert sorted(_files(tmp_path / "outx")) == ["k.hip", "x.cuh.hip.h", "x.h.hip.h"]
    k = (tmp_path / "outx/k.hip").read_text()
    assert '#include "x.h.hip.h"\n#include "x.cuh.hip.h"' in k
    assert "thrice" in (tmp_path / "outx/x.cuh.hip.h").read_text()


def test_a_file_named_twice_is_one_input(tmp_path):
    shutil.copy(EXAMPLES / "saxpy.cu", tmp_path / "k.cu")
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", tmp_path / "./k.cu")
    assert rc == 0, err
    assert out.count("created") == 1


@pytest.mark.parametrize("spoiler", ["refused", "untranslatable"])
def test_a_run_writes_all_its_ports_or_none(tmp_path, spoiler):
    shutil.copy(EXAMPLES / "saxpy.cu", tmp_path / "saxpy.cu")
    shutil.copy(EXAMPLES / "warp_reduce.cu", tmp_path / "warp_reduce.cu")
    assert kp_inproc("translate", tmp_path / "saxpy.cu")[0] == 0
    stale = (tmp_path / "saxpy.hip").read_text().replace("saxpy", "saxpy_old")
    (tmp_path / "saxpy.hip").write_text(output.seal(stale.split("\n", 3)[0] + "\n" + stale.split("\n", 3)[1] + "\n"
                                                    + stale.split("\n", 3)[3]))
    assert output.state((tmp_path / "saxpy.hip").read_text()) == "intact"  # an old port: would be updated
    if spoiler == "refused":
        (tmp_path / "warp_reduce.hip").write_text("// hand-written, not kernelport's\n")
        other = tmp_path / "warp_reduce.cu"
    else:
        other = tmp_path / "ptx.cu"
        other.write_text(PTX)
    before = _files(tmp_path)
    rc, out, err = kp_inproc("translate", tmp_path / "saxpy.cu", other, "--to", "hip")
    assert rc == 1, err
    assert "nothing written" in err and "updated" not in out and "created" not in out
    assert _files(tmp_path) == before


def test_bad_output_directory_is_exit_2_with_a_hint(tmp_path):
    shutil.copy(EXAMPLES / "saxpy.cu", tmp_path / "k.cu")
    (tmp_path / "file.txt").write_text("x")
    for o, what in ((tmp_path / "file.txt", "is a file, not a directory"),
                    (tmp_path / "file.txt" / "sub", "is not a directory"),
                    (Path("/proc/kernelport-out"), "")):
        rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "-o", o)
        assert rc == 2, (o, err)
        assert what in err and "(hint:" in err and len(err.strip().splitlines()) == 1
    assert (tmp_path / "file.txt").read_text() == "x"


def test_staging_files_are_removed_on_interrupt_and_earlier_files_restored(tmp_path, monkeypatch):
    a, b = tmp_path / "a.hip", tmp_path / "b.hip"
    a.write_text("old a\n")
    real = os.replace
    calls = []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        output.write_all([(a, "new a\n"), (b, "new b\n")])
    assert a.read_text() == "old a\n" and not b.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.hip"]


def test_staging_files_are_removed_on_sigterm(tmp_path, monkeypatch):
    real = os.fdopen

    def fdopen(*args, **kw):
        os.kill(os.getpid(), signal.SIGTERM)  # as `kill PID` during the write
        return real(*args, **kw)

    monkeypatch.setattr(os, "fdopen", fdopen)
    with pytest.raises(SystemExit):
        output.write_all([(tmp_path / "a.hip", "a\n")])
    assert list(tmp_path.iterdir()) == []


def test_a_staging_file_left_by_a_killed_run_is_cleaned_up(tmp_path):
    shutil.copy(EXAMPLES / "saxpy.cu", tmp_path / "k.cu")
    left = tmp_path / ".k.hip.abc123.kp-tmp"
    left.write_text("half a port")
    mine = tmp_path / ".k.hip.notes"
    mine.write_text("the user's")
    assert kp_inproc("translate", tmp_path / "k.cu")[0] == 0
    assert not left.exists() and mine.exists()
