"""bench/lint_recall.py as a module, for the tests of the labelled sets (tests/labelled*)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lint_recall():
    """The benchmark's module (loaded once: its dataclasses need their module registered)."""
    if "lint_recall" in sys.modules:
        return sys.modules["lint_recall"]
    spec = importlib.util.spec_from_file_location("lint_recall", ROOT / "bench" / "lint_recall.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["lint_recall"] = mod
    spec.loader.exec_module(mod)
    return mod
