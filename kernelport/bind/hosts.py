"""The host backends a launcher is generated for, and how each one builds it.

One row per backend that has a host runtime (its API spellings are the dialect table's; this
table holds only what the dialect table does not: file extension, compiler and link line).
"""
from __future__ import annotations

from .. import backends
from ..backends.base import HostBuild

HostBackend = HostBuild  # each backend's row lives with the backend (backends/*.py: host_build)
SOURCE_BACKEND = backends.source().name  # the dialect kernelport reads: its launcher #includes the source


def host_backends() -> list[HostBuild]:
    """Backends with a host runtime, in registration order (Metal's host is Swift)."""
    return [b.host_build for b in backends.all() if b.host_build is not None]


HOSTS = {h.name: h for h in host_backends()}
