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


# --- compiling a corpus: one compiler run for all its files (kernelport.toolchains.compile_*_many) ----
def originals_built(files) -> dict:
    """Each original through nvcc (sm_80), keyed by path: one run for all, each alone only if it fails."""
    from kernelport import toolchains

    from conftest import require_tool

    require_tool("nvcc")
    return dict(zip(files, toolchains.compile_cuda_many(files, "sm_80")))


def ports_built(directory, ports: dict, flags) -> dict:
    """Each port (name -> HIP text) through hipcc for gfx90a and gfx1030, keyed by name: written into
    `directory`, one run for all, each alone only if that run fails."""
    from kernelport import toolchains

    from conftest import require_tool

    require_tool("hipcc")
    paths = [directory / f"{name}.hip" for name in ports]
    for p, text in zip(paths, ports.values()):
        p.write_text(text)
    return dict(zip(ports, toolchains.compile_hip_many(paths, ["gfx90a", "gfx1030"], extra_args=flags)))


def port_built(name: str, text: str, built: dict, tmp_path, flags):
    """The port's result from the shared run, or (a port left out of it: a known compile bug) its own compile."""
    if name in built:
        return built[name]
    from kernelport import toolchains

    f = tmp_path / f"{name}.hip"
    f.write_text(text)
    return toolchains.compile_hip(f, ["gfx90a", "gfx1030"], extra_args=flags)
