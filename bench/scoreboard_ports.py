"""Where a translate run put a source's port (bench/scoreboard.py): per file, as the file alone or
mirrored under the common root of the files ported with it, by the suffix the backend gives a
source or a header; and a header kept as it is, as a HIP unit compiles it."""
from __future__ import annotations

from pathlib import Path


def find_port(out: Path, rel: Path, suffix: str) -> Path | None:
    """The port of source `rel` under `out`: OUT/rel-with-suffix, else OUT/<name>-with-suffix."""
    for cand in (out / rel.with_suffix(suffix), out / rel.with_suffix(suffix).name):
        if cand.is_file():
            return cand
    return None


def find_file_port(out: Path, rel: Path, suffix: str) -> tuple[Path, tuple[str, ...]] | None:
    """A per-file run's port: OUT/<name> (the file alone), else mirrored under the common root
    of the files ported with it (its headers' ports beside it): OUT/rel less the leading folders
    that root leaves out.  With the folders left out."""
    alone = find_port(out, Path(rel.name), suffix)
    if alone is not None:
        return alone, rel.parts[:-1]
    for k in range(len(rel.parts) - 1):
        port = find_port(out, Path(*rel.parts[k:]), suffix)
        if port is not None:
            return port, rel.parts[:k]
    return None


def port_suffix(backend: str, rel: Path) -> str | None:
    """The suffix of a file's port as the backend names it (its own data): a source's `.hip`, a
    header's `x.cuh` -> `x.hip.h`; None for a header of a backend that ports no headers alone
    (Metal splices a header into its includers' ports)."""
    from kernelport import backends

    b = backends.get(backend)
    return b.header_extension if is_header(rel) else b.extension


def is_header(rel: Path) -> bool:
    from kernelport.includes import HEADER_SUFFIXES  # the light module: no parser needed

    return rel.suffix in HEADER_SUFFIXES


def as_hip_unit(header: Path, tmp: Path) -> Path:
    """A header kept as it is, as HIP compiles it: after <hip/hip_runtime.h>, as every HIP unit
    that includes it has it (`nvcc -x cu -c x.cuh` has cuda_runtime.h so, implicitly; hipcc
    does not, so the bare header would fail on `threadIdx` for want of what no includer lacks)."""
    unit = tmp / "unchanged" / f"{header.name}.hip"
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(f'#include <hip/hip_runtime.h>\n#include "{header}"\n')
    return unit
