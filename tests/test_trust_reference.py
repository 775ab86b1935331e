"""The reference runs in a child process: its exit (even exit(0)), a signal, a timeout or a
missing result is a failed check naming the reason, and can never end verify (issue 16)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport import reference
from kernelport.reference import ReferenceError_, run_reference
from trust_support import kernel, kp

pytestmark = pytest.mark.skipif(reference.c_compiler() is None, reason="needs a C compiler (gcc)")

HEAD = "#include <stdlib.h>\n#include <stdio.h>\n#include <string.h>\n#include <signal.h>\n"


def _ref(body: str, **kw):
    src = HEAD + f"void r(float* y, int n)\n{{\n{body}\n}}\n"
    return run_reference(src, "r", dict(y=np.zeros(8, np.float32), n=8), path="r.cu", **kw)


@pytest.mark.parametrize("body, why", [
    ("exit(0);", "exited with status 0 before returning"),
    ("exit(3);", "exited with status 3 before returning"),
    ("abort();", "killed by signal 6 (SIGABRT)"),
    ("*(volatile int*)0 = 1;", "killed by signal 11 (SIGSEGV)"),
    ("raise(9);", "killed by signal 9 (SIGKILL)"),
    ("write(2, \"bye\\n\", 4); _exit(0);", "it printed: bye"),
    ("system(\"true\");", None),  # runs (as the CI user: see the README's CI section), and returns
    ("size_t m = (size_t)1 << 40; char* p = malloc(m); if (!p) abort(); memset(p, 1, m); y[0] = p[m - 1];",
     "killed by signal"),
])
def test_a_reference_that_does_not_return_is_a_named_failure(body, why):
    if why is None:
        _ref(body)
        return
    with pytest.raises(ReferenceError_) as e:
        _ref(body)
    assert why in str(e.value)
    assert "r" in str(e.value)


def test_an_endless_reference_times_out(monkeypatch):
    monkeypatch.setenv("KERNELPORT_REFERENCE_TIMEOUT", "1.5")
    with pytest.raises(ReferenceError_) as e:
        _ref("for (;;) { y[0] += 1.0f; }")
    assert "did not return within 1.5 s" in str(e.value)


def test_a_good_reference_gives_its_values_and_kernelport_survives():
    out = _ref("for (int i = 0; i < n; ++i) y[i] = 0.1f * (float)i;")
    np.testing.assert_array_equal(out["y"], np.float32(0.1) * np.arange(8, dtype=np.float32))
    # promoted to double: the same function computed in double precision
    out = _ref("for (int i = 0; i < n; ++i) y[i] = 0.1f * (float)i;", promote=True)
    assert out["y"].dtype == np.float64 and out["y"][3] == float(np.float32(0.1)) * 3


def _kernel_file(d, name, ref_body, factor="a"):
    text = kernel(tol="exact").replace("scale", name).replace("y[i] = a * x[i];\n}}", "")
    # the reference's body replaced; the kernel computes factor * x
    text = text.replace(f"if (i < n) y[i] = a * x[i];", f"if (i < n) y[i] = {factor} * x[i];", 1)
    head, _, _ = text.partition(f"void {name}_ref")
    text = head + f"void {name}_ref(const float* x, float* y, int n, float a)\n{{\n{ref_body}\n}}\n"
    text = "#include <stdlib.h>\n" + text.replace("// @kp tolerance exact", "// @kp tolerance exact\n// @kp targets hip")
    (d / f"{name}.cu").write_text(text)


def test_exit0_reference_next_to_a_failing_kernel_fails_verify(tmp_path):
    """The reproducer: before, exit(0) in a reference ended verify with status 0 and no output."""
    _kernel_file(tmp_path, "wrong", "for (int i = 0; i < n; ++i) y[i] = a * x[i];", factor="(a + 1.0f)")
    _kernel_file(tmp_path, "quitter", "exit(0);")
    assert kp("translate", tmp_path / "wrong.cu", tmp_path / "quitter.cu", "--to", "hip").returncode == 0
    for j in ("1", "2"):
        r = kp("verify", tmp_path, "--schedules", "block", "--format", "json", "-j", j)
        assert r.returncode == 1, r.stdout + r.stderr
        assert f"{tmp_path / 'quitter.cu'}:10:18: reference failed: quitter_ref exited with status 0 before " \
            "returning" in r.stdout
        assert "outside the bound" in r.stdout and "wrong.cu" in r.stdout  # the failing kernel still reported


@pytest.mark.parametrize("promote", [False, True])
def test_interpreted_reference_matches_the_compiled_one(promote):
    # arithmetic: bit for bit; a C library function: within one unit in the last place (the
    # emulator's expf is numpy's, not glibc's)
    arith = _ref("for (int i = 0; i < n; ++i) y[i] = (0.1f * (float)i + 0.7f) / 3.0f;", promote=promote)
    arith_i = _ref("for (int i = 0; i < n; ++i) y[i] = (0.1f * (float)i + 0.7f) / 3.0f;", promote=promote,
                   interpret=True)
    assert arith_i["y"].dtype == arith["y"].dtype
    np.testing.assert_array_equal(arith_i["y"], arith["y"])
    body = "for (int i = 0; i < n; ++i) y[i] = expf(0.1f * (float)i) / 3.0f;"
    native, interp = _ref(body, promote=promote), _ref(body, promote=promote, interpret=True)
    ulp = np.spacing(np.abs(native["y"]))
    assert np.all(np.abs(interp["y"] - native["y"]) <= ulp)


def test_interpreted_reference_runs_no_native_code(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    with pytest.raises(ReferenceError_) as e:
        _ref(f'system("touch {marker}");', interpret=True)
    assert not marker.exists() and "interpreting r" in str(e.value)
    with pytest.raises(ReferenceError_) as e:
        _ref("exit(0);", interpret=True)
    assert "interpreting r" in str(e.value)
    monkeypatch.setenv("KERNELPORT_REFERENCE_TIMEOUT", "3")
    with pytest.raises(ReferenceError_) as e:
        _ref("for (;;) { y[0] += 1.0f; }", interpret=True)
    assert "did not return within 3 s when interpreted" in str(e.value)


def test_verify_no_native_reference(tmp_path):
    _kernel_file(tmp_path, "good", "for (int i = 0; i < n; ++i) y[i] = a * x[i];")
    _kernel_file(tmp_path, "quitter", "exit(0);")
    assert kp("translate", tmp_path / "good.cu", tmp_path / "quitter.cu", "--to", "hip").returncode == 0
    r = kp("verify", tmp_path / "good.cu", "--schedules", "block", "--no-native-reference")
    assert r.returncode == 0, r.stdout + r.stderr
    r = kp("verify", tmp_path / "quitter.cu", "--schedules", "block", "--no-native-reference")
    assert r.returncode == 1 and "interpreting quitter_ref" in r.stdout
