"""Where nvcc's and clang's C++ front ends part: text the port must respell for hipcc."""
from __future__ import annotations

from tree_sitter import Node


def glued_literals(order: list[Node], src) -> list[Node]:
    """String literals followed at once by an identifier (`extern "C"__global__`): nvcc's
    preprocessor reads two tokens, clang one user-defined literal (`"C"__global__`), an error."""
    out = []
    for n in order:
        if n.type == "string_literal" and n.parent is not None and n.parent.type == "linkage_specification":
            nxt = src.data[n.end_byte:n.end_byte + 1]
            if nxt.isalpha() or nxt == b"_":
                out.append(n)
    return out


def braced_launch_configs(module) -> list[Node]:
    """Launch-configuration values written as a braced list (`<<<g, {32, 4, 1}, 0, s>>>`): nvcc
    list-initialises the dim3, clang wants an expression (`dim3{32, 4, 1}`, valid CUDA too)."""
    return [c for ln in module.launches for c in ln.config if module.source.text_of(c).startswith("{")]


def respell_for_clang(src, module, rw) -> None:
    """The edits that make text nvcc accepts acceptable to clang (hipcc), meaning unchanged."""
    for lit in glued_literals(src.index.order, src):
        rw.replace(lit, src.text_of(lit) + " ")
    for value in braced_launch_configs(module):
        rw.insert_before(value, "dim3")
