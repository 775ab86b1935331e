"""The HIP compile check runs the clang command hipcc printed for an argument list once learnt
(kernelport.hipcc_direct): the same verdicts and messages as through hipcc, without its Perl
start-up per call."""
from __future__ import annotations

import pytest

from kernelport import hipcc_direct, toolchains

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
    from .test_hip_pch import _file, runs, shared_pch  # noqa: F401 - the fixtures: (target, command) of each compile
    from .test_toolchains import HIP_KERNEL
except ImportError:  # pragma: no cover
    from conftest import require_tool
    from test_hip_pch import _file, runs, shared_pch  # noqa: F401
    from test_toolchains import HIP_KERNEL


@pytest.fixture(autouse=True)
def _nothing_learnt():
    """Each test starts as a fresh process does: no command learnt."""
    hipcc_direct.forget()
    yield
    hipcc_direct.forget()


def _exe(cmd):
    return cmd[0].rsplit("/", 1)[-1]


def test_the_second_port_runs_the_command_hipcc_printed(tmp_path, runs):
    require_tool("hipcc")
    first = toolchains.compile_hip_each(_file(tmp_path, "a.hip", HIP_KERNEL), toolchains.HIP_ARCHS)
    assert [(r.target, r.ok, r.output) for r in first] == [("gfx90a", True, ""), ("gfx1030", True, "")]  # no "hipcc-cmd:"
    assert [_exe(c) for _, c in runs] == ["hipcc"] * 3
    runs.clear()
    b = _file(tmp_path, "b.hip", HIP_KERNEL.replace("warp_reduce", "other_reduce"))
    second = toolchains.compile_hip_each(b, toolchains.HIP_ARCHS)
    assert [(r.target, r.ok) for r in second] == [("gfx90a", True), ("gfx1030", True)]
    assert [t for t, _ in runs] == ["host", "gfx90a", "gfx1030"]
    assert all(_exe(c) != "hipcc" and str(b) in c and "-include-pch" in c for _, c in runs)
    assert "--cuda-host-only" in runs[0][1] and all("--cuda-device-only" in c for _, c in runs[1:])


@pytest.mark.parametrize("bad, archs, message", [
    # a type error: hipcc's own message, from the plain hipcc run, on both architectures
    ("int* kp_bad = 1.5f;", (False, False), "cannot initialize a variable of type 'int *'"),
    # an error only the RDNA device pass sees
    ("\n#if defined(__gfx1030__)\n#error no RDNA build\n#endif\n", (True, False), "no RDNA build"),
    # more LDS than a workgroup has: the code generator's resource error, on both architectures
    ("", (False, False), "local memory"),
])
def test_a_failure_after_the_command_is_learnt_is_hipccs(tmp_path, runs, bad, archs, message):
    require_tool("hipcc")
    toolchains.compile_hip_each(_file(tmp_path, "a.hip", HIP_KERNEL), toolchains.HIP_ARCHS)
    text = HIP_KERNEL
    if message == "local memory":
        text = text.replace("int i = ", "__shared__ float kp_lds[40000]; kp_lds[threadIdx.x] = 1.0f; "
                                        "out[1] = kp_lds[threadIdx.x ^ 1]; int i = ")
    elif bad.startswith("\n"):
        text += bad
    else:
        text = text.replace("int i = ", bad + " int i = ")
    runs.clear()
    rs = toolchains.compile_hip_each(_file(tmp_path, "bad.hip", text), toolchains.HIP_ARCHS)
    assert tuple(r.ok for r in rs) == archs
    assert all(message in r.output for r in rs if not r.ok)
    assert _exe(runs[0][1]) != "hipcc"  # the learnt command ran first; the verdict came from hipcc
    assert all(_exe(c) == "hipcc" and "-include-pch" not in c for _, c in runs[-len(rs):])


def test_the_command_is_learnt_again_when_the_environment_changes(tmp_path, runs, monkeypatch):
    require_tool("hipcc")
    a = _file(tmp_path, "a.hip", HIP_KERNEL)
    toolchains.compile_hip_each(a, toolchains.HIP_ARCHS)
    monkeypatch.setenv("HIPCC_COMPILE_FLAGS_APPEND", "-DKP_APPENDED=1")
    runs.clear()
    b = _file(tmp_path, "b.hip", HIP_KERNEL + "#ifndef KP_APPENDED\n#error not appended\n#endif\n")
    assert all(r.ok for r in toolchains.compile_hip_each(b, toolchains.HIP_ARCHS))
    assert [_exe(c) for _, c in runs] == ["hipcc"] * 3


def test_learn_keeps_a_command_only_with_one_source_and_one_output(tmp_path):
    cmd, env = ["/bin/sh", "-c", "SRC", "-o", "OUT"], {"HIP_PLATFORM": "amd"}
    printed = "hipcc-cmd: /bin/sh -x hip SRC -o \"OUT\"\nwarning: kept\n"
    assert hipcc_direct.learn(cmd, "SRC", "OUT", env, printed) == "warning: kept\n"
    assert hipcc_direct.command(["/bin/sh", "-c", "S2", "-o", "O2"], "S2", "O2", env) == \
        ["/bin/sh", "-x", "hip", "S2", "-o", "O2"]
    assert hipcc_direct.command(cmd, "SRC", "OUT", {"HIP_PLATFORM": "nvidia"}) is None  # another environment
    assert hipcc_direct.command(["/bin/sh", "-c", "SRC", "-O1", "-o", "OUT"], "SRC", "OUT", env) is None
    hipcc_direct.forget()
    assert hipcc_direct.learn(cmd, "SRC", "OUT", env, "hipcc-cmd: /bin/sh SRC SRC -o OUT\n") == ""
    assert hipcc_direct.command(cmd, "SRC", "OUT", env) is None  # the source twice: not a template
    assert hipcc_direct.learn(cmd, "SRC", "OUT", env, "no command printed\n") == "no command printed\n"
    assert hipcc_direct.command(cmd, "SRC", "OUT", env) is None
