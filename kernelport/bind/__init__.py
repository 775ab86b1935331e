"""`kernelport bind`: checked host launchers, a safe Rust crate and a Metal host snippet per kernel file.

The seam between host code and a kernel is where most crashes start; kernelport knows each
kernel's signature, buffer roles and lengths and its launch geometry, so it writes that seam:
generate.py lists the files, signature.py models what crosses, clauncher.py / rust.py /
swift.py render them (templates/bind/), files.py seals and writes them.
"""
from __future__ import annotations

from .generate import NotBound, Output, bind_file

__all__ = ["NotBound", "Output", "bind_file"]
