"""Jinja templates for generated code (top-level templates/, shipped as kernelport/_templates)."""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

import jinja2

from . import __version__


def _template_dir() -> Path:
    try:
        packaged = resources.files("kernelport._templates")
        if packaged.is_dir() and any(p.name.endswith(".j2") for p in packaged.iterdir()):
            return Path(str(packaged))
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parent.parent / "templates"  # a source checkout


@lru_cache(maxsize=1)
def env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(_template_dir())), keep_trailing_newline=True,
                              trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)


def render(name: str, **ctx) -> str:
    return env().get_template(name).render(version=__version__, **ctx)


def render_port(backend: str, body: str, source: str, command: str | None) -> str:
    """Header + the backend's prologue + the translated body."""
    header = render("header.j2", source=source, command=command or f"kernelport translate {source} --to {backend}")
    prologue = render(f"{backend}_prologue.j2", body=body)
    return header + prologue + body
