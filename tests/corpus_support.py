"""Helpers shared by the real-code corpus tests (tests/test_corpus*.py)."""
from __future__ import annotations

import re

import pytest


def xfail(reason: str):
    """A known kernelport bug: strict, so the test flips to XPASS (and fails) once it is fixed."""
    return pytest.mark.xfail(strict=True, reason=reason)


def body(text: str, name: str, nth: int = 0) -> str:
    """Text of the nth function definition called `name` (signature + braces)."""
    found = 0
    for m in re.finditer(rf"\b{re.escape(name)}\s*\(", text):
        close = _match(text, text.index("(", m.start()), "(", ")")
        rest = re.match(r"[^;{}]*\{", text[close + 1:])
        if not rest:
            continue  # a call or a declaration
        if found == nth:
            open_at = close + rest.end()
            return text[m.start():_match(text, open_at, "{", "}") + 1]
        found += 1
    raise AssertionError(f"no definition of {name}")


def _match(text: str, i: int, o: str, c: str) -> int:
    depth = 0
    for j in range(i, len(text)):
        if text[j] == o:
            depth += 1
        elif text[j] == c:
            depth -= 1
            if depth == 0:
                return j
    raise AssertionError("unbalanced")


# --- compiling a corpus: its originals in one nvcc run, each port alone against the HIP PCH ---------
def originals_built(files) -> dict:
    """Each original through nvcc (sm_80), keyed by path: one run for all, each alone only if it fails."""
    from kernelport import toolchains

    from conftest import require_tool

    require_tool("nvcc")
    return dict(zip(files, toolchains.compile_cuda_many(files, "sm_80")))


def port_built(name: str, text: str, tmp_path, flags):
    """The port's hipcc verdict for gfx90a and gfx1030, written into `tmp_path` and compiled alone as
    verify compiles a port (toolchains.compile_hip_each: against the session's precompiled HIP runtime
    header, its plain hipcc run's verdict and message where that build fails): one result, ok when every
    architecture built, its output each failing architecture's.  One hipcc run for all the corpus's ports
    parsed hip_runtime.h three times a file and held a test until the whole batch was built."""
    from dataclasses import replace

    from kernelport import toolchains

    from conftest import require_tool

    require_tool("hipcc")
    f = tmp_path / f"{name}.hip"
    f.write_text(text)
    results = toolchains.compile_hip_each(f, ["gfx90a", "gfx1030"], extra_args=flags)
    bad = [r for r in results if not r.ok]
    return replace(bad[0], output="\n".join(f"{r.target}: {r.output}" for r in bad)) if bad else results[0]
