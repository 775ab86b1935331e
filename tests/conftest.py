"""Shared test helpers.  Keep each section small and delimited; add new fixtures below."""
from __future__ import annotations

import os

import pytest


# --- toolchain policy (kernelport.toolchains) -------------------------------------------------
# In CI (CI=true) a missing compiler is a FAILURE: the gate must never pass by skipping what it
# was meant to check.  Locally a missing compiler skips the test with the install hint.
def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def require_tool(name: str):
    """The Toolchain for "nvcc", "hipcc", "clang" or "metal", or the path of the C compiler the
    reference is built with for "cc"/"gcc"; fail (CI) or skip (locally) if absent."""
    from kernelport import toolchains

    if name in ("cc", "gcc"):
        from kernelport import reference

        tool = reference.c_compiler()
        hint = "no C compiler for the reference (install: apt-get install gcc)"
    else:
        tool = toolchains.find_tool(name)
        hint = toolchains.install_hint(name) if tool is None else ""
    if tool is None:
        if in_ci():
            pytest.fail(f"required toolchain missing in CI: {hint}", pytrace=False)
        pytest.skip(hint)
    return tool
# --- end toolchain policy ------------------------------------------------------------------------
