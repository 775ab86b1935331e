"""The clang command hipcc runs, learnt once per argument list and then run without hipcc.

ROCm's hipcc is a Perl script that, on every call, starts Perl, runs `clang++ --version` and
`clang++ -print-target-triple`, builds the clang command line from its arguments and the
environment, and runs it through a shell: ~0.14 s CPU a call before clang starts (measured with
ROCm 5.2: a device part of a port against its PCH, 0.44 s CPU through hipcc, 0.30 s as the clang
command hipcc printed).  The HIP compile check against a PCH (toolchains.compile_hip_each) makes
three such calls per port.  Here the first call of an argument list runs hipcc with
``HIPCC_VERBOSE=1``, which prints the command before running it (``hipcc-cmd: ...``); the later
calls of the same list, with only the source and output files changed, run that command directly.

The command is hipcc's own, so a compile through it passes or fails as hipcc's would; it is reused
only while hipcc's scripts, the environment that steers them and the clang it names are the same
(their paths, sizes and modification times), and only where the source and the output each
appear in it as one whole argument.  A failure on this path is no verdict anyway: the PCH path's
caller compiles the plain way with hipcc when any part fails.  Kept per process (a verify worker
compiles many ports): a new process learns it again with its first port.
"""
from __future__ import annotations

import os
import re
import shlex

VERBOSE_ENV = "HIPCC_VERBOSE"
_PRINTED = "hipcc-cmd: "
# what hipcc.pl reads from the environment to build its command (besides the files it names)
_STEERING = re.compile(r"^(PATH|CPATH|C_INCLUDE_PATH|CPLUS_INCLUDE_PATH|LIBRARY_PATH|DEVICE_LIB_PATH|"
                       r"(HIP|ROCM|HCC|HSA|CUDA|LLVM|AMDGPU)\w*)$")
_SRC, _OUT = "\x00SRC", "\x00OUT"
_learnt: dict[tuple, tuple[list[str], tuple]] = {}


def _identity(path: str) -> tuple:
    real = os.path.realpath(path)
    st = os.stat(real)
    return real, st.st_size, st.st_mtime_ns


def _key(cmd: list[str], source: str, out: str, env: dict) -> tuple | None:
    """hipcc's scripts (the executable and the hip* files beside it: hipcc.pl, hipvars.pm), the
    steering environment and the arguments with the source and output taken out."""
    try:
        exe = os.path.realpath(cmd[0])
        here = os.path.dirname(exe)
        scripts = tuple(_identity(os.path.join(here, f)) for f in sorted(os.listdir(here)) if f.startswith("hip"))
    except OSError:
        return None
    steering = tuple(sorted((k, v) for k, v in env.items() if _STEERING.match(k) and k != VERBOSE_ENV))
    generic = tuple(_SRC if a == source else _OUT if a == out else a for a in cmd[1:])
    return exe, scripts, steering, generic


def command(cmd: list[str], source: str, out: str, env: dict) -> list[str] | None:
    """The clang command hipcc runs for `cmd` (hipcc and its arguments; `source` and `out` among
    them), when an earlier call of this process learnt it and nothing it depends on changed."""
    k = _key(cmd, source, out, env)
    got = _learnt.get(k) if k is not None else None
    if got is None:
        return None
    template, clang = got
    try:
        if _identity(template[0]) != clang:
            return None
    except OSError:
        return None
    return [source if a == _SRC else out if a == _OUT else a for a in template]


def verbose_env(env: dict) -> dict:
    """`env` with hipcc told to print the command it runs."""
    return {**env, VERBOSE_ENV: "1"}


def learn(cmd: list[str], source: str, out: str, env: dict, stdout: str) -> str:
    """Keep the command a ``HIPCC_VERBOSE=1`` run of `cmd` printed (when the source and the output
    each appear in it once, as a whole argument); return `stdout` without that line."""
    first, sep, rest = stdout.partition("\n")
    if not first.startswith(_PRINTED):
        return stdout
    k = _key(cmd, source, out, env)
    try:
        argv = shlex.split(first[len(_PRINTED):])
    except ValueError:
        argv = []
    if k is not None and argv and argv.count(source) == 1 and argv.count(out) == 1:
        try:
            clang = _identity(argv[0])
        except OSError:
            clang = None
        if clang is not None:
            _learnt[k] = ([_SRC if a == source else _OUT if a == out else a for a in argv], clang)
    return rest if sep else ""


def forget() -> None:
    """Drop what this process learnt (the tests)."""
    _learnt.clear()
