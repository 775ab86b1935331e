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
    """The Toolchain for "nvcc", "hipcc", "clang" or "metal"; fail (CI) or skip (locally) if absent."""
    from kernelport import toolchains

    tool = toolchains.find_tool(name)
    if tool is None:
        hint = toolchains.install_hint(name)
        if in_ci():
            pytest.fail(f"required toolchain missing in CI: {hint}", pytrace=False)
        pytest.skip(hint)
    return tool
# --- end toolchain policy ------------------------------------------------------------------------
