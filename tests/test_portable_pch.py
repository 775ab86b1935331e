"""A portable port's HIP compile check against the PCH of its kp_warp.h (kernelport.guarded_headers):
the header's own text precompiled, so the macros it defines before <hip/hip_runtime.h> keep their
place; a header that reads differently away from its directory is built the plain way."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kernelport import pch, toolchains
from kernelport.guarded_headers import local_header_prefix, self_contained
from port_support import port_text

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

KP_WARP = (Path(__file__).parent / "golden" / "portable" / "kp_warp.h").read_text()
KERNEL = """\
__global__ void wsum(const float* x, float* out) {
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}
"""


def test_a_portable_port_opens_with_its_self_contained_header(tmp_path):
    """What the portable backend writes: the port's first directive includes kp_warp.h, whose whole
    text is then the prefix to precompile."""
    assert self_contained(KP_WARP)
    port = port_text(KERNEL, to="portable")
    first = next(ln for ln in port.split("\n") if ln.strip() and not ln.lstrip().startswith("//"))
    assert first == '#include "kp_warp.h"'
    (tmp_path / "kp_warp.h").write_text(KP_WARP)
    assert local_header_prefix(tmp_path / "k.portable.cu", port) == KP_WARP


_BODY = "#ifndef G_H\n#define G_H\n#include <hip/hip_runtime.h>\n#define KP_N 4\n#endif  // G_H\n"


@pytest.mark.parametrize("header, ok", [
    (_BODY, True),
    ("// a header\n\n" + _BODY + "\n// end\n", True),
    # read relative to its own directory, or naming where it is read from: refused
    (_BODY.replace("#define KP_N 4", '#include "other.h"'), False),
    (_BODY.replace("#define KP_N 4", "#include_next <x.h>"), False),
    (_BODY.replace("#define KP_N 4", "static const char* f = __FILE__;"), False),
    (_BODY.replace("#define KP_N 4", "#define INC MY_HEADER\n#include INC"), False),
    # not one guard around it all: its second include would not be skipped
    (_BODY + "int after_the_guard;\n", False),
    ("#define KP_N 4\n" + _BODY, False),
    (_BODY.replace("#define G_H", "#define OTHER_H"), False),
    ("#pragma once\n#include <hip/hip_runtime.h>\n", False),
    ("/* a block comment */\n" + _BODY, False),
    (_BODY.replace("#endif  // G_H", ""), False),
])
def test_self_contained(header, ok):
    assert self_contained(header) is ok


def test_only_a_local_header_that_comes_first(tmp_path):
    (tmp_path / "g.h").write_text(_BODY)
    for text, want in [('#include "g.h"\nint x;\n', _BODY),
                       ('// port\n\n#include "g.h"  // the header\n', _BODY),
                       ('#define KP_N 8\n#include "g.h"\n', ""),      # a macro before it
                       ('#include "missing.h"\n', ""),                # not beside the file
                       ("int x;\n#include \"g.h\"\n", "")]:
        assert local_header_prefix(tmp_path / "k.cu", text) == want, text


@pytest.fixture
def runs(monkeypatch):
    got = []
    real = toolchains._run_compile
    monkeypatch.setattr(toolchains, "_run_compile", lambda *a, **k: got.append((a[1], a[2])) or real(*a, **k))
    return got


def _port(tmp_path, header: str = KP_WARP, kernel: str = KERNEL) -> Path:
    (tmp_path / "kp_warp.h").write_text(header)
    p = tmp_path / "k.portable.cu"
    p.write_text(port_text(kernel, to="portable"))
    return p


def _pchs(runs) -> list[str]:
    return [cmd[cmd.index("-include-pch") + 1] for _, cmd in runs if "-include-pch" in cmd]


def test_a_portable_port_is_built_against_its_headers_pch(tmp_path, runs):
    """main: one plain hipcc run (kp_warp.h first: no system include opens the port)."""
    require_tool("hipcc")
    rs = toolchains.compile_hip_each(_port(tmp_path), toolchains.HIP_ARCHS)
    assert [(r.target, r.ok) for r in rs] == [("gfx90a", True), ("gfx1030", True)], rs[0].output
    assert [t for t, _ in runs] == ["host", "gfx90a", "gfx1030"]
    assert len(set(_pchs(runs))) == 3
    assert all(Path(p).parent == pch.pch_dir() for p in _pchs(runs))


def test_an_edited_header_gets_its_own_pch(tmp_path, runs):
    """The header's bytes are the key: a port using what only the new header defines still builds
    against a PCH, never against the old header's."""
    require_tool("hipcc")
    (tmp_path / "a").mkdir()
    assert all(r.ok for r in toolchains.compile_hip_each(_port(tmp_path / "a"), ["gfx90a"]))
    first = _pchs(runs)
    runs.clear()
    edited = KP_WARP.replace("#define KP_WAVE_MAX 64", "#define KP_WAVE_MAX 64\n#define KP_EDITED 3")
    (tmp_path / "b").mkdir()
    kernel = KERNEL.replace("out[threadIdx.x / 32] = v;", "out[threadIdx.x / 32] = v * KP_EDITED;")
    p = _port(tmp_path / "b", edited, kernel)
    assert "KP_EDITED" in p.read_text()
    rs = toolchains.compile_hip_each(p, ["gfx90a"])
    assert [r.ok for r in rs] == [True]
    assert [t for t, _ in runs] == ["host", "gfx90a"] and not set(_pchs(runs)) & set(first)


def test_an_error_in_a_portable_port_is_hipccs_verdict(tmp_path, runs):
    require_tool("hipcc")
    p = _port(tmp_path, kernel=KERNEL.replace("float v = ", "int* kp_bad = 1.5f; float v = "))
    rs = toolchains.compile_hip_each(p, toolchains.HIP_ARCHS)
    assert [(r.target, r.ok) for r in rs] == [("gfx90a", False), ("gfx1030", False)]
    assert all("cannot initialize a variable of type 'int *'" in r.output for r in rs)
    assert "-include-pch" not in runs[-1][1] and "-include-pch" not in runs[-2][1]


def test_a_header_that_includes_a_local_file_is_built_the_plain_way(tmp_path, runs):
    """The look-alike: kp_warp.h reading a file beside it (which a copy of its text elsewhere would
    not find) is compiled as before, by one hipcc run."""
    require_tool("hipcc")
    (tmp_path / "kp_extra.h").write_text("#define KP_EXTRA 1\n")
    header = KP_WARP.replace("#define KP_WAVE_MAX 64", '#define KP_WAVE_MAX 64\n#include "kp_extra.h"')
    rs = toolchains.compile_hip_each(_port(tmp_path, header), toolchains.HIP_ARCHS)
    assert [r.ok for r in rs] == [True, True]
    assert [t for t, _ in runs] == ["gfx90a,gfx1030"]


def test_a_forced_include_keeps_the_plain_build(tmp_path, runs):
    """A forced header is read before the file: before kp_warp.h, which the PCH would put first."""
    require_tool("hipcc")
    forced = tmp_path / "forced.h"
    forced.write_text("#define KP_FORCED 1\n")
    rs = toolchains.compile_hip_each(_port(tmp_path), toolchains.HIP_ARCHS, forced=[forced])
    assert [r.ok for r in rs] == [True, True] and [t for t, _ in runs] == ["gfx90a,gfx1030"]


def test_the_device_objects_are_the_same_bytes(tmp_path):
    """Exactness: each architecture's code object of a portable port against the header's PCH is
    the plain build's, byte for byte."""
    tc = require_tool("hipcc")
    p = _port(tmp_path)
    prefix = local_header_prefix(p, p.read_text())
    env = toolchains._hip_env()
    for arch in toolchains.HIP_ARCHS:
        flags = ["-x", "hip", toolchains.HIP_DEFAULT_STD, f"--offload-arch={arch}", "--cuda-device-only"]
        built = pch.build(tc.path, flags, prefix, env, 600)
        assert built is not None
        objs = []
        for extra in (["-include-pch", str(built)], []):
            out = tmp_path / f"{arch}-{len(extra)}.o"
            proc = subprocess.run([tc.path, *flags, *extra, "-c", str(p), "-o", str(out)], env=env,
                                  capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr
            objs.append(out.read_bytes())
        assert objs[0] == objs[1], arch
