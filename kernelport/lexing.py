"""Where nvcc's and clang's C++ lexers part: text the port must space out for hipcc."""
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
