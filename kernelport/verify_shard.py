"""`kernelport verify --shard I/N`: the kernel files a run verifies, and shard I of N of them."""
from __future__ import annotations

from pathlib import Path

from .errors import KernelportError


def kernel_files(paths: list[Path]) -> list[Path]:
    """The .cu files under `paths` (a directory's recursively, sorted; a file as given)."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files += sorted(q for q in p.rglob("*.cu") if q.is_file())
        elif p.exists():
            files.append(p)
        else:
            raise KernelportError(f"no such file or directory: {p}")
    return files


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` (1 <= I <= N) of `verify --shard`."""
    parts = text.split("/")
    if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
        i, n = int(parts[0]), int(parts[1])
        if 1 <= i <= n:
            return i, n
    raise KernelportError(f"bad --shard '{text}'", hint="I/N with 1 <= I <= N, e.g. --shard 2/4")


def shard_of(files: list[Path], shard: tuple[int, int] | None) -> list[Path]:
    """Shard I of N: every N-th kernel file from the I-th, in sorted path order, so the N shards are
    disjoint, cover every file, and are the same on every machine given the same tree."""
    if shard is None:
        return files
    i, n = shard
    return sorted(files, key=lambda p: p.as_posix())[i - 1::n]
