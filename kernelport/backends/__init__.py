"""The backends, one unit per target, found through this registry.

    from kernelport import backends
    backends.get("hip").runs          # (Run(wave=64, arch="gfx90a", ...), Run(wave=32, ...))
    backends.ports()                  # the translation targets, in order

A new backend is a module here with a `Backend` subclass (spellings, runs, lowering, toolchain,
translator), imported below so it registers; see README "Adding a backend".
"""
from __future__ import annotations

from functools import lru_cache
from typing import Literal

from .base import REGISTRY, Backend, Lowering, Run
from . import cuda, hip, metal, portable  # noqa: F401,E402  (each registers itself)

# The names a backend can have (`translate --to`, `@kp targets`, `verify --require`).
BackendName = Literal["cuda", "hip", "metal", "portable"]

__all__ = ["Backend", "BackendName", "Lowering", "Run", "all", "get", "names", "source", "ports", "port_names", "all_runs", "hardware_runs",
           "lint_targets", "by_source_extension", "by_target", "aliases_of", "launch_forms", "launch_configs"]


def get(name: str) -> Backend:
    """The backend called `name` (KeyError with the known names otherwise)."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown backend {name!r}; known: {', '.join(REGISTRY)}") from None


def all() -> tuple[Backend, ...]:  # noqa: A001  (backends.all() reads as what it is)
    return tuple(REGISTRY.values())


def names() -> tuple[str, ...]:
    return tuple(REGISTRY)


def ports() -> tuple[Backend, ...]:
    """Backends `translate` writes ports for, in registration order."""
    return tuple(b for b in REGISTRY.values() if b.extension is not None)


def port_names() -> tuple[str, ...]:
    return tuple(b.name for b in ports())


def source() -> Backend:
    """The dialect kernels are written in."""
    return next(b for b in REGISTRY.values() if b.is_source)


def all_runs() -> tuple[Run, ...]:
    return tuple(r for b in REGISTRY.values() for r in b.runs)


def hardware_runs() -> tuple[Run, ...]:
    """Each run on its own backend's hardware (not a source built as another dialect: the
    portable backend's runs are CUDA's and HIP's hardware)."""
    return tuple(r for r in all_runs() if r.reads_as is None)


def lint_targets() -> tuple[str, ...]:
    """Every lint target, in registration order (a target run by several backends once)."""
    return tuple(dict.fromkeys(r.target for r in all_runs()))


def by_target(target: str) -> Run:
    """The first run linted as `target` (its hardware wording and wave width)."""
    return next(r for r in all_runs() if r.target == target)


def by_source_extension(name: str) -> Backend | None:
    """The backend whose source files end like `name` (a suffix or a file name); the longest
    ending wins, so `k.portable.cu` is not read as CUDA's `.cu`."""
    name = name.lower()
    hits = [(len(e), b) for b in REGISTRY.values() for e in b.source_extensions if name.endswith(e)]
    return max(hits, key=lambda h: h[0])[1] if hits else None


@lru_cache(maxsize=None)
def launch_forms() -> dict:
    """Every backend's runtime calls that launch a kernel (Backend.launch_forms): name -> LaunchForm."""
    return {name: form for b in REGISTRY.values() for name, form in b.launch_forms.items()}


@lru_cache(maxsize=None)
def launch_configs() -> dict[str, tuple[str, str, str, str]]:
    """Every backend's launch-configuration structs: type -> its grid, block, shared and stream fields."""
    return {name: fields for b in REGISTRY.values() for name, fields in b.launch_configs.items()}


@lru_cache(maxsize=None)
def aliases_of(key: str) -> dict[str, tuple[str, ...]]:
    return {b.name: b.aliases[key] for b in REGISTRY.values() if key in b.aliases}
