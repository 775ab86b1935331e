"""`kernelport lint`: wave-size, synchronisation and platform hazards in CUDA, HIP and Metal code.

The package is small modules named by what they hold:

- `finding`   the Finding a rule reports (the JSON contract of DESIGN §6) and severities;
- `rule`      the Rule base class, the registry, code selection and severity policy by target;
- `context`   one file as the rules see it: source, kernel model, warp-size dataflow, positions
              (platform `#if` guards: the shared `kernelport.guards`);
- `divergence` which values and control flow depend on the thread (barriers, partial warps);
- `rules/`    the rules, one module per family (WS, SY, PT, KP);
- `suppress`  inline suppressions (`// kernelport: ignore[...] reason`, `NOLINT`);
- `config`    `[tool.kernelport]` in the nearest pyproject.toml;
- `discovery` which files to lint (.gitignore honoured) and what kind of input each is;
- `units`     what text of each file the rules analyse (Metal through a shim, CUDA in Python strings);
- `engine`    lint one file, lint many in parallel;
- `fix`       `--fix` / `--diff` through the translator's own site rewrites;
- `formats`   full, concise, json, sarif, github, statistics;
- `cli`       the `lint` and `rule` commands; `docs` renders docs/rules.md.
"""
from __future__ import annotations

from .finding import Finding

__all__ = ["Finding", "lint_paths", "lint_text"]


def __getattr__(name: str):
    """The engine (tree-sitter, every rule) loads on first use: `kernelport --version` and the
    CLI's command table import this package without linting anything."""
    if name in ("lint_paths", "lint_text"):
        from . import engine
        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
