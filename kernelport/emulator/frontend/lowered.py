"""What the front end produces (`Lowered`), its error, and the names it gives lowered constructs."""
from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

SHARED_STORAGE = "_Thread_local"  # the storage class that marks a block-shared declaration
AUTO_TYPE = "__kp_auto"  # a type deduced at run time (C++ `auto`, undeduced template params)
NS_SEP = "__NS__"  # `a::b` becomes the identifier `a__NS__b`
AS_TYPE_FN = "__kp_as_type"  # Metal's as_type<T>(x) becomes __kp_as_type((T)0, x)
VECTOR_CTOR = "__kp_ctor_"  # Metal's / C++'s `float4(a, b, c, d)` and `float4(v)` become __kp_ctor_float4(...)
OVERLOAD_SEP = "__kpov"  # the k-th of several definitions of `f` becomes `f__kpov<k>`


class LowerError(ValueError):
    """The kernel text cannot be lowered; carries the original file position."""

    def __init__(self, message: str, path: str = "<kernel>", line: int = 0, column: int = 0):
        super().__init__(f"{path}:{line}:{column}: {message}")
        self.message, self.path, self.line, self.column = message, path, line, column


@dataclass
class Lowered:
    """A port lowered to pycparser's C: its text, tree and functions."""
    text: str
    ast: c_ast.FileAST
    path: str
    backend: str
    functions: dict[str, c_ast.FuncDef]
    kernels: list[str]  # functions marked with the backend's kernel qualifier
    device_functions: list[str]
    templates: dict[str, list[tuple[str, str, str | None]]]  # name -> [(kind, param, default)]
    param_attrs: dict[str, dict[str, tuple[str, str | None]]]  # Metal: func -> param -> (attr, arg)
    dropped: list[tuple[int, str]]  # (original line, why) of items left out
    typedef_overrides: dict[str, str]  # typedef name -> emulator type key (half, auto, ...)
    # Metal/C++ overloads: name -> the renamed definitions (name__kpov0, ...), chosen per call by
    # the argument types (definitions that differ only in address spaces are merged into one)
    overloads: dict[str, list[str]] = field(default_factory=dict)
    # C++ reference parameters of helpers: name -> parameter indices, passed by value and copied
    # back to the caller's argument when the call returns (frontend/references.py)
    refs: dict[str, set[int]] = field(default_factory=dict)
    # C++ default arguments: name -> {parameter index: value text} (frontend/defaults.py)
    defaults: dict[str, dict[int, str]] = field(default_factory=dict)
    # the backend whose port the text is, where it is read as another dialect (lower's port_of)
    port_of: str | None = None

    def is_shared(self, decl: c_ast.Decl) -> bool:
        return SHARED_STORAGE in (decl.storage or [])

    def line_of(self, node) -> int:
        return node.coord.line if node is not None and node.coord is not None else 0

    def shared_decls(self, func: str) -> list[c_ast.Decl]:
        out = []

        class V(c_ast.NodeVisitor):
            def visit_Decl(self, n):
                if SHARED_STORAGE in (n.storage or []):
                    out.append(n)
                self.generic_visit(n)

        V().visit(self.functions[func])
        return out
