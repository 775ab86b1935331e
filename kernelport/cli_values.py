"""Command-line values converted without pydantic: the start-up of every command.

typer converts each option through a pydantic TypeAdapter, built when the option is read: importing
pydantic and building the adapters took ~0.15 s of a one-file `kernelport lint` (measured with cProfile),
three times the lint itself.  kernelport's options are plain str, int, float, bool and Path values (or
lists of them); a well-formed value of those is converted here.  Anything else (a malformed number, a
type this module does not know) goes to typer's own adapter, so its error message stays typer's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, get_args, get_origin
from . import lazy_re

try:  # typer 0.29's private conversion layer; an older typer converts through click, without pydantic
    from typer._coercion import RuntimeParam, build_runtime_param
except ImportError:  # then there is nothing to replace: install() leaves typer as it is
    RuntimeParam = None  # type: ignore[assignment,misc]

_INT = lazy_re.compile(r"[+-]?[0-9]+")
_FLOAT = lazy_re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class _Slow(Exception):
    """The value is not a plain spelling: typer's adapter converts it (or words the error)."""


def _number(kind: type, pattern: re.Pattern) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        if type(value) is kind:
            return value
        if isinstance(value, str) and pattern.fullmatch(value):
            return kind(value)
        raise _Slow

    return convert


def _exact(kind: type) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        if type(value) is kind:
            return value
        raise _Slow

    return convert


def _path(value: Any) -> Path:
    if isinstance(value, Path):
        return value
    if isinstance(value, str) and value:
        return Path(value)
    raise _Slow


def _text(value: Any) -> str:
    if type(value) is str:
        return value
    raise _Slow


_LEAVES: dict[Any, Callable[[Any], Any]] = {
    str: _text, Path: _path, bool: _exact(bool),
    int: _number(int, _INT), float: _number(float, _FLOAT),
}


def converter(annotation: Any) -> Callable[[Any], Any] | None:
    """How to convert a value of `annotation` (typer has already unwrapped Optional), or None."""
    if get_origin(annotation) is list:
        (item,) = get_args(annotation) or (None,)
        leaf = _LEAVES.get(item)
        if leaf is None:
            return None

        def many(value: Any) -> list:
            if not isinstance(value, (list, tuple)):
                raise _Slow
            return [leaf(v) for v in value]

        return many
    return _LEAVES.get(annotation)


if RuntimeParam is not None:
    @dataclass(frozen=True)
    class PlainParam(RuntimeParam):
        """typer's runtime conversion of one parameter, done by `convert` when the value is plain."""

        convert: Callable[[Any], Any] = _text

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                return self.convert(value)
            except _Slow:
                return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)


def install(params: list) -> None:
    """Give each typer parameter of a plain type the pydantic-free conversion (typer 0.29 and later)."""
    if RuntimeParam is None:
        return
    for p in params:
        desc = getattr(p, "type_descriptor", None)
        if desc is None or desc.file_annotation is not None or getattr(p, "_runtime_param", 0) is not None:
            continue
        convert = converter(desc.annotation)
        if convert is not None:
            p._runtime_param = PlainParam(desc.parameter_info, desc.annotation, convert)
