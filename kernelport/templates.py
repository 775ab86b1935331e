"""Jinja templates for generated code (top-level templates/, shipped as kernelport/_templates)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from . import __version__


def _template_dir() -> Path:
    here = Path(__file__).resolve().parent
    packaged = here / "_templates"  # an installed wheel
    return packaged if packaged.is_dir() else here.parent / "templates"  # else a source checkout


@lru_cache(maxsize=1)
def env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(_template_dir())), keep_trailing_newline=True,
                              trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)


def render(name: str, **ctx) -> str:
    return env().get_template(name).render(version=__version__, **ctx)


def port_header(backend: str, source: str, command: str | None) -> str:
    """A port's first lines: where it comes from and the command that makes it again (provenance, no code)."""
    return render("header.j2", source=source, command=command or f"kernelport translate {source} --to {backend}")


def render_port(backend: str, body: str, source: str, command: str | None, **context) -> str:
    """Header + the backend's prologue + the translated body (`context`: extra prologue values)."""
    from . import backends
    header = port_header(backend, source, command)
    prologue = backends.get(backend).prologue(body, **context)
    return header + prologue + body
