"""What a kernel file can make kernelport read (issue 16): quoted headers of the project (or of
$KERNELPORT_INCLUDE_PATH), regular files of at most 1 MiB; never a device, an absolute path or a
file outside the project, and the preprocessor has a timeout.  Each refusal is located."""
from __future__ import annotations

import importlib
import os
import time

import numpy as np
import pytest

from kernelport import includes
from kernelport.emulator import EmulatorError, run_kernel
from trust_support import kernel, kp_inproc

pp = importlib.import_module("kernelport.emulator.frontend.preprocess")  # the package exports a function of that name
BODY = "#ifndef LOCAL_V\n#define LOCAL_V 7\n#endif\n__global__ void k(float* x) { x[0] = LOCAL_V; }\n"


@pytest.fixture
def project(tmp_path):
    (tmp_path / "outside.h").write_text("#define LOCAL_V 5\n")
    p = tmp_path / "proj"
    (p / "sub").mkdir(parents=True)
    (p / "sub" / "local.h").write_text("#define LOCAL_V 3\n")
    os.mkfifo(p / "fifo.h")
    return p


def emulate(project, head: str) -> float:
    r = run_kernel(head + "\n" + BODY, "k", args=dict(x=np.zeros(1, np.float32)), grid=(1,), block=(1,),
                   path=str(project / "k.cu"))
    return float(r.outputs["x"][0])


@pytest.mark.parametrize("head, why", [
    ('#include "/dev/zero"', "an absolute path is not read"),
    ('#include "../outside.h"', "outside the project"),
    ('#include "sub/../../outside.h"', "outside the project"),
    ('#include "fifo.h"', "is not a regular file"),
    ('#inc\\\nlude "/dev/zero"', "spelled across lines or around comments"),
    ('#/**/include "/dev/zero"', "spelled across lines or around comments"),
])
def test_the_emulator_refuses_what_it_may_not_read_located(project, head, why):
    t0 = time.perf_counter()
    with pytest.raises(EmulatorError) as ei:
        emulate(project, head)
    assert why in ei.value.message and ei.value.line == 1 and ei.value.path.endswith("k.cu")
    assert time.perf_counter() - t0 < 10


def test_the_emulator_reads_project_headers_and_the_include_path(project, monkeypatch):
    assert emulate(project, '#include "sub/local.h"') == 3  # the look-alike: a header of the project
    assert emulate(project, '#include "missing.h"') == 7  # absent: a system header, not read
    assert emulate(project, '#define Z "/dev/zero"\n#include Z') == 7  # dropped, never handed to cpp
    monkeypatch.setenv(includes.INCLUDE_PATH_ENV, str(project.parent))
    assert emulate(project, '#include "../outside.h"') == 5


def test_the_project_is_the_enclosing_git_work_tree(project):
    (project.parent / ".git").mkdir()
    assert includes.project_root(project / "k.cu") == project.parent
    assert emulate(project, '#include "../outside.h"') == 5


def test_the_preprocessor_has_a_timeout(project, monkeypatch):
    if pp.shutil.which("cpp") is None:
        pytest.skip("no cpp: the fallback preprocessor runs no program")
    monkeypatch.setattr(pp, "PREPROCESS_TIMEOUT", 1e-4)
    with pytest.raises(EmulatorError) as ei:
        emulate(project, "")
    assert "the C preprocessor took more than" in ei.value.message


@pytest.mark.parametrize("head, why", [
    ('#include "/dev/zero"', "an absolute path is not read"),
    ('#include </dev/zero>', "a system header named by a path is not read"),
    ('#define Z "/dev/zero"\n#include Z', "an include whose name comes from a macro is not followed"),
    ('#include "sub/bad.h"', "outside the project"),  # through a header of the project
])
def test_verify_refuses_before_any_compiler_reads_it(project, head, why):
    (project / "sub" / "bad.h").write_text('#include "../../outside.h"\n')
    f = project / "k.cu"
    f.write_text(head + "\n" + kernel())
    t0 = time.perf_counter()
    rc, out, err = kp_inproc("verify", f, "--no-cache")
    assert rc == 2 and why in out and "internal error" not in out + err, (out + err)[-1500:]
    where = "sub/bad.h:1:1" if "bad.h" in head else f"k.cu:{head.count(chr(10)) + 1}:1"
    assert f"{where}: error: #" in out
    assert time.perf_counter() - t0 < 20


def test_verify_and_lint_of_an_include_of_a_device_end(project):
    from kernelport.verify_cache import file_digest
    f = project / "k.cu"
    f.write_text('#include "/dev/zero"\n#include "fifo.h"\n' + kernel())
    t0 = time.perf_counter()
    assert file_digest(f)  # the cache key reads neither
    rc, out, err = kp_inproc("lint", f, "--format", "concise", "-j", "1")
    assert rc in (0, 1) and "internal error" not in out + err
    assert time.perf_counter() - t0 < 20
