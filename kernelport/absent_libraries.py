"""A port's compile that stops at the header of a library the backend's toolchain install lacks
(rocThrust's `thrust/...`, hipCUB's `hipcub/hipcub.hpp`: ROCm installs them as separate packages, and
Debian's ROCm packages neither) is no fact about the port: verify reports that check as skipped,
naming the library and how to install it (the backend's `optional_libraries`), never as a compile
failure of the port. `--require hip` still makes the skip a failure (CI that has the libraries)."""
from __future__ import annotations

import re

from . import backends

# clang's `fatal error: 'thrust/device_ptr.h' file not found` (hipcc is clang)
_NOT_FOUND = re.compile(r"fatal error: '([^']+)' file not found")


def reason(backend: str, output: str) -> str | None:
    """Why the compile of a port to `backend` whose compiler said `output` is not the port's to fail:
    its first error is a missing header of one of the backend's optional libraries; None otherwise."""
    libraries = backends.get(backend).optional_libraries
    first = next((line for line in output.splitlines() if "error:" in line), "")
    m = _NOT_FOUND.search(first)
    if not libraries or m is None:
        return None
    header = m.group(1)
    for folder, (library, install) in libraries.items():
        if header.startswith(folder):
            return (f"<{header}> is {library}'s, which this {backends.get(backend).display_name} toolchain does not "
                    f"have (the port includes it as the original includes its CUDA counterpart): install {install}, "
                    "or put its headers on the compiler's path (CPATH=DIR)")
    return None
