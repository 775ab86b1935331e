"""C operator precedence, for rewrites that change an operator (`x >> 5` -> `x / warpSize`): whether
an operand needs parentheses once its operator changes."""
from __future__ import annotations

from tree_sitter import Node

from .source import SourceFile

PREC = {"*": 13, "/": 13, "%": 13, "+": 12, "-": 12, "<<": 11, ">>": 11, "<": 10, "<=": 10, ">": 10, ">=": 10,
        "==": 9, "!=": 9, "&": 8, "^": 7, "|": 6, "&&": 5, "||": 4}
PRIMARY = {"identifier", "number_literal", "field_expression", "call_expression", "subscript_expression",
           "parenthesized_expression", "unary_expression", "cast_expression", "pointer_expression",
           "sizeof_expression", "update_expression"}


def binds_at_least(node: Node, src: SourceFile, prec: int) -> bool:
    if node.type in PRIMARY:
        return True
    if node.type == "binary_expression":
        return PREC.get(src.text_of(node.child_by_field_name("operator")), 0) >= prec
    return False
