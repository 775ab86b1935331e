"""verify as a CI gate: nothing to verify is exit 2, not a pass; an unannotated file is skipped
with a note, not failed (issue 16)."""
from __future__ import annotations

import json

from trust_support import kernel, kp, kp_inproc


def test_verify_with_no_kernels_is_exit_2(tmp_path):
    rc, out, err = kp_inproc("verify", tmp_path)
    assert rc == 2 and f"error: no annotated kernels under {tmp_path} (hint:" in err
    rc, out, err = kp_inproc("verify", tmp_path / "typo")
    assert rc == 2 and "no such file or directory" in err
    (tmp_path / "plain.cu").write_text("__global__ void k(float* x) { x[0] = 1.0f; }\n")
    rc, out, err = kp_inproc("verify", tmp_path, "--format", "json")
    assert rc == 2 and "note: " in err and "skipped: no annotated kernel" in err
    assert "no annotated kernels under" in err


def test_an_unannotated_file_next_to_a_good_kernel_is_skipped_not_failed(tmp_path):
    (tmp_path / "plain.cu").write_text("__global__ void k(float* x) { x[0] = 1.0f; }\n")
    (tmp_path / "scale.cu").write_text(kernel().replace("// @kp tolerance auto",
                                                        "// @kp tolerance auto\n// @kp targets hip"))
    assert kp("translate", tmp_path / "scale.cu", "--to", "hip").returncode == 0
    r = kp("verify", tmp_path, "--schedules", "block", "--format", "json")
    assert r.returncode == 0, r.stdout + r.stderr
    reports = {rep["path"]: rep for rep in json.loads(r.stdout)}
    plain = reports[str(tmp_path / "plain.cu")]
    assert plain["status"] == "skip" and plain["error"] is None and "no annotated kernel" in plain["note"]
    assert reports[str(tmp_path / "scale.cu")]["status"] == "pass"
    assert f"note: {tmp_path / 'plain.cu'}: skipped" in r.stderr
