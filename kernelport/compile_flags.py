"""What a file's compile checks are given from its configuration ([tool.kernelport] in a
pyproject.toml, its compile_commands.json entry), as the emulator reads the same file
(emulator.frontend.preprocess._configured), so a kernel whose macros or headers come only from its
build compiles where it runs.

A port is compiled with the configuration of the original it ports (a compile_commands.json entry
names the original, never the port), and each backend's compile takes the parts its build reads
(`Backend.build_reads`): -D and -I everywhere (every compiler spells them alike); the forced includes
(`-include`, spelled per tool: toolchains.FORCED_INCLUDE_FLAG) where the port is built by the
project's own build in the original's place (nvcc, hipcc), not for a Metal port, which stands alone
(translate splices what its device code needs); and the macros only the project's HIP build defines
(`hip-defines`) where the port is that build's.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

# the parts of a configuration a backend's compile may read (Backend.build_reads)
PARTS = ("defines", "include_dirs", "forced_includes", "hip_defines")


class Flags(NamedTuple):
    defines: tuple[tuple[str, str], ...] = ()
    include_dirs: tuple[str, ...] = ()  # absolute
    forced_includes: tuple[str, ...] = ()  # absolute, in order
    hip_defines: tuple[str, ...] = ()  # names


NONE = Flags()


def configured(path) -> Flags:
    """The configuration of `path`; none where it cannot be read (translate and lint say why)."""
    from .errors import KernelportError
    from .project_ports import configured as options
    try:
        opts = options(Path(path))
    except KernelportError:
        return NONE
    return Flags(tuple(opts.defines), tuple(opts.include_dirs), tuple(opts.forced_includes), tuple(opts.hip_defines))


def define_args(defines) -> list[str]:
    return [f"-D{name}={value}" for name, value in defines]


def args(defines, include_dirs) -> list[str]:
    """The command-line arguments of (defines, include dirs): -DNAME=VALUE, then -I DIR in order."""
    return define_args(defines) + [a for d in include_dirs for a in ("-I", str(d))]


def only(config: Flags | None, reads) -> Flags:
    """`config` with the parts a build reading `reads` (Backend.build_reads) does not read empty."""
    return Flags(*(v if part in reads else () for part, v in zip(PARTS, config or NONE)))


def read_by(config: Flags | None, reads) -> tuple[list[str], tuple[str, ...]]:
    """(the -D / -I arguments, the forced includes) of `config` that a build reading `reads` is
    given: the HIP build's own macros as `-DNAME`; the forced includes are spelled by the tool
    (toolchains.forced_args)."""
    kept = only(config, reads)
    defines = kept.defines + tuple((name, "1") for name in kept.hip_defines)
    return args(defines, kept.include_dirs), kept.forced_includes
