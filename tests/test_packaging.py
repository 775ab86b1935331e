"""`pip install .` must ship every package and the top-level templates/ (not only editable installs)."""
from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_directory_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "kernelport").rglob("__init__.py")
             if "__pycache__" not in p.parts}
    assert found - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"


def test_wheel_ships_templates(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                        "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    wheel = next(tmp_path.glob("kernelport-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for t in (ROOT / "templates").rglob("*.j2"):
        assert f"kernelport/_templates/{t.relative_to(ROOT / 'templates').as_posix()}" in names
    assert "kernelport/cli.py" in names
    assert "kernelport/backends/metal/check/metal_stdlib.h" in names
