"""Out-of-class defaulted or deleted members (`Manager::~Manager() = default;`, `Manager::Manager() = delete;`).

The grammar reads such a definition at file scope as an assignment statement (`Manager::~Manager()` a
call, `default` an identifier), so no pass sees a function: a Metal port kept it after leaving its
class out (heldout83's rcs-sim GeometryManager.cu: KP224, `use of undeclared identifier`).  It is the
class's member: it goes where the class goes (host code: out of the Metal port) and stays where device
code uses the class."""
from __future__ import annotations

from tree_sitter import Node

_CLAUSES = ("default", "delete")


def defaulted_member(src, item: Node) -> tuple[str, str] | None:
    """(the class, the member as written: `Manager::~Manager()`) of a file-scope item that is an
    out-of-class `= default` / `= delete` member the grammar read as an assignment, else None."""
    if item.type != "expression_statement" or item.named_child_count != 1:
        return None
    a = item.named_children[0]
    left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
    if a.type != "assignment_expression" or left is None or right is None or left.type != "call_expression" or \
            right.type != "identifier" or src.text_of(right) not in _CLAUSES:
        return None
    fn = left.child_by_field_name("function")
    owner = None
    while fn is not None and fn.type == "qualified_identifier":  # ns::Manager::~Manager: the last scope is the class
        scope = fn.child_by_field_name("scope")
        owner = src.text_of(scope) if scope is not None else owner
        fn = fn.child_by_field_name("name")
    if owner is None or fn is None or fn.type not in ("identifier", "destructor_name"):
        return None
    return owner, src.text_of(left)
