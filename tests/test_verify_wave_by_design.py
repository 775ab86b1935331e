"""verify where the launch follows the device's wave width (stop 43: cuda-samples simpleVote, whose
host code sizes its launches by the device's warp width; the corpus copy writes `warp_size = 32`
and the port reads the device's): at wave 64 the port runs 64 threads where the original at wave 32
runs 32, so their outputs differ by design.  The check at 64 compares the port with the original on
a 64-lane device (its host code with the same sites set to 64, its kernel at wave 64): a port that
matches it passes, saying so; one that computes something else there still fails."""
from __future__ import annotations

import shutil
from pathlib import Path

from trust_support import kp_inproc, numeric_statuses, verify_checks

VOTE = Path(__file__).parent / "corpus" / "cuda_samples_simple_vote.cu"


def _copy(tmp_path) -> Path:
    dst = tmp_path / "vote.cu"
    shutil.copy(VOTE, dst)
    return dst


def test_a_launch_that_follows_the_wave_width_is_compared_with_the_original_on_that_device(tmp_path):
    path = _copy(tmp_path)
    rc, checks, text = verify_checks(path)
    assert rc == 0, text
    for kernel in ("VoteAnyKernel1", "VoteAllKernel2", "VoteAnyKernel3"):
        for backend in ("hip", "portable"):
            assert numeric_statuses(checks, backend, kernel) == {32: "pass", 64: "pass"}, text
    at64 = [c for c in checks if c["kind"] == "numeric" and c["wave"] == 64]
    assert at64 and all(c["detail"].startswith("by design: the launch follows the device's wave width") and
                        "`32` at 61:19" in c["detail"] and "on a 64-lane device" in c["detail"] for c in at64), text
    at32 = [c for c in checks if c["kind"] == "numeric" and c["wave"] == 32]
    assert all(c["detail"].startswith("matches the original at wave 32") for c in at32), text


def test_a_port_that_keeps_32_where_the_launch_follows_the_wave_still_fails_at_64(tmp_path):
    """The HIP port's VoteAnyKernel3 planted with `(32 * 3) / 2` for `(warp_size * 3) / 2`: the same
    at wave 32; at 64 the original on a 64-lane device votes on tx >= 96, the port on tx >= 48."""
    path = _copy(tmp_path)
    assert kp_inproc("translate", path, "--to", "hip")[0] == 0
    hip = next(path.parent.glob(path.stem + ".hip*"))
    text = hip.read_text()
    assert text.count("(warp_size * 3) / 2") == 3
    hip.write_text(text.replace("(warp_size * 3) / 2", "(32 * 3) / 2"))
    rc, checks, out = verify_checks(path)
    assert rc == 1 and numeric_statuses(checks, "hip", "VoteAnyKernel3") == {32: "pass", 64: "fail"}, out
    fail = next(c for c in checks if c["kind"] == "numeric" and c["backend"] == "hip" and c["wave"] == 64
                and c.get("kernel") == "VoteAnyKernel3")
    assert "the original at wave 32 gives" in fail["detail"], out
