"""Every kernelport dataclass has its own docstring: `dataclasses` makes a missing one from
`inspect.signature` as the class is created (CPython's _process_class), which cost a one-file lint
~2.7% of its instructions at stop 55 (41 classes); a one-line docstring costs nothing."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "kernelport"


def _decorator(d: ast.expr) -> str | None:
    d = d.func if isinstance(d, ast.Call) else d
    return d.id if isinstance(d, ast.Name) else d.attr if isinstance(d, ast.Attribute) else None


def undocumented(text: str, name: str = "<text>") -> list[str]:
    """The dataclasses (decorated `@dataclass` or `@dataclass(...)`, plain or `dataclasses.`) of a module
    that have no docstring of their own."""
    return [f"{name}:{n.lineno}: {n.name}" for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ClassDef) and
            ast.get_docstring(n) is None and any(_decorator(d) == "dataclass" for d in n.decorator_list)]


def test_the_check_sees_each_form_of_the_decorator_and_nothing_else():
    text = '''
import dataclasses
from dataclasses import dataclass
@dataclass
class A:
    x: int
@dataclass(frozen=True)
class B:
    x: int
@dataclasses.dataclass
class C:
    x: int
@dataclass
class D:
    """Documented."""
    x: int
class E:
    x: int
@staticmethod
class F:
    pass
'''
    assert [s.split(": ")[1] for s in undocumented(text)] == ["A", "B", "C"]


def test_every_kernelport_dataclass_has_a_docstring():
    missing = [s for p in sorted(ROOT.rglob("*.py")) for s in undocumented(p.read_text(encoding="utf-8"),
                                                                              str(p.relative_to(ROOT.parent)))]
    assert missing == []
