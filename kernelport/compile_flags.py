"""The -D / -I a file's compile checks are given: its configuration ([tool.kernelport] in a
pyproject.toml, its compile_commands.json entry), as the emulator reads the same file
(emulator.frontend.preprocess._configured), so a kernel whose macros or headers come only from its
build compiles where it runs.  Every backend's compiler (nvcc, hipcc, the Metal checker's clang,
xcrun metal) spells both alike.  Forced includes (-include) are not passed: a port splices or ports
what the original's forced header gave (translate), and the original's own is CUDA text.
"""
from __future__ import annotations

from pathlib import Path


def configured(path) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """(defines, include dirs) of `path`; none where its configuration cannot be read (translate and
    lint say why)."""
    from .errors import KernelportError
    from .project_ports import configured as options
    try:
        opts = options(Path(path))
    except KernelportError:
        return (), ()
    return tuple(opts.defines), tuple(opts.include_dirs)


def define_args(defines) -> list[str]:
    return [f"-D{name}={value}" for name, value in defines]


def args(defines, include_dirs) -> list[str]:
    """The command-line arguments of (defines, include dirs): -DNAME=VALUE, then -I DIR in order."""
    return define_args(defines) + [a for d in include_dirs for a in ("-I", str(d))]
