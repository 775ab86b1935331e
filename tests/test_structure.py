"""The package's shape: backends as units, no import cycle, small modules, a type-checked core.

These read the installed package's source files (never the checkout), so they test what ships.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import kernelport
from kernelport import backends

ROOT = Path(kernelport.__file__).resolve().parent
MODULES = sorted(p for p in ROOT.rglob("*.py") if "_templates" not in p.parts)
MAX_LINES = 620  # "no module over ~600 lines": a little slack, never a whole second module


def _name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_backend_module(path: Path) -> bool:
    return (ROOT / "backends") in path.parents


def test_no_backend_name_is_compared_outside_backends():
    """Consumers ask the backend objects; only kernelport/backends/ may test a backend's name."""
    names = set(backends.names())
    hits = []
    for path in MODULES:
        if _is_backend_module(path):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            consts = []
            if isinstance(node, ast.Compare):
                for operand in [node.left, *node.comparators]:
                    if isinstance(operand, (ast.Tuple, ast.Set, ast.List)):
                        consts += operand.elts
                    else:
                        consts.append(operand)
            elif isinstance(node, ast.Dict) and node.keys and all(
                    isinstance(k, ast.Constant) and k.value in names for k in node.keys):
                consts += node.keys  # a table keyed by backend (lint targets like hip-cdna are not backends)
            for c in consts:
                if isinstance(c, ast.Constant) and c.value in names:
                    hits.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}: {c.value!r}")
    assert not hits, "backend names compared outside kernelport/backends/:\n" + "\n".join(hits)


def _module_level_imports(path: Path) -> set[str]:
    """Modules `path` imports when it is imported (not inside functions or TYPE_CHECKING)."""
    pkg = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    out: set[str] = set()

    def visit(body):
        for node in body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                for h in getattr(node, "handlers", []):
                    visit(h.body)
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names if a.name.startswith("kernelport"))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")
                    base = base[: len(base) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                if not mod.startswith("kernelport"):
                    continue
                out.add(mod)
                for a in node.names:  # `from . import x` imports the submodule x
                    out.add(f"{mod}.{a.name}")

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return out


def test_no_import_cycle():
    known = {_name(p) for p in MODULES}
    graph = {_name(p): {m for m in _module_level_imports(p) if m in known and m != _name(p)} for p in MODULES}
    # A module's package __init__ runs first; importing a parent package is not a cycle edge.
    for mod, deps in graph.items():
        deps -= {mod.rsplit(".", i)[0] for i in range(1, mod.count(".") + 1)}
    state: dict[str, int] = {}
    cycles = []

    def dfs(m, stack):
        state[m] = 1
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                cycles.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                dfs(d, stack + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            dfs(m, [m])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


IMPORT_BATCHES = 4  # a subprocess each, so xdist spreads them and none runs alone at the tail


@pytest.mark.parametrize("batch", range(IMPORT_BATCHES))
def test_every_module_imports_alone(batch):
    """Each module imports with no other kernelport module loaded (its source compiled once).

    Where no bytecode is written nor found (PYTHONDONTWRITEBYTECODE, an editable install), every
    fresh import compiled each module's source again: ~3/4 of this test's CPU.  The subprocess then
    keeps bytecode under a private pycache_prefix; every module's code still runs anew.  Where the
    package has its .pyc (pip install compiles them, as in CI), they are read as before."""
    mods = [_name(p) for p in MODULES if not p.name == "__main__.py"][batch::IMPORT_BATCHES]
    code = (
        "import importlib, importlib.util, os, sys, tempfile\n"
        "origin = importlib.util.find_spec('kernelport').origin\n"
        "tmp = None\n"
        "if sys.dont_write_bytecode and not os.path.exists(importlib.util.cache_from_source(origin)):\n"
        "    sys.dont_write_bytecode = False\n"
        "    sys.pycache_prefix = tmp = tempfile.mkdtemp(prefix='kp-alone-')\n"
        "bad = []\n"
        f"for m in {mods!r}:\n"
        "    for k in [k for k in sys.modules if k == 'kernelport' or k.startswith('kernelport.')]:\n"
        "        del sys.modules[k]\n"
        "    try:\n"
        "        importlib.import_module(m)\n"
        "    except Exception as e:\n"
        "        bad.append(f'{m}: {type(e).__name__}: {e}')\n"
        "if tmp:\n"
        "    import shutil; shutil.rmtree(tmp, ignore_errors=True)\n"
        "print('\\n'.join(bad))\n"
        "sys.exit(1 if bad else 0)\n")
    r = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_modules_are_small():
    big = [f"{p.relative_to(ROOT.parent)}: {n} lines" for p in MODULES
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert not big, f"modules over {MAX_LINES} lines:\n" + "\n".join(big)


# The core that mypy checks in CI: the concept table, the backend units, the comparison, the
# diagnostics and the output policy.
TYPED_CORE = tuple(a for m in ("backends", "backends.base", "backends.cuda", "backends.hip", "backends.metal",
                                  "dialect", "compare", "errors", "diagnostics", "output")
                   for a in ("-m", f"kernelport.{m}"))


def test_core_typechecks():
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install '.[test]'")
    r = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports",
                        "--no-error-summary", "--cache-dir", "/tmp/kp-mypy-cache", *TYPED_CORE],
                       capture_output=True, text=True, timeout=600, cwd="/",
                       # an editable install is an import hook mypy cannot follow: name the tree itself
                       env={**os.environ, "MYPYPATH": str(ROOT.parent)} if ROOT.parent.name != "site-packages"
                       else None)
    assert r.returncode == 0, r.stdout + r.stderr


def test_each_backend_is_one_unit():
    """Every registered backend names its runs, spellings and lowering; ports have a translator."""
    for b in backends.all():
        assert b.runs and all(r.backend == b.name for r in b.runs), b
        assert b.spellings and b.lowering is not None, b
        if b.extension is not None:
            assert b.translator() is not None and all(r.target in backends.lint_targets() for r in b.runs)
    assert backends.source().name in backends.names()
